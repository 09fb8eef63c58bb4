"""A game is one module (issue 43): what a game is lives in its ruleset module (``rules/<id>.py``), its
own stylesheet (``static/css/<id>.css``, when it has one) and the rules pages that explain every game
(``templates/web/rules/``); the engine's package imports each ruleset module once, to register it.
Everything else works from what the registry declares, so no other product file names a game: not
its id, not its name, not in a comment (a comment that names a game is where the next game's facts
would be written)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from scorekeeper.rules import RULESETS

ROOT = Path(__file__).resolve().parents[2]
SEARCHED = ("scorekeeper", "templates", "static")
SUFFIXES = {".py", ".html", ".js", ".css", ".webmanifest", ".json"}
EXPLAINS_EVERY_GAME = ROOT / "templates" / "web" / "rules"
REGISTERS = ROOT / "scorekeeper" / "rules" / "__init__.py"


def plain(text: str) -> str:
    """Lower case, accents off ("Misère" and "misere" are one word)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


def own_places(game_id: str) -> set[Path]:
    return {ROOT / "scorekeeper" / "rules" / f"{game_id}.py", ROOT / "static" / "css" / f"{game_id}.css"}


def naming(game_id: str, words: set[str]) -> dict[str, list[int]]:
    """The product files, outside the game's own places, whose lines name it: path -> line numbers."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(words))) + r")\b")
    found: dict[str, list[int]] = {}
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in SUFFIXES or "translations" in path.parts or "vendor" in path.parts:
                continue
            if path in own_places(game_id) or path.is_relative_to(EXPLAINS_EVERY_GAME):
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            hits = [
                number
                for number, line in enumerate(lines, 1)
                if pattern.search(plain(line))
                and not (path == REGISTERS and line == f"from . import {game_id}  # noqa: F401")
            ]
            if hits:
                found[path.relative_to(ROOT).as_posix()] = hits
    return found


def test_no_product_file_names_a_game_outside_its_own_module() -> None:
    assert len(RULESETS) >= 4
    named = {
        ruleset.id: naming(ruleset.id, {plain(ruleset.id), plain(ruleset.name)})
        for ruleset in RULESETS.values()
    }
    assert named == {ruleset_id: {} for ruleset_id in RULESETS}


def test_the_search_finds_a_game_named_in_a_comment() -> None:
    """The check can fail: a stray mention in a shared module is found, accents or not."""
    for words in ({"misere"}, {plain("Misère")}):
        pattern = re.compile(r"\b(" + "|".join(words) + r")\b")
        assert pattern.search(plain("# the bids of a Misère deal"))
    assert not re.search(r"\b(kierki)\b", plain("# the hearts games' facts"))
