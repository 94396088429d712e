"""The board as a PNG (Pillow): hexes with label, token and resource, harbours, buildings,
roads and the robber; in Seafarers also gold rivers, ships (hulls), the pirate and the fog
(grey with `?`: nothing of a hex shows before it is discovered); in Kronlande quarries
(grey-brown, `S`), fishing grounds (sea with a token and `F`), Burgen (a square with a tower),
Residenzen (a square with two towers) and workshops (a small tag with the workshop's letter
beside the building). Pieces carry their colour's initial letter and settlements, cities and
castles differ in shape, so the picture reads without telling colours apart."""

from __future__ import annotations

import functools
import io
import math
import threading

from PIL import Image, ImageDraw

from pbm.i18n import PerLanguage, translator
from pbm.rules.board import Board, Terrain
from pbm.rules.kron import RESIDENZ
from pbm.rules.resources import STEIN, letters_of
from pbm.rules.state import GameState

from . import glyphs
from .identity_sea import island_letter
from .identity_sea import lettered as island_marks

RADIUS = 44
TERRAIN_FILL = {
    0: (46, 125, 50),  # Holz: forest green
    1: (198, 92, 48),  # Lehm: brick
    2: (156, 204, 101),  # Wolle: pasture
    3: (240, 200, 60),  # Getreide: field
    4: (140, 140, 150),  # Erz: mountains
}
#: Kronlande: a quarry (Stein).
QUARRY = (180, 150, 110)
DESERT = (226, 205, 160)
SEA = (120, 170, 215)
GOLD = (230, 180, 20)
FOG = (90, 90, 90)
PIECE = {
    "rot": (214, 39, 40),
    "blau": (31, 119, 180),
    "gelb": (255, 221, 0),
    "weiss": (250, 250, 250),
    "gruen": (44, 160, 44),
    "braun": (140, 86, 75),
    "orange": (255, 127, 14),
    "schwarz": (30, 30, 30),
}


@functools.lru_cache(maxsize=2048)
def _glyph(text: str, size: int) -> glyphs.Glyph:
    """The anti-aliased mask of a text and its offset from the point it is centred on: made
    once, pasted in every picture (labels, tokens and piece codes repeat on every board)."""
    return glyphs.glyph(text, size)


def _text(
    img: Image.Image, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int]
) -> None:
    """`draw.text(xy, text, anchor="mm")` from the glyph cache."""
    mask, left, top = _glyph(text, size)
    img.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)


def _centre(row: int, x: int, min_x: int, min_row: int) -> tuple[float, float]:
    w = math.sqrt(3) * RADIUS
    return ((x - min_x) * w / 2 + w / 2 + 10, (row - min_row) * 1.5 * RADIUS + RADIUS + 10)


#: A hex's corners from its centre (pointy top), worked out once: the same sums as at every
#: hex, without twelve trigonometric calls each.
_CORNER_OFFSETS = tuple(
    (RADIUS * math.cos(math.radians(a)), RADIUS * math.sin(math.radians(a)))
    for a in (-90, -30, 30, 90, 150, 210)
)


def _corners(cx: float, cy: float) -> list[tuple[float, float]]:
    return [(cx + dx, cy + dy) for dx, dy in _CORNER_OFFSETS]


def _piece_codes(lang: str) -> dict[str, str]:
    tr = translator(lang)
    return {
        # Translators: two letters on a player's pieces in the board picture, one pair for
        # each colour, all eight different (blue/brown, green/grey): the colour's name as the
        # game's language writes it, shortened. German: Ro Bl Ge Ws Gr Br Or Sw.
        "rot": tr.pgettext("piece code", "Re"),
        "blau": tr.pgettext("piece code", "Bl"),
        "gelb": tr.pgettext("piece code", "Ye"),
        "weiss": tr.pgettext("piece code", "Wh"),
        "gruen": tr.pgettext("piece code", "Gr"),
        "braun": tr.pgettext("piece code", "Br"),
        "orange": tr.pgettext("piece code", "Or"),
        "schwarz": tr.pgettext("piece code", "Bk"),
    }


