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
from typing import NamedTuple

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


class _Glyph(NamedTuple):
    """A text's anti-aliased mask and its offset from the point it is centred on; where the
    mask is not 0, as a mask of 255s (what a palette picture takes over from the text's
    blend), and its box in the mask (None: an empty text)."""

    mask: Image.Image
    left: int
    top: int
    inked: Image.Image
    bbox: tuple[int, int, int, int] | None


@functools.lru_cache(maxsize=2048)
def _glyph(text: str, size: int) -> _Glyph:
    """A text's mask, made once, pasted in every picture (labels, tokens and piece codes
    repeat on every board)."""
    mask, left, top = glyphs.glyph(text, size)
    return _Glyph(mask, left, top, mask.point(lambda v: 255 if v else 0), mask.getbbox())


def _text(
    img: Image.Image, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int]
) -> None:
    """`draw.text(xy, text, anchor="mm")` from the glyph cache."""
    glyph = _glyph(text, size)
    img.paste(fill, (round(xy[0]) + glyph.left, round(xy[1]) + glyph.top), glyph.mask)


class _Paint:
    """What a picture is drawn with: its image, an `ImageDraw` on it, the ink of a colour and
    its texts.

    The RGB image (`_Rgb`) is the picture as Pillow draws it, turned into the palette picture
    at the end (`quantize`). `_Indexed` draws that palette picture itself, without an RGB
    image four times its size (`pbm serve`'s largest buffer, 2.3 MB for a Kronlande board):
    each shape in the palette index `quantize` gives its colour, each text blended in RGB
    over what lies under it (a few hundred pixels), then given the indices `quantize` gives
    those. Pillow's shapes are not anti-aliased, so the two pictures are the same to the
    byte, as long as no text lies over another text's blend (which the palette image no
    longer holds in RGB): `clash` then says the picture must be drawn in RGB."""

    img: Image.Image
    draw: ImageDraw.ImageDraw

    def ink(self, colour: tuple[int, int, int]) -> tuple[int, int, int] | int:
        raise NotImplementedError

    def text(
        self, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int]
    ) -> None:
        raise NotImplementedError


class _Rgb(_Paint):
    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.draw = ImageDraw.Draw(img)

    def ink(self, colour: tuple[int, int, int]) -> tuple[int, int, int]:
        return colour

    def text(
        self, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int]
    ) -> None:
        _text(self.img, xy, text, size, fill)


#: Pixels a cell of `_Indexed`'s record of the texts' boxes is wide and high.
_CELL = 16
#: The boxes of the texts drawn on a picture, by the `_CELL`s they touch.
_Boxes = dict[tuple[int, int], list[tuple[int, int, int, int]]]


