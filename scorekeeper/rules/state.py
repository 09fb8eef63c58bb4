"""The vocabulary every ruleset speaks: setup, recorded deals, replayed state.

Everything here is plain, frozen data.  A ruleset turns a ``GameSetup`` and
the list of ``DealRecord`` facts into a ``GameState`` by replaying the deals;
nothing derived (roles, quotas, scores, totals) is ever stored.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .words import N_, Term

TRICKS_PER_DEAL = 13


@dataclass(frozen=True)
class Contract(Term):
    """One contract (chosen, or fixed by the deal number): its id, its label (a message id)..."""

    trumps: str | None
    """The trump suit's id, or None for a deal without trumps."""
    description: str = ""
    mark: str = ""
    """Its mark atop a narrow column of the part grid (a message id: a letter or two); empty: none."""
    positive: bool = False
    """A contract whose points are won, not lost, where a game has both kinds (the API says so; the
    game's rules may treat it apart, e.g. who may be doubled in it)."""


@dataclass(frozen=True)
class OptionSpec(Term):
    """A game-level option chosen when the game is created: its id, its label (a message id)..."""

    choices: tuple[tuple[str, str], ...]
    """(value, label) pairs, labels being message ids; the first is the default."""

    @property
    def default(self) -> str:
        return self.choices[0][0]


@dataclass(frozen=True)
class Preset(Term):
    """A house rule set a table plays by (RULES.md "House rules"): its id, its label (a message id)...

    A ruleset declares its presets, the standard one first (the default); the game stores the
    one chosen at its start (in its options, under the ruleset's ``preset_option``) and the
    engine scores from it.  A game's own preset class adds its values and deal order.
    """

    summary: str = ""
    """One line saying what the preset changes (a message id)."""
    player_counts: tuple[int, ...] = ()
    """The player counts the preset is played with; empty: every count the ruleset takes."""

    ranks_with: str = ""
    """The preset whose ranking games of this one count in, where both score on the same scale (RULES.md
    "House rules"); empty: its own ranking."""

    def plays_with(self, player_count: int) -> bool:
        return not self.player_counts or player_count in self.player_counts


@dataclass(frozen=True)
class GameSetup:
    """The facts fixed when a game starts."""

    ruleset: str
    players: tuple[str, ...]
    """Names in seating order (the ruleset says which direction that is)."""
    first_dealer: int
    """Seat index of the first dealer."""
    options: tuple[tuple[str, str], ...] = ()
    """Game options as sorted (id, value) pairs, so the setup stays hashable."""

    def option(self, option_id: str, default: str = "") -> str:
        return dict(self.options).get(option_id, default)

    @property
    def options_dict(self) -> dict[str, str]:
        return dict(self.options)


@dataclass(frozen=True)
class SeatValueMessages:
    """The refusals of per-player values of one kind (tricks, bids, a counted card): whole sentences
    each, so that no language has to build them from a noun."""

    not_playing: str
    twice: str
    missing: str
    count: str
    each: str
    value_range: str
    enter_named: str = ""
    """A counted fact's page: the blank inputs of the players named ("Enter the hearts for %(players)s.")."""
    enter_every: str = ""
    enter_one: str = ""
    """A counted fact's page: one player's input left blank ("%(player)s: enter the hearts.")."""


#: The kinds of fact a deal may carry (``Fact.kind``), and how each is stored: by seat.
COUNT = "count"
"""A whole number per player, adding up to the fact's ``total`` (a tuple by seat)."""
ONE_PLAYER = "player"
"""One player: who took a card or a trick (a seat)."""
SUIT = "suit"
"""A suit named, one of the fact's ``choices`` (its id)."""
ORDER = "order"
"""Players in an order, one per ``places`` (a tuple of seats): who went out first, second."""
PAIRS = "pairs"
"""Pair-wise side bets between players (a double, redoubled or not): (by, against, redoubled) triples of
seats, at most one per pair; given as ``[{"by": name, "against": name, "redoubled": bool}]``."""


