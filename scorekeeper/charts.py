"""Line charts drawn as SVG on the server: no chart library, no script in the browser.

Colours and dash patterns come from CSS classes (``series-0`` ...), so the
same drawing follows light mode, dark mode and print; the SVG carries no
``style`` attribute (the Content-Security-Policy forbids inline styles).
Every chart has a ``<title>`` and a ``<desc>`` for screen readers, and each
line a ``<title>`` naming its player; they are in the request's language (English
outside a request), and so are the dates and numbers.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from babel.numbers import format_decimal
from flask import has_request_context
from flask_babel import format_date, get_locale, gettext, ngettext
from markupsafe import Markup, escape

WIDTH = 340
HEIGHT = 210
LEFT = 34
RIGHT = 30  # room for the end labels: a mark of two letters
TOP = 10
BOTTOM = 26
LABEL_GAP = 13  # least vertical distance between two end labels
MAX_SERIES_CLASSES = 4


@dataclass(frozen=True)
class Series:
    """One line: a label and a value per x position (None: no point there yet)."""

    label: str
    values: Sequence[int | None]
    end_label: str = ""
    """Text after the line's last point (defaults to the label): a short mark a key beside the
    chart explains, so no name is ever cut short to fit the drawing."""


def signed(value: int | Decimal) -> str:
    """+2, −3 (a real minus sign), 0, +1.5: as the score pages print figures.

    In the request's language: its decimal sign and grouping ("+1,5", "+1 234" in Polish);
    a decimal keeps its places ("+2.0").
    """
    if value == 0:
        return "0"
    magnitude: int | Decimal = -value if value < 0 else value
    return ("+" if value > 0 else "−") + _number(magnitude)


def number(value: int | Decimal) -> str:
    """A count or an average as the request's language writes it ("2.3", "2,3")."""
    return _number(value)


def _number(value: int | Decimal) -> str:
    locale = get_locale() if has_request_context() else None
    if locale is None or (value < 1000 and isinstance(value, int)):
        return str(value)
    places = -int(value.as_tuple().exponent) if isinstance(value, Decimal) else 0
    pattern = "#,##0" + ("." + "0" * places if places > 0 else "")
    return str(format_decimal(value, format=pattern, locale=locale))


def _date(day: date, pattern: str) -> str:
    """``day`` as Babel writes it in the request's language (English outside a request)."""
    if has_request_context():
        return str(format_date(day, pattern))
    return day.isoformat() if pattern == "medium" else f"{day.day} {day:%b %y}"


def nice_step(span: float, most: int = 7) -> int:
    """A whole tick step of 1, 2 or 5 times a power of ten giving at most ``most`` intervals."""
    span = max(span, 1)
    magnitude: int = 10 ** max(0, math.floor(math.log10(span / most)))
    for factor in (1, 2, 5, 10):
        if span / (factor * magnitude) <= most:
            return factor * magnitude
    return 10 * magnitude  # pragma: no cover - the loop always returns


