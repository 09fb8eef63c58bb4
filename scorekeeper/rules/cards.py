"""Facts about the cards of a standard deck that more than one game asks a table for.

A game that avoids hearts, queens, the king of hearts or the last trick, or names trumps, takes
these declarations as they are and gives each its own description for the API (``about``,
``answered``: ``dataclasses.replace``), so every game's entry card, refusals, CSV columns and log
marks of the same fact read the same, in every language.
"""

from __future__ import annotations

from collections.abc import Mapping

from .state import COUNT, ONE_PLAYER, SUIT, Fact, SeatValueMessages
from .words import N_

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

HEARTS = Fact(
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

QUEENS = Fact(
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

KING_OF_HEARTS = Fact(
    "king_of_hearts",
    # NOTE: a deal fact, named in a refusal: the player who took the king of hearts.
    N_("Who took the king of hearts"),
    ONE_PLAYER,
    columns=(N_("king of hearts"),),
    # NOTE The mark, in a deal's log, of the player who took the king of hearts.
    short=N_("K♥"),
)

LAST_TRICK = Fact(
    "last_trick",
    # NOTE: a deal fact, named in a refusal: the player who took the last trick.
    N_("Who took the last trick"),
    ONE_PLAYER,
    columns=(N_("last trick"),),
    # NOTE The mark, in a deal's log, of the player who took the last trick: keep it short.
    short=N_("last"),
)
