"""The board picture's texts, rendered ahead: every label, token, letter and piece code a
picture can show, as anti-aliased masks in one PNG (`glyphs.png`, its index in `glyphs.json`).

Rendering text with FreeType in `pbm serve` ran HarfBuzz's code for the first time and kept
0.9 MB of the library resident (`pbm bench serve`'s peak); the masks read from the atlas are
the very ones FreeType made here (Pillow's default font at each size), so the pictures are
byte-identical to those drawn with it. A text the atlas lacks (a colour pbm does not know by
name) is still rendered by FreeType.

    python -m pbm.reports.glyphs    # writes the atlas again (after a change of the texts)
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pbm.rules.resources import KRON_LETTERS

log = logging.getLogger(__name__)

#: (mask, left, top): the text's mask and its offset from the point it is centred on.
Glyph = tuple[Image.Image, int, int]

ATLAS = "glyphs.png"
INDEX = "glyphs.json"
#: The atlas's width in pixels (its rows are as many as the masks need).
ATLAS_WIDTH = 512

#: The sizes the picture draws text in, by what it draws.
LABEL, TOKEN, FOG_MARK, ROAD_CODE, PIECE_CODE = 11, 18, 22, 8, 9


@functools.lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def render(text: str, size: int) -> Glyph:
    """The mask FreeType renders for `text` centred on a point (Pillow's default font)."""
    font = _font(size)
    left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor="mm"))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor="mm")
    return mask, left, top


def _index() -> dict[tuple[str, int], tuple[int, int, int, int, int, int]]:
    raw = json.loads(resources.files("pbm.reports").joinpath(INDEX).read_text("utf-8"))
    return {(g[0], g[1]): tuple(g[2:]) for g in raw["glyphs"]}


@functools.cache
def _atlas() -> tuple[Image.Image, dict[tuple[str, int], tuple[int, int, int, int, int, int]]]:
    """The atlas and its index; an empty one (every text rendered) when an installation lacks
    the files or they cannot be read: a round must resolve with its picture all the same."""
    try:
        with resources.files("pbm.reports").joinpath(ATLAS).open("rb") as f:
            img = Image.open(f)
            img.load()
        return img, _index()
    except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
        log.warning("glyph atlas not read (%s): the picture's texts are rendered", exc)
        return Image.new("L", (1, 1)), {}


def glyph(text: str, size: int) -> Glyph:
    """The mask of `text` at `size`: from the atlas, or rendered when the atlas lacks it."""
    atlas, index = _atlas()
    place = index.get((text, size))
    if place is None:
        return render(text, size)
    x, y, w, h, left, top = place
    return atlas.crop((x, y, x + w, y + h)), left, top


def known_texts() -> Iterator[tuple[str, int]]:
    """Every (text, size) a picture of any board pbm lays can show."""
    from pbm.i18n import languages
    from pbm.rules.scenarios import SCENARIOS
    from pbm.rules.state import Settings, new_game

    from .identity_sea import island_letter
    from .picture import PICTURE_WORDS, PIECE_CODES

    settings = [Settings.for_players(p, s) for p, s in ((3, "small"), (4, "medium"))]
    settings += [Settings.for_players(p, s) for p, s in ((5, "large"), (6, "huge"))]
    settings += [Settings.for_kronlande(4, s) for s in ("large", "huge")]
    settings += [Settings.for_scenario(name, p) for name in SCENARIOS for p in (3, 4)]
    for s in settings:
        for h in new_game(s, 1).board.hexes:
            yield h.label, LABEL
    letters = {x for kron in KRON_LETTERS.values() for x in kron}
    for letter in letters:
        yield letter, LABEL
        yield f"2:1 {letter}", LABEL
    yield "3:1", LABEL
    # New World's islands, lettered in label order (`identity_sea.island_letter`).
    for area in range(1, 13):
        yield island_letter(area), LABEL
    yield "?", FOG_MARK
    for number in range(2, 13):
        yield str(number), TOKEN
    # Every game language's words (editions share their language's).
    for lang in languages():
        gold, tags = PICTURE_WORDS[lang]
        yield gold, LABEL
        for code in PIECE_CODES[lang].values():
            yield code, ROAD_CODE
            yield code, PIECE_CODE
        for tag in tags:
            yield tag, PIECE_CODE


def write(folder: Path) -> int:
    """Renders every known text and writes the atlas and its index into `folder`; returns
    how many masks it holds."""
    import PIL

    masks = {key: render(*key) for key in sorted(set(known_texts()))}
    # Shelves: the masks by height, left to right, a new row when the width is used up.
    places: dict[tuple[str, int], tuple[int, int]] = {}
    x = y = shelf = 0
    for key in sorted(masks, key=lambda k: (-masks[k][0].height, k)):
        w, h = masks[key][0].size
        if x + w > ATLAS_WIDTH:
            x, y, shelf = 0, y + shelf, 0
        places[key] = (x, y)
        x, shelf = x + w, max(shelf, h)
    atlas = Image.new("L", (ATLAS_WIDTH, y + shelf), 0)
    glyphs = []
    for key, (mask, left, top) in masks.items():
        gx, gy = places[key]
        atlas.paste(mask, (gx, gy))
        glyphs.append([key[0], key[1], gx, gy, mask.width, mask.height, left, top])
    atlas.save(folder / ATLAS, format="PNG", optimize=True)
    # One mask a line: a change of the texts shows as the lines it changes.
    rows = ",\n".join(json.dumps(g, ensure_ascii=False) for g in glyphs)
    text = f'{{"pillow": {json.dumps(PIL.__version__)}, "glyphs": [\n{rows}\n]}}\n'
    (folder / INDEX).write_text(text, "utf-8")
    return len(glyphs)


if __name__ == "__main__":
    count = write(Path(__file__).parent)
    print(f"{count} masks written to {Path(__file__).parent / ATLAS}")