@dataclass(frozen=True)
class Fact(Term):
    """One fact a deal may carry, as its ruleset declares it (``Ruleset.deal_facts``): its id (the
    API's field, the stored key, the form's), its label (a message id: the entry card's legend, a
    refusal's name of it)...  Everything generic (the API's shapes, export and import, the pages'
    entry card and log) works from these declarations."""

    kind: str
    declared: bool = False
    """Given before the cards are played (a trump suit named): a declaration, not a result."""
    total: int = 0
    """A count's total (the cards of that kind in the deck); 0: the game's tricks."""
    choices: tuple[tuple[str, str], ...] = ()
    """A suit's choices: (id, label) pairs, labels being message ids."""
    places: tuple[str, ...] = ()
    """An order's places, each a message id ("First out", "Second out")."""
    messages: SeatValueMessages | None = None
    """A count's refusals of a player's value."""
    refusal: tuple[str, str] = ("", "")
    """An order's refusal (code, message id) when it is not as many different players as places."""
    sum_message: str = ""
    """A count's refusal of a sum that is not its total (a message id)."""
    about: str = ""
    """The API's description of the field (English, as the OpenAPI document has it)."""
    answered: str = ""
    """The API's description of the field in a deal it answers."""
    columns: tuple[str, ...] = ()
    """Its CSV headings (message ids): one per player for a count ("%(player)s hearts"), else one
    per column (an order's, one per place)."""
    short: str = ""
    """As the deal log says what a player took, short: a count's "%(tricks)s Q", a taker's "K♥"; an
    order's are ``places_short``."""
    places_short: tuple[str, ...] = ()
    hint: str = ""
    """A count's hint on the entry card ("Each player's hearts: %(count)s in all.")."""
    chip: str = ""
    """A count's taps for one player, as a screen reader names them ("%(player)s: hearts")."""

    def by_name(self, players: Sequence[str], value: Any) -> Any:
        """``value`` (by seat, as stored) with players by name, as the API and the entry take it:
        ``{"Ann": 3, ...}``, ``"Ann"``, ``["Ann", "Bob"]``; a suit as it is; side bets as a list of
        ``{"by", "against", "redoubled"}`` (empty when there are none); None stays None.  A kind
        of fact of a game's own is as stored, unless its declaration (a subclass) says otherwise."""
        if self.kind == PAIRS:
            return [
                {"by": players[by], "against": players[against], "redoubled": bool(redoubled)}
                for by, against, redoubled in value or ()
            ]
        if value is None:
            return value
        if self.kind == COUNT:
            return dict(zip(players, value, strict=True))
        if self.kind == ONE_PLAYER:
            return players[value]
        if self.kind == ORDER:
            return [players[seat] for seat in value]
        return value


#: The tricks each player took: a fact of every game (its refusals are the engine's own).
TRICKS = Fact(
    "tricks",
    # NOTE: a deal fact, named in a refusal and atop the tricks each player took.
    N_("Tricks taken"),
    COUNT,
    # NOTE "tr" is short for "tricks": the tricks a player took in a deal.
    short=N_("%(tricks)s tr"),
    hint=N_("Each player's tricks: %(count)s in all."),
    chip=N_("%(player)s: tricks"),
)


# --- the facts of a standard deck that more than one game asks a table for -----------------------
# A game that avoids hearts, queens, the king of hearts or the last trick, or names trumps, takes
# these declarations as they are and gives each its own description for the API (``about``,
# ``answered``: ``dataclasses.replace``), so every game's entry card, refusals, CSV columns and log
# marks of the same fact read the same, in every language.
#: How many of each card a full deck holds (a game that removes cards says so itself).
HEARTS_IN_DECK = 13
QUEENS_IN_DECK = 4

#: The suits a player may name as trumps, and their names (the words of the trump contracts too).
SUIT_LABELS: Mapping[str, str] = {
    "clubs": N_("Clubs"),
    "diamonds": N_("Diamonds"),
    "hearts": N_("Hearts"),
    "spades": N_("Spades"),
}

TRUMP_SUIT = Fact(
    "trumps",
    # NOTE: a deal fact, named in a refusal ("Deal 2 (No hearts) takes no “Trump suit”.").
    N_("Trump suit"),
    SUIT,
    declared=True,
    choices=tuple(SUIT_LABELS.items()),
    # NOTE: column headings of a CSV deal log: the trump suit named, who took each card or trick.
    columns=(N_("trumps"),),
)

