"""The size budget of issue 43: no module above the engine (``scorekeeper/rules/`` is the engine) over
420 lines.  The lines are counted as the file stands, which is as ``ruff format`` leaves it (``make
lint`` runs ``ruff format --check`` on every file), so a module cannot meet the budget by packing."""

from __future__ import annotations

from pathlib import Path

PRODUCT = Path(__file__).resolve().parents[2] / "scorekeeper"
ENGINE = PRODUCT / "rules"
MOST_LINES = 420


def oversized(root: Path, engine: Path, most: int) -> dict[str, int]:
    """The modules under ``root``, outside ``engine``, with more than ``most`` lines, by path."""
    sizes = {
        path.relative_to(root).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(root.rglob("*.py"))
        if not path.is_relative_to(engine)
    }
    return {path: lines for path, lines in sizes.items() if lines > most}


def test_no_module_above_the_engine_is_over_420_lines() -> None:
    assert oversized(PRODUCT, ENGINE, MOST_LINES) == {}


def test_the_count_finds_a_long_module_and_leaves_the_engine_out(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "web").mkdir()
    (tmp_path / "rules" / "game.py").write_text("x = 1\n" * 500)
    (tmp_path / "web" / "long.py").write_text("x = 1\n" * 421)
    (tmp_path / "web" / "short.py").write_text("x = 1\n" * 420)
    assert oversized(tmp_path, tmp_path / "rules", MOST_LINES) == {"web/long.py": 421}
