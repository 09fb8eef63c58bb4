"""The SVG charts: well-formed, one line per player, labelled, titled, no inline styles."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import charts
from scorekeeper.web.games.marks import fits_a_column, name_marks
from tests.helpers import MIZERKA_DEALS, page, parse_html, start_mizerka

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # raises on anything that is not well-formed XML
    assert root.tag == f"{SVG}svg"
    return root


def no_inline_style(root: ET.Element) -> None:
    for element in root.iter():
        assert "style" not in element.attrib, element.tag
        assert element.tag != f"{SVG}style"


def test_running_totals_chart() -> None:
    totals = [deal.totals for deal in MIZERKA_DEALS]
    root = parsed(charts.running_totals_chart(["Ann", "Bob", "Cid"], totals, 18, ["An", "Bo", "Ci"]))
    no_inline_style(root)
    assert root.attrib["role"] == "img"
    assert root.attrib["viewBox"] == f"0 0 {charts.WIDTH} {charts.HEIGHT}"
    assert root.attrib["aria-labelledby"] == "totals-chart-title totals-chart-desc"
    assert root.find(f"{SVG}title").text == "Running totals, deal by deal"  # type: ignore[union-attr]
    assert root.find(f"{SVG}desc").text == (  # type: ignore[union-attr]
        "Running totals over 18 of 18 deals. Now: Ann +3, Bob +3, Cid −6."
    )
    lines = root.findall(f"{SVG}g/{SVG}polyline")
    assert len(lines) == 3  # one per player
    for line in lines:
        assert len(line.attrib["points"].split()) == 19  # 0 before deal 1, then 18 deals
    groups = root.findall(f"{SVG}g[{SVG}polyline]")
    assert [g.attrib["class"] for g in groups] == ["series series-0", "series series-1", "series series-2"]
    assert [g.find(f"{SVG}title").text for g in groups] == ["Ann: +3", "Bob: +3", "Cid: −6"]  # type: ignore[union-attr]
    ends = [t.text for t in root.iter(f"{SVG}text") if "end" in t.attrib.get("class", "").split()]
    assert ends == ["An", "Bo", "Ci"]  # each line's mark; the page's key gives names and totals
    # Ann and Bob end level: their labels are pushed apart so both stay readable.
    y = [float(t.attrib["y"]) for t in root.iter(f"{SVG}text") if "end" in t.attrib.get("class", "").split()]
    assert abs(y[0] - y[1]) >= charts.LABEL_GAP
    ticks = [t.text for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "y-tick"]
    assert "0" in ticks and ticks[0].startswith("−") and ticks[-1].startswith("+")  # type: ignore[union-attr]


def test_a_game_in_progress_keeps_the_whole_axis() -> None:
    totals = [deal.totals for deal in MIZERKA_DEALS[:4]]
    root = parsed(charts.running_totals_chart(["Ann", "Bob", "Cid"], totals, 18, ["1", "2", "3"]))
    assert [len(line.attrib["points"].split()) for line in root.iter(f"{SVG}polyline")] == [5, 5, 5]
    labels = [t.text for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "x-tick"]
    assert labels[0] == "0" and labels[-1] == "18"


def test_names_are_escaped_and_never_shortened() -> None:
    names = ['<b>"Al"</b> & co', "Wolfeschlegelsteinhausenbergerdorffvoral", "Cid"]
    svg = charts.running_totals_chart(names, [(1, 0, -1)], 18, name_marks(names))
    assert "<b>" not in svg
    assert "…" not in svg
    root = parsed(svg)
    titles = [g.find(f"{SVG}title").text for g in root.findall(f"{SVG}g[{SVG}polyline]")]  # type: ignore[union-attr]
    assert titles == ['<b>"Al"</b> & co: +1', "Wolfeschlegelsteinhausenbergerdorffvoral: 0", "Cid: −1"]
    assert names[1] in root.find(f"{SVG}desc").text  # type: ignore[union-attr, operator]
    ends = [t.text for t in root.iter(f"{SVG}text") if "end" in t.attrib.get("class", "").split()]
    assert ends == ["<&", "Wo", "Ci"]


def test_marks_are_short_and_tell_the_seats_apart() -> None:
    assert name_marks(["Giulia Francesca Maria", "grzegorz brzęczyszczykiewicz", "Wolfeschlegel"]) == (
        "GF",
        "GB",
        "Wo",
    )
    assert name_marks(["Anna Berg", "Anna Bianchi", "Cid"]) == ("1", "2", "3")  # never two alike
    assert name_marks(["Al", "al b"]) == ("Al", "AB")


def test_a_name_fits_a_phone_column_when_short_in_words_and_in_all() -> None:
    assert fits_a_column("Ann") and fits_a_column("Maximilian von Baden")
    assert not fits_a_column("Brzęczyszczykiewicz")  # one word too long for a quarter of a phone
    assert not fits_a_column("Giulia Francesca Maria Rossi-Bianchi Sal")  # too many lines


def test_points_per_game_chart() -> None:
    games = [(date(2026, 1, 9), 3), (date(2026, 1, 16), -2), (date(2026, 2, 6), 0)]
    root = parsed(charts.points_per_game_chart("Ann", games))
    no_inline_style(root)
    assert root.find(f"{SVG}title").text == "Points per game, Ann"  # type: ignore[union-attr]
    assert len(root.findall(f".//{SVG}polyline")) == 1
    dots = root.findall(f".//{SVG}circle")
    assert [dot.find(f"{SVG}title").text for dot in dots] == [  # type: ignore[union-attr]
        "2026-01-09: +3",
        "2026-01-16: −2",
        "2026-02-06: 0",
    ]
    assert "best +3, worst −2" in root.find(f"{SVG}desc").text  # type: ignore[operator,union-attr]


def test_nice_steps() -> None:
    # At most 7 intervals of 1, 2 or 5 times a power of ten.
    spans = (0, 3, 6, 7, 12, 25, 60, 130, 900)
    assert [charts.nice_step(span) for span in spans] == [1, 1, 1, 1, 2, 5, 10, 20, 200]


def test_the_game_page_and_the_scoresheet_show_the_chart(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=0)
    assert parse_html(page(client, f"/games/{game_id}")).first("svg", cls="chart") is None  # nothing to draw
    game_id = start_mizerka(client, deals=18)
    for url in (f"/games/{game_id}", f"/games/{game_id}/scoresheet"):
        html = page(client, url)
        chart = parse_html(html).find("svg", cls="chart")
        assert chart.attrs["role"] == "img"
        assert len(chart.find_all("polyline")) == 3
        assert " style=" not in html.split("<svg", 1)[1].split("</svg>", 1)[0]
    # In progress, the chart is inside the live part of the game page, so watching phones see it move.
    game_id = start_mizerka(client, deals=5)
    live = parse_html(page(client, f"/games/{game_id}")).find(id="live")
    assert len(live.find("svg", cls="chart").find_all("polyline")) == 3
