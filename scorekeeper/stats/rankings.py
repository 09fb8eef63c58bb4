"""The rankings: every player's record under some filters, sorted and paged by the database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select

from ..extensions import db
from ..stored_figures import NO_FIGURE
from .sums import Filters, Record, rated, record_of, summed_records

#: Sortable columns: id -> (label, descending first?).
# NOTE: column headings of the rankings table ("Won %": the share of games won).
COLUMNS: dict[str, tuple[str, bool]] = {
    "name": (_l("Player"), False),
    "games": (_l("Games"), True),
    "wins": (_l("Won"), True),
    "win_pct": (_l("Won %"), True),
    "deals": (_l("Deals"), True),
    "deal_wins": (_l("Deals won"), True),
    "deal_pct": (_l("Deals won %"), True),
    "points": (_l("Points"), True),
    "average": (_l("Per game"), True),
    "best": (_l("Best game"), True),
}
DEFAULT_SORT = "wins"
PER_PAGE = 25
"""Players per page: a phone's screenful or two, and a page the database cuts from an index."""


@dataclass(frozen=True)
class Rankings:
    filters: Filters
    rows: list[Record]
    """This page's rows."""
    sort: str
    descending: bool
    page: int = 1
    pages: int = 1
    count: int = 0
    """Players ranked, on every page."""
    first: int = 1
    """Position of this page's first row."""


#: The columns that can lack a figure: sorted by their ``<column>_key`` of ``summed_records``,
#: which holds ``NO_FIGURE`` there, below any real one.
_KEYED = ("win_pct", "deal_pct", "average", "best")


def _order(summed: Any, sort: str, descending: bool) -> list[Any]:
    """ORDER BY for one column: the figureless last; ties by more wins, more points, then the name.
    Descending, this is the column's index on ``player_totals`` read backwards: a page is read,
    not sorted."""
    c = summed.c
    if sort == "name":
        return [c.name_key.desc() if descending else c.name_key.asc()]
    key = c[f"{sort}_key"] if sort in _KEYED else c[sort]
    if descending:
        first = [key.desc()]
    elif sort in _KEYED:
        first = [key == NO_FIGURE, key.asc()]  # the figureless last this way too
    else:
        first = [key.asc()]
    return [*first, c.wins.desc(), c.points.desc(), c.name_key.asc()]


def rankings(
    filters: Filters,
    today: date,
    sort: str = DEFAULT_SORT,
    descending: bool | None = None,
    page: int = 1,
    per_page: int = PER_PAGE,
    *,
    stored: bool = True,
) -> Rankings:
    """One page of the players with a finished game under ``filters``, sorted by ``sort``: counted,
    sorted and cut by the database in one query."""
    if sort not in COLUMNS:
        sort = DEFAULT_SORT
    if descending is None:
        descending = COLUMNS[sort][1]
    summed = summed_records(filters, today, stored=stored, finished=True)
    page = max(1, page)

    def fetch(page: int) -> list[Any]:
        query = (
            rated(select(summed, func.count().over().label("ranked")), filters, summed.c.player_id)
            .order_by(*_order(summed, sort, descending))
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
        return list(db.session.execute(query))

    rows = fetch(page)
    if not rows and page > 1:  # past the last page (an old link): show the last one
        count = db.session.execute(select(func.count()).select_from(summed)).scalar_one()
        page = max(1, -(-count // per_page))
        rows = fetch(page)
    count = rows[0].ranked if rows else 0
    return Rankings(
        filters,
        [record_of(row) for row in rows],
        sort,
        descending,
        page=page,
        pages=max(1, -(-count // per_page)),
        count=count,
        first=(page - 1) * per_page + 1,
    )