class _Indexed(_Paint):
    def __init__(self, img: Image.Image, kron: bool, texts: _Boxes | None = None) -> None:
        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.kron = kron
        self.inks = _indices(kron)
        #: The boxes of the texts drawn so far (where their masks are not 0), by the cells
        #: of `_CELL` pixels they touch.
        self.texts: _Boxes = {k: list(v) for k, v in texts.items()} if texts else {}
        self.clash = False

    def ink(self, colour: tuple[int, int, int]) -> int:
        index = self.inks.get(colour)
        if index is None:
            # Not a colour of the palette's own (a test's): drawn in RGB.
            self.clash = True
            return 0
        return index

    def text(
        self, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int]
    ) -> None:
        if self.clash:
            return
        mask, left, top, inked, bbox = _glyph(text, size)
        if bbox is None:
            return
        x, y = round(xy[0]) + left, round(xy[1]) + top
        box = (x + bbox[0], y + bbox[1], x + bbox[2], y + bbox[3])
        cells = [
            (cx, cy)
            for cx in range(box[0] // _CELL, (box[2] - 1) // _CELL + 1)
            for cy in range(box[1] // _CELL, (box[3] - 1) // _CELL + 1)
        ]
        for cell in cells:
            for o in self.texts.get(cell, ()):
                if o[0] < box[2] and box[0] < o[2] and o[1] < box[3] and box[1] < o[3]:
                    self.clash = True
                    return
        for cell in cells:
            self.texts.setdefault(cell, []).append(box)
        where = (x, y, x + mask.width, y + mask.height)
        # What lies under the text, in RGB (the image's palette holds each shape's colour at
        # its index, `_true_palette`), the text blended over it as on the RGB picture, and
        # the indices `quantize` gives the blend, where the text's mask is not 0.
        under = self.img.im.crop(where).convert("RGB")
        under.paste(fill, (0, 0, mask.width, mask.height), mask.im)
        blended = under.convert("P", 0, _palette(self.kron).im)
        self.img.im.paste(blended, where, inked.im)


@functools.cache
def _indices(kron: bool) -> dict[tuple[int, int, int], int]:
    """Each colour a shape is drawn in (`_exact`): the palette index `quantize` gives it."""
    pal = _palette(kron)
    out: dict[tuple[int, int, int], int] = {}
    for colour in _exact(kron):
        one = Image.new("RGB", (1, 1), colour).quantize(palette=pal, dither=Image.Dither.NONE)
        index = one.getpixel((0, 0))
        assert isinstance(index, int)
        out[colour] = index
    return out


@functools.cache
def _true_palette(kron: bool) -> list[int] | None:
    """The palette with each shape colour at the index `quantize` gives it (`quantize` gives
    white the index of (252, 252, 252), for one): what `_Indexed` draws on, so that the RGB
    under a text is the RGB picture's. None when two shape colours share an index."""
    inks = _indices(kron)
    if len(set(inks.values())) < len(inks):
        return None
    flat = _palette(kron).getpalette() or []
    flat = flat + [0] * (768 - len(flat))
    for colour, index in inks.items():
        flat[3 * index : 3 * index + 3] = colour
    return flat


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


#: A base (the board without pieces) is a palette image of ~0.3 MB (a medium board: 553×504
#: pixels) and takes ~1 ms to draw. A tick's reports are each of another game, so a kept base is
#: never hit there (64 kept held 70 MB in `pbm serve` when a tick resolved 1,000 games): a base
#: is drawn straight into the picture, and one is kept apart only when the same board is drawn
#: twice in a row (a game's rounds in its archive, a welcome mail and the first report); with
#: it, the boxes of its texts (`_Indexed.texts`).
_kept: (
    tuple[
        tuple[Board, str],
        Image.Image,
        tuple[tuple[float, float], ...],
        _Boxes,
    ]
    | None
) = None
#: The (board, language) of the last picture drawn.
_last: tuple[Board, str] | None = None
#: The kept base is shared: `pbm serve` draws in more than one thread.
_LOCK = threading.Lock()


def release() -> None:
    """Lets go of the kept base (`pbm serve` after a tick that drew pictures); the next
    repeat draws one again."""
    global _kept, _last
    with _LOCK:
        _kept, _last = None, None


def _canvas(
    board: Board, lang: str, kron: bool, lettered: bool = False
) -> tuple[_Indexed, tuple[tuple[float, float], ...]]:
    """A palette image holding the board without pieces, and the hexes' centres. Call with
    `_LOCK` held. `lettered`: the board's islands carry their letters (New World's; the board
    decides it, so the kept base stays right)."""
    global _kept, _last
    key = (board, lang)
    repeat, _last = key == _last, key
    if _kept is not None and _kept[0] == key:
        base, centres, texts = _kept[1], _kept[2], _kept[3]
        return _Indexed(base.copy(), kron, texts), centres
    size, centres = _layout(board)
    paint = _Indexed(_indexed_image(size, kron), kron)
    _draw_base(paint, board, lang, centres, lettered)
    # The next board is most likely another one: no second buffer. A repeat finds no other
    # base kept: any other board in between let it go.
    _kept = (
        (key, paint.img.copy(), centres, {k: list(v) for k, v in paint.texts.items()})
        if repeat and not paint.clash
        else None
    )
    return paint, centres


def _indexed_image(size: tuple[int, int], kron: bool) -> Image.Image:
    """A palette image with `_true_palette` (a picture that `_Indexed` draws on)."""
    img = Image.new("P", size)
    img.putpalette(_true_palette(kron) or [])
    return img


def _layout(board: Board) -> tuple[tuple[int, int], tuple[tuple[float, float], ...]]:
    """The picture's size and each hex's centre in it."""
    min_x = min(h.x for h in board.hexes)
    min_row = min(h.row for h in board.hexes)
    centres = tuple(_centre(h.row, h.x, min_x, min_row) for h in board.hexes)
    width = int(max(c[0] for c in centres) + math.sqrt(3) * RADIUS / 2 + 10)
    height = int(max(c[1] for c in centres) + RADIUS + 10)
    return (width, height), centres


def _draw_base(
    paint: _Paint,
    board: Board,
    lang: str,
    centres: tuple[tuple[float, float], ...],
    lettered: bool = False,
) -> None:
    """The board without pieces, drawn over everything the image held; `lettered`: each
    island's letter on its hexes (New World)."""
    img, draw, ink, text = paint.img, paint.draw, paint.ink, paint.text
    img.paste(ink((255, 255, 255)), (0, 0, *img.size))
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
        draw.polygon(_corners(cx, cy), fill=ink(fill), outline=ink((60, 60, 60)))
        text((cx, cy - RADIUS * 0.62), h.label, 11, (20, 20, 20))
        if h.number is not None:
            hot = h.number in (6, 8)
            draw.ellipse((cx - 15, cy - 13, cx + 15, cy + 17), fill=ink((250, 240, 215)))
            text((cx, cy + 2), str(h.number), 18, (200, 0, 0) if hot else (20, 20, 20))
        if h.resource is not None:
            text((cx, cy + RADIUS * 0.55), letters[h.resource], 11, (20, 20, 20))
        elif h.terrain == Terrain.GOLD:
            # Seafarers: a gold river pays a resource of the owner's choice.
            text((cx, cy + RADIUS * 0.55), PICTURE_WORDS[lang][0], 11, (20, 20, 20))
        elif h.terrain == Terrain.FOG:
            # Oceania: nothing of a hex in the fog shows until it is discovered.
            text((cx, cy + 4), "?", 22, (255, 255, 255))
        if lettered and h.area is not None:
            # New World: the island's letter in a small white disc left of the token, on every
            # hex of the island ("Insel B" of the reports).
            disc = (cx - 31, cy - 5, cx - 17, cy + 9)
            draw.ellipse(disc, fill=ink((255, 255, 255)), outline=ink((20, 20, 20)))
            text((cx - 24, cy + 2), island_letter(h.area), 11, (20, 20, 20))
        if h.harbor is not None:
            fx, fy = centres[h.harbor.faces]
            draw.line(
                ((cx + fx) / 2, (cy + fy) / 2, cx + (fx - cx) * 0.15, cy + (fy - cy) * 0.15),
                fill=ink((70, 50, 30)),
                width=3,
            )
            code = "3:1" if h.harbor.resource is None else f"2:1 {letters[h.harbor.resource]}"
            text((cx - (fx - cx) * 0.2, cy - (fy - cy) * 0.2 + 4), code, 11, (0, 0, 0))


def board_png(state: GameState, lang: str = "de") -> bytes:
    with _LOCK:
        picture = _draw(state, lang)
    out = io.BytesIO()
    # A palette image encodes in a third of the time of an RGB one and is half the size; the
    # fixed palette holds every colour drawn exactly (the text's anti-aliased edges go to the
    # nearest blend). optimize=True costs 50 ms a picture; level 3 is barely larger.
    picture.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def _draw(state: GameState, lang: str) -> Image.Image:
    """The picture as a palette image (with `_LOCK` held): drawn as one (`_Indexed`), or,
    where a text lies over another's blend or the palette does not allow it, in RGB and
    turned into one, as `quantize` does (the same picture)."""
    board = state.board
    kron = state.kron is not None
    lettered = state.sea is not None and island_marks(state.sea.scenario)
    if _true_palette(kron) is not None:
        paint, centres = _canvas(board, lang, kron, lettered)
        if not paint.clash:
            _pieces(paint, state, centres, lang)
            if not paint.clash:
                img = paint.img
                img.putpalette(_palette(kron).getpalette() or [])
                return img
    return _draw_rgb(state, lang)


def _draw_rgb(state: GameState, lang: str) -> Image.Image:
    """The picture drawn in RGB and turned into a palette image by `quantize`."""
    board = state.board
    lettered = state.sea is not None and island_marks(state.sea.scenario)
    size, centres = _layout(board)
    rgb = _Rgb(Image.new("RGB", size))
    _draw_base(rgb, board, lang, centres, lettered)
    _pieces(rgb, state, centres, lang)
    return rgb.img.quantize(palette=_palette(state.kron is not None), dither=Image.Dither.NONE)


def _pieces(
    paint: _Paint, state: GameState, centres: tuple[tuple[float, float], ...], lang: str
) -> None:
    """The players' pieces, the robber and (Seafarers) the ships and the pirate, over the
    board's base."""
    board = state.board
    draw, ink, text = paint.draw, paint.ink, paint.text
    crossing_xy = [
        (sum(centres[h][0] for h in hexes) / 3, sum(centres[h][1] for h in hexes) / 3)
        for hexes in board.crossing_hexes
    ]
    for e, p in enumerate(state.road):
        if p >= 0:
            (x1, y1), (x2, y2) = (crossing_xy[c] for c in board.path_crossings[e])
            colour = PIECE.get(state.colours[p], (0, 0, 0))
            draw.line((x1, y1, x2, y2), fill=ink((0, 0, 0)), width=9)
            draw.line((x1, y1, x2, y2), fill=ink(colour), width=6)
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            letters = (0, 0, 0) if sum(colour) > 350 else (255, 255, 255)
            text((mx, my), _code(state.colours[p], lang), 8, letters)
    if state.sea is not None:
        _ships(paint, state, crossing_xy, centres, lang)
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
            _castle(paint, x, y, colour, towers=2 if rank == RESIDENZ else 1)
        if state.level[c] >= 2:
            draw.rectangle(shape, fill=ink(colour), outline=ink((0, 0, 0)), width=2)
        else:
            draw.ellipse(shape, fill=ink(colour), outline=ink((0, 0, 0)), width=2)
        letters = (0, 0, 0) if sum(colour) > 350 else (255, 255, 255)
        text((x, y), _code(state.colours[p], lang), 9, letters)
        if kron is not None and kron.workshop[c] >= 0:
            _workshop(paint, x, y, PICTURE_WORDS[lang][1][kron.workshop[c]])
    if state.robber >= 0:
        rx, ry = centres[state.robber]
        # A black triangle: no piece has that shape.
        draw.polygon(
            [(rx + 24, ry - 26), (rx + 12, ry - 4), (rx + 36, ry - 4)], fill=ink((20, 20, 20))
        )


def _castle(paint: _Paint, x: float, y: float, colour: tuple[int, int, int], towers: int) -> None:
    """Kronlande: the towers of a Burg (one) or a Residenz (two) above the city's square, drawn
    first so the square covers their feet: no other piece has them."""
    for dx in (0,) if towers == 1 else (-7, 7):
        paint.draw.rectangle(
            (x + dx - 4, y - 19, x + dx + 4, y - 8),
            fill=paint.ink(colour),
            outline=paint.ink((0, 0, 0)),
            width=2,
        )


def _workshop(paint: _Paint, x: float, y: float, tag: str) -> None:
    """Kronlande: a workshop as a small white tag with its letter at the building's lower
    right."""
    box = (x + 8, y + 5, x + 20, y + 17)
    paint.draw.rectangle(
        box, fill=paint.ink((255, 255, 255)), outline=paint.ink((0, 0, 0)), width=1
    )
    paint.text((x + 14, y + 11), tag, 9, (0, 0, 0))


def _hull(x: float, y: float, size: float) -> list[tuple[float, float]]:
    """A boat's hull, wider on deck than at the keel: no road or building has that shape."""
    return [
        (x - size, y - size * 0.45),
        (x + size, y - size * 0.45),
        (x + size * 0.6, y + size * 0.55),
        (x - size * 0.6, y + size * 0.55),
    ]


def _ships(
    paint: _Paint,
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
    draw, ink = paint.draw, paint.ink
    for e, p in enumerate(sea.ship):
        if p < 0:
            continue
        (x1, y1), (x2, y2) = (crossing_xy[c] for c in board.path_crossings[e])
        colour = PIECE.get(state.colours[p], (0, 0, 0))
        draw.line((x1, y1, x2, y2), fill=ink(colour), width=3)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        draw.polygon(_hull(mx, my, 11), fill=ink(colour), outline=ink((0, 0, 0)), width=2)
        letters = (0, 0, 0) if sum(colour) > 350 else (255, 255, 255)
        paint.text((mx, my), _code(state.colours[p], lang), 8, letters)
    if sea.pirate >= 0:
        px, py = centres[sea.pirate]
        draw.polygon(_hull(px - 22, py - 8, 12), fill=ink((20, 20, 20)))
        draw.polygon(
            [(px - 22, py - 30), (px - 22, py - 14), (px - 10, py - 14)], fill=ink((20, 20, 20))
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


def _exact(kron: bool = False) -> list[tuple[int, int, int]]:
    """Every colour the picture draws exactly (its shapes, and its texts' inks where their
    masks are full): the palette's first colours."""
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
    return list(dict.fromkeys(exact))


@functools.cache
def _palette(kron: bool = False) -> Image.Image:
    """Every colour the picture draws, exactly, then three blends of each ink on each ground
    (at most 256 colours). A Kronlande board adds the quarry's colour and the blends of the
    dark inks on it; the red ink, drawn only on tokens, keeps its blends on the token's ground
    there, to stay within 256 (the base boards' palette is as it always was)."""
    colours = _exact(kron)
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