HEARTS_TAKEN = Fact(
    "hearts",
    # NOTE: a deal fact, named in a refusal: the hearts each player took.
    N_("Hearts taken"),
    COUNT,
    total=HEARTS_IN_DECK,
    messages=SeatValueMessages(
        not_playing=N_("%(player)s is not playing in this game; give hearts for %(players)s."),
        twice=N_("%(player)s appears twice in the hearts."),
        missing=N_("Hearts missing for %(players)s."),
        count=N_("Give hearts for exactly the %(count)d players."),
        each=N_("Give the hearts each player took."),
        value_range=N_("%(player)s's hearts must be a whole number from 0 to %(most)d (got %(value)s)."),
        enter_named=N_("Enter the hearts for %(players)s."),
        enter_every=N_("Enter the hearts for every player."),
        enter_one=N_("%(player)s: enter the hearts."),
    ),
    sum_message=N_("Hearts must add up to %(total)d (got %(got)d)."),
    # NOTE: column headings of a CSV deal log, one per player and card ("Ala hearts").
    columns=(N_("%(player)s hearts"),),
    hint=N_("Each player's hearts: %(count)s in all."),
    chip=N_("%(player)s: hearts"),
    short="%(tricks)s ♥",
)

QUEENS_TAKEN = Fact(
    "queens",
    # NOTE: a deal fact, named in a refusal: the queens each player took.
    N_("Queens taken"),
    COUNT,
    total=QUEENS_IN_DECK,
    messages=SeatValueMessages(
        not_playing=N_("%(player)s is not playing in this game; give queens for %(players)s."),
        twice=N_("%(player)s appears twice in the queens."),
        missing=N_("Queens missing for %(players)s."),
        count=N_("Give queens for exactly the %(count)d players."),
        each=N_("Give the queens each player took."),
        value_range=N_("%(player)s's queens must be a whole number from 0 to %(most)d (got %(value)s)."),
        enter_named=N_("Enter the queens for %(players)s."),
        enter_every=N_("Enter the queens for every player."),
        enter_one=N_("%(player)s: enter the queens."),
    ),
    sum_message=N_("Queens must add up to %(total)d (got %(got)d)."),
    columns=(N_("%(player)s queens"),),
    hint=N_("Each player's queens: %(count)s in all."),
    chip=N_("%(player)s: queens"),
    # NOTE The queens a player took in a deal, short ("1 Q"): a letter for the queen.
    short=N_("%(tricks)s Q"),
)

KING_OF_HEARTS_TAKER = Fact(
    "king_of_hearts",
    # NOTE: a deal fact, named in a refusal: the player who took the king of hearts.
    N_("Who took the king of hearts"),
    ONE_PLAYER,
    columns=(N_("king of hearts"),),
    # NOTE The mark, in a deal's log, of the player who took the king of hearts.
    short=N_("K♥"),
)

LAST_TRICK_TAKER = Fact(
    "last_trick",
    # NOTE: a deal fact, named in a refusal: the player who took the last trick.
    N_("Who took the last trick"),
    ONE_PLAYER,
    columns=(N_("last trick"),),
    # NOTE The mark, in a deal's log, of the player who took the last trick: keep it short.
    short=N_("last"),
)


def _name(item: tuple[str, Any]) -> str:
    return item[0]


class Facts(Mapping[str, Any]):
    """A deal's facts beyond its contract, bids and tricks, by id, as its ruleset keeps them (by seat: a
    tuple of ints for counts and orders, an int for one player, a str for a suit; any JSON-like,
    hashable value a ruleset declares).  Frozen and hashable, so deals compare and hash by value; a
    fact given as None is no fact."""

    __slots__ = ("_items",)

    def __init__(self, facts: Mapping[str, Any] | None = None) -> None:
        given = (facts or {}).items()
        self._items = tuple(sorted(((name, value) for name, value in given if value is not None), key=_name))

    def __getitem__(self, name: str) -> Any:
        for key, value in self._items:
            if key == name:
                return value
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        return f"Facts({dict(self._items)!r})"


NO_FACTS = Facts()


def _frozen_facts(deal: DealRecord | DealState) -> None:
    """``deal.facts`` as ``Facts`` whatever mapping it was given (a dict, say)."""
    if not isinstance(deal.facts, Facts):
        object.__setattr__(deal, "facts", Facts(deal.facts))


