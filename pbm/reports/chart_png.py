"""The VP chart as PNG (issue 15), for the HTML part of the game-end mail: mail programs such as
Gmail strip inline SVG, so the mail carries this picture as an inline related image (cid:).
The archive keeps the SVG (`chart.vp_chart_svg`).

Drawn like the SVG, from the same geometry and cues: the Okabe–Ito colours of `chart.PALETTE`,
a dark casing under every line, each seat's marker shape and dash pattern, and the label at the
line's end. Drawn at twice the size and scaled down, so lines and text are smooth.
"""

from __future__ import annotations

import functools
import io
import itertools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from .chart import (
    BOTTOM,
    DASHES,
    HEIGHT,
    LEFT,
    MARKERS,
    PALETTE,
    RIGHT,
    TOP,
    WIDTH,
    star_points,
)

#: Drawn at this many times the size, then scaled down (anti-aliasing).
SCALE = 2
CASING = "#222222"
GRID = "#E4E4E4"
INK = "#000000"

Point = tuple[float, float]


#: DejaVu Sans (Debian's fonts-dejavu-core) has every letter of the players' names, "weiß"'s ß
#: too; Pillow's own font, the fallback, draws no ß.
FONTS = ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@functools.lru_cache(maxsize=8)
def _font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for name in FONTS:
        try:
            return ImageFont.truetype(name, round(size * SCALE))
        except OSError:
            continue
    return ImageFont.load_default(size=size * SCALE)


def _dash_pattern(dash: str) -> list[float]:
    """SVG's `stroke-dasharray`: on, off, on, …; an odd list is repeated to make it even."""
    values = [float(x) for x in dash.split()]
    return values * 2 if len(values) % 2 else values


def _dashed(
    draw: ImageDraw.ImageDraw, points: Sequence[Point], dash: str, fill: str, width: float
) -> None:
    """A polyline with the SVG's dash pattern (in chart units), the pattern running on across
    the corners as in SVG."""
    s = SCALE
    pts = [(x * s, y * s) for x, y in points]
    w = max(1, round(width * s))
    pattern = [d * s for d in _dash_pattern(dash)]
    if not pattern:
        if len(pts) > 1:
            draw.line(pts, fill=fill, width=w, joint="curve")
        return
    index, left = 0, pattern[0]
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while done < length:
            step = min(left, length - done)
            if index % 2 == 0:  # a dash, not a gap
                a, b = done / length, (done + step) / length
                start = (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a)
                end = (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)
                draw.line([start, end], fill=fill, width=w)
            done += step
            left -= step
            if left <= 1e-9:
                index = (index + 1) % len(pattern)
                left = pattern[index]


def _marker(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, fill: str) -> None:
    """The SVG's marker shapes (`chart._marker`), with their dark outline."""
    s, k = 5.0, SCALE
    edge = max(1, round(1.2 * k))

    def pts(points: Sequence[Point]) -> list[Point]:
        return [(px * k, py * k) for px, py in points]

    if kind == "circle":
        draw.ellipse(
            [(x - s) * k, (y - s) * k, (x + s) * k, (y + s) * k],
            fill=fill,
            outline=CASING,
            width=edge,
        )
    elif kind == "square":
        draw.rectangle(
            [(x - s) * k, (y - s) * k, (x + s) * k, (y + s) * k],
            fill=fill,
            outline=CASING,
            width=edge,
        )
    elif kind == "triangle":
        draw.polygon(
            pts([(x, y - s - 1), (x - s - 1, y + s), (x + s + 1, y + s)]),
            fill=fill,
            outline=CASING,
            width=edge,
        )
    elif kind == "diamond":
        d = s + 1
        draw.polygon(
            pts([(x, y - d), (x + d, y), (x, y + d), (x - d, y)]),
            fill=fill,
            outline=CASING,
            width=edge,
        )
    elif kind == "cross":
        for a, b in (((x - s, y - s), (x + s, y + s)), ((x - s, y + s), (x + s, y - s))):
            draw.line(pts([a, b]), fill=CASING, width=round(4 * k))
        for a, b in (((x - s, y - s), (x + s, y + s)), ((x - s, y + s), (x + s, y - s))):
            draw.line(pts([a, b]), fill=fill, width=round(2.2 * k))
    else:  # star
        draw.polygon(pts(star_points(x, y, s)), fill=fill, outline=CASING, width=edge)


