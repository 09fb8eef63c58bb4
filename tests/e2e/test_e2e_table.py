"""What a scorer still stumbled on at the table (issue 42), checked as drawn on a phone: the scoreboard's
labels told apart and whole, the 0-13 row moving on to the next player, a correction page's refusal in
view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from e2e_support import PHONE, LiveServer, api_game, new_context

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

# Four names of 40 characters that share their first 30, and four ordinary Italian ones.
SHARED = "Anna Maria Francesca Bianchi-R"
LONG_NAMES = [SHARED + end for end in ("ossi Elena", "ossi Marta", "ossi Carla", "ossi Paola")]
ITALIAN = ["Massimiliano", "Maria Antonietta", "Bartolomeo", "Gianfranco"]
assert {len(name) for name in LONG_NAMES} == {40}

# Each scoreboard label as drawn: the characters painted inside the boxes that clip them (a "…" where a
# box cuts its text), the mark first.
DRAWN_JS = """() => [...document.querySelectorAll('section.scoreboard li.total .label')].map((label) => {
  const inside = (r, box) => r.width > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5
    && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  const outer = label.getBoundingClientRect();
  const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const clip = node.parentElement, box = clip.getBoundingClientRect();
    for (let i = 0; i < node.length; i += 1) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      if (inside(r, box) && inside(r, outer)) text += node.data[i];
    }
    if (clip.scrollWidth > clip.clientWidth) text += '…';
  }
  return text.replace(/\\s+/g, ' ').trim();
})"""


def misere(server: LiveServer, names: list[str]) -> dict[str, Any]:
    created: dict[str, Any] = server.api(
        "POST", "/api/v1/games", {"ruleset": "misere", "players": names, "first_dealer": names[0]}
    )
    return created


def pencil(server: LiveServer, context: BrowserContext, game: dict[str, Any]) -> None:
    """This phone holds the game's pencil (the edit cookie the page sets on the phone that made it)."""
    url = f"{server.origin}/games/{game['id']}"
    context.add_cookies([{"name": f"sk_edit_{game['id']}", "value": game["edit_key"], "url": url}])


def test_scoreboard_labels_carry_the_mark_and_tell_the_names_apart(
    browser: Browser, live_server: LiveServer
) -> None:
    """At 320 px four 40-character names sharing their first 30 are drawn all different, each after
    its mark; at 360 px ordinary Italian names are drawn whole."""
    long_game, italian_game = misere(live_server, LONG_NAMES), misere(live_server, ITALIAN)
    context = new_context(browser, {**PHONE, "viewport": {"width": 320, "height": 640}})
    page = context.new_page()
    page.goto(f"{live_server.origin}/games/{long_game['id']}")
    drawn = page.evaluate(DRAWN_JS)
    assert len(set(drawn)) == 4, drawn
    assert [label[:1] for label in drawn] == ["1", "2", "3", "4"], drawn
    # The end that tells each apart is drawn whole, after the start cut short.
    assert [label.split("…")[-1] for label in drawn] == ["Elena", "Marta", "Carla", "Paola"], drawn
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.origin}/games/{italian_game['id']}")
    drawn = [label.replace(" ", "") for label in page.evaluate(DRAWN_JS)]
    assert drawn == [f"{seat}{name}".replace(" ", "") for seat, name in enumerate(ITALIAN, 1)]
    # What a screen reader reads: the whole name (the mark is drawn for the eye only).
    assert page.locator("section.scoreboard .who").all_text_contents() == ITALIAN
    context.close()


def now_for(page: Any) -> list[str]:
    """The boxes whose 0-13 row is open (one at a time)."""
    return page.eval_on_selector_all(".count-chips.now", "(rows) => rows.map((r) => r.dataset.for)")


def test_the_number_row_moves_on_after_made_and_on_a_correction_page(
    browser: Browser, live_server: LiveServer
) -> None:
    """The Misère tricks step: "made the bid" moves the 0-13 row on to the next player without tricks;
    a correction page: each tap moves it on to the next player's line, from the bids into the tricks."""
    game = misere(live_server, ITALIAN)
    key, path = game["edit_key"], f"/api/v1/games/{game['id']}/deals"
    live_server.api("POST", path, {"number": 1, "bids": dict(zip(ITALIAN, (3, 4, 2, 3), strict=True))}, key)
    context = new_context(browser, {**PHONE, "viewport": {"width": 360, "height": 740}})
    pencil(live_server, context, game)
    page = context.new_page()
    page.goto(f"{live_server.origin}/games/{game['id']}")
    # Every tap target at least 44x44 at 360 px (they were 43 px wide).
    sizes = page.eval_on_selector_all(
        ".count-chips.now button", "(bs) => bs.map((b) => [b.offsetWidth, b.offsetHeight])"
    )
    assert len(sizes) == 14 and min(min(size) for size in sizes) >= 44, sizes
    first = page.locator("#turn .number-row").first
    seats = page.eval_on_selector_all("#turn .number-row", "(rows) => rows.map((r) => r.dataset.seat)")
    first.locator("button.made-bid").tap()
    assert now_for(page) == [f"tricks-{seats[1]}"]
    page.locator("#turn .number-row").nth(1).locator("button.made-bid").tap()
    assert now_for(page) == [f"tricks-{seats[2]}"]

    tricks = dict(zip(ITALIAN, (3, 4, 2, 4), strict=True))
    live_server.api("PUT", f"{path}/1", {"tricks": tricks}, key)
    page.goto(f"{live_server.origin}/games/{game['id']}/deals/1/edit")
    order = page.eval_on_selector_all(
        "fieldset.numbers input[type=number]", "(boxes) => boxes.map((b) => b.id)"
    )
    assert len(order) == 8 and now_for(page) == [order[0]]
    for at in range(4):
        page.locator(f'.count-chips[data-for="{order[at]}"] button[value="3"]').tap()
        assert now_for(page) == [order[at + 1]], at
    context.close()


