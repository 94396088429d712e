"""The VP chart (issue 15): SVG, every player with a colour of the colour-blind safe palette, a
marker shape and a dash pattern of their own, and their name at the line's end."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from pbm.reports.chart import DASHES, MARKERS, PALETTE, vp_chart_svg
from pbm.rules.state import DEFAULT_COLOURS

SVG = "{http://www.w3.org/2000/svg}"


def _chart() -> str:
    players = [(f"{c} (P{i})", c) for i, c in enumerate(DEFAULT_COLOURS)]
    series = [[2, 3 + i % 2, 4 + i, 5 + i] for i in range(6)]
    return vp_chart_svg("VP", [1, 2, 3, 4], players, series, "Round", "VP")


def test_the_chart_is_svg_with_every_player() -> None:
    svg = _chart()
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.find(f"{SVG}title") is not None
    groups = root.findall(f"{SVG}g")
    assert len(groups) == 6
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for i, c in enumerate(DEFAULT_COLOURS):
        assert f"{c} (P{i})" in texts


def test_colour_is_never_the_only_cue() -> None:
    svg = _chart()
    assert len(set(MARKERS)) == len(MARKERS) == 6 and len(set(DASHES)) == len(DASHES)
    for colour in DEFAULT_COLOURS:
        assert PALETTE[colour] in svg
    # Six different dash patterns (one solid) are drawn.
    dashes = set(re.findall(r'stroke-dasharray="([^"]+)"', svg))
    assert len(dashes) == 5
    # Light colours are drawn on a dark casing.
    assert svg.count('stroke="#222" stroke-width="4.5"') == 6


def test_labels_never_overlap() -> None:
    players = [("a", "rot"), ("b", "blau"), ("c", "gelb")]
    svg = vp_chart_svg("VP", [1, 2], players, [[3, 5], [3, 5], [3, 5]], "Round", "VP")
    ys = [float(y) for y in re.findall(r'<text x="\d+\.?\d*" y="([\d.]+)">[abc]</text>', svg)]
    assert (
        len(ys) == 3 and min(b - a for a, b in zip(sorted(ys), sorted(ys)[1:], strict=False)) >= 15
    )