def _text(
    draw: ImageDraw.ImageDraw, x: float, y: float, text: str, anchor: str, size: float = 12
) -> None:
    draw.text((x * SCALE, y * SCALE), text, fill=INK, font=_font(size), anchor=anchor)


def vp_chart_png(
    title: str,
    rounds: list[int],
    players: list[tuple[str, str]],
    series: list[list[int]],
    axis_round: str,
    axis_vp: str,
) -> bytes:
    """The arguments of `chart.vp_chart_svg`; a PNG of WIDTH × HEIGHT pixels (`title` is the
    picture's alt text in the mail, not drawn)."""
    del title  # the mail's <img alt> says it; the SVG has it as <title>
    top_vp = max([10, *(v for s in series for v in s)])
    last = max(rounds) if rounds else 1
    first = min(rounds) if rounds else 0
    span = max(1, last - first)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(r: int) -> float:
        return LEFT + (r - first) / span * plot_w

    def py(v: int) -> float:
        return TOP + plot_h - v / top_vp * plot_h

    img = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), "#FFFFFF")
    draw = ImageDraw.Draw(img)
    for v in range(0, top_vp + 1, 2):
        y = py(v)
        draw.line(
            [(LEFT * SCALE, y * SCALE), ((LEFT + plot_w) * SCALE, y * SCALE)],
            fill=GRID,
            width=SCALE,
        )
        _text(draw, LEFT - 6, y, str(v), "rm")
    step = max(1, span // 10)
    for r in range(first, last + 1, step):
        _text(draw, px(r), TOP + plot_h + 12, str(r), "mm")
    _text(draw, LEFT + plot_w / 2, HEIGHT - 10, axis_round, "mm")
    # The VP axis title, turned as in the SVG.
    font = _font(12)
    left, top, right, bottom = (int(v) for v in font.getbbox(axis_vp))
    label = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(label).text((-left, -top), axis_vp, fill=255, font=font)
    turned = label.rotate(90, expand=True)
    img.paste(
        INK,
        (
            round(12 * SCALE - turned.width / 2),
            round((TOP + plot_h / 2) * SCALE - turned.height / 2),
        ),
        turned,
    )
    ends: list[tuple[float, int, str, str]] = []
    for seat, ((label_text, colour), values) in enumerate(zip(players, series, strict=True)):
        fill = PALETTE.get(colour, "#777777")
        points = [(px(r), py(v)) for r, v in zip(rounds, values, strict=True)]
        dash = DASHES[seat % len(DASHES)]
        # A dark casing under every line: light colours (white, yellow) stay visible.
        _dashed(draw, points, dash, CASING, 4.5)
        _dashed(draw, points, dash, fill, 2.5)
        for x, y in points:
            _marker(draw, MARKERS[seat % len(MARKERS)], x, y, fill)
        if values:
            ends.append((py(values[-1]), seat, label_text, fill))
    # Labels at the line ends, moved apart so that they never overlap (as in the SVG).
    ends.sort()
    placed: list[float] = []
    for y, seat, label_text, fill in ends:
        y = max(y, placed[-1] + 15) if placed else y
        placed.append(y)
        x = LEFT + plot_w + 10
        _marker(draw, MARKERS[seat % len(MARKERS)], x, y - 4, fill)
        _text(draw, x + 10, y, label_text, "ls")
    out = io.BytesIO()
    img.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()