IN_VIEW_JS = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight;
}"""


def test_the_misere_correction_page_keeps_the_hook_rule_and_shows_a_refusal_in_view(
    browser: Browser, live_server: LiveServer
) -> None:
    """As on the game page: the dealer's forbidden bid is disabled and named, the deal's scores are
    shown, and a refused Save opens with the dealer's line, its taps and the message in view."""
    from playwright.sync_api import expect

    game = misere(live_server, ITALIAN)
    key, path = game["edit_key"], f"/api/v1/games/{game['id']}/deals"
    live_server.api("POST", path, {"number": 1, "bids": dict(zip(ITALIAN, (3, 4, 2, 3), strict=True))}, key)
    live_server.api("PUT", f"{path}/1", {"tricks": dict(zip(ITALIAN, (3, 4, 2, 4), strict=True))}, key)
    context = new_context(browser, {**PHONE, "viewport": {"width": 320, "height": 640}})
    pencil(live_server, context, game)
    page = context.new_page()
    page.goto(f"{live_server.origin}/games/{game['id']}/deals/1/edit")
    # Massimiliano deals and bids last: 4 would make the bids add up to 13.
    chips = page.locator('.count-chips[data-for="bids-0"]')
    assert chips.locator('button[value="4"]').is_disabled()
    assert chips.locator('button[value="3"]').is_enabled()
    note = page.locator("[data-forbidden-note]")
    assert note.inner_text() == "Massimiliano may not bid 4: the bids would add up to 13."
    expect(page.locator('output[data-preview-seat="0"]')).not_to_have_text("")
    assert page.locator("output[data-preview-seat]").all_inner_texts() == [
        "+40 \u2192 +40",
        "+20 \u2192 +20",
        "\u221210 \u2192 \u221210",
        "+30 \u2192 +30",
    ]
    page.fill("#bids-0", "4")
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Save the correction").click()
    error = page.get_by_role("alert")
    assert error.inner_text() == (
        "Massimiliano deals and bids last: Massimiliano may not bid 4, because the bids would add up to 13."
    )
    for part in (".number-row.is-wrong", '.count-chips.now[data-for="bids-0"]', ".field-error[role=alert]"):
        assert page.evaluate(IN_VIEW_JS, part), part
    context.close()


BELOW_BOARD_JS = """(selector) => {
  const board = document.querySelector('section.scoreboard').getBoundingClientRect();
  const r = document.querySelector(selector).getBoundingClientRect();
  return r.top >= board.bottom && r.bottom <= innerHeight;
}"""


def test_a_refused_dealer_bid_opens_with_its_line_and_taps_in_view(
    browser: Browser, live_server: LiveServer
) -> None:
    """The dealer's forbidden bid saved by typing: the page opens with the dealer's line, the taps that
    fix it and the message between the sticky scoreboard and the screen's bottom."""
    game = misere(live_server, LONG_NAMES)
    context = new_context(browser, {**PHONE, "viewport": {"width": 320, "height": 640}})
    pencil(live_server, context, game)
    page = context.new_page()
    page.goto(f"{live_server.origin}/games/{game['id']}")
    for seat, bid in ((1, "3"), (2, "4"), (3, "2"), (0, "4")):
        page.fill(f"#bids-{seat}", bid)
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Save the bids").click()
    assert page.get_by_role("alert").count() == 1
    for part in (".number-row.is-wrong", '.count-chips.now[data-for="bids-0"]', ".field-error[role=alert]"):
        assert page.evaluate(BELOW_BOARD_JS, part), part
    context.close()


def test_the_late_undo_is_within_one_screen_of_the_entry_card(
    browser: Browser, live_server: LiveServer
) -> None:
    """Long after the quick undo is gone, "Undo deal 4" starts within one screen below the entry card
    (not under the whole log), and its confirmation undoes the deal."""
    game = api_game(live_server, deals=4)
    context = new_context(browser, {**PHONE, "viewport": {"width": 360, "height": 740}})
    context.add_cookies([game.cookie(live_server)])  # type: ignore[list-item]
    page = context.new_page()
    page.goto(live_server.origin + game.path())
    gap = page.evaluate(
        """() => document.querySelector('details.undo summary').getBoundingClientRect().bottom
          - document.getElementById('turn').getBoundingClientRect().bottom"""
    )
    assert 0 < gap <= 740, gap
    page.locator(".late-undo summary", has_text="Undo deal 4").tap()
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Yes, undo deal 4").tap()
    assert page.locator("section.scoreboard .deal-no").inner_text().startswith("Deal 4 of 18")
    context.close()
