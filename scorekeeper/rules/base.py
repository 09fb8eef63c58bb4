"""``Ruleset``: the one replay loop every game shares, and the hooks each game fills in.

A ruleset turns a ``GameSetup`` and the recorded ``DealRecord`` facts into a
``GameState`` (``state.py``) by replaying the deals; a refused input raises
``RuleError`` (``refusal.py``); names are judged in ``names.py``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .names import name_key, player_key, validate_name
from .refusal import RuleError
from .state import (
    PAIRS,
    SUIT,
    TRICKS,
    TRICKS_PER_DEAL,
    Contract,
    DealRecord,
    DealState,
    Fact,
    GameSetup,
    GameState,
    NextDeal,
    Notice,
    OptionSpec,
    Preset,
    ScheduledDeal,
    SeatValueMessages,
    standings_for,
    totals_after,
)
from .words import N_, Term

# NOTE: the one preset of a game that has no other (its rules as RULES.md gives them).
STANDARD = Preset("standard", N_("Standard"))


#: By kind (``seat_values``' ``noun``); a counted fact's are its declaration's (``Fact.messages``).
SEAT_VALUE_MESSAGES = {
    "tricks": SeatValueMessages(
        not_playing=N_("%(player)s is not playing in this game; give tricks for %(players)s."),
        twice=N_("%(player)s appears twice in the tricks."),
        missing=N_("Tricks missing for %(players)s."),
        count=N_("Give tricks for exactly the %(count)d players."),
        each=N_("Give tricks for each player."),
        value_range=N_("%(player)s's tricks must be a whole number from 0 to %(most)d (got %(value)s)."),
        enter_named=N_("Enter the tricks for %(players)s."),
        enter_every=N_("Enter the tricks for every player."),
        enter_one=N_("%(player)s: enter the tricks."),
    ),
    "bids": SeatValueMessages(
        not_playing=N_("%(player)s is not playing in this game; give bids for %(players)s."),
        twice=N_("%(player)s appears twice in the bids."),
        missing=N_("Bids missing for %(players)s."),
        count=N_("Give bids for exactly the %(count)d players."),
        each=N_("Give bids for each player."),
        value_range=N_("%(player)s's bid must be a whole number from 0 to %(most)d (got %(value)s)."),
        enter_named=N_("Enter the bids for %(players)s."),
        enter_every=N_("Enter the bids for every player."),
        enter_one=N_("%(player)s: enter the bids."),
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

    presets: tuple[Preset, ...] = (STANDARD,)
    """The house rules a table may play by (RULES.md "House rules"), the standard one first: the
    default.  The engine scores from the one in force (``preset_of``)."""
    preset_option: str | None = None
    """The option (of ``options``) that chooses the preset, its choices the presets; None where
    the table does not choose (one preset): ``preset``, or a name of the game's own (``scoring``)."""
    player_counts: tuple[int, ...] = ()
    """The numbers of players the game is played by; empty: ``player_count`` alone.
    ``player_count`` and ``deal_count`` are the default game's (first preset, ``player_count``)."""

    role_labels: Mapping[str, str] = field(default_factory=lambda: {"dealer": N_("Dealer"), "player": ""})
    """Each role ``roles`` gives, as the pages name it (a message id; "" for a seat without a
    role).  A role id means the same in every game that has it, and so has one label."""

    deal_facts: tuple[Fact, ...] = ()
    """The facts a deal may carry beyond its contract and bids, tricks among them, in the order the
    table enters them and API.md K5 checks them; empty: a deal takes tricks alone."""
    stylesheets: tuple[str, ...] = ()
    """The stylesheets its pages link beyond the app's own, in order (paths under ``static/``: the
    entry card's taps, the part grid, its own), saved offline with them; empty: the app's suffice."""
    made_apart: str | None = None
    """The contract whose quota the player page counts apart ("<contract> made: 3 of 5"); None: none."""

    deal_figures: tuple[str, ...] = ()
    """The per-seat figures a complete deal carries beyond its scores (``DealState.figures``), by id,
    as the API names them; empty: none."""
    next_deal_lists: tuple[str, ...] = ()
    """The lists of seats the next deal names (``NextDeal.seat_lists``), by id; empty: none."""
    game_lists: tuple[str, ...] = ()
    """The lists of seats the whole game names (``GameState.seat_lists``), by id; empty: none."""
    game_tallies: tuple[str, ...] = ()
    """The counts tallied per pair of players (``GameState.tallies``), by id; empty: none."""
    warns: bool = False
    """Whether its deals may carry warnings (``DealState.warnings``)."""
    figure_words: tuple[tuple[str, str, str], ...] = ()
    """How the pages name each of ``deal_figures``: (id, heading, short heading), message ids (the
    sheet's and the CSV's columns); empty: the figures are the API's alone."""
    tally_goal: int = 0
    """What a count of ``game_tallies`` should reach (a count "1/2" falls short); 0: none."""
    totals_check: bool = False
    """Whether the deal log adds up the running totals after each deal, the table's check (a game
    whose totals add up to a known figure at known deals); a game in parts always does."""

    def __post_init__(self) -> None:
        if self.preset_option is not None:
            spec = {option.id: option for option in self.options}[self.preset_option]
            if spec.choices != tuple((preset.id, preset.label) for preset in self.presets):
                raise ValueError(f"{self.id}: the {spec.id} option's choices are not its presets")
        elif len(self.presets) != 1:
            raise ValueError(f"{self.id}: several presets need the option that chooses one")
        if self.player_count not in self.seat_counts:
            raise ValueError(f"{self.id}: {self.player_count} players is not one of its counts")

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """The numbers of players the game is played by."""
        return self.player_counts or (self.player_count,)

    def presets_for(self, player_count: int) -> tuple[Preset, ...]:
        """The presets a table of ``player_count`` may choose, the default first."""
        return tuple(preset for preset in self.presets if preset.plays_with(player_count))

    def preset_of(self, setup: GameSetup) -> Preset:
        """The preset in force in the game ``setup`` (``invalid_options`` for one it cannot have)."""
        if self.preset_option is None:
            return self.presets[0]
        chosen = setup.option(self.preset_option, self.presets[0].id)
        spec = {option.id: option for option in self.options}[self.preset_option]
        for preset in self.presets:
            if preset.id == chosen:
                if not preset.plays_with(len(setup.players)):
                    raise RuleError(
                        "invalid_options",
                        N_("%(preset)s is for %(counts)s players only (this game has %(got)d)."),
                        "options",
                        {
                            "preset": preset,
                            "counts": tuple(str(count) for count in preset.player_counts),
                            "got": len(setup.players),
                        },
                    )
                return preset
        raise RuleError(
            "invalid_options",
            N_("%(option)s must be one of %(choices)s."),
            "options",
            {"option": spec, "choices": ", ".join(preset.id for preset in self.presets)},
        )

    def deals_in(self, setup: GameSetup) -> int:
        """How many deals the game ``setup`` has (its preset's and its players', where they decide)."""
        return self.deal_count

    @property
    def most_deals(self) -> int:
        """The most deals a game of this ruleset can have, whatever its preset and player count."""
        return self.deal_count

    def negative_part(self, setup: GameSetup) -> int:
        """How many deals the first part of a game in two parts has (the negative part); 0 for a
        game not in parts.  A game in parts has the pages' part grid and the log's sum of the totals."""
        return 0

    def tricks_per_deal(self, setup: GameSetup) -> int:
        """Tricks in each deal of the game ``setup`` (the cards each player holds)."""
        return TRICKS_PER_DEAL

    @property
    def most_tricks(self) -> int:
        """The most tricks a deal of this ruleset can have, whatever its player count."""
        return TRICKS_PER_DEAL

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
        when None, ``draw`` (a seat index the caller drew at random) is used, modulo the
        number of players.
        """
        names = self.validate_players(players)
        if first_dealer is None:
            if draw is None:
                raise RuleError("unknown_player", N_("Choose the first dealer."), "first_dealer")
            dealer_seat = draw % len(names)
        else:
            dealer_seat = self.seat_of(names, first_dealer, "first_dealer")
        setup = GameSetup(
            ruleset=self.id,
            players=names,
            first_dealer=dealer_seat,
            options=self.validate_options(options or {}),
        )
        self.check_setup(setup)
        return setup

    def validate_players(self, players: Sequence[object]) -> tuple[str, ...]:
        if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
            raise RuleError("invalid_players", N_("Players must be a list of names."), "players")
        self.check_player_count(len(players))

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

    def check_player_count(self, count: int) -> None:
        """``invalid_players`` unless the game is played by ``count`` players."""
        if count in self.seat_counts:
            return
        if len(self.seat_counts) > 1:
            raise RuleError(
                "invalid_players",
                N_("%(game)s needs %(fewest)d to %(most)d players (got %(got)d)."),
                "players",
                {
                    "game": self.term,
                    "fewest": min(self.seat_counts),
                    "most": max(self.seat_counts),
                    "got": count,
                },
            )
        raise RuleError(
            "invalid_players",
            N_("%(game)s needs exactly %(count)d players (got %(got)d)."),
            "players",
            {"game": self.term, "count": self.player_count, "got": count},
        )

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
        most: int = TRICKS_PER_DEAL,
    ) -> tuple[int, ...]:
        """Turn ``{"Ann": 3, ...}`` (or a list in seat order) into a tuple by seat.

        Every player must be there exactly once and every value must be a
        whole number 0..``most``; anything else raises with the given codes.  ``noun`` is the
        kind of value, ``"tricks"``, ``"bids"`` or a counted fact's id (the refusals' sentences:
        ``SEAT_VALUE_MESSAGES``, or the fact's ``messages``).
        """
        says = SEAT_VALUE_MESSAGES.get(noun) or self.fact(noun).messages
        assert says is not None, f"{noun}: a counted fact says its refusals"
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
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
                raise RuleError(
                    range_code,
                    says.value_range,
                    field_name,
                    {"player": setup.players[seat], "most": most, "value": repr(value)},
                )
            result.append(value)
        return tuple(result)

    def tricks_for(self, setup: GameSetup, tricks: object) -> tuple[int, ...]:
        """Validated tricks by seat: one whole number 0..13 per player, summing to 13 (the game's
        ``tricks_per_deal``)."""
        total = self.tricks_per_deal(setup)
        counted = self.seat_values(
            setup,
            tricks,
            "tricks",
            mismatch_code="tricks_players",
            range_code="tricks_range",
            noun="tricks",
            most=total,
        )
        check_tricks_sum(counted, total)
        return counted

    # -- the game --------------------------------------------------------------------

    def dealer_of(self, setup: GameSetup, number: int) -> int:
        """Seat index of the dealer of deal ``number`` (1-based): the deal passes to the next seat."""
        return (setup.first_dealer + number - 1) % len(setup.players)

    def schedule(self, setup: GameSetup) -> tuple[ScheduledDeal, ...]:
        """Every deal of the game as the setup fixes it: dealer, chooser, roles, fixed contract, bids.

        What a deal depends on beyond this (the contracts a chooser has left, the dealer's
        forbidden bid given the others' bids) is the state's, as the deals are played.
        """
        self.check_setup(setup)
        deals: list[ScheduledDeal] = []
        remaining = self.remaining_for(setup, ())
        for number in range(1, self.deals_in(setup) + 1):
            dealer = self.dealer_of(setup, number)
            chooser = self.chooser_of(setup, number)
            fixed, _ = self.offer_for(setup, number, chooser, remaining)
            hook_total = None
            if self.bids_in(number):
                # With nobody else bidding anything, the forbidden bid is the total itself.
                hook_total = self.dealer_forbidden_bid(setup, number, [0] * len(setup.players))
            deals.append(
                ScheduledDeal(
                    number=number,
                    dealer=dealer,
                    chooser=chooser,
                    roles=self.roles_for(setup, dealer),
                    contract=fixed,
                    bidding_order=self.bidding_order(setup, number),
                    hook_total=hook_total,
                    fields=self.fields_for(setup, number),
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
        ``check_declaration``, ``dealer_forbidden_bid``, ``quotas_for``, ``check_facts``,
        ``scores_for`` (``deal_scores``), ``aims_made``, ``remaining_for``, ``offer_for``,
        ``fields_for``).
        """
        self.check_setup(setup)
        deal_count = self.deals_in(setup)
        totals = totals_after(done, len(setup.players))
        states: list[DealState] = list(done)
        for number, record in enumerate(deals, start=len(done) + 1):
            if number > deal_count:
                raise RuleError(
                    "game_finished",
                    N_("The game is over after %(count)d deals."),
                    "number",
                    {"count": deal_count},
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
        finished = len(states) == deal_count and not states[-1].pending
        next_deal: NextDeal | None = None
        if not finished and not (states and states[-1].pending):
            number = len(states) + 1
            dealer = self.dealer_of(setup, number)
            chooser = self.chooser_of(setup, number)
            contract, available = self.offer_for(setup, number, chooser, remaining)
            next_deal = NextDeal(
                number=number,
                dealer=dealer,
                chooser=chooser,
                contract=contract,
                available_contracts=available,
                roles=self.roles_for(setup, dealer),
                bidding_order=self.bidding_order(setup, number),
                fields=self.fields_for(setup, number),
            )
        return GameState(
            setup=setup,
            deals=tuple(states),
            totals=tuple(totals),
            next_deal=next_deal,
            remaining_contracts=remaining,
            standings=standings_for(totals),
            finished=finished,
            deal_count=deal_count,
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
        roles = self.roles_for(setup, dealer)
        contract = self.parse_contract(setup, number, record.contract)
        assert contract is not None  # every deal 1..deal_count has a contract
        bids = self.parse_bids(setup, number, record.bids)
        self.check_declaration(setup, done, number, contract, bids)
        quotas = self.quotas_for(roles, contract, bids)
        forbidden = None if bids is None else self.dealer_forbidden_bid(setup, number, bids)
        self.check_facts(setup, number, contract, record)
        if self.is_pending(record):
            return DealState(
                number,
                dealer,
                chooser,
                contract,
                roles,
                bids,
                None,
                quotas,
                None,
                None,
                forbidden,
                facts=record.facts,
                pending=True,
            )
        tricks = None if record.tricks is None else self.tricks_for(setup, record.tricks)
        scores = self.scores_for(setup, number, contract, quotas, tricks, record)
        after = tuple(total + score for total, score in zip(totals, scores, strict=True))
        made = None if tricks is None else self.aims_made(number, contract, quotas, tricks)
        return DealState(
            number,
            dealer,
            chooser,
            contract,
            roles,
            bids,
            tricks,
            quotas,
            scores,
            after,
            forbidden,
            made,
            facts=record.facts,
        )

    def takes_no(self, name: str) -> RuleError:
        """The refusal of a fact this game's deals never take (``unknown_field``)."""
        return RuleError(
            "unknown_field",
            N_("%(game)s takes no %(given)s."),
            name,
            {"game": self.term, "given": repr(name)},
        )

    # -- the hooks each game fills in ----------------------------------------------------

    def check_setup(self, setup: GameSetup) -> None:
        """Raise ``RuleError`` if ``setup`` cannot be played (a preset this game or table cannot have)."""
        self.preset_of(setup)

    def chooser_of(self, setup: GameSetup, number: int) -> int | None:
        """The seat that chooses the contract (or the trumps) of deal ``number``; None where nobody does."""
        return None

    def roles(self, dealer: int) -> tuple[str, ...]:
        """Role of each seat in a deal that ``dealer`` deals, for a game of one player count.

        The replay asks ``roles_for``, which says this unless the game says otherwise.
        """
        raise NotImplementedError(f"{self.id}: roles_for says the roles")

    def roles_for(self, setup: GameSetup, dealer: int) -> tuple[str, ...]:
        """Role of each seat of the game ``setup`` in a deal that ``dealer`` deals."""
        return self.roles(dealer)

    def declares_in(self, setup: GameSetup, number: int) -> bool:
        """Whether deal ``number`` of the game ``setup`` has a declaration before its cards are played
        (a contract chosen, bids, trumps named)."""
        return self.declares(number)

    def fields_for(self, setup: GameSetup, number: int) -> tuple[str, ...]:
        """The facts deal ``number`` takes (``NextDeal.fields``); empty where a game says nothing."""
        return ()

    def fields_with(self, setup: GameSetup, number: int, contract: str) -> tuple[str, ...]:
        """The facts deal ``number`` takes once its contract is ``contract``, in the order the table
        enters them (a declaration first): ``fields_for``, unless the chooser's contract decides them
        (``NextDeal.fields_by_contract``), where the entry card asks them with the contract."""
        return self.fields_for(setup, number)

    def asked_when_pending(self, fields: Sequence[str], deal: DealRecord | DealState) -> tuple[str, ...]:
        """Of a pending ``deal``'s ``fields``, those its result is entered with: its results, and a
        declaration it was declared without (a side bet may still be entered with the results; a suit
        named is not asked again)."""
        return tuple(name for name in fields if not self.fact(name).declared or deal.fact(name) is None)

    def pairs_allowed(self, setup: GameSetup, number: int, contract: str) -> tuple[tuple[int, int], ...]:
        """The (by, against) seats a side bet (a fact of kind ``PAIRS``) may join in deal ``number`` of
        ``contract``, for the entry card to offer (the engine checks every bet again): every two
        different seats, unless the game says otherwise."""
        seats = range(len(setup.players))
        return tuple((by, against) for by in seats for against in seats if by != against)

    def settled(self, setup: GameSetup, deal: DealState) -> tuple[int, ...]:
        """What each side bet of the complete ``deal`` (its ``PAIRS`` fact, in its order) moves from
        ``against`` to ``by`` (negative: the other way); empty where the game has none."""
        return ()

    def reminders(self, state: GameState) -> tuple[Notice, ...]:
        """What the table should know before it plays the deal at hand (the pending one, else the next),
        never refusing anything: e.g. who still owes the chooser something; empty by default."""
        return ()

    def reminders_by_count(self, setup: GameSetup, number: int) -> tuple[tuple[int, int, Notice], ...]:
        """``reminders`` before deal ``number`` as they follow from a count a page can keep (the offline
        entry, whose deals the server has not seen): each (seat, made, reminder) said when ``seat`` made
        ``made`` side bets against deal ``number``'s chooser in that chooser's deals before it (one a
        deal); empty by default."""
        return ()

    def check_facts(self, setup: GameSetup, number: int, contract: str, record: DealRecord) -> None:
        """Raise ``RuleError`` if deal ``number``'s facts beyond its contract and bids break a rule.

        Called for every deal, pending or not, before it is scored.  A game that takes only
        tricks refuses the facts it has no use for; a game that takes more checks them here.
        """
        for name in record.facts:
            if name not in self.facts:
                raise self.takes_no(name)

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

    def deal_scores(
        self,
        setup: GameSetup,
        number: int,
        contract: str,
        quotas: Sequence[int] | None,
        tricks: Sequence[int],
    ) -> tuple[int, ...]:
        """Each seat's points in deal ``number``, a game that scores tricks alone."""
        raise NotImplementedError(f"{self.id}: scores_for says the scores")

    def scores_for(
        self,
        setup: GameSetup,
        number: int,
        contract: str,
        quotas: Sequence[int] | None,
        tricks: Sequence[int] | None,
        record: DealRecord,
    ) -> tuple[int, ...]:
        """Each seat's points in the complete deal ``number`` (``record``, checked; ``tricks`` validated).

        ``deal_scores`` of the tricks, unless the game scores more than tricks.
        """
        assert tricks is not None, "a game that scores tricks alone has them in every complete deal"
        return self.deal_scores(setup, number, contract, quotas, tricks)

    def aims_made(
        self, number: int, contract: str, quotas: Sequence[int] | None, tricks: Sequence[int]
    ) -> tuple[bool, ...] | None:
        """Per seat, whether the player reached their aim (quota or bid); None without aims."""
        return None

    @abstractmethod
    def remaining_for(self, setup: GameSetup, deals: Sequence[DealState]) -> tuple[tuple[str, ...], ...]:
        """Per seat, the contracts still to come after ``deals``."""

    def left_to_choose(self, setup: GameSetup, deals: Sequence[DealState]) -> tuple[tuple[str, ...], ...]:
        """``remaining_for`` of a game whose chooser plays each contract once: per seat, the contracts
        (in the declared order) that seat has not chosen in ``deals``."""
        return contracts_left(
            tuple(contract.id for contract in self.contracts),
            len(setup.players),
            [(deal.chooser, deal.contract) for deal in deals],
        )

    def chooser_offer(
        self, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        """``offer`` of such a game: no contract fixed, the chooser's contracts left allowed."""
        assert chooser is not None
        return None, remaining[chooser]

    def offer(
        self, number: int, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        """What deal ``number`` offers: its fixed contract (or None) and the contracts allowed.

        The replay asks ``offer_for``, which says this unless the game says otherwise.
        """
        raise NotImplementedError(f"{self.id}: offer_for says what a deal offers")

    def offer_for(
        self, setup: GameSetup, number: int, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        """What deal ``number`` of the game ``setup`` offers (``offer``, where the setup changes nothing)."""
        return self.offer(number, chooser, remaining)

    def parse_deal(
        self,
        setup: GameSetup,
        number: int,
        *,
        contract: object = None,
        bids: object = None,
        tricks: object = None,
        **facts: object,
    ) -> DealRecord:
        """Turn loosely typed input (names as keys) into a ``DealRecord`` for deal ``number``.

        Only the shape is checked here; ``replay`` checks the rules.  ``facts`` are the deal
        facts beyond tricks (``deal_facts``), by name; a game that takes none refuses them.
        """
        for name, value in facts.items():
            if value is not None:
                raise self.takes_no(name)
        return DealRecord(
            contract=self.parse_contract(setup, number, contract),
            bids=self.parse_bids(setup, number, bids),
            tricks=None if tricks is None else self.tricks_for(setup, tricks),
        )

    def parse_next(
        self,
        setup: GameSetup,
        done: Sequence[DealState],
        number: int,
        *,
        contract: object = None,
        bids: object = None,
        tricks: object = None,
        **facts: object,
    ) -> DealRecord:
        """``parse_deal`` of the next deal, ``number``, after the deals ``done``: for a game whose order
        of checks puts a rule about the deals before (a contract already chosen) ahead of the facts'
        shapes; the replay checks every rule again."""
        return self.parse_deal(setup, number, contract=contract, bids=bids, tricks=tricks, **facts)

    @property
    def facts(self) -> tuple[str, ...]:
        """The facts a deal of this game may carry beyond contract, bids and tricks (``deal_facts``)."""
        return tuple(fact.id for fact in self.deal_facts if fact.id != "tricks")

    @property
    def all_facts(self) -> tuple[Fact, ...]:
        """Every fact a deal of this game may carry, the tricks among them, in the order the table
        enters them (``deal_facts``; a game that declares none: the tricks alone)."""
        return self.deal_facts if TRICKS in self.deal_facts else (TRICKS, *self.deal_facts)

    def is_pending(self, record: DealRecord) -> bool:
        """Whether no result of the deal ``record`` is in yet: neither its tricks nor a fact that is
        not ``declared`` (a declaration, a trump suit named, is given before the cards are played)."""
        declared = {fact.id for fact in self.deal_facts if fact.declared}
        return record.tricks is None and all(name in declared for name in record.facts)

    @property
    def named_suit(self) -> Fact | None:
        """The fact of a suit named before the cards are played (a trump suit); None: none."""
        return next((fact for fact in self.deal_facts if fact.kind == SUIT), None)

    def suit(self, value: object) -> str:
        """``value`` as a suit the ``named_suit`` fact takes, or ``unknown_suit``."""
        fact = self.named_suit
        if fact is not None and isinstance(value, str) and value in dict(fact.choices):
            return value
        raise RuleError(
            "unknown_suit",
            N_("The trump suit must be clubs, diamonds, hearts or spades (got %(given)s)."),
            fact.id if fact is not None else "trumps",
            {"given": repr(value)},
        )

    def counts_for(self, setup: GameSetup, name: str, values: object) -> tuple[int, ...]:
        """A counted fact by seat (``Fact.total`` cards of a kind): whole numbers adding up to its total."""
        total = self.fact(name).total
        counted = self.seat_values(
            setup,
            values,
            name,
            mismatch_code="count_players",
            range_code="count_range",
            noun=name,
            most=total,
        )
        if sum(counted) != total:
            raise RuleError(
                "count_sum", self.fact(name).sum_message, name, {"total": total, "got": sum(counted)}
            )
        return counted

    def not_taken(self, number: int, contract: str, name: str) -> RuleError:
        """``field_not_allowed``: a fact deal ``number``'s contract does not take."""
        return RuleError(
            "field_not_allowed",
            N_("Deal %(deal)d (%(contract)s) takes no “%(field)s”."),
            name,
            {"deal": number, "contract": self.contract(contract), "field": self.fact(name)},
        )

    def check_given(
        self,
        setup: GameSetup,
        number: int,
        contract: str,
        given: Collection[str],
        *,
        fields: Sequence[str],
        takes: Collection[str],
        results: Sequence[str],
        suit_named: bool,
    ) -> None:
        """Which of a deal's ``fields`` are ``given``: ``field_not_allowed`` for one the contract does not
        take (in the order of ``fields``), then ``field_required``: the suit named where
        ``suit_named``, and every one of its ``results`` once one is given."""
        for name in fields:
            if name in given and name not in takes:
                raise self.not_taken(number, contract, name)
        if suit_named and (self.named_suit.id if self.named_suit is not None else "trumps") not in given:
            raise self.suit_missing(setup, number)
        if any(name in given for name in results):
            for name in results:
                if name not in given:
                    raise self.result_missing(number, contract, name)

    def order_of_players(
        self, setup: GameSetup, places: object, count: int, stranger: str, twice: str
    ) -> tuple[int, ...]:
        """``places``: ``count`` different players in the order they went out, as seats
        (``places_invalid``: the fact's own message for the wrong shape, ``stranger`` for a name that
        is not a player's, ``twice`` for a player given twice, each with the ``player``)."""
        if isinstance(places, (str, bytes)) or not isinstance(places, Sequence) or len(places) != count:
            raise RuleError(*self.fact("places").refusal, "places")
        seats: list[int] = []
        for name in places:
            try:
                seats.append(self.seat_of(setup.players, name, "places"))
            except RuleError:
                raise RuleError("places_invalid", stranger, "places", {"player": str(name)}) from None
        if len(set(seats)) != count:
            again = next(seat for seat in seats if seats.count(seat) > 1)
            raise RuleError("places_invalid", twice, "places", {"player": setup.players[again]})
        return tuple(seats)

    def suit_missing(self, setup: GameSetup, number: int) -> RuleError:
        """``field_required``: the suit deal ``number``'s dealer names (``named_suit``) is not given."""
        return RuleError(
            "field_required",
            N_("%(player)s deals deal %(deal)d and names trumps: give the trump suit."),
            self.named_suit.id if self.named_suit is not None else "trumps",
            {"player": setup.players[self.dealer_of(setup, number)], "deal": number},
        )

    def result_missing(self, number: int, contract: str, name: str) -> RuleError:
        """``field_required``: one of deal ``number``'s results is given, ``name`` is not."""
        return RuleError(
            "field_required",
            N_(
                "Deal %(deal)d (%(contract)s): “%(field)s” is missing; give every "
                "result of the deal, or none while it is played."
            ),
            name,
            {"deal": number, "contract": self.contract(contract), "field": self.fact(name)},
        )

    def suit_of(self, deal: DealRecord | DealState) -> str | None:
        """The suit named in ``deal`` (``named_suit``), None where none is."""
        return None if self.named_suit is None else deal.fact(self.named_suit.id)

    def results(self, fields: Sequence[str]) -> tuple[str, ...]:
        """Of a deal's ``fields``, those that are its result (its declaration, a suit named, aside)."""
        return tuple(name for name in fields if not self.fact(name).declared)

    def fact(self, name: str) -> Fact:
        """The declaration of the fact ``name`` (one of ``deal_facts``, or the tricks of every game)."""
        for fact in self.deal_facts:
            if fact.id == name:
                return fact
        if name == "tricks":
            return TRICKS
        raise KeyError(f"{self.id} declares no fact {name}")

    def named_facts(self, setup: GameSetup, deal: DealRecord | DealState) -> dict[str, Any]:
        """``deal``'s facts beyond tricks with players by name, as the API gives them: every fact the
        game declares, None where the deal has none (``Fact.by_name``)."""
        return {name: self.fact(name).by_name(setup.players, deal.fact(name)) for name in self.facts}

    def taken(self, deal: DealState) -> tuple[int, ...] | None:
        """Per seat, what the complete ``deal``'s contract counts that the player took (a player's
        figures per contract); None where a game keeps no such figure."""
        return None

    @property
    def has_side_bets(self) -> bool:
        """Whether its deals may carry side bets (a fact of kind ``PAIRS``)."""
        return any(fact.kind == PAIRS for fact in self.deal_facts)

    def side_bets(self, deal: DealState) -> tuple[tuple[int, int, bool, int], ...]:
        """Each side bet of the complete ``deal`` (a fact of kind ``PAIRS``) as it settled: (by,
        against, raised, what it moved from ``against`` to ``by``), seats; empty where none."""
        return ()

    def taken_or_not(self, contract: str) -> bool:
        """Whether ``taken`` says yes or no in a deal of ``contract`` (1: the player took it)."""
        return False

    def deal_input(self, setup: GameSetup, record: DealRecord) -> dict[str, object]:
        """``record``'s result as ``parse_deal`` takes it (names as keys; absent facts left out).

        A correction (API.md K4) replaces some of these and parses the whole again."""
        said = {"tricks": TRICKS.by_name(setup.players, record.tricks), **self.named_facts(setup, record)}
        return {name: value for name, value in said.items() if value is not None}

    def check_correction(
        self, setup: GameSetup, number: int, fields: Mapping[str, object], contracts: Sequence[object]
    ) -> None:
        """What a correction of deal ``number`` (its ``fields``) is refused for ahead of its fields' own
        checks, ``contracts`` being every deal's contract once the whole correction is made (deal 1
        first): nothing here; a game whose order of checks puts a contract already chosen ahead of the
        facts says so (as ``parse_next`` for the next deal), and the replay checks every rule again."""
        return None

    def corrected(
        self, setup: GameSetup, number: int, old: DealRecord, fields: Mapping[str, object]
    ) -> DealRecord:
        """Deal ``number``'s record ``old`` with the ``fields`` a correction gives changed (API.md:
        PUT and PATCH), each checked on its own; the replay then checks the deal as a whole.

        A field given as None is cleared (``"tricks": null`` makes a deal pending again).
        """
        for name, value in fields.items():
            if name not in ("contract", "bids", "tricks") and value is not None:
                raise self.takes_no(name)
        contract = (
            self.parse_contract(setup, number, fields["contract"]) if "contract" in fields else old.contract
        )
        bids = self.parse_bids(setup, number, fields["bids"]) if "bids" in fields else old.bids
        tricks = old.tricks
        if "tricks" in fields:
            tricks = None if fields["tricks"] is None else self.tricks_for(setup, fields["tricks"])
        return DealRecord(contract=contract, bids=bids, tricks=tricks)

    @abstractmethod
    def parse_contract(self, setup: GameSetup, number: int, contract: object) -> str | None: ...

    def parse_bids(self, setup: GameSetup, number: int, bids: object) -> tuple[int, ...] | None:
        """Deal ``number``'s bids by seat; a game without bids refuses any (``bids_not_allowed``)."""
        if bids is not None:
            raise RuleError("bids_not_allowed", N_("%(game)s has no bids."), "bids", {"game": self.term})
        return None


def contracts_left(
    contract_ids: Sequence[str], seats: int, chosen: Sequence[tuple[int | None, str]]
) -> tuple[tuple[str, ...], ...]:
    """Per seat, the ``contract_ids`` (in their order) that seat has not chosen, ``chosen`` being each
    deal's chooser (None: nobody chose) and contract."""
    used: list[set[str]] = [set() for _ in range(seats)]
    for chooser, contract in chosen:
        if chooser is not None:
            used[chooser].add(contract)
    return tuple(tuple(c for c in contract_ids if c not in used[seat]) for seat in range(seats))


def check_tricks_sum(tricks: Sequence[int], total: int = TRICKS_PER_DEAL) -> None:
    got = sum(tricks)
    if got != total:
        raise RuleError(
            "tricks_sum",
            N_("Tricks must add up to %(total)d (got %(got)d)."),
            "tricks",
            {"total": total, "got": got},
        )
