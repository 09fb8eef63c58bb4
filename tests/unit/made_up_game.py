"""A made-up game, registered through the registry's public call alone, played through the API and the
pages in a process of its own (test_made_up_game.py runs it): adding a game is one module."""

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.rules import Contract, DealState, GameSetup, Ruleset, register


@dataclass(frozen=True)
class NoTricks(Ruleset):
    """Three players, two deals; every trick taken costs a point."""

    declares_contract: bool = False

    def parse_contract(self, setup: GameSetup, number: int, contract: object) -> str | None:
        return "no-tricks-toy"

    def parse_bids(self, setup: GameSetup, number: int, bids: object) -> tuple[int, ...] | None:
        return None

    def roles(self, dealer: int) -> tuple[str, ...]:
        return tuple("dealer" if seat == dealer else "player" for seat in range(self.player_count))

    def quotas_for(self, roles: Sequence[str], contract: str, bids: tuple[int, ...] | None) -> None:
        return None

    def deal_scores(
        self,
        setup: GameSetup,
        number: int,
        contract: str,
        quotas: Sequence[int] | None,
        tricks: Sequence[int],
    ) -> tuple[int, ...]:
        return tuple(-taken for taken in tricks)

    def remaining_for(self, setup: GameSetup, deals: Sequence[DealState]) -> tuple[tuple[str, ...], ...]:
        return tuple(() for _ in setup.players)

    def offer(
        self, number: int, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        return "no-tricks-toy", ("no-tricks-toy",)


register(
    NoTricks(
        id="no-tricks-toy",
        name="No tricks (toy)",
        player_count=3,
        deal_count=2,
        contracts=(Contract("no-tricks-toy", "No tricks", None),),
    )
)

from scorekeeper import create_app  # noqa: E402  (the app is made once the game is registered)
from scorekeeper.extensions import db  # noqa: E402

app = create_app(
    {
        "TESTING": True,
        "SECRET_KEY": "k",
        "AUTO_MIGRATE": False,
        "RATELIMIT_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{sys.argv[1]}",
    }
)
with app.app_context():
    db.create_all()
client = app.test_client()
said: dict[str, object] = {}
created = client.post(
    "/api/v1/games",
    json={"ruleset": "no-tricks-toy", "players": ["Ann", "Bob", "Cid"], "first_dealer": "Bob"},
)
game = created.get_json()
auth = {"Authorization": f"Bearer {game['edit_key']}"}
said["created"] = created.status_code
said["schedule"] = game["schedule"]
first = client.post(
    f"/api/v1/games/{game['id']}/deals", json={"tricks": {"Ann": 4, "Bob": 9, "Cid": 0}}, headers=auth
)
said["first"] = [first.status_code, first.get_json().get("scores")]
refused = client.post(
    f"/api/v1/games/{game['id']}/deals", json={"tricks": {"Ann": 4, "Bob": 4, "Cid": 4}}, headers=auth
)
said["refused"] = [refused.status_code, refused.get_json()["error"]["code"]]
corrected = client.put(
    f"/api/v1/games/{game['id']}/deals/1", json={"tricks": {"Ann": 0, "Bob": 13, "Cid": 0}}, headers=auth
)
said["corrected"] = corrected.status_code
second = client.post(
    f"/api/v1/games/{game['id']}/deals", json={"tricks": {"Ann": 1, "Bob": 2, "Cid": 10}}, headers=auth
)
said["second"] = second.status_code
state = client.get(f"/api/v1/games/{game['id']}").get_json()
said["totals"] = state["totals"]
said["status"] = state["status"]
export = client.get(f"/api/v1/games/{game['id']}/export").get_json()
imported = client.post("/api/v1/games/import", json=export)
said["imported"] = [imported.status_code, imported.get_json()["totals"]]
said["rulesets"] = [ruleset["id"] for ruleset in client.get("/api/v1/rulesets").get_json()["rulesets"]]
said["page"] = client.get(f"/games/{game['id']}").status_code
said["sheet"] = client.get(f"/games/{game['id']}/scoresheet").status_code
said["csv"] = client.get(f"/games/{game['id']}/export.csv").status_code
print(json.dumps(said))
