"""The chart of every player's victory points over the rounds, as SVG (issue 15): on the
archive's index page and in the HTML part of the game-end mail.

Colour-blind safe: the players' colours are drawn in the Okabe–Ito palette (vermillion, blue,
yellow, bluish green, a brown of its own lightness; white as a light grey with a dark outline),
and colour is never the only cue: each player has a marker shape and a dash pattern of their
own, and each line is labelled with the player's name at its end.
"""

from __future__ import annotations

from html import escape

#: The game colours (canonical names) in the Okabe–Ito palette.
PALETTE = {
    "rot": "#D55E00",
    "blau": "#0072B2",
    "gelb": "#F0E442",
    "weiss": "#DDDDDD",
    "gruen": "#009E73",
    "braun": "#8C510A",
    "orange": "#E69F00",
}
#: Marker shapes and dash patterns by seat: a second cue besides the colour.
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "star")
DASHES = ("", "8 4", "3 3", "10 3 3 3", "1 4", "12 6")
WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 40, 150, 20, 40


def _marker(kind: str, x: float, y: float, fill: str) -> str:
    s = 5.0
    style = f'fill="{fill}" stroke="#222" stroke-width="1.2"'
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s:.1f}" {style}/>'
    if kind == "square":
        box = f'x="{x - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}"'
        return f"<rect {box} {style}/>"
    if kind == "triangle":
        pts = f"{x:.1f},{y - s - 1:.1f} {x - s - 1:.1f},{y + s:.1f} {x + s + 1:.1f},{y + s:.1f}"
        return f'<polygon points="{pts}" {style}/>'
    if kind == "diamond":
        d = s + 1
        pts = f"{x:.1f},{y - d:.1f} {x + d:.1f},{y:.1f} {x:.1f},{y + d:.1f} {x - d:.1f},{y:.1f}"
        return f'<polygon points="{pts}" {style}/>'
    if kind == "cross":
        a, b, c, e = x - s, x + s, y - s, y + s
        path = f"M{a:.1f},{c:.1f} L{b:.1f},{e:.1f} M{a:.1f},{e:.1f} L{b:.1f},{c:.1f}"
        return (
            f'<path d="{path}" stroke="#222" stroke-width="4"/>'
            f'<path d="{path}" stroke="{fill}" stroke-width="2.2"/>'
        )
    pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in star_points(x, y, s))
    return f'<polygon points="{pts}" {style}/>'


def star_points(x: float, y: float, s: float) -> list[tuple[float, float]]:
    """The star marker's ten corners around (x, y), for the SVG and the PNG chart alike."""
    return [
        (x + r * c, y + r * t)
        for r, c, t in (
            (s + 2, 0.0, -1.0),
            (s / 2, 0.35, -0.35),
            (s + 2, 0.95, -0.31),
            (s / 2, 0.5, 0.15),
            (s + 2, 0.59, 0.81),
            (s / 2, 0.0, 0.45),
            (s + 2, -0.59, 0.81),
            (s / 2, -0.5, 0.15),
            (s + 2, -0.95, -0.31),
            (s / 2, -0.35, -0.35),
        )
    ]


def vp_chart_svg(
    title: str,
    rounds: list[int],
    players: list[tuple[str, str]],
    series: list[list[int]],
    axis_round: str,
    axis_vp: str,
) -> str:
    """`players`: (label, canonical colour) by seat; `series[seat]`: the VP after each of
    `rounds`. An SVG document (also fit to be put into an HTML page as it is)."""
    top_vp = max([10, *(v for s in series for v in s)])
    last = max(rounds) if rounds else 1
    first = min(rounds) if rounds else 0
    span = max(1, last - first)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(r: int) -> float:
        return LEFT + (r - first) / span * plot_w

    def py(v: int) -> float:
        return TOP + plot_h - v / top_vp * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="vp-title" '
        'font-family="sans-serif" font-size="12">',
        f'<title id="vp-title">{escape(title)}</title>',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>',
    ]
    for v in range(0, top_vp + 1, 2):
        y = py(v)
        out.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#e4e4e4"/>'
        )
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{v}</text>')
    step = max(1, span // 10)
    for r in range(first, last + 1, step):
        out.append(f'<text x="{px(r):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">{r}</text>')
    out.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle">'
        f"{escape(axis_round)}</text>"
    )
    out.append(
        f'<text x="12" y="{TOP + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 12 {TOP + plot_h / 2:.1f})">{escape(axis_vp)}</text>'
    )
    ends: list[tuple[float, int, str, str]] = []
    for seat, ((label, colour), values) in enumerate(zip(players, series, strict=True)):
        fill = PALETTE.get(colour, "#777777")
        points = " ".join(f"{px(r):.1f},{py(v):.1f}" for r, v in zip(rounds, values, strict=True))
        dash = DASHES[seat % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g class="player" data-seat="{seat}">')
        # A dark casing under every line: light colours (white, yellow) stay visible.
        out.append(
            f'<polyline points="{points}" fill="none" stroke="#222" stroke-width="4.5"{dash_attr}/>'
        )
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{fill}" stroke-width="2.5"'
            f"{dash_attr}/>"
        )
        for r, v in zip(rounds, values, strict=True):
            out.append(_marker(MARKERS[seat % len(MARKERS)], px(r), py(v), fill))
        out.append("</g>")
        if values:
            ends.append((py(values[-1]), seat, label, fill))
    # Labels at the line ends, moved apart so that they never overlap.
    ends.sort()
    placed: list[float] = []
    for y, seat, label, fill in ends:
        y = max(y, placed[-1] + 15) if placed else y
        placed.append(y)
        x = LEFT + plot_w + 10
        out.append(_marker(MARKERS[seat % len(MARKERS)], x, y - 4, fill))
        out.append(f'<text x="{x + 10}" y="{y:.1f}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