@dataclass(frozen=True)
class DealRecord:
    """What happened at the table in one deal, by seat index.

    ``contract`` is the chosen contract, or None where the deal
    number fixes it.  ``bids`` is None for games or deals without
    bidding.  ``facts`` are the others its ruleset declares (``Ruleset.deal_facts``), by id, as
    stored.  Whether the deal is pending is its ruleset's to say (``Ruleset.is_pending``): every
    result (``tricks`` and the facts not ``declared``) is None while it is; a deal that counts no
    tricks has ``tricks`` None when complete.
    """

    contract: str | None = None
    bids: tuple[int, ...] | None = None
    tricks: tuple[int, ...] | None = None
    facts: Mapping[str, Any] = NO_FACTS
    """A ``Facts``: a dict given is made one."""

    def __post_init__(self) -> None:
        _frozen_facts(self)

    def fact(self, name: str) -> Any:
        """The fact ``name`` as stored (by seat; the tricks too), None where the deal has none."""
        return self.tricks if name == "tricks" else self.facts.get(name)


def json_value(value: Any) -> Any:
    """A fact as stored, as JSON has it: tuples become lists, at any depth."""
    return [json_value(item) for item in value] if isinstance(value, tuple) else value


def stored_value(value: Any) -> Any:
    """``json_value`` read back: lists become tuples, at any depth."""
    return tuple(stored_value(item) for item in value) if isinstance(value, list) else value


def stored_facts(record: DealRecord) -> dict[str, object] | None:
    """``record``'s facts beyond contract, bids and tricks as JSON values (by seat), only those it
    has; None when it has none (a deal of a game that counts tricks alone)."""
    return {name: json_value(value) for name, value in record.facts.items()} or None


def facts_from_stored(facts: Mapping[str, Any] | None, known: Collection[str]) -> dict[str, Any]:
    """``stored_facts`` read back, those of ``known`` (its ruleset's facts): a ``DealRecord``'s
    ``facts`` (lists become tuples)."""
    return {name: stored_value(value) for name, value in (facts or {}).items() if name in known}


@dataclass(frozen=True)
class Notice:
    """Something a ruleset tells the table about a deal that refuses nothing (a warning): its ``code``,
    its sentence (``message``, a message id whose params are ``seats`` said as names and ``numbers``),
    the players it speaks of by role (``seats``: (role, seat) pairs) and its figures (``numbers``)."""

    code: str
    message: str
    seats: tuple[tuple[str, int], ...] = ()
    numbers: tuple[tuple[str, int], ...] = ()

    def by_name(self, players: Sequence[str]) -> dict[str, Any]:
        """As the API gives it: ``{"code": ..., role: name, ..., figure: number, ...}``."""
        return {"code": self.code, **self.params(players)}

    def params(self, players: Sequence[str]) -> dict[str, Any]:
        """Its message's params: the players by name, the figures."""
        return {role: players[seat] for role, seat in self.seats} | dict(self.numbers)


