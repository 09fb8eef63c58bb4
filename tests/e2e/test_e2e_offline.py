"""No deal lost when the network drops: the game page opens offline, keeps what is entered, sends it once.

The service worker needs a secure context; 127.0.0.1 is one.  Every wait is for a condition
(the worker in control, the page kept, a row drawn, the server holding the deals), never a sleep.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from e2e_support import PHONE, LiveServer, api_game, new_context, screenshot
from helpers import MIZERKA_DEALS, MIZERKA_FIRST_DEALER, MIZERKA_NAMES

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page


def scorer(browser: Browser, server: LiveServer, game: Any) -> tuple[BrowserContext, Page]:
    context = new_context(browser, PHONE)
    context.add_cookies([game.cookie(server)])
    page = context.new_page()
    page.goto(server.origin + game.path())
    kept_for_offline(page)
    return context, page


def kept_for_offline(page: Page) -> None:
    """Wait until the service worker controls the page and the page itself is kept in its cache."""
    page.evaluate(
        """async () => {
             const deadline = Date.now() + 20000;
             while (Date.now() < deadline) {
               const kept = await caches.match(location.pathname, {ignoreVary: true});
               if (navigator.serviceWorker.controller && kept) return;
               await new Promise((resolve) => setTimeout(resolve, 50));
             }
             throw new Error('the page was not kept for offline use');
           }"""
    )


def by_seat(values: tuple[int, ...] | list[int]) -> dict[str, int]:
    return dict(zip(MIZERKA_NAMES, values, strict=True))


def enter_offline(page: Page, number: int, contract_label: str, tricks: tuple[int, ...]) -> None:
    """Choose the contract and enter the tricks on the offline entry card, as at the table."""
    from playwright.sync_api import expect

    card = page.locator("#offline-turn")
    card.get_by_role("button", name=contract_label, exact=True).tap()
    expect(card.get_by_role("heading")).to_contain_text(f"Deal {number}: {contract_label}")
    for seat, count in enumerate(tricks):
        card.locator(f"#offline-tricks-{seat}").fill(str(count))
    card.get_by_role("button", name=f"Save deal {number}").tap()
    expect(page.locator(f"#offline-deal-{number}")).to_contain_text("not sent yet")
    # The row shows once the contract is kept; the tricks are kept a moment later (a reload or the
    # network back before then would find the deal still being entered).
    deadline = time.monotonic() + 20
    while not page.evaluate(
        """async (number) => (await ScorekeeperQueue.ops(document.body.dataset.game))
             .some((op) => op.number === number && op.tricks)""",
        number,
    ):
        assert time.monotonic() < deadline, f"deal {number}'s tricks were not kept on the phone"
        page.wait_for_timeout(50)


def server_deals(server: LiveServer, game_id: str) -> list[dict[str, Any]]:
    return list(server.api("GET", f"/api/v1/games/{game_id}")["deals"])


def test_deals_entered_offline_survive_a_reload_and_reach_the_server_once(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    context, page = scorer(browser, live_server, game)
    context.set_offline(True)
    status = page.locator("#offline-status")
    expect(status).to_contain_text("Offline")

    fifth, sixth, seventh = MIZERKA_DEALS[4:7]
    enter_offline(page, 5, "Diamonds", fifth.tricks)
    enter_offline(page, 6, "No trumps", (6, 2, 5))  # a slip, corrected below
    enter_offline(page, 7, "Clubs", seventh.tricks)
    # Deal 6 corrected while still on the phone: one deal, sent once, as corrected.
    page.locator("#offline-deal-6").get_by_role("button", name="Correct deal 6").tap()
    editor = page.locator("#offline-turn")
    expect(editor.get_by_role("heading")).to_have_text("Correct deal 6")
    for seat, count in enumerate(sixth.tricks):
        editor.locator(f"#offline-fix-tricks-{seat}").fill(str(count))
    editor.get_by_role("button", name="Save the correction").tap()
    # The row as corrected, seat by seat: the slip's row has a "5 tr" too (Cid's), and a page
    # reloaded before the correction is kept would send the slip.
    expect(page.locator("#offline-deal-6")).to_contain_text(" ".join(f"{count} tr" for count in sixth.tricks))
    expect(status).to_contain_text("#5, #6, #7")
    assert len(server_deals(live_server, game.id)) == 4, "nothing reaches the server while offline"

    # Reloaded without the network: the kept page, the offline mark, the deals kept on the phone.
    page.reload()
    expect(status).to_contain_text("Offline")
    for number in (5, 6, 7):
        expect(page.locator(f"#offline-deal-{number}")).to_contain_text("not sent yet")
    expect(page.locator("#offline-turn").get_by_role("heading")).to_contain_text("Bob chooses")
    screenshot(page, "offline-kept-deals")

    context.set_offline(False)
    # Sent, then the page drawn again from the server: its own rows, with the server's scores.
    expect(page.locator("#deal-7")).to_be_visible()
    expect(page.locator(".offline-row")).to_have_count(0)
    deals = server_deals(live_server, game.id)
    assert [deal["number"] for deal in deals] == list(range(1, 8))
    for expected, stored in zip(MIZERKA_DEALS[4:7], deals[4:7], strict=True):
        assert stored["contract"] == expected.contract
        assert stored["tricks"] == by_seat(expected.tricks)
        assert stored["scores"] == by_seat(expected.scores)
        assert stored["totals"] == by_seat(expected.totals)
    # Sent once: the queue is empty, and another round of sending changes nothing.
    assert page.evaluate("async () => (await ScorekeeperQueue.ops(document.body.dataset.game)).length") == 0
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    assert len(server_deals(live_server, game.id)) == 7
    context.close()


def test_a_deal_another_phone_recorded_meanwhile_is_shown_beside_this_phones_and_the_scorer_chooses(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    context, page = scorer(browser, live_server, game)
    context.set_offline(True)
    mine = MIZERKA_DEALS[4]  # Bob chooses Diamonds: (0, 9, 4)
    enter_offline(page, 5, "Diamonds", mine.tricks)

    # Meanwhile the other phone at the table records its own deal 5 through its page.
    other, other_page = scorer(browser, live_server, game)
    with other_page.expect_navigation(wait_until="load"):
        other_page.get_by_role("button", name="Spades").tap()
    for seat, count in enumerate((3, 1, 9)):
        other_page.fill(f"#tricks-{seat}", str(count))
    with other_page.expect_navigation(wait_until="load"):
        other_page.get_by_role("button", name="Save deal 5").tap()
    other.close()

    context.set_offline(False)
    conflict = page.locator(".offline-conflict")
    expect(conflict).to_contain_text("Deal 5: another phone recorded something else meanwhile.")
    expect(conflict).to_contain_text("Spades: Ann 3 tr · Bob 1 tr · Cid 9 tr")
    expect(conflict).to_contain_text("Diamonds: Ann 0 tr · Bob 9 tr · Cid 4 tr")
    screenshot(page, "offline-conflict")
    deals = server_deals(live_server, game.id)
    assert len(deals) == 5 and deals[4]["contract"] == "spades", "the kept deal is not forced in"

    # The scorer keeps this phone's version: deal 5 is corrected to it, never stored twice.
    conflict.get_by_role("button", name="Use this phone's (correct deal 5)").tap()
    expect(page.locator("#deal-5")).to_contain_text("Diamonds")
    expect(page.locator(".offline-conflict")).to_have_count(0)
    expect(page.locator(".offline-row")).to_have_count(0)
    deals = server_deals(live_server, game.id)
    assert [deal["number"] for deal in deals] == [1, 2, 3, 4, 5]
    assert deals[4]["contract"] == "diamonds"
    assert deals[4]["tricks"] == by_seat(mine.tricks)
    assert deals[4]["totals"] == by_seat(mine.totals)
    context.close()


def test_keeping_the_servers_deal_drops_this_phones_only_when_the_scorer_says_so(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    context, page = scorer(browser, live_server, game)
    context.set_offline(True)
    enter_offline(page, 5, "Diamonds", MIZERKA_DEALS[4].tricks)
    theirs = {"number": 5, "contract": "spades", "tricks": by_seat((3, 1, 9))}
    live_server.api("POST", f"/api/v1/games/{game.id}/deals", theirs, game.key)

    context.set_offline(False)
    conflict = page.locator(".offline-conflict")
    expect(conflict).to_contain_text("Spades")
    # Reloaded before choosing: the conflict is still there, nothing was dropped.
    page.reload()
    conflict = page.locator(".offline-conflict")
    expect(conflict).to_contain_text("Diamonds: Ann 0 tr · Bob 9 tr · Cid 4 tr")
    conflict.get_by_role("button", name="Keep the server's").tap()
    expect(page.locator(".offline-conflict")).to_have_count(0)
    expect(page.locator(".offline-row")).to_have_count(0)
    expect(page.locator("#deal-5")).to_contain_text("Spades")
    deals = server_deals(live_server, game.id)
    assert len(deals) == 5 and deals[4]["contract"] == "spades"
    assert page.evaluate("async () => (await ScorekeeperQueue.ops(document.body.dataset.game)).length") == 0
    context.close()


class OwnServer:
    """The app in this process on a fixed port, restartable with another copy of the static files
    (a new release): the phone keeps its origin, and with it its service worker and caches."""

    def __init__(self, instance: Path) -> None:
        import socket

        # One listening socket for every start: a port given up between two starts could be taken
        # meanwhile (another test's outgoing connection draws from the same range), and the
        # phone's requests during the restart wait in its queue instead of being refused.
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.instance = instance
        self.origin = f"http://127.0.0.1:{self.port}"
        self.server: Any = None

    def start(self, static: Path) -> None:
        import threading

        from werkzeug.serving import make_server

        from scorekeeper import create_app

        app = create_app(
            {
                "SECRET_KEY": "e2e-sw-update",
                "RATELIMIT_ENABLED": False,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{self.instance}/scorekeeper.sqlite3",
            }
        )
        app.static_folder = str(static)
        self.server = make_server("127.0.0.1", self.port, app, threaded=True, fd=self.listener.fileno())
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()  # its copy of the listening socket; ours stays open

    def close(self) -> None:
        self.listener.close()


def static_caches(page: Page) -> list[str]:
    return sorted(name for name in page.evaluate("caches.keys()") if name.startswith("static-"))


def test_a_new_release_never_leaves_the_phone_on_the_old_static_files(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from e2e_support import ROOT

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    (tmp_path / "instance").mkdir()
    first, second = tmp_path / "static-1", tmp_path / "static-2"
    shutil.copytree(ROOT / "static", first)
    shutil.copytree(ROOT / "static", second)
    with (second / "js" / "app.js").open("a") as script:
        script.write("\nself.scorekeeperRelease = 'second';\n")
    server = OwnServer(tmp_path / "instance")
    server.start(first)
    try:
        live = LiveServer(server.origin + "/")
        game = api_game(live, deals=2)
        context, page = scorer(browser, live, game)
        old = static_caches(page)
        assert len(old) == 1
        assert page.evaluate("self.scorekeeperRelease || 'first'") == "first"

        server.stop()
        server.start(second)  # the release: same address, new static files
        page.reload()
        assert page.evaluate("self.scorekeeperRelease || 'first'") == "second", "new files at once"
        # The new worker takes over and keeps the new files; the old version's cache is gone.
        page.evaluate(
            """async (old) => {
                 const deadline = Date.now() + 20000;
                 while (Date.now() < deadline) {
                   const names = (await caches.keys()).filter((n) => n.startsWith('static-'));
                   if (names.length === 1 && names[0] !== old) return;
                   await new Promise((resolve) => setTimeout(resolve, 50));
                 }
                 throw new Error('the new service worker did not take over');
               }""",
            old[0],
        )
        new = static_caches(page)
        version = page.evaluate("fetch('/sw.js').then((r) => r.text())").split('"')[1]
        assert new == [f"static-{version}"] != old
        # Offline, the page opens with the new release's files, from the new worker's cache.
        context.set_offline(True)
        page.reload()
        assert page.evaluate("self.scorekeeperRelease || 'first'") == "second"
        context.close()
    finally:
        server.stop()
        server.close()


# -- a phone that believes it is online, and has no route -----------------------------------------


def server_version(server: LiveServer, game_id: str) -> str:
    """The game's version as the API tags it: one more for every write the server stored."""
    import urllib.request

    with urllib.request.urlopen(f"{server.origin}/api/v1/games/{game_id}", timeout=60) as answer:
        return str(answer.headers["ETag"])


