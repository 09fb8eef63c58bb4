"""A large demo data set for benchmarks: random legal finished games, inserted in bulk.

Every game is played through the rules engine: each deal's choices come from the
replayed state (the contracts the chooser has left, the bidding order, the bid the
hook rule forbids the dealer), and the figures are computed exactly as the services
store them; only the inserts are batched.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select

from scorekeeper.extensions import db
from scorekeeper.models import Deal, Game, Player, Seat, today
from scorekeeper.rules import get_ruleset, name_key
from scorekeeper.stats import figures, ratings, refresh_totals
from scorekeeper.stored_figures import DealResult, GameResult
from tests.stats.random_games import random_game  # the same random legal games the tests play

FIRST_NAMES = [
    "Ada",
    "Agata",
    "Alek",
    "Ania",
    "Basia",
    "Bartek",
    "Cezary",
    "Dorota",
    "Edek",
    "Ela",
    "Franek",
    "Gosia",
    "Halina",
    "Igor",
    "Iza",
    "Jacek",
    "Jola",
    "Kasia",
    "Krzys",
    "Lena",
    "Leszek",
    "Magda",
    "Marek",
    "Nina",
    "Ola",
    "Pawel",
    "Piotr",
    "Ryszard",
    "Sabina",
    "Tadek",
    "Tomek",
    "Ula",
    "Wanda",
    "Wiktor",
    "Zosia",
    "Zbyszek",
    "Marta",
    "Janek",
    "Renata",
    "Olek",
]
LAST_NAMES = [
    "Nowak",
    "Kowalski",
    "Wisniewski",
    "Wojcik",
    "Kaminski",
    "Lewandowski",
    "Zielinski",
    "Szymanski",
    "Wozniak",
    "Dabrowski",
    "Kozlowski",
    "Jankowski",
    "Mazur",
    "Kwiatkowski",
    "Krawczyk",
    "Piotrowski",
    "Grabowski",
    "Nowakowski",
    "Pawlowski",
    "Michalski",
    "Adamczyk",
    "Dudek",
    "Zajac",
    "Wieczorek",
    "Jablonski",
    "Krol",
    "Majewski",
    "Olszewski",
    "Jaworski",
    "Malinowski",
]
CHUNK = 500


@dataclass(frozen=True)
class SeedReport:
    players: int
    games: int
    deals: int


def player_names(count: int, taken: set[str]) -> Iterator[str]:
    """``count`` distinct names not in ``taken`` (name keys): first and last names, then numbered."""
    made = 0
    suffix = 0
    while True:
        for last in LAST_NAMES:
            for first in FIRST_NAMES:
                name = f"{first} {last}" + (f" {suffix}" if suffix else "")
                if name_key(name) in taken:
                    continue
                taken.add(name_key(name))
                yield name
                made += 1
                if made == count:
                    return
        suffix += 1


def _game_id(rng: random.Random) -> str:
    return base64.urlsafe_b64encode(rng.getrandbits(64).to_bytes(8, "big")).decode().rstrip("=")


def seed_demo(
    games: int,
    players: int,
    *,
    seed: int = 1,
    misere_share: float = 0.0,
    days: int = 730,
    until: date | None = None,
) -> SeedReport:
    """Insert ``players`` new players and ``games`` finished games among them, played over ``days`` days."""
    needed = get_ruleset("misere" if misere_share > 0 else "mizerka").player_count
    if players < needed:
        raise ValueError(f"at least {needed} players are needed")
    rng = random.Random(seed)
    until = until or today()
    taken = set(db.session.execute(select(Player.name_key)).scalars())
    now = datetime.now()
    names = list(player_names(players, taken))
    people: list[tuple[int, str]] = []
    for start in range(0, len(names), CHUNK):
        rows = [{"name": n, "name_key": name_key(n), "created_at": now} for n in names[start : start + CHUNK]]
        result = db.session.execute(
            insert(Player).returning(Player.id, Player.name, sort_by_parameter_order=True), rows
        )
        people.extend((row.id, row.name) for row in result)
    key_hash = "0" * 64  # no edit key hashes to this: no one may change the demo games
    deal_count = 0
    for start in range(0, games, CHUNK):
        game_rows: list[dict[str, Any]] = []
        seat_rows: list[dict[str, Any]] = []
        deal_rows: list[dict[str, Any]] = []
        result_rows: list[dict[str, Any]] = []
        deal_result_rows: list[dict[str, Any]] = []
        for _ in range(start, min(games, start + CHUNK)):
            ruleset_id = "misere" if rng.random() < misere_share else "mizerka"
            table = rng.sample(people, get_ruleset(ruleset_id).player_count)
            setup, state = random_game(rng, ruleset_id, tuple(name for _, name in table))
            game_id = _game_id(rng)
            played_on = until - timedelta(days=rng.randrange(days))
            created = datetime.combine(played_on, datetime.min.time()) + timedelta(
                hours=19, minutes=rng.randrange(180)
            )
            created = min(created, now)  # today's evening may not have come yet
            game_rows.append(
                {
                    "id": game_id,
                    "ruleset": ruleset_id,
                    "options": setup.options_dict,
                    "first_dealer": setup.first_dealer,
                    "edit_key_hash": key_hash,
                    "version": len(state.deals),
                    "created_at": created,
                    "updated_at": created,
                    "played_on": played_on,
                    "note": None,
                    "finished": state.finished,
                    "finished_at": created if state.finished else None,
                }
            )
            seat_rows += [
                {"game_id": game_id, "position": seat, "player_id": pid}
                for seat, (pid, _) in enumerate(table)
            ]
            deal_rows += [
                {
                    "game_id": game_id,
                    "number": deal.number,
                    "contract": deal.contract,
                    "bids": None if deal.bids is None else list(deal.bids),
                    "tricks": None if deal.tricks is None else list(deal.tricks),
                    "created_at": created,
                    "updated_at": created,
                }
                for deal in state.deals
            ]
            deal_count += len(state.deals)
            rows = figures(state, game_id=game_id, player_ids=[pid for pid, _ in table], played_on=played_on)
            result_rows += rows[0]
            deal_result_rows += rows[1]
        for model, chunk in (
            (Game, game_rows),
            (Seat, seat_rows),
            (Deal, deal_rows),
            (GameResult, result_rows),
            (DealResult, deal_result_rows),
        ):
            db.session.execute(insert(model.__table__), chunk)
        db.session.commit()
    refresh_totals()  # everyone's all-time sums, in one INSERT ... SELECT
    ratings.replay_all()  # and the ratings, each replayed from its first game
    db.session.commit()
    return SeedReport(players=len(people), games=games, deals=deal_count)
