"""A shadow of one game, kept by the fuzz tests beside the app: RULES.md written again, independently.

It holds the facts the test believes were stored, predicts whether each
request the fuzzers send must be accepted (and what it then stores), and
computes every score from RULES.md without the rules engine, so the app's
replayed state can be compared with a second opinion after every step.
It also holds the strategies that make valid and hostile inputs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

REFUSED: Any = None
"""What a prediction returns for a request that must be refused."""

MIZERKA_CONTRACTS = ("clubs", "diamonds", "hearts", "spades", "no-trumps", "mizerka")
MISERE_DEALS = ("hearts", "diamonds", "clubs", "spades", "no-trumps", "blind", "ciapa-ciapa", "misere")
UNKNOWN_CONTRACTS = ("", "HEARTS", "trumps", "no trumps", "misère", "blind", "ciapa-ciapa", "x" * 300)
# Quotas by role (forehand, middlehand, dealer) for trumps or no-trumps, and for mizerka.
QUOTAS = {"trumps": (7, 5, 1), "mizerka": (1, 5, 7)}

# Names with a capital to vary, accents, and cells a spreadsheet would read as formulas.
NAME_POOL = ("Ann", "Bob", "Cid", "Dee", "Zoë", "Łukasz", "=Eve", "+Fay", "@Gus", "Jo Jo")


@dataclass
class ShadowDeal:
    contract: str
    bids: tuple[int, ...] | None
    tricks: tuple[int, ...] | None


@dataclass
class Shadow:
    """What the test believes the game is, and what it must do next."""

    ruleset: str
    players: list[str]
    first_dealer: int
    scoring: str = "standard"
    deals: list[ShadowDeal] = field(default_factory=list)

    # -- the table ---------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def deal_count(self) -> int:
        return 18 if self.ruleset == "mizerka" else 8

    @property
    def pending(self) -> bool:
        return bool(self.deals) and self.deals[-1].tricks is None

    @property
    def finished(self) -> bool:
        return len(self.deals) == self.deal_count and not self.pending

    @property
    def next_number(self) -> int:
        return len(self.deals) + 1

    def dealer(self, number: int) -> int:
        return (self.first_dealer + number - 1) % self.size

    def chooser(self, number: int) -> int | None:
        return (self.dealer(number) + 1) % 3 if self.ruleset == "mizerka" else None

    def bids_in(self, number: int) -> bool:
        return self.ruleset == "misere" and number <= 6

    def used(self, seat: int, deals: list[ShadowDeal] | None = None) -> list[str]:
        """Contracts ``seat`` has chosen (Mizerka), in order."""
        deals = self.deals if deals is None else deals
        return [d.contract for n, d in enumerate(deals, start=1) if self.chooser(n) == seat]

    def remaining(self, seat: int) -> list[str]:
        return [c for c in MIZERKA_CONTRACTS if c not in self.used(seat)]

    # -- scores, from RULES.md ------------------------------------------------------------------------

    def scores(self, number: int, deal: ShadowDeal) -> tuple[int, ...] | None:
        if deal.tricks is None:
            return None
        if self.ruleset == "mizerka":
            dealer = self.dealer(number)
            roles = {(dealer + 1) % 3: 0, (dealer + 2) % 3: 1, dealer: 2}
            quotas = QUOTAS["mizerka" if deal.contract == "mizerka" else "trumps"]
            sign = -1 if deal.contract == "mizerka" else 1
            return tuple(sign * (t - quotas[roles[seat]]) for seat, t in enumerate(deal.tricks))
        variant = self.scoring == "variant"
        if deal.bids is not None:
            out = []
            for bid, took in zip(deal.bids, deal.tricks, strict=True):
                if took != bid:
                    out.append(took if variant else -10 * abs(took - bid))
                elif bid == 0:
                    out.append(25 if variant else 50)
                else:
                    out.append(10 + bid if variant else 10 * bid)
            return tuple(out)
        per_trick = 3 if variant else 10
        sign = 1 if deal.contract == "ciapa-ciapa" else -1
        return tuple(sign * per_trick * t for t in deal.tricks)

    def expected_deals(self) -> list[dict[str, Any]]:
        """The deals as the API must show them (the fields the shadow can vouch for)."""
        totals = [0] * self.size
        out = []
        for number, deal in enumerate(self.deals, start=1):
            scores = self.scores(number, deal)
            if scores is not None:
                totals = [a + b for a, b in zip(totals, scores, strict=True)]
            chooser = self.chooser(number)
            out.append(
                {
                    "number": number,
                    "dealer": self.players[self.dealer(number)],
                    "chooser": None if chooser is None else self.players[chooser],
                    "contract": deal.contract,
                    "bids": self.by_name(deal.bids),
                    "tricks": self.by_name(deal.tricks),
                    "scores": self.by_name(scores),
                    "totals": None if scores is None else self.by_name(totals),
                }
            )
        return out

    def totals(self) -> dict[str, int]:
        totals = [0] * self.size
        for number, deal in enumerate(self.deals, start=1):
            scores = self.scores(number, deal)
            if scores is not None:
                totals = [a + b for a, b in zip(totals, scores, strict=True)]
        return dict(zip(self.players, totals, strict=True))

    def by_name(self, values: tuple[int, ...] | list[int] | None) -> dict[str, int] | None:
        return None if values is None else dict(zip(self.players, values, strict=True))

    # -- what the rules accept ------------------------------------------------------------------------

    def seat_of(self, name: object) -> int | None:
        if not isinstance(name, str):
            return None
        for seat, player in enumerate(self.players):
            if player.casefold() == name.casefold():
                return seat
        return None

    def per_player(self, values: object) -> tuple[int, ...] | None:
        """Whole numbers 0..13 keyed by name, every player once; None if anything is off."""
        if not isinstance(values, dict):
            return None
        by_seat: dict[int, int] = {}
        for name, value in values.items():
            seat = self.seat_of(name)
            if seat is None or seat in by_seat:
                return None
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 13:
                return None
            by_seat[seat] = value
        if len(by_seat) != self.size:
            return None
        return tuple(by_seat[seat] for seat in range(self.size))

    def tricks_ok(self, values: object) -> tuple[int, ...] | None:
        tricks = self.per_player(values)
        return tricks if tricks is not None and sum(tricks) == 13 else None

    def hook_ok(self, number: int, bids: tuple[int, ...]) -> bool:
        dealer = self.dealer(number)
        forbidden = 13 - sum(bid for seat, bid in enumerate(bids) if seat != dealer)
        return not (0 <= forbidden <= 13 and bids[dealer] == forbidden)

    def forbidden_bid(self, number: int, others: dict[int, int]) -> int | None:
        forbidden = 13 - sum(others.values())
        return forbidden if 0 <= forbidden <= 13 else None

    def contract_for(self, number: int, contract: object) -> str | None:
        """The contract a declaration stores, before the each-contract-once check; None if refused."""
        if self.ruleset == "mizerka":
            return contract if isinstance(contract, str) and contract in MIZERKA_CONTRACTS else None
        fixed = MISERE_DEALS[number - 1]
        return fixed if contract is None or contract == "" or contract == fixed else None

    def bids_for(self, number: int, bids: object) -> tuple[tuple[int, ...] | None, bool]:
        """(bids to store, acceptable?) for deal ``number``."""
        if not self.bids_in(number):
            return None, bids is None
        parsed = self.per_player(bids)
        return parsed, parsed is not None and self.hook_ok(number, parsed)

    def consistent(self, deals: list[ShadowDeal]) -> bool:
        """Every contract chosen at most once by its chooser (Mizerka); only the last deal pending."""
        if any(d.tricks is None for d in deals[:-1]):
            return False
        if self.ruleset == "mizerka":
            for seat in range(3):
                used = self.used(seat, deals)
                if len(used) != len(set(used)):
                    return False
        return True

    def predict_record(self, body: object) -> ShadowDeal | None:
        """The deal a ``record the next deal`` request stores, or REFUSED."""
        if not isinstance(body, dict) or set(body) - {"number", "contract", "bids", "tricks"}:
            return REFUSED
        if self.finished or self.pending:
            return REFUSED
        number = self.next_number
        given = body.get("number")
        if given is not None and (isinstance(given, bool) or given != number or not isinstance(given, int)):
            return REFUSED
        contract = self.contract_for(number, body.get("contract"))
        bids, bids_ok = self.bids_for(number, body.get("bids"))
        raw_tricks = body.get("tricks")
        tricks = None if raw_tricks is None else self.tricks_ok(raw_tricks)
        if contract is None or not bids_ok or (raw_tricks is not None and tricks is None):
            return REFUSED
        deal = ShadowDeal(contract, bids, tricks)
        return deal if self.consistent([*self.deals, deal]) else REFUSED

    def predict_correct(self, number: int, body: object) -> ShadowDeal | None:
        """Deal ``number`` as a ``complete or correct`` request leaves it, or REFUSED."""
        if not isinstance(body, dict) or set(body) - {"contract", "bids", "tricks"}:
            return REFUSED
        if not 1 <= number <= len(self.deals):
            return REFUSED
        old = self.deals[number - 1]
        contract, bids, tricks = old.contract, old.bids, old.tricks
        if "contract" in body:
            contract = self.contract_for(number, body["contract"])
            if contract is None:
                return REFUSED
        if "bids" in body:
            bids, bids_ok = self.bids_for(number, body["bids"])
            if not bids_ok:
                return REFUSED
        if "tricks" in body:
            if body["tricks"] is None:
                if number != len(self.deals):
                    return REFUSED
                tricks = None
            else:
                tricks = self.tricks_ok(body["tricks"])
                if tricks is None:
                    return REFUSED
        deal = ShadowDeal(contract, bids, tricks)
        deals = [*self.deals]
        deals[number - 1] = deal
        return deal if self.consistent(deals) else REFUSED

    def predict_undo(self, number: int) -> bool:
        return bool(self.deals) and number == len(self.deals)

    # -- making inputs ---------------------------------------------------------------------------------

    def valid_tricks(self, draw: Any) -> tuple[int, ...]:
        """Any split of 13 tricks between the players."""
        cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=self.size - 1, max_size=self.size - 1)))
        edges = [0, *cuts, 13]
        return tuple(edges[i + 1] - edges[i] for i in range(self.size))

    def valid_bids(self, draw: Any, number: int) -> tuple[int, ...]:
        """Bids that respect the hook rule (the dealer avoids the one forbidden number)."""
        bids = list(draw(st.lists(st.integers(0, 5), min_size=self.size, max_size=self.size)))
        dealer = self.dealer(number)
        others = {seat: bid for seat, bid in enumerate(bids) if seat != dealer}
        if bids[dealer] == self.forbidden_bid(number, others):
            bids[dealer] = (bids[dealer] + 1) % 14
        return tuple(bids)

    def valid_body(self, draw: Any, *, with_tricks: bool, send_number: bool = True) -> dict[str, Any]:
        """An API body recording the next deal validly (pending when ``with_tricks`` is false)."""
        number = self.next_number
        body: dict[str, Any] = {"number": number} if send_number else {}
        contract = self.valid_contract(draw, number)
        if contract is not None:
            body["contract"] = contract
        if self.bids_in(number):
            body["bids"] = self.by_name(self.valid_bids(draw, number))
        if with_tricks:
            body["tricks"] = self.by_name(self.valid_tricks(draw))
        return body

    def play_export(self, draw: Any, deals: int) -> dict[str, Any]:
        """An export of this game with ``deals`` more valid deals played (added to the shadow too)."""
        for _ in range(deals):
            body = self.valid_body(draw, with_tricks=True)
            self.deals.append(self.predict_record(body))
        return {
            "format": "scorekeeper-game",
            "version": 1,
            "ruleset": self.ruleset,
            "options": {"scoring": self.scoring} if self.ruleset == "misere" else {},
            "players": self.players,
            "first_dealer": self.players[self.first_dealer],
            "deals": [
                {
                    "number": number,
                    "contract": deal.contract,
                    "bids": self.by_name(deal.bids),
                    "tricks": self.by_name(deal.tricks),
                }
                for number, deal in enumerate(self.deals, start=1)
            ],
        }

    def valid_contract(self, draw: Any, number: int) -> str | None:
        if self.ruleset == "misere":
            return draw(st.sampled_from([None, MISERE_DEALS[number - 1]]))
        chooser = self.chooser(number)
        assert chooser is not None
        return str(draw(st.sampled_from(self.remaining(chooser))))


def key_variants(name: str) -> st.SearchStrategy[str]:
    """The name as given, or in another case (names match ignoring case)."""
    return st.sampled_from([name, name.upper(), name.lower()])


def hostile_values() -> st.SearchStrategy[Any]:
    """A per-player value of the wrong kind or out of range."""
    return st.one_of(
        st.integers(-3, -1),
        st.integers(14, 20),
        st.sampled_from([10**20, -(10**20), 4.0, 4.5, "4", "", None, True, False, [], {}, [4]]),
    )


@st.composite
def per_player_input(draw: Any, shadow: Shadow, good: tuple[int, ...]) -> Any:
    """``good`` keyed by name, often spoiled: a wrong name, a missing or doubled player, a bad value."""
    names = [draw(key_variants(name)) for name in shadow.players]
    values: list[Any] = list(good)
    spoil = draw(
        st.sampled_from(
            ["none", "none", "none", "value", "name", "missing", "extra", "twice", "list", "scalar"]
        )
    )
    if spoil == "value":
        values[draw(st.integers(0, shadow.size - 1))] = draw(hostile_values())
    elif spoil == "name":
        names[draw(st.integers(0, shadow.size - 1))] = draw(st.sampled_from(["Nobody", "", " ", "Ann Bob"]))
    body: Any = dict(zip(names, values, strict=True))
    if spoil == "missing":
        body.pop(names[draw(st.integers(0, shadow.size - 1))])
    elif spoil == "extra":
        body["Stranger"] = 0
    elif spoil == "twice":
        seat = draw(st.integers(0, shadow.size - 1))
        other = shadow.players[seat].swapcase()
        if other != names[seat]:
            body[other] = values[seat]
    elif spoil == "list":
        body = values
    elif spoil == "scalar":
        body = draw(st.sampled_from([13, "13", True]))
    return body


@st.composite
def wrong_tricks(draw: Any, shadow: Shadow) -> tuple[int, ...]:
    """Whole numbers 0..13 that do not add up to 13."""
    tricks = draw(st.lists(st.integers(0, 13), min_size=shadow.size, max_size=shadow.size))
    return tuple(tricks) if sum(tricks) != 13 else (*tricks[:-1], (tricks[-1] + 1) % 14)


FORM_NUMBERS = ("0", "4", "13", " 5 ", "+3", "07", "٣", "-1", "14", "", "x", "4.0", "1e1", "1_0")
_WHOLE_NUMBER = re.compile(r"[+-]?\d{1,6}")


def form_number(text: str) -> int | str | None:
    """What a per-player text box means: blank -> None, a whole number -> int, else the text."""
    stripped = text.strip()
    if not stripped:
        return None
    return int(stripped) if _WHOLE_NUMBER.fullmatch(stripped) else stripped
