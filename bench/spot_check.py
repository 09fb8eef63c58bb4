"""Open a kept club's pages in a phone-sized browser and check four players against a fresh replay.

Serves the kept club (bench/club.py) with gunicorn on loopback, opens the home page, the
rankings (all time, and this year by won %) and four players' pages (the first of this
year's rankings: their page for this year) in Chromium at 390 x 844 (Playwright, Debian's
/usr/bin/chromium), saves full-page screenshots under test-output/club/, and compares each
player's figures on their page, and on the rankings where they appear, with figures
computed afresh: every game they sat in replayed by the rules engine, nothing stored read.

    .venv/bin/python bench/spot_check.py --database sqlite --games 100000 --players 10000 --port 5107
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
import urllib.request
from datetime import date, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.club import CLUBS, club_url  # noqa: E402

OUT = ROOT / "test-output" / "club"


def replayed_record(url: str, player_id: int, since: date | None = None) -> dict[str, Any]:
    """The player's Mizerka record from a replay of every game they sat in (played on or after
    ``since``); no stored figure read."""
    from sqlalchemy import select

    from scorekeeper import create_app, services
    from scorekeeper.config import normalise_database_url
    from scorekeeper.extensions import db
    from scorekeeper.models import Game, Player, Seat

    os.environ["SCOREKEEPER_INSTANCE"] = str(CLUBS / "instance")
    app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(url), "SECRET_KEY": "spot-check"})
    record = {"games": 0, "wins": 0, "deals": 0, "deal_wins": 0, "points": 0, "best": None}
    with app.app_context():
        name = db.session.get(Player, player_id).name
        game_ids = db.session.execute(
            select(Seat.game_id)
            .join(Game, Game.id == Seat.game_id)
            .where(Seat.player_id == player_id, Game.ruleset == "mizerka")
            .where(Game.played_on >= (since or date.min))
        ).scalars()
        for game_id in list(game_ids):
            state = services.get_game(game_id).state
            seat = state.setup.players.index(name)
            for deal in state.deals:
                if deal.scores is None:
                    continue
                record["deals"] += 1
                record["deal_wins"] += deal.scores[seat] == max(deal.scores)
            if state.finished:
                total = state.totals[seat]
                record["games"] += 1
                record["wins"] += total == max(state.totals)
                record["points"] += total
                record["best"] = total if record["best"] is None else max(record["best"], total)
        db.session.remove()
        db.engine.dispose()
    record["name"] = name
    return record


def shoot(page: Any, path: Path, screens: int = 3) -> None:
    """The whole page, and its first ``screens`` phone screens one by one (easier to read)."""
    page.screenshot(path=path, full_page=True)
    height = page.evaluate("document.documentElement.scrollHeight")
    for screen in range(screens):
        top = screen * 844
        if top >= height:
            break
        clip = {"x": 0, "y": top, "width": 390, "height": min(844, height - top)}
        page.screenshot(path=path.with_name(f"{path.stem}-screen{screen + 1}.png"), full_page=True, clip=clip)


def number(text: str) -> int | None:
    match = re.search(r"[+−-]?\d+", text)
    return None if match is None else int(match.group().replace("−", "-"))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", default="sqlite")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--port", type=int, default=5107)
    args = parser.parse_args()
    url = club_url(args.database, args.games, args.players)
    OUT.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "DATABASE_URL": url, "SCOREKEEPER_INSTANCE": str(CLUBS / "instance"),
           "SECRET_KEY": "spot-check"}  # fmt: skip
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "--workers", "1", "--bind", f"127.0.0.1:{args.port}",
         "scorekeeper:create_app()"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{args.port}"
    failures = 0
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2)
                break
            except OSError:
                time.sleep(0.3)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
            prefix = f"{args.database}-{args.games}"
            page.goto(base + "/")
            shoot(page, OUT / f"{prefix}-home.png")
            print(f"home: {page.locator('a.game-item').count()} games listed")
            page.goto(base + "/rankings")
            shoot(page, OUT / f"{prefix}-rankings.png")
            rows = page.locator("table tbody tr")
            ranked = {}
            for i in range(rows.count()):
                row = rows.nth(i)
                link = row.locator("a").first.get_attribute("href") or ""
                cells = [cell.inner_text() for cell in row.locator("td").all()]
                ranked[int(link.split("/players/")[1].split("?")[0])] = cells
            print(f"rankings: {len(ranked)} rows on the first page")
            first = next(iter(ranked))
            from sqlalchemy import create_engine, text

            from scorekeeper.config import normalise_database_url

            engine = create_engine(normalise_database_url(url))
            with engine.connect() as connection:
                by_games = list(
                    connection.execute(
                        text("SELECT player_id FROM player_totals WHERE ruleset = 'mizerka' AND year = 0"
                             " AND games > 0 ORDER BY games DESC, player_id")
                    ).scalars()
                )  # fmt: skip
            engine.dispose()
            # This year's figures are kept apart (player_totals by year): the first of this year's
            # rankings by won %, checked on their page for this year.
            page.goto(base + "/rankings?period=year&sort=win_pct&dir=desc")
            shoot(page, OUT / f"{prefix}-rankings-year.png")
            link = page.locator("table tbody tr a").first.get_attribute("href") or ""
            top_of_year = int(link.split("/players/")[1].split("?")[0])
            this_year = date.today().replace(month=1, day=1)
            chosen = {
                "top of the rankings": (first, None),
                "busiest": (by_games[0], None),
                "median": (by_games[len(by_games) // 2], None),
                "top this year by won %": (top_of_year, this_year),
            }
            # The last 30 days are kept apart too (a window rolled forward each day): the first of
            # them by points, checked on their row of that ranking (the player's page for the
            # last 30 days sums their games of the period itself).
            page.goto(base + "/rankings?period=30d&sort=points&dir=desc")
            shoot(page, OUT / f"{prefix}-rankings-30d.png")
            row = page.locator("table tbody tr").first
            link = row.locator("a").first.get_attribute("href") or ""
            top_of_month = int(link.split("/players/")[1].split("?")[0])
            cells = [number(cell.inner_text()) for cell in row.locator("td").all()]
            in_row = dict(
                zip(
                    ("games", "wins", "deals", "deal_wins", "points", "best"),
                    [cells[i] for i in (0, 1, 3, 4, 6, 8)],
                    strict=True,
                )
            )
            fresh = replayed_record(url, top_of_month, date.today() - timedelta(days=29))
            expected = {key: fresh[key] for key in in_row}
            failures += in_row != expected
            print(
                f"top of the last 30 days by points: {fresh['name']} (id {top_of_month}):"
                f" ranking row {in_row}; replay {expected}: {'matches' if in_row == expected else 'DIFFERS'}"
            )
            for label, (player_id, since) in chosen.items():
                page.goto(f"{base}/players/{player_id}" + ("?period=year" if since else ""))
                slug = label.replace(" ", "-")
                shoot(page, OUT / f"{prefix}-player-{slug}.png")
                shown = {
                    dt.inner_text().strip(): dd.inner_text().strip()
                    for dt, dd in zip(
                        page.locator("dl.figures dt").all(), page.locator("dl.figures dd").all(), strict=True
                    )
                }
                fresh = replayed_record(url, player_id, since)
                on_page = {
                    "games": number(shown["Games"]),
                    "wins": number(shown["Won"]),
                    "deals": number(shown["Deals"]),
                    "deal_wins": number(shown["Deals won"]),
                    "points": number(shown["Points"]),
                    "best": number(shown["Best game"]),
                }
                expected = {key: fresh[key] for key in on_page}
                verdict = "matches" if on_page == expected else "DIFFERS"
                failures += on_page != expected
                print(
                    f"{label}: {fresh['name']} (id {player_id}): page {on_page}; replay {expected}: {verdict}"
                )
                if player_id in ranked:
                    print(f"  rankings row: {ranked[player_id]}")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"screenshots in {OUT.relative_to(ROOT)}/")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