def declared_deal_five(browser: Browser, server: LiveServer) -> tuple[Any, BrowserContext, Page]:
    """A game of four deals whose fifth is declared on the page (online), its tricks filled in."""
    game = api_game(server, deals=4)
    context, page = scorer(browser, server, game)
    from e2e_support import tap_and_load

    tap_and_load(page, page.get_by_role("button", name="Diamonds", exact=True))
    for seat, count in enumerate(MIZERKA_DEALS[4].tricks):
        page.fill(f"#tricks-{seat}", str(count))
    return game, context, page


def shown_as_kept(page: Page, game: Any) -> None:
    """The game's own page (never the browser's error page), deal 5 kept on the phone."""
    from playwright.sync_api import expect

    # The service worker gives up on a silent network after a few seconds (8): wait longer than that.
    expect(page.locator("#offline-deal-5")).to_contain_text("not sent yet", timeout=20_000)
    assert page.url.endswith(game.path()), page.url
    expect(page.locator("#offline-status")).to_contain_text("Saved on this phone, not sent yet: #5.")
    expect(page.locator(".flashes")).to_have_count(0)  # the kept page's old message is not said again
    assert page.evaluate("navigator.onLine") is True


def sent_once(page: Page, server: LiveServer, game: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator(".offline-row")).to_have_count(0, timeout=20_000)
    expect(page.locator("#deal-5")).to_be_visible()
    deals = server_deals(server, game.id)
    assert [deal["number"] for deal in deals] == [1, 2, 3, 4, 5]
    assert deals[4]["contract"] == "diamonds"
    assert deals[4]["tricks"] == by_seat(MIZERKA_DEALS[4].tricks)
    assert deals[4]["totals"] == by_seat(MIZERKA_DEALS[4].totals)
    assert page.evaluate("async () => (await ScorekeeperQueue.ops(document.body.dataset.game)).length") == 0