@dataclass(frozen=True)
class DealState:
    """A recorded deal with everything the rules derive from it."""

    number: int
    dealer: int
    chooser: int | None
    """The seat that chose the contract; None where the deal number fixes it."""
    contract: str
    roles: tuple[str, ...]
    """Role of each seat in this deal (``dealer``, ``forehand``, ...)."""
    bids: tuple[int, ...] | None
    tricks: tuple[int, ...] | None
    quotas: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    totals: tuple[int, ...] | None
    """Running totals after this deal (None while pending)."""
    forbidden_bid: int | None = None
    """The bid the dealer could not make, given the other players' bids (a hook rule);
    None in deals without bids or when the others' bids leave nothing forbidden."""
    made: tuple[bool, ...] | None = None
    """Per seat, whether the player reached their aim in this deal (quota or bid); None while
    pending and in deals where players have no aim of their own (a deal with no target)."""
    facts: Mapping[str, Any] = NO_FACTS
    """The facts beyond tricks, as ``DealRecord`` has them."""
    pending: bool = False
    """Whether no result of the deal is in yet (``Ruleset.is_pending`` of its record): the replay
    says."""
    figures: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Per-seat figures a ruleset derives for a complete deal beyond its scores, by id, in the order
    it declares them (``Ruleset.deal_figures``: the parts a score is the sum of); empty while pending."""
    warnings: tuple[Notice, ...] = ()
    """What the table should know about this deal that refuses nothing (also while pending)."""

    def __post_init__(self) -> None:
        _frozen_facts(self)

    def fact(self, name: str) -> Any:
        """The fact ``name`` as stored (by seat; the tricks too), None where the deal has none."""
        return self.tricks if name == "tricks" else self.facts.get(name)


@dataclass(frozen=True)
class NextDeal:
    """What the table does next: who deals, who declares, what is allowed."""

    number: int
    dealer: int
    chooser: int | None
    contract: str | None
    """The fixed contract of this deal, where the deal number fixes it."""
    available_contracts: tuple[str, ...]
    roles: tuple[str, ...]
    bidding_order: tuple[int, ...] = ()
    """Seats in the order they bid (dealer last); empty when nobody bids."""
    fields: tuple[str, ...] = ()
    """The facts this deal takes, in API.md K5's order, where the game says (a trump deal: ``("trumps",
    "tricks")`` on a trump deal); empty for games whose deals take a contract, bids and tricks."""
    fields_by_contract: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Where the chooser's contract decides the facts: each available contract with the facts it
    takes, in the order they are checked; empty where ``fields`` says (or nothing does)."""
    seat_lists: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Lists of seats a ruleset names for this deal, by id (``Ruleset.next_deal_lists``), e.g. the
    players who still owe the chooser something; each in the order the ruleset gives."""


@dataclass(frozen=True)
class ScheduledDeal:
    """What the setup alone fixes about deal ``number``, whatever was played before it.

    A phone that enters deals while it cannot reach the server draws them from this;
    the server checks every rule again when the deals arrive.
    """

    number: int
    dealer: int
    chooser: int | None
    roles: tuple[str, ...]
    contract: str | None
    """The fixed contract, where the deal number fixes it; None where a player chooses."""
    bidding_order: tuple[int, ...] = ()
    hook_total: int | None = None
    """Where the dealer may not bid what would bring the bids to a total: that total (the
    dealer's forbidden bid is it minus the others' bids, when that is a possible bid)."""
    fields: tuple[str, ...] = ()
    """The facts the deal takes, as ``NextDeal.fields``."""


@dataclass(frozen=True)
class Standing:
    seat: int
    total: int
    rank: int


@dataclass(frozen=True)
class GameState:
    """A game replayed from its facts."""

    setup: GameSetup
    deals: tuple[DealState, ...]
    totals: tuple[int, ...]
    """Totals after the last completed deal."""
    next_deal: NextDeal | None
    """None while a deal is pending, and once the game is finished."""
    remaining_contracts: tuple[tuple[str, ...], ...]
    """Per seat, the contracts that seat may still choose (where players choose)."""
    standings: tuple[Standing, ...]
    finished: bool
    deal_count: int
    seat_lists: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Lists of seats a ruleset names for the whole game, by id (``Ruleset.game_lists``), e.g. a seat
    per deal."""
    tallies: tuple[tuple[str, tuple[tuple[int, ...], ...]], ...] = ()
    """Counts a ruleset keeps per pair of players, by id (``Ruleset.game_tallies``): for each seat, for
    each seat, a whole number (a seat's own is 0 and not given)."""

    @property
    def pending_deal(self) -> DealState | None:
        if self.deals and self.deals[-1].pending:
            return self.deals[-1]
        return None

    @property
    def completed_deals(self) -> int:
        return sum(1 for deal in self.deals if not deal.pending)

    @property
    def next_number(self) -> int:
        """The number the next deal recorded gets (after the pending one, if any).

        Deals are numbered 1, 2, ... in order, so it is one more than the deals
        recorded; once the game is finished it is ``deal_count + 1``, a deal that
        does not exist.
        """
        return len(self.deals) + 1

    @property
    def current_number(self) -> int:
        """The deal the table is on now (the pending one, else the next one)."""
        if self.pending_deal is not None:
            return self.pending_deal.number
        if self.next_deal is not None:
            return self.next_deal.number
        return self.deal_count

    @property
    def leaders(self) -> tuple[int, ...]:
        """Seats sharing first place (everyone before the first deal)."""
        return tuple(s.seat for s in self.standings if s.rank == 1)


def totals_after(done: Sequence[DealState], player_count: int) -> list[int]:
    """Running totals after the deals ``done``: those of the last completed one (zeros before any)."""
    for deal in reversed(done):
        if deal.totals is not None:
            return list(deal.totals)
    return [0] * player_count


def standings_for(totals: Sequence[int]) -> tuple[Standing, ...]:
    """Highest total first; equal totals share a rank (1, 1, 3); ties keep seat order."""
    order = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
    standings: list[Standing] = []
    for position, seat in enumerate(order):
        if position and totals[seat] == totals[order[position - 1]]:
            rank = standings[-1].rank
        else:
            rank = position + 1
        standings.append(Standing(seat=seat, total=totals[seat], rank=rank))
    return tuple(standings)
