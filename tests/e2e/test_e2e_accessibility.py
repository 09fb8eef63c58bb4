"""axe-core finds nothing on any page or state, in the light theme and in the dark one.

axe runs its default rule set (WCAG 2.x A and AA, including colour contrast, plus its best-practice
rules) on each page as a phone holding the pencil sees it. The results are kept under
test-output/axe/ for the record.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from e2e_support import OUTPUT, PHONE, STATES, Games, LiveServer, scorer_context

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def describe(violations: list[dict]) -> list[str]:
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {', '.join(str(n['target']) for n in v['nodes'][:3])}"
        for v in violations
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations(
    scheme: str, browser: Browser, live_server: LiveServer, games: Games
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()  # the axe.min.js shipped inside the package: nothing is fetched
    context = scorer_context(browser, PHONE, live_server, games, color_scheme=scheme)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    summary: dict[str, dict[str, int]] = {}
    folder = OUTPUT / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob(f"{scheme}-*.json"):
        stale.unlink()  # violations of an earlier run
    for name, show in STATES.items():
        show(page, live_server, games)
        assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        results = axe.run(page, options={"resultTypes": ["violations"]}).response
        summary[name] = {
            "violations": len(results["violations"]),
            "passes": len(results["passes"]),
            "incomplete": len(results["incomplete"]),
        }
        if results["violations"]:
            found[name] = describe(results["violations"])
            (folder / f"{scheme}-{name}.json").write_text(json.dumps(results["violations"], indent=1))
    context.close()
    engine = results["testEngine"]
    (folder / f"summary-{scheme}.json").write_text(json.dumps({"engine": engine, "pages": summary}, indent=1))
    assert found == {}, "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