def test_a_save_the_network_fails_while_the_phone_believes_it_is_online_is_kept_and_sent_once(
    browser: Browser, live_server: LiveServer
) -> None:
    game, context, page = declared_deal_five(browser, live_server)
    # Wi-Fi connected, no route beyond it: every request fails, navigator.onLine stays true.
    context.route("**/*", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Save deal 5").tap()
    shown_as_kept(page, game)
    from playwright.sync_api import expect

    expect(page.locator("#offline-status")).to_contain_text("Offline")
    screenshot(page, "offline-save-without-a-route")
    assert server_deals(live_server, game.id)[4]["tricks"] is None, "nothing reached the server"

    context.unroute("**/*")  # the route is back: the page's next update finds the server and sends
    sent_once(page, live_server, game)
    context.close()


def test_a_save_the_server_stored_but_whose_answer_was_lost_is_not_stored_again(
    browser: Browser, live_server: LiveServer
) -> None:
    game, context, page = declared_deal_five(browser, live_server)

    def answer_lost(route: Any) -> None:
        if route.request.method == "POST" and route.request.url.endswith("/deals/5/tricks"):
            route.fetch()  # the server has it, and stores it...
            route.abort("connectionreset")  # ...and its answer never reaches the phone
        else:
            route.abort("internetdisconnected")

    context.route("**/*", answer_lost)
    page.get_by_role("button", name="Save deal 5").tap()
    shown_as_kept(page, game)
    stored = server_deals(live_server, game.id)[4]
    assert stored["tricks"] == by_seat(MIZERKA_DEALS[4].tricks)
    version = server_version(live_server, game.id)

    context.unroute("**/*")
    sent_once(page, live_server, game)
    assert server_version(live_server, game.id) == version, "the kept deal was found stored: nothing written"
    context.close()


def test_a_save_without_an_answer_is_kept_after_a_few_seconds_and_its_late_arrival_is_not_doubled(
    browser: Browser, live_server: LiveServer
) -> None:
    game, context, page = declared_deal_five(browser, live_server)
    held: list[Any] = []

    def silent(route: Any) -> None:
        if route.request.method == "POST" and route.request.url.endswith("/deals/5/tricks"):
            held.append(route)  # mobile data that takes the request and says nothing
        else:
            route.abort("timedout")

    context.route("**/*", silent)
    page.get_by_role("button", name="Save deal 5").tap()
    shown_as_kept(page, game)
    assert len(held) == 1
    # The request arrives after all, long after the phone stopped waiting.
    held[0].continue_()
    deadline = time.monotonic() + 20
    while server_deals(live_server, game.id)[4]["tricks"] is None:
        assert time.monotonic() < deadline, "the late request never arrived"
        time.sleep(0.05)
    version = server_version(live_server, game.id)
    context.unroute("**/*")
    sent_once(page, live_server, game)
    assert server_version(live_server, game.id) == version
    context.close()


# -- languages ----------------------------------------------------------------------------------------


def test_a_game_opened_offline_speaks_the_language_it_was_last_fetched_in(
    browser: Browser, live_server: LiveServer
) -> None:
    from e2e_support import tap_and_load
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    context, page = scorer(browser, live_server, game)
    assert page.evaluate("document.documentElement.lang") == "en"
    # The switch, online: the game page comes back in Polish, and that is the copy the phone keeps,
    # with the manifest the page links (/manifest.webmanifest, in the page's language).
    page.locator("details.languages summary").tap()
    tap_and_load(page, page.locator("details.languages a[hreflang=pl]"))
    assert page.evaluate("document.documentElement.lang") == "pl"
    page.evaluate("fetch('/manifest.webmanifest').then((r) => r.json())")
    # (An async predicate's promise is truthy to wait_for_function: the page waits in a loop of its own.)
    page.evaluate(
        """async (path) => {
             const deadline = Date.now() + 20000;
             while (Date.now() < deadline) {
               const kept = await caches.match(path, {ignoreVary: true});
               const manifest = await caches.match('/manifest.webmanifest', {ignoreVary: true});
               if (kept && (await kept.text()).includes('<html lang="pl">') &&
                   manifest && (await manifest.json()).lang === 'pl') return;
               await new Promise((resolve) => setTimeout(resolve, 50));
             }
             throw new Error('the Polish page and manifest were not kept');
           }""",
        game.path(),
    )
    polish = page.evaluate("JSON.parse(document.getElementById('ui-strings').textContent)")

    context.set_offline(True)
    page.reload()
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.evaluate("JSON.parse(document.getElementById('ui-strings').textContent)") == polish
    assert page.evaluate("fetch('/manifest.webmanifest').then((r) => r.json())")["lang"] == "pl"
    # The offline entry speaks through the page's texts: the Polish page's, whatever they say.
    offline = str(polish["offline.offline"]).split("%(time)s")[0]
    expect(page.locator("#offline-status")).to_contain_text(offline)
    card = page.locator("#offline-turn")
    card.locator("button.contract").first.tap()
    for seat, count in enumerate((5, 4, 4)):
        card.locator(f"#offline-tricks-{seat}").fill(str(count))
    card.locator("button[type=submit]").tap()
    expect(page.locator("#offline-deal-5")).to_contain_text(str(polish["offline.not_sent"]))
    context.set_offline(False)
    expect(page.locator(".offline-row")).to_have_count(0)
    assert len(server_deals(live_server, game.id)) == 5
    context.close()


# -- the server's deals changed offline ------------------------------------------------------------


def test_the_servers_deals_corrected_and_undone_offline_end_up_as_corrected_once(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    from scorekeeper.rules import DealRecord, GameSetup, get_ruleset

    game = api_game(live_server, deals=4)
    context, page = scorer(browser, live_server, game)
    before = server_version(live_server, game.id)
    context.set_offline(True)
    status = page.locator("#offline-status")
    expect(status).to_contain_text("Offline")

    # Deal 3, the server's (Cid's Mizerka, 4 9 0), corrected from its row in the log.
    page.locator("#deal-3").get_by_role("link", name="Correct deal 3").tap()
    editor = page.locator("#offline-turn")
    expect(editor.get_by_role("heading")).to_have_text("Correct deal 3")
    for seat, count in enumerate((5, 8, 0)):
        editor.locator(f"#offline-fix-tricks-{seat}").fill(str(count))
    editor.get_by_role("button", name="Save the correction").tap()
    expect(page.locator("#offline-deal-3")).to_contain_text("correction not sent yet")
    # Deal 4, the server's last, undone (asked first, as online); then played again as Ann chooses now.
    undo = page.locator("details.offline-undo")
    undo.locator("summary", has_text="Undo deal 4").tap()
    undo.get_by_role("button", name="Yes, undo deal 4").tap()
    expect(page.locator("#offline-undone-4")).to_contain_text("undo not sent yet")
    enter_offline(page, 4, "Spades", (6, 4, 3))
    expect(status).to_contain_text("#3, #4")
    assert server_version(live_server, game.id) == before, "nothing reaches the server while offline"

    context.set_offline(False)
    expect(page.locator(".offline-row")).to_have_count(0)
    expect(page.locator("#deal-4")).to_contain_text("Spades")
    ruleset = get_ruleset("mizerka")
    setup = GameSetup("mizerka", tuple(MIZERKA_NAMES), int(MIZERKA_FIRST_DEALER))
    records = [DealRecord(contract=d.contract, tricks=d.tricks) for d in MIZERKA_DEALS[:2]]
    records += [DealRecord(contract="mizerka", tricks=(5, 8, 0))]
    records += [DealRecord(contract="spades", tricks=(6, 4, 3))]
    expected = ruleset.replay(setup, records).deals
    deals = server_deals(live_server, game.id)
    assert [d["contract"] for d in deals] == ["hearts", "clubs", "mizerka", "spades"]
    for stored, deal in zip(deals, expected, strict=True):
        assert stored["tricks"] == by_seat(deal.tricks or ())
        assert stored["scores"] == by_seat(deal.scores or ())
        assert stored["totals"] == by_seat(deal.totals or ())
    # Once: a correction, an undo and a deal are three writes, and sending again writes nothing.
    version = int(server_version(live_server, game.id).strip('"v'))
    assert version == int(before.strip('"v')) + 3
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_function("!document.getElementById('offline-status').textContent.includes('…')")
    assert server_version(live_server, game.id) == f'"v{version}"'
    context.close()


def test_a_correction_the_network_fails_is_kept_and_sent_once(
    browser: Browser, live_server: LiveServer
) -> None:
    """The correction page's Save without a route: the game's page with the correction kept, then sent."""
    from e2e_support import tap_and_load
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    context, page = scorer(browser, live_server, game)
    before = server_version(live_server, game.id)
    tap_and_load(page, page.locator("#deal-3").get_by_role("link", name="Correct deal 3"))
    assert page.url.endswith(f"/games/{game.id}/deals/3/edit"), page.url
    for seat, count in enumerate((5, 8, 0)):
        page.fill(f"#tricks-{seat}", str(count))
    context.route("**/*", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Save the correction").tap()
    expect(page.locator("#offline-deal-3")).to_contain_text("correction not sent yet", timeout=20_000)
    assert page.url.endswith(game.path()), page.url
    assert server_version(live_server, game.id) == before, "nothing reached the server"

    context.unroute("**/*")
    expect(page.locator(".offline-row")).to_have_count(0, timeout=20_000)
    deals = server_deals(live_server, game.id)
    assert deals[2]["contract"] == "mizerka" and deals[2]["tricks"] == by_seat((5, 8, 0))
    assert int(server_version(live_server, game.id).strip('"v')) == int(before.strip('"v')) + 1
    context.close()


# -- a change made while its deal is on its way ---------------------------------------------------------

CHANGED_ON_ITS_WAY = """async ([number, contract, first, later]) => {
  const Q = ScorekeeperQueue, game = document.body.dataset.game;
  const info = await Q.readGame(game);
  const id = await Q.putOp({ game, at: new Date().toISOString(), version: info.version, number,
    kind: 'record', contract, bids: null, tricks: first });
  const real = window.fetch;
  window.fetch = async (url, init) => {
    const answer = await real(url, init);
    if (init && init.method === 'POST') {
      // The server has stored the deal; while its answer is on its way, the person changes it.
      const op = (await Q.ops(game)).find((kept) => kept.id === id);
      await Q.putOp({ ...op, tricks: later });
    }
    return answer;
  };
  try { return await Q.flush(game); } finally { window.fetch = real; }
}"""


@pytest.mark.parametrize("change", ["tricks corrected", "tricks entered"])
def test_a_change_made_while_its_deal_is_on_its_way_is_sent_after_it(
    browser: Browser, live_server: LiveServer, change: str
) -> None:
    """The scorer corrects a kept deal's tricks, or enters the tricks of the deal it declared,
    while the phone is sending it: the server keeps what was sent, then gets the change."""
    game = api_game(live_server, deals=4)
    context, page = scorer(browser, live_server, game)
    deal = MIZERKA_DEALS[4]
    later = [*deal.tricks[1:], deal.tricks[0]]
    assert later != list(deal.tricks)
    first = list(deal.tricks) if change == "tricks corrected" else None
    before = server_version(live_server, game.id)
    outcome = page.evaluate(CHANGED_ON_ITS_WAY, [5, deal.contract, first, later])
    assert outcome == "empty"
    stored = server_deals(live_server, game.id)
    assert [d["number"] for d in stored] == [1, 2, 3, 4, 5]
    assert stored[4]["contract"] == deal.contract
    assert stored[4]["tricks"] == by_seat(later), "the change made on the way was lost"
    assert page.evaluate("async () => (await ScorekeeperQueue.ops(document.body.dataset.game)).length") == 0
    # Two writes: the deal as sent, then the change.
    assert int(server_version(live_server, game.id).strip('"v')) == int(before.strip('"v')) + 2
    context.close()
