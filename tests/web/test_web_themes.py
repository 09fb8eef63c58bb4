"""The dark theme changes colours only, never a size, a font or a place.

So a layout checked in one theme holds in the other, and the browser tests that measure layouts
(names that fit, nothing wider than the screen, a step on one screen) check each phone and
language once, in the two themes in turn (``e2e_support.in_both_themes``); the tests that look at
colours (contrast, axe) still look at both.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}|(?:rgb|rgba|hsl|hsla)\([^)]*\)")
DARK = re.compile(r"@media\s*\(\s*prefers-color-scheme\s*:\s*dark\s*\)\s*\{")


def blocks(css: str, opening: re.Pattern[str]) -> list[str]:
    """The text inside each block that ``opening`` starts (its braces balanced)."""
    found = []
    for match in opening.finditer(css):
        depth, start = 1, match.end()
        for index in range(start, len(css)):
            depth += {"{": 1, "}": -1}.get(css[index], 0)
            if depth == 0:
                found.append(css[start:index])
                break
    return found


def custom_properties(rule_body: str) -> dict[str, str]:
    return dict(
        (name.strip(), value.strip())
        for name, value in (item.split(":", 1) for item in rule_body.split(";") if item.strip())
    )


def test_the_dark_theme_sets_colour_properties_only() -> None:
    sheets = {path.name: path.read_text() for path in sorted((ROOT / "static" / "css").glob("*.css"))}
    light: dict[str, str] = {}
    for css in sheets.values():
        for body in re.findall(r"(?<![\w-]):root\{([^}]*)\}", DARK.sub("", css)):
            light.update(custom_properties(body))
    dark_blocks = [block for css in sheets.values() for block in blocks(css, DARK)]
    assert len(dark_blocks) >= 2, "the dark theme's blocks were not found"  # the page's and the seats'
    for block in dark_blocks:
        rules = re.findall(r"([^{}]+)\{([^{}]*)\}", block)
        assert "".join(f"{s}{{{b}}}" for s, b in rules) == block.strip(), block
        for selector, body in rules:
            assert selector.strip() == ":root", f"the dark theme styles {selector!r} itself"
            for name, value in custom_properties(body).items():
                assert name.startswith("--"), f"the dark theme sets {name} itself"
                assert COLOUR.fullmatch(value), f"{name}: {value} is not a colour"
                assert COLOUR.fullmatch(light.get(name, "")), f"{name} has no light colour to replace"
    # Nothing else asks for the theme: no other media query, no script, no template but the
    # browser bar's colour.
    for name, css in sheets.items():
        assert css.count("prefers-color-scheme") == len(blocks(css, DARK)), name
    for path in (ROOT / "static" / "js").rglob("*.js"):
        assert "prefers-color-scheme" not in path.read_text(), path
    for path in (ROOT / "templates").rglob("*.html"):
        for line in path.read_text().splitlines():
            if "prefers-color-scheme" in line:
                assert '<meta name="theme-color"' in line, (path, line)