#: Two letters per colour in the game's language, so pieces differ without colour.
PIECE_CODES = PerLanguage(_piece_codes)


def _code(colour: str, lang: str) -> str:
    return PIECE_CODES[lang].get(colour, colour[:2].title())


def _picture_words(lang: str) -> tuple[str, tuple[str, str, str]]:
    """A gold river's label and the workshops' tags, in the game's language."""
    tr = translator(lang)
    # Translators: the label of a gold river hex in the board picture (a short word).
    gold = tr.pgettext("picture", "Gold")
    # Translators: one letter on a Kronlande workshop's tag in the board picture: the
    # first letter of Smithy, Weaving mill and Bakery in the game's language.
    tags = (
        tr.pgettext("smithy tag", "S"),
        tr.pgettext("weaving mill tag", "W"),
        tr.pgettext("bakery tag", "B"),
    )
    return gold, tags


#: The picture's words by game language (`_picture_words`).
PICTURE_WORDS = PerLanguage(_picture_words)


#: A base (the board without pieces) is ~1.1 MB (a medium board: 553×504 pixels at 4 bytes) and
#: takes ~1 ms to draw. A tick's reports are each of another game, so a kept base is never hit
#: there (64 kept held 70 MB in `pbm serve` when a tick resolved 1,000 games): a base is drawn
#: straight into the work image, and one is kept apart only when the same board is drawn twice in
#: a row (a game's rounds in its archive, a welcome mail and the first report). `pbm serve` then
#: holds one picture-sized buffer, not two (1.1 MB of its peak, `pbm bench serve`).
_kept: tuple[tuple[Board, str], Image.Image, tuple[tuple[float, float], ...]] | None = None
#: The (board, language) of the last picture drawn.
_last: tuple[Board, str] | None = None
#: Work images kept by size, each holding the picture being drawn: a tick of a thousand games
#: allocates no picture-sized buffer per game, whose release left the process larger (the heap
#: does not shrink back).
_WORK: dict[tuple[int, int], Image.Image] = {}
#: Sizes of work image kept at most: one. A tick over games of every kind (the base game's two
#: sizes, each Seafarers scenario's, Kronlande's) kept four of up to 2 MB each and made new ones
#: as the sizes came round, which left `pbm serve` 4.5 MB larger after a tick over 150 mixed
#: games than with one (`pbm bench serve --mix`); a new work image costs no more than a fresh
#: palette image, which every picture makes anyway.
_WORK_MAX = 1
#: The kept base and the work images are shared: `pbm serve` draws in more than one thread.
_LOCK = threading.Lock()


def release() -> None:
    """Lets go of the work images and the kept base (`pbm serve` after a tick that drew
    pictures): they are the process's largest buffers, about 1.1 MB each, and the outbox
    then sends the tick's reports without them; the next tick makes one again."""
    global _kept, _last
    with _LOCK:
        _kept, _last = None, None
        _WORK.clear()


def _canvas(
    board: Board, lang: str, lettered: bool = False
) -> tuple[Image.Image, tuple[tuple[float, float], ...]]:
    """The work image holding the board without pieces, and the hexes' centres. Call with
    `_LOCK` held; the image is valid until the next call. `lettered`: the board's islands carry
    their letters (New World's; the board decides it, so the kept base stays right)."""
    global _kept, _last
    key = (board, lang)
    repeat, _last = key == _last, key
    if _kept is not None and _kept[0] == key:
        base, centres = _kept[1], _kept[2]
        img = _work_image(base.size)
        img.paste(base, (0, 0))
        return img, centres
    size, centres = _layout(board)
    if not repeat:
        _kept = None  # the next board is most likely another one: no second buffer
        img = _work_image(size)
        _draw_base(img, board, lang, centres, lettered)
        return img, centres
    # A repeat finds no other base kept: any other board in between let it go.
    base = Image.new("RGB", size)
    _draw_base(base, board, lang, centres, lettered)
    _kept = (key, base, centres)
    img = _work_image(size)
    img.paste(base, (0, 0))
    return img, centres


