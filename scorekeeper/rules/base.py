"""``Ruleset``: the one replay loop every game shares, and the hooks each game fills in.

A ruleset turns a ``GameSetup`` and the recorded ``DealRecord`` facts into a
``GameState`` (``state.py``) by replaying the deals; a refused input raises
``RuleError`` (``refusal.py``); names are judged in ``names.py``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .names import name_key, player_key, validate_name
from .refusal import RuleError
from .state import (
    TRICKS_PER_DEAL,
    Contract,
    DealRecord,
    DealState,
    GameSetup,
    GameState,
    NextDeal,
    OptionSpec,
    ScheduledDeal,
    standings_for,
    totals_after,
)
from .words import N_, Term


@dataclass(frozen=True)
class SeatValueMessages:
    """The refusals of per-player values of one kind (tricks, bids): whole sentences each,
    so that no language has to build them from a noun."""

    not_playing: str
    twice: str
    missing: str
    count: str
    each: str
    value_range: str


#: By kind (``seat_values``' ``noun``).
SEAT_VALUE_MESSAGES = {
    "tricks": SeatValueMessages(
        not_playing=N_("%(player)s is not playing in this game; give tricks for %(players)s."),
        twice=N_("%(player)s appears twice in the tricks."),
        missing=N_("Tricks missing for %(players)s."),
        count=N_("Give tricks for exactly the %(count)d players."),
        each=N_("Give tricks for each player."),
        value_range=N_("%(player)s's tricks must be a whole number from 0 to %(most)d (got %(value)s)."),
    ),
    "bids": SeatValueMessages(
        not_playing=N_("%(player)s is not playing in this game; give bids for %(players)s."),
        twice=N_("%(player)s appears twice in the bids."),
        missing=N_("Bids missing for %(players)s."),
        count=N_("Give bids for exactly the %(count)d players."),
        each=N_("Give bids for each player."),
        value_range=N_("%(player)s's bid must be a whole number from 0 to %(most)d (got %(value)s)."),
    ),
}


@dataclass(frozen=True)
class Ruleset(ABC):
    """One game of the family.  Subclasses are stateless; the registry holds one each."""

    id: str
    name: str
    player_count: int
    deal_count: int
    contracts: tuple[Contract, ...]
    options: tuple[OptionSpec, ...] = field(default=())
    seating_direction: str = "clockwise"
    summary: str = ""

    declares_contract: bool = True
    """Whether a player chooses each deal's contract (else the deal number fixes it)."""

    def bids_in(self, number: int) -> bool:
        """Whether players bid before deal ``number``."""
        return False

    @property
    def choices_per_player(self) -> int:
        """How many deals of a whole game each player chooses the contract in (0 where nobody chooses)."""
        return self.deal_count // self.player_count if self.declares_contract else 0

    def bidding_order(self, setup: GameSetup, number: int) -> tuple[int, ...]:
        """Seats in the order they bid in deal ``number`` (dealer last); empty without bids."""
        if not self.bids_in(number):
            return ()
        dealer = self.dealer_of(setup, number)
        return tuple((dealer + offset) % self.player_count for offset in range(1, self.player_count + 1))

    def declares(self, number: int) -> bool:
        """Whether deal ``number`` has a declaration step before its cards are played."""
        return self.declares_contract or self.bids_in(number)

    # -- setup -------------------------------------------------------------------

    @property
    def term(self) -> Term:
        """The game's name as a word of the game (said translated in a refusal)."""
        return Term(self.id, self.name)

    def contract(self, contract_id: str) -> Contract:
        for contract in self.contracts:
            if contract.id == contract_id:
                return contract
        raise RuleError(
            "unknown_contract",
            N_("There is no contract called %(given)s."),
            "contract",
            {"given": repr(contract_id)},
        )

    def contract_label(self, contract_id: str) -> str:
        return self.contract(contract_id).label

    def make_setup(
        self,
        players: Sequence[object],
        first_dealer: object = None,
        options: Mapping[str, object] | None = None,
        *,
        draw: int | None = None,
    ) -> GameSetup:
        """Validate names, first dealer and options, and return the setup.

        ``first_dealer`` is a player's name (matched ignoring case) or None;
        when None, ``draw`` (a seat index the caller drew at random) is used.
        """
        names = self.validate_players(players)
        if first_dealer is None:
            if draw is None:
                raise RuleError("unknown_player", N_("Choose the first dealer."), "first_dealer")
            dealer_seat = draw % self.player_count
        else:
            dealer_seat = self.seat_of(names, first_dealer, "first_dealer")
        return GameSetup(
            ruleset=self.id,
            players=names,
            first_dealer=dealer_seat,
            options=self.validate_options(options or {}),
        )

    def validate_players(self, players: Sequence[object]) -> tuple[str, ...]:
        if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
            raise RuleError("invalid_players", N_("Players must be a list of names."), "players")
        if len(players) != self.player_count:
            raise RuleError(
                "invalid_players",
                N_("%(game)s needs exactly %(count)d players (got %(got)d)."),
                "players",
                {"game": self.term, "count": self.player_count, "got": len(players)},
            )

        # A refused name says its seat (param ``seat``), so a form marks that one field alone.
        names: list[str] = []
        for seat, raw in enumerate(players):
            try:
                names.append(validate_name(raw, in_game=True))
            except RuleError as refused:
                raise RuleError(
                    refused.code, refused.template, refused.field, {**refused.params, "seat": seat}
                ) from None
        seen: dict[str, str] = {}
        for seat, name in enumerate(names):
            key = name_key(name)
            if key in seen:
                raise RuleError(
                    "invalid_players",
                    N_("Two players are called %(player)s — names must differ (ignoring case)."),
                    "players",
                    {"player": name, "seat": seat},
                )
            seen[key] = name
        return tuple(names)

    def validate_options(self, options: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
        known = {spec.id: spec for spec in self.options}
        for key in options:
            if key not in known:
                raise RuleError(
                    "invalid_options",
                    N_("%(game)s has no option %(given)s."),
                    "options",
                    {"game": self.term, "given": repr(key)},
                )
        chosen: list[tuple[str, str]] = []
        for spec in self.options:
            value = options.get(spec.id, spec.default)
            if value is None:
                value = spec.default
            allowed = [choice for choice, _ in spec.choices]
            if value not in allowed:
                raise RuleError(
                    "invalid_options",
                    N_("%(option)s must be one of %(choices)s."),
                    "options",
                    {"option": spec, "choices": ", ".join(allowed)},
                )
            chosen.append((spec.id, str(value)))
        return tuple(sorted(chosen))

    @staticmethod
    def seat_of(players: Sequence[str], name: object, field_name: str = "player") -> int:
        """The seat of the player ``name`` names (case and compatibility forms aside), else a
        ``RuleError`` (``unknown_player``): also when ``name`` is no name at all (``player_key``)."""
        key = player_key(name)
        if key is not None:
            for seat, player in enumerate(players):
                if name_key(player) == key:
                    return seat
        raise RuleError(
            "unknown_player", N_("%(player)s is not playing in this game."), field_name, {"player": str(name)}
        )

    # -- per-player values ------------------------------------------------------------

    def seat_values(
        self,
        setup: GameSetup,
        values: object,
        field_name: str,
        *,
        mismatch_code: str,
        range_code: str,
        noun: str,
    ) -> tuple[int, ...]:
        """Turn ``{"Ann": 3, ...}`` (or a list in seat order) into a tuple by seat.

        Every player must be there exactly once and every value must be a
        whole number 0..13; anything else raises with the given codes.  ``noun`` is the
        kind of value, ``"tricks"`` or ``"bids"`` (the refusals' sentences: ``SEAT_VALUE_MESSAGES``).
        """
        says = SEAT_VALUE_MESSAGES[noun]
        if isinstance(values, Mapping):
            by_seat: dict[int, object] = {}
            for raw_name, value in values.items():
                try:
                    seat = self.seat_of(setup.players, raw_name, field_name)
                except RuleError:
                    raise RuleError(
                        mismatch_code,
                        says.not_playing,
                        field_name,
                        {"player": str(raw_name), "players": setup.players},
                    ) from None
                if seat in by_seat:
                    raise RuleError(mismatch_code, says.twice, field_name, {"player": setup.players[seat]})
                by_seat[seat] = value
            missing = [setup.players[s] for s in range(len(setup.players)) if s not in by_seat]
            if missing:
                raise RuleError(mismatch_code, says.missing, field_name, {"players": tuple(missing)})
            ordered = [by_seat[s] for s in range(len(setup.players))]
        elif isinstance(values, Sequence) and not isinstance(values, (str, bytes)):
            if len(values) != len(setup.players):
                raise RuleError(mismatch_code, says.count, field_name, {"count": len(setup.players)})
            ordered = list(values)
        else:
            raise RuleError(mismatch_code, says.each, field_name)
        result: list[int] = []
        for seat, value in enumerate(ordered):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= TRICKS_PER_DEAL:
                raise RuleError(
                    range_code,
                    says.value_range,
                    field_name,
                    {"player": setup.players[seat], "most": TRICKS_PER_DEAL, "value": repr(value)},
                )
            result.append(value)
        return tuple(result)

    def tricks_for(self, setup: GameSetup, tricks: object) -> tuple[int, ...]:
        """Validated tricks by seat: one whole number 0..13 per player, summing to 13."""
        counted = self.seat_values(
            setup, tricks, "tricks", mismatch_code="tricks_players", range_code="tricks_range", noun="tricks"
        )
        check_tricks_sum(counted)
        return counted

    # -- the game --------------------------------------------------------------------

    def dealer_of(self, setup: GameSetup, number: int) -> int:
        """Seat index of the dealer of deal ``number`` (1-based)."""
        return (setup.first_dealer + number - 1) % self.player_count

    def schedule(self, setup: GameSetup) -> tuple[ScheduledDeal, ...]:
        """Every deal of the game as the setup fixes it: dealer, chooser, roles, fixed contract, bids.

        What a deal depends on beyond this (the contracts a chooser has left, the dealer's
        forbidden bid given the others' bids) is the state's, as the deals are played.
        """
        deals: list[ScheduledDeal] = []
        remaining = self.remaining_for(setup, ())
        for number in range(1, self.deal_count + 1):
            dealer = self.dealer_of(setup, number)
            chooser = self.chooser_of(setup, number)
            fixed, _ = self.offer(number, chooser, remaining)
            hook_total = None
            if self.bids_in(number):
                # With nobody else bidding anything, the forbidden bid is the total itself.
                hook_total = self.dealer_forbidden_bid(setup, number, [0] * self.player_count)
            deals.append(
                ScheduledDeal(
                    number=number,
                    dealer=dealer,
                    chooser=chooser,
                    roles=self.roles(dealer),
                    contract=fixed,
                    bidding_order=self.bidding_order(setup, number),
                    hook_total=hook_total,
                )
            )
        return tuple(deals)

    def replay(self, setup: GameSetup, deals: Sequence[DealRecord]) -> GameState:
        """Replay every recorded deal, validating each, and return the state.

        Raises ``RuleError`` at the first deal that breaks a rule.
        """
        return self.replay_after(setup, (), deals)

    def extend(self, state: GameState, deals: Sequence[DealRecord]) -> GameState:
        """``state`` with ``deals`` recorded after its own.

        The same state (or the same ``RuleError``) as replaying all the deals from the
        start, without replaying the ones ``state`` already holds: recording a deal
        checks and scores that deal alone.
        """
        return self.replay_after(state.setup, state.deals, deals)

    def replay_after(
        self, setup: GameSetup, done: Sequence[DealState], deals: Sequence[DealRecord]
    ) -> GameState:
        """Replay ``deals`` after the deals ``done`` (already replayed, validated), and return the state.

        The one replay loop of every game (``push`` takes one deal); what differs between
        games lives in the hooks below (``check_setup``, ``chooser_of``, ``roles``,
        ``check_declaration``, ``dealer_forbidden_bid``, ``quotas_for``, ``deal_scores``,
        ``aims_made``, ``remaining_for``, ``offer``).
        """
        self.check_setup(setup)
        totals = totals_after(done, self.player_count)
        states: list[DealState] = list(done)
        for number, record in enumerate(deals, start=len(done) + 1):
            if number > self.deal_count:
                raise RuleError(
                    "game_finished",
                    N_("The game is over after %(count)d deals."),
                    "number",
                    {"count": self.deal_count},
                )
            if states and states[-1].pending:
                raise RuleError(
                    "deal_pending",
                    N_("Deal %(deal)d has no tricks yet; enter them before the next deal."),
                    "tricks",
                    {"deal": number - 1},
                )
            deal = self.push(setup, states, number, record, totals)
            if deal.totals is not None:
                totals = list(deal.totals)
            states.append(deal)

        remaining = self.remaining_for(setup, states)
        finished = len(states) == self.deal_count and not states[-1].pending
        next_deal: NextDeal | None = None
        if not finished and not (states and states[-1].pending):
            number = len(states) + 1
            dealer = self.dealer_of(setup, number)
            chooser = self.chooser_of(setup, number)
            contract, available = self.offer(number, chooser, remaining)
            next_deal = NextDeal(
                number=number,
                dealer=dealer,
                chooser=chooser,
                contract=contract,
                available_contracts=available,
                roles=self.roles(dealer),
                bidding_order=self.bidding_order(setup, number),
            )
        return GameState(
            setup=setup,
            deals=tuple(states),
            totals=tuple(totals),
            next_deal=next_deal,
            remaining_contracts=remaining,
            standings=standings_for(totals),
            finished=finished,
            deal_count=self.deal_count,
        )

    def push(
        self,
        setup: GameSetup,
        done: Sequence[DealState],
        number: int,
        record: DealRecord,
        totals: Sequence[int],
    ) -> DealState:
        """Check deal ``number`` (``record``) after the deals ``done`` and derive its state.

        ``totals`` are the running totals before it.  Raises ``RuleError`` when the
        deal breaks a rule.
        """
        dealer = self.dealer_of(setup, number)
        chooser = self.chooser_of(setup, number)
        roles = self.roles(dealer)
        contract = self.parse_contract(setup, number, record.contract)
        assert contract is not None  # every deal 1..deal_count has a contract
        bids = self.parse_bids(setup, number, record.bids)
        self.check_declaration(setup, done, number, contract, bids)
        quotas = self.quotas_for(roles, contract, bids)
        forbidden = None if bids is None else self.dealer_forbidden_bid(setup, number, bids)
        if record.tricks is None:
            return DealState(
                number, dealer, chooser, contract, roles, bids, None, quotas, None, None, forbidden
            )
        tricks = self.tricks_for(setup, record.tricks)
        scores = self.deal_scores(setup, number, contract, quotas, tricks)
        after = tuple(total + score for total, score in zip(totals, scores, strict=True))
        made = self.aims_made(number, contract, quotas, tricks)
        return DealState(
            number, dealer, chooser, contract, roles, bids, tricks, quotas, scores, after, forbidden, made
        )

    # -- the hooks each game fills in ----------------------------------------------------

    def check_setup(self, setup: GameSetup) -> None:
        """Raise ``RuleError`` if ``setup`` cannot be played (an option this game lacks)."""
        return None  # nothing beyond ``make_setup``'s checks, unless a game says otherwise

    def chooser_of(self, setup: GameSetup, number: int) -> int | None:
        """The seat that chooses the contract of deal ``number``; None where the number fixes it."""
        return None

    @abstractmethod
    def roles(self, dealer: int) -> tuple[str, ...]:
        """Role of each seat in a deal that ``dealer`` deals."""

    def check_declaration(
        self,
        setup: GameSetup,
        done: Sequence[DealState],
        number: int,
        contract: str,
        bids: tuple[int, ...] | None,
    ) -> None:
        """Raise ``RuleError`` if the (well-formed) declaration breaks a rule, given the deals ``done``."""
        return None  # any well-formed declaration stands, unless a game says otherwise

    def dealer_forbidden_bid(self, setup: GameSetup, number: int, bids: Sequence[int]) -> int | None:
        """The bid the dealer may not make in deal ``number``, given the others' ``bids`` by seat.

        The dealer's own entry in ``bids`` is ignored.  None when nothing is forbidden
        (games and deals without a hook rule).
        """
        return None

    @abstractmethod
    def quotas_for(
        self, roles: Sequence[str], contract: str, bids: tuple[int, ...] | None
    ) -> tuple[int, ...] | None:
        """Each seat's target in a deal (quota or bid); None where a deal has none."""

    @abstractmethod
    def deal_scores(
        self,
        setup: GameSetup,
        number: int,
        contract: str,
        quotas: Sequence[int] | None,
        tricks: Sequence[int],
    ) -> tuple[int, ...]:
        """Each seat's points in deal ``number``."""

    def aims_made(
        self, number: int, contract: str, quotas: Sequence[int] | None, tricks: Sequence[int]
    ) -> tuple[bool, ...] | None:
        """Per seat, whether the player reached their aim (quota or bid); None without aims."""
        return None

    @abstractmethod
    def remaining_for(self, setup: GameSetup, deals: Sequence[DealState]) -> tuple[tuple[str, ...], ...]:
        """Per seat, the contracts still to come after ``deals``."""

    @abstractmethod
    def offer(
        self, number: int, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        """What deal ``number`` offers: its fixed contract (or None) and the contracts allowed."""

    def parse_deal(
        self,
        setup: GameSetup,
        number: int,
        *,
        contract: object = None,
        bids: object = None,
        tricks: object = None,
    ) -> DealRecord:
        """Turn loosely typed input (names as keys) into a ``DealRecord`` for deal ``number``.

        Only the shape is checked here; ``replay`` checks the rules.
        """
        return DealRecord(
            contract=self.parse_contract(setup, number, contract),
            bids=self.parse_bids(setup, number, bids),
            tricks=None if tricks is None else self.tricks_for(setup, tricks),
        )

    @abstractmethod
    def parse_contract(self, setup: GameSetup, number: int, contract: object) -> str | None: ...

    @abstractmethod
    def parse_bids(self, setup: GameSetup, number: int, bids: object) -> tuple[int, ...] | None: ...


def check_tricks_sum(tricks: Sequence[int]) -> None:
    total = sum(tricks)
    if total != TRICKS_PER_DEAL:
        raise RuleError(
            "tricks_sum",
            N_("Tricks must add up to %(total)d (got %(got)d)."),
            "tricks",
            {"total": TRICKS_PER_DEAL, "got": total},
        )
