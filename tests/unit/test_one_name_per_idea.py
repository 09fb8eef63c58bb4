"""One name per idea: the words the glossary says not to use appear nowhere in the product's text.

docs/glossary.md ("The app's own words: one name per idea") gives, per idea, its word and the
words not to use for it (its last column, each term in backticks).  This test reads that column and
looks for each term in the code (``scorekeeper/``, but for the translations), the templates, our
scripts (``static/js/``, but for vendored files) and ARCHITECTURE.md and README.md: as a whole word
of prose or a whole part of an identifier, case-insensitively (the glossary says how).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
SECTION = "### The app's own words: one name per idea"

#: Where the words are looked for: folders (every text file in them) and single files.
FOLDERS = ("scorekeeper", "templates", "static/js")
FILES = ("ARCHITECTURE.md", "README.md")
#: Not ours to word: the catalogs' translations (their msgids come from the files above) and
#: vendored libraries' files.
SKIPPED_SUFFIXES = (".po", ".pot", ".mo")

#: The names that must stay as they are, each with its reason: (file, the line as it stands,
#: stripped, the term it holds).  A short list: a new entry needs a name that cannot change.
EXCEPTIONS = {
    # The keyring's table: the schema's name (migrations/ created it; renaming it is a migration
    # for no gain), mapped by ``models.Pencil``.
    ("scorekeeper/models.py", '__tablename__ = "grants"', "grants"),
    # The OpenAPI document's operationId of GET /games/{game_id}: published with the API, and the
    # name a client generated from it gives its method.
    ("scorekeeper/api/operations.py", '"getGame",', "get_game"),
}

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[_.\-][A-Za-z0-9]+)*")
_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def parts(token: str) -> list[str]:
    """A word or an identifier as its lower-case parts: split at ``_``, ``-``, ``.`` and where a
    lower-case letter meets a capital (``MOST_KEPT``: most, kept; ``keptValue``: kept, value)."""
    return [part.lower() for piece in re.split(r"[_.\-]", token) for part in _PART.findall(piece)]


def found(term: str, line: str) -> bool:
    """Whether ``term`` (parts joined by ``_``) is a run of parts of one word or identifier in ``line``."""
    wanted = term.lower().split("_")
    for token in _TOKEN.findall(line):
        have = parts(token)
        if any(have[at : at + len(wanted)] == wanted for at in range(len(have) - len(wanted) + 1)):
            return True
    return False


def avoided_words() -> dict[str, list[str]]:
    """The glossary's terms not to use, each with the words to use instead (one per idea it was used for)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    assert SECTION in text, f"docs/glossary.md has no section {SECTION!r}"
    section = text.split(SECTION, 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| idea")]
    words: dict[str, list[str]] = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if set(cells[0]) <= {"-"}:
            continue  # the header's rule
        instead = re.search(r"\*\*(.+?)\*\*", cells[1])
        assert instead, f"a row of the glossary names no word in bold: {row}"
        for term in re.findall(r"`([^`]+)`", cells[-1]):
            words.setdefault(term, []).append(instead.group(1))
    return words


def product_files() -> list[Path]:
    found_files = [ROOT / name for name in FILES]
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT)
            if not path.is_file() or path.suffix in SKIPPED_SUFFIXES or "__pycache__" in relative.parts:
                continue
            if "vendor" in relative.parts or ".min." in path.name:
                continue  # a library's own file
            found_files.append(path)
    return found_files


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None  # an image, a video


def test_the_glossary_lists_the_words_not_to_use() -> None:
    words = avoided_words()
    # The cases the glossary was written for: each is listed, with the idea's word beside it.
    assert words["kept"] == ["stored", "cached", "queued", "saved offline"]
    for term in ("grant", "grants", "editable", "can_edit", "holds_key", "require_editor"):
        assert words[term] == ["pencil"]
    assert words["get_game"] == words["load_game"] == ["snapshot"]


@pytest.mark.parametrize(
    ("term", "line"),
    [
        ("kept", "# The deals kept on this phone."),
        ("kept", "def kept_value(value):"),
        ("kept", "MOST_KEPT = 20_000"),
        ("kept", "const keptValue = 1;"),
        ("kept", "Kept for the names last seen"),
        ("editable", '<body data-editable="1">'),
        ("editable", "b.dataset.editable === '1'"),
        ("can_edit", "if can_edit(request, game):"),
        ("can_edit", "canEdit(game)"),
        ("holds_keys", "def _holds_keys() -> bool:"),
        ("grants", 'g.setdefault("grants", {})'),
        ("load_game", "game = loading.load_game(game_id)"),
    ],
)
def test_a_term_is_found_as_a_word_or_a_part_of_an_identifier(term: str, line: str) -> None:
    assert found(term, line)


@pytest.mark.parametrize(
    ("term", "line"),
    [
        ("kept", "the server keeps the games; keep.id"),
        ("kept", "an unkempt line"),
        ("grant", "the grantee"),
        ("editable", "function editor(m, number)"),
        ("can_edit", "a phone that can edit the game"),
        ("holds_key", "keyring.holds(device_hash, game_id)"),
        ("get_game", "get_games_of(player)"),
    ],
)
def test_other_words_are_not_taken_for_a_term(term: str, line: str) -> None:
    assert not found(term, line)


def test_no_word_the_glossary_avoids_is_used() -> None:
    words = avoided_words()
    used = []
    for path in product_files():
        text = text_of(path)
        if text is None:
            continue
        relative = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(text.splitlines(), 1):
            for term, instead in words.items():
                if found(term, line) and (relative, line.strip(), term) not in EXCEPTIONS:
                    said = " or ".join(instead)
                    used.append(f"{relative}:{number}: {term!r} (the glossary's: {said}): {line.strip()}")
    assert not used, "Words docs/glossary.md says not to use:\n" + "\n".join(used)


def test_each_exception_is_still_needed() -> None:
    words = avoided_words()
    for relative, line, term in EXCEPTIONS:
        assert term in words, f"{term!r} is no longer a word to avoid: drop its exception"
        lines = [each.strip() for each in (ROOT / relative).read_text(encoding="utf-8").splitlines()]
        assert line in lines and found(term, line), f"{relative} no longer has {line!r}: drop its exception"