def _layout(board: Board) -> tuple[tuple[int, int], tuple[tuple[float, float], ...]]:
    """The picture's size and each hex's centre in it."""
    min_x = min(h.x for h in board.hexes)
    min_row = min(h.row for h in board.hexes)
    centres = tuple(_centre(h.row, h.x, min_x, min_row) for h in board.hexes)
    width = int(max(c[0] for c in centres) + math.sqrt(3) * RADIUS / 2 + 10)
    height = int(max(c[1] for c in centres) + RADIUS + 10)
    return (width, height), centres


def _draw_base(
    img: Image.Image,
    board: Board,
    lang: str,
    centres: tuple[tuple[float, float], ...],
    lettered: bool = False,
) -> None:
    """The board without pieces, drawn over everything `img` held; `lettered`: each island's
    letter on its hexes (New World)."""
    img.paste((255, 255, 255), (0, 0, *img.size))
    draw = ImageDraw.Draw(img)
    # The first five are the base game's letters; Kronlande's quarries and fishing grounds
    # show S / St and F.
    letters = letters_of(lang, True)
    for h, (cx, cy) in zip(board.hexes, centres, strict=True):
        if h.terrain == Terrain.SEA:
            fill = SEA
        elif h.terrain == Terrain.DESERT:
            fill = DESERT
        elif h.terrain == Terrain.GOLD:
            fill = GOLD
        elif h.terrain == Terrain.FOG:
            fill = FOG
        elif h.resource == STEIN:
            fill = QUARRY
        else:
            fill = TERRAIN_FILL[h.resource or 0]
        draw.polygon(_corners(cx, cy), fill=fill, outline=(60, 60, 60))
        _text(img, (cx, cy - RADIUS * 0.62), h.label, 11, (20, 20, 20))
        if h.number is not None:
            hot = h.number in (6, 8)
            draw.ellipse((cx - 15, cy - 13, cx + 15, cy + 17), fill=(250, 240, 215))
            _text(img, (cx, cy + 2), str(h.number), 18, (200, 0, 0) if hot else (20, 20, 20))
        if h.resource is not None:
            _text(img, (cx, cy + RADIUS * 0.55), letters[h.resource], 11, (20, 20, 20))
        elif h.terrain == Terrain.GOLD:
            # Seafarers: a gold river pays a resource of the owner's choice.
            _text(img, (cx, cy + RADIUS * 0.55), PICTURE_WORDS[lang][0], 11, (20, 20, 20))
        elif h.terrain == Terrain.FOG:
            # Oceania: nothing of a hex in the fog shows until it is discovered.
            _text(img, (cx, cy + 4), "?", 22, (255, 255, 255))
        if lettered and h.area is not None:
            # New World: the island's letter in a small white disc left of the token, on every
            # hex of the island ("Insel B" of the reports).
            disc = (cx - 31, cy - 5, cx - 17, cy + 9)
            draw.ellipse(disc, fill=(255, 255, 255), outline=(20, 20, 20))
            _text(img, (cx - 24, cy + 2), island_letter(h.area), 11, (20, 20, 20))
        if h.harbor is not None:
            fx, fy = centres[h.harbor.faces]
            draw.line(
                ((cx + fx) / 2, (cy + fy) / 2, cx + (fx - cx) * 0.15, cy + (fy - cy) * 0.15),
                fill=(70, 50, 30),
                width=3,
            )
            code = "3:1" if h.harbor.resource is None else f"2:1 {letters[h.harbor.resource]}"
            _text(img, (cx - (fx - cx) * 0.2, cy - (fy - cy) * 0.2 + 4), code, 11, (0, 0, 0))