def _spread(wanted: list[float], low: float, high: float, gap: float) -> list[float]:
    """End-label positions near ``wanted`` but at least ``gap`` apart, inside [low, high]."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    previous = low - gap
    for i in order:
        placed[i] = max(wanted[i], previous + gap)
        previous = placed[i]
    overflow = previous - high
    if overflow > 0:  # pushed past the bottom: shift the stack up, keeping the gaps
        for i in order:
            placed[i] -= overflow
    return placed


def _fmt(number: float) -> str:
    return f"{number:.1f}".rstrip("0").rstrip(".")


def line_chart(
    series: Sequence[Series],
    x_labels: Sequence[str],
    *,
    chart_id: str,
    title: str,
    description: str,
    x_title: str,
    dots: bool = False,
    point_titles: Sequence[str] | None = None,
    end_labels: bool = True,
    max_x_labels: int = 10,
) -> Markup:
    """An SVG line chart: one polyline per series over ``len(x_labels)`` positions, zero line marked.

    Each line ends in a label naming it (``end_labels``); ``point_titles``
    (single-series charts with ``dots``) gives each point a tooltip.
    """
    right = RIGHT if end_labels else 26  # room for half the last date label
    count = len(x_labels)
    values = [v for s in series for v in s.values if v is not None]
    low, high = min([0, *values]), max([0, *values])
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    plot_w = WIDTH - LEFT - right
    plot_h = HEIGHT - TOP - BOTTOM

    def x_at(i: int) -> float:
        return LEFT + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y_at(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {WIDTH} {HEIGHT}",
            "class": "chart",
            "role": "img",
            "aria-labelledby": f"{chart_id}-title {chart_id}-desc",
            "id": chart_id,
        },
    )
    ET.SubElement(svg, "title", {"id": f"{chart_id}-title"}).text = title
    ET.SubElement(svg, "desc", {"id": f"{chart_id}-desc"}).text = description

    axes = ET.SubElement(svg, "g", {"class": "axes", "aria-hidden": "true"})
    for tick in range(int(low), int(high) + 1, step):
        tick_y = _fmt(y_at(tick))
        line_class = "zero" if tick == 0 else "grid"
        ET.SubElement(
            axes,
            "line",
            {"class": line_class, "x1": str(LEFT), "x2": str(LEFT + plot_w), "y1": tick_y, "y2": tick_y},
        )
        ET.SubElement(
            axes, "text", {"class": "y-tick", "x": str(LEFT - 4), "y": tick_y, "dy": "0.32em"}
        ).text = signed(tick)
    every = max(1, math.ceil(count / max_x_labels))
    for i, label in enumerate(x_labels):
        if i % every and i != count - 1:
            continue
        if i != count - 1 and count - 1 - i < every:
            continue  # too close to the last label, which is always shown
        ET.SubElement(
            axes, "text", {"class": "x-tick", "x": _fmt(x_at(i)), "y": str(TOP + plot_h + 13)}
        ).text = label
    ET.SubElement(
        axes, "text", {"class": "x-title", "x": _fmt(LEFT + plot_w / 2), "y": str(HEIGHT - 2)}
    ).text = x_title

    ends: list[tuple[int, float, str]] = []
    last_x = 0.0
    for index, line in enumerate(series):
        points = [(i, v) for i, v in enumerate(line.values) if v is not None]
        if not points:
            continue
        group = ET.SubElement(svg, "g", {"class": f"series series-{index % MAX_SERIES_CLASSES}"})
        last = points[-1][1]
        ET.SubElement(group, "title").text = f"{line.label}: {signed(last)}"
        ET.SubElement(
            group,
            "polyline",
            {"fill": "none", "points": " ".join(f"{_fmt(x_at(i))},{_fmt(y_at(v))}" for i, v in points)},
        )
        if dots or len(points) == 1:
            for n, (i, v) in enumerate(points):
                dot = ET.SubElement(group, "circle", {"cx": _fmt(x_at(i)), "cy": _fmt(y_at(v)), "r": "2.6"})
                if point_titles is not None and n < len(point_titles):
                    ET.SubElement(dot, "title").text = point_titles[n]
        ends.append((index, y_at(last), line.end_label or line.label))
        last_x = max(last_x, x_at(points[-1][0]))

    if ends and end_labels:
        placed = _spread([y for _, y, _ in ends], TOP + 4, TOP + plot_h, LABEL_GAP)
        labels = ET.SubElement(svg, "g", {"class": "end-labels", "aria-hidden": "true"})
        for (index, _, text), y in zip(ends, placed, strict=True):
            ET.SubElement(
                labels,
                "text",
                {
                    "class": f"end series-{index % MAX_SERIES_CLASSES}",
                    # Just after the lines' ends: a game in progress has its labels beside the lines.
                    "x": _fmt(last_x + 5),
                    "y": _fmt(y),
                    "dy": "0.32em",
                },
            ).text = text
    return Markup(_serialise(svg))


def _serialise(element: ET.Element) -> str:
    """The element as XML, every text and attribute escaped as HTML escapes it (quotes included)."""
    # str() at once: a Markup plus a plain str would escape the children a second time.
    attributes = "".join(f' {name}="{escape(value)!s}"' for name, value in element.attrib.items())
    inner = str(escape(element.text or "")) + "".join(_serialise(child) for child in element)
    if not inner:
        return f"<{element.tag}{attributes}/>"
    return f"<{element.tag}{attributes}>{inner}</{element.tag}>"


def running_totals_chart(
    names: Sequence[str],
    totals: Sequence[Sequence[int]],
    deal_count: int,
    marks: Sequence[str],
    chart_id: str = "totals-chart",
) -> Markup:
    """Each player's running total after every completed deal, from 0 before deal 1.

    ``totals`` holds the totals by seat after each completed deal; the x axis
    always runs to ``deal_count`` so a game in progress shows how far it is.
    Each line ends in its seat's mark from ``marks``; the page's key beside the
    chart gives the names and totals in full.
    """
    series = [
        Series(
            label=name,
            values=[0, *(after[seat] for after in totals)] + [None] * (deal_count - len(totals)),
            end_label=marks[seat],
        )
        for seat, name in enumerate(names)
    ]
    played = len(totals)
    if played:
        now = ", ".join(f"{name} {signed(totals[-1][seat])}" for seat, name in enumerate(names))
        description = gettext(
            "Running totals over %(played)d of %(count)d deals. Now: %(now)s.",
            played=played,
            count=deal_count,
            now=now,
        )
    else:
        description = gettext("No deal completed yet of %(count)d.", count=deal_count)
    return line_chart(
        series,
        [str(n) for n in range(deal_count + 1)],
        chart_id=chart_id,
        title=gettext("Running totals, deal by deal"),
        description=description,
        # NOTE: the chart's x axis: deal numbers.
        x_title=gettext("Deal"),
    )


def points_per_game_chart(
    name: str, games: Sequence[tuple[date, int]], chart_id: str = "points-chart"
) -> Markup:
    """A player's total in each finished game, oldest first."""
    series = [Series(label=name, values=[total for _, total in games])]
    labels = [_date(day, "d MMM yy") for day, _ in games]
    titles = [f"{_date(day, 'medium')}: {signed(total)}" for day, total in games]
    if games:
        best = max(total for _, total in games)
        worst = min(total for _, total in games)
        description = ngettext(
            "%(player)s's points in %(num)d finished game on %(first)s; best %(best)s, worst %(worst)s.",
            "%(player)s's points in each of %(num)d finished games from %(first)s to %(last)s; "
            "best %(best)s, worst %(worst)s.",
            len(games),
            player=name,
            first=_date(games[0][0], "medium"),
            last=_date(games[-1][0], "medium"),
            best=signed(best),
            worst=signed(worst),
        )
    else:
        description = gettext("%(player)s has no finished game here yet.", player=name)
    return line_chart(
        series,
        labels,
        chart_id=chart_id,
        title=gettext("Points per game, %(player)s", player=name),
        description=description,
        x_title=gettext("Games, oldest first"),
        dots=True,
        point_titles=titles,
        end_labels=False,
        max_x_labels=4,
    )