def board_png(state: GameState, lang: str = "de") -> bytes:
    with _LOCK:
        picture = _draw(state, lang)
    out = io.BytesIO()
    # A palette image encodes in a third of the time of an RGB one and is half the size; the
    # fixed palette holds every colour drawn exactly (the text's anti-aliased edges go to the
    # nearest blend). optimize=True costs 50 ms a picture; level 3 is barely larger.
    picture.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def _work_image(size: tuple[int, int]) -> Image.Image:
    """The work image of that size (what it holds is drawn over)."""
    img = _WORK.get(size)
    if img is None:
        if len(_WORK) >= _WORK_MAX:
            _WORK.clear()
        img = _WORK[size] = Image.new("RGB", size)
    return img


def _draw(state: GameState, lang: str) -> Image.Image:
    """The picture as a palette image (with `_LOCK` held)."""
    board = state.board
    lettered = state.sea is not None and island_marks(state.sea.scenario)
    img, centres = _canvas(board, lang, lettered)
    draw = ImageDraw.Draw(img)
    crossing_xy = [
        (sum(centres[h][0] for h in hexes) / 3, sum(centres[h][1] for h in hexes) / 3)
        for hexes in board.crossing_hexes
    ]
    for e, p in enumerate(state.road):
        if p >= 0:
            (x1, y1), (x2, y2) = (crossing_xy[c] for c in board.path_crossings[e])
            colour = PIECE.get(state.colours[p], (0, 0, 0))
            draw.line((x1, y1, x2, y2), fill=(0, 0, 0), width=9)
            draw.line((x1, y1, x2, y2), fill=colour, width=6)
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            ink = (0, 0, 0) if sum(colour) > 350 else (255, 255, 255)
            _text(img, (mx, my), _code(state.colours[p], lang), 8, ink)
    if state.sea is not None:
        _ships(img, draw, state, crossing_xy, centres, lang)
    kron = state.kron
    for c, p in enumerate(state.owner):
        if p < 0:
            continue
        x, y = crossing_xy[c]
        colour = PIECE.get(state.colours[p], (0, 0, 0))
        size = 11 if state.level[c] >= 2 else 8
        shape = (x - size, y - size, x + size, y + size)
        rank = kron.castle[c] if kron is not None else 0
        if rank:
            _castle(draw, x, y, colour, towers=2 if rank == RESIDENZ else 1)
        if state.level[c] >= 2:
            draw.rectangle(shape, fill=colour, outline=(0, 0, 0), width=2)
        else:
            draw.ellipse(shape, fill=colour, outline=(0, 0, 0), width=2)
        ink = (0, 0, 0) if sum(colour) > 350 else (255, 255, 255)
        _text(img, (x, y), _code(state.colours[p], lang), 9, ink)
        if kron is not None and kron.workshop[c] >= 0:
            _workshop(img, draw, x, y, PICTURE_WORDS[lang][1][kron.workshop[c]])
    if state.robber >= 0:
        rx, ry = centres[state.robber]
        # A black triangle: no piece has that shape.
        draw.polygon([(rx + 24, ry - 26), (rx + 12, ry - 4), (rx + 36, ry - 4)], fill=(20, 20, 20))
    return img.quantize(palette=_palette(kron is not None), dither=Image.Dither.NONE)


def _castle(
    draw: ImageDraw.ImageDraw, x: float, y: float, colour: tuple[int, int, int], towers: int
) -> None:
    """Kronlande: the towers of a Burg (one) or a Residenz (two) above the city's square, drawn
    first so the square covers their feet: no other piece has them."""
    for dx in (0,) if towers == 1 else (-7, 7):
        draw.rectangle(
            (x + dx - 4, y - 19, x + dx + 4, y - 8), fill=colour, outline=(0, 0, 0), width=2
        )


def _workshop(img: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, tag: str) -> None:
    """Kronlande: a workshop as a small white tag with its letter at the building's lower
    right."""
    box = (x + 8, y + 5, x + 20, y + 17)
    draw.rectangle(box, fill=(255, 255, 255), outline=(0, 0, 0), width=1)
    _text(img, (x + 14, y + 11), tag, 9, (0, 0, 0))


def _hull(x: float, y: float, size: float) -> list[tuple[float, float]]:
    """A boat's hull, wider on deck than at the keel: no road or building has that shape."""
    return [
        (x - size, y - size * 0.45),
        (x + size, y - size * 0.45),
        (x + size * 0.6, y + size * 0.55),
        (x - size * 0.6, y + size * 0.55),
    ]


def _ships(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: GameState,
    crossing_xy: list[tuple[float, float]],
    centres: tuple[tuple[float, float], ...],
    lang: str,
) -> None:
    """Seafarers: each ship a thin line in its colour along its side with a hull on it (roads
    are thick lines), and the pirate as a black hull with a sail."""
    sea = state.sea
    assert sea is not None
    board = state.board
    for e, p in enumerate(sea.ship):
        if p < 0:
            continue
        (x1, y1), (x2, y2) = (crossing_xy[c] for c in board.path_crossings[e])
        colour = PIECE.get(state.colours[p], (0, 0, 0))
        draw.line((x1, y1, x2, y2), fill=colour, width=3)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        draw.polygon(_hull(mx, my, 11), fill=colour, outline=(0, 0, 0), width=2)
        ink = (0, 0, 0) if sum(colour) > 350 else (255, 255, 255)
        _text(img, (mx, my), _code(state.colours[p], lang), 8, ink)
    if sea.pirate >= 0:
        px, py = centres[sea.pirate]
        draw.polygon(_hull(px - 22, py - 8, 12), fill=(20, 20, 20))
        draw.polygon(
            [(px - 22, py - 30), (px - 22, py - 14), (px - 10, py - 14)], fill=(20, 20, 20)
        )


#: The colours text is drawn in, and what it is drawn on: their blends are the palette's
#: shades for anti-aliased edges.
_INKS = ((20, 20, 20), (0, 0, 0), (200, 0, 0), (255, 255, 255))
_GROUNDS = (
    *TERRAIN_FILL.values(),
    DESERT,
    SEA,
    GOLD,
    FOG,
    (250, 240, 215),
    (255, 255, 255),
    *PIECE.values(),
)


@functools.cache
def _palette(kron: bool = False) -> Image.Image:
    """Every colour the picture draws, exactly, then three blends of each ink on each ground
    (at most 256 colours). A Kronlande board adds the quarry's colour and the blends of the
    dark inks on it; the red ink, drawn only on tokens, keeps its blends on the token's ground
    there, to stay within 256 (the base boards' palette is as it always was)."""
    exact = [
        (255, 255, 255),
        (0, 0, 0),
        (20, 20, 20),
        (60, 60, 60),
        (70, 50, 30),
        (200, 0, 0),
        (250, 240, 215),
        *TERRAIN_FILL.values(),
        DESERT,
        SEA,
        GOLD,
        FOG,
        *PIECE.values(),
    ]
    if kron:
        exact.append(QUARRY)
    colours = list(dict.fromkeys(exact))
    grounds = (*_GROUNDS, QUARRY) if kron else _GROUNDS
    for ink in _INKS:
        for ground in grounds:
            if kron and ink == (200, 0, 0) and ground != (250, 240, 215):
                continue
            for k in (1, 2, 3):
                r, g, b = (round(ink[i] * k / 4 + ground[i] * (4 - k) / 4) for i in range(3))
                shade = (r, g, b)
                if shade not in colours:
                    colours.append(shade)
    assert len(colours) <= 256
    flat = [v for c in colours for v in c]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal
