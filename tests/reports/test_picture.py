"""The board picture: a PNG that Pillow decodes, as large as the island needs, with pieces."""

from __future__ import annotations

import io
import math
from functools import cache

import pytest
from PIL import Image

from pbm.reports import picture
from pbm.rules.board import Board
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Phase, Settings, new_game

#: Island size → players (each island with a table that plays on it).
SIZES = {"small": 3, "medium": 4, "large": 5, "huge": 6}


def expected_size(board: Board) -> tuple[int, int]:
    """From the layout: hexes of radius R, pointy side up, rows 1.5 R apart, neighbours in a
    row √3 R apart (x steps by 2 per hex), a 10 px margin."""
    r = picture.RADIUS
    w = math.sqrt(3) * r
    xs = [h.x for h in board.hexes]
    rows = [h.row for h in board.hexes]
    width = (max(xs) - min(xs)) * w / 2 + w + 20
    height = (max(rows) - min(rows)) * 1.5 * r + 2 * r + 20
    return int(width), int(height)


@cache
def after_setup(size: str, seed: int = 5) -> GameState:
    for st, _ in play_game(Settings.for_players(SIZES[size], size), seed):
        if st.phase != Phase.SETUP:
            return st
    raise AssertionError("the setup never ends")


def _image(state: GameState) -> Image.Image:
    data = picture.board_png(state)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img.convert("RGB")


@pytest.mark.parametrize("size", list(SIZES))
def test_png_decodes_with_the_size_of_the_island(size: str) -> None:
    state = new_game(Settings.for_players(SIZES[size], size), 11)
    with Image.open(io.BytesIO(picture.board_png(state))) as raw:
        raw.verify()
    img = _image(state)
    assert img.size == expected_size(state.board)
    # Every hex is drawn: the centre pixel of each sea hex is sea-blue or harbour text.
    colours = {img.getpixel((int(x), int(y))) for x, y in _centres(state)}
    assert picture.SEA in colours


def _centres(state: GameState) -> list[tuple[float, float]]:
    b = state.board
    min_x = min(h.x for h in b.hexes)
    min_row = min(h.row for h in b.hexes)
    return [picture._centre(h.row, h.x, min_x, min_row) for h in b.hexes]


def test_the_picture_grows_with_the_island() -> None:
    sizes = [_image(new_game(Settings.for_players(p, s), 1)).size for s, p in SIZES.items()]
    widths = [w for w, _ in sizes]
    heights = [h for _, h in sizes]
    assert widths == sorted(widths) and len(set(widths)) == 4, sizes
    assert heights == sorted(heights), sizes
    assert sizes[-1][0] * sizes[-1][1] > 1.5 * sizes[1][0] * sizes[1][1]


def _count(img: Image.Image, rgb: tuple[int, int, int]) -> int:
    rgb_img = img.convert("RGB")
    return sum(1 for px in rgb_img.get_flattened_data() if px == rgb)


def _colours(img: Image.Image) -> set[tuple[int, int, int]]:
    return {c for _, c in img.getcolors(maxcolors=1 << 24) or []}


@pytest.mark.parametrize("size", list(SIZES))
def test_pieces_of_every_player_show_after_the_setup(size: str) -> None:
    before = _image(new_game(Settings.for_players(SIZES[size], size), 5))
    state = after_setup(size)
    img = _image(state)
    assert len(state.colours) == SIZES[size]
    for colour in state.colours:
        rgb = picture.PIECE[colour]
        # The palette may give a stray edge pixel of the board a piece's colour; the pieces
        # themselves are hundreds of pixels.
        gained = _count(img, rgb) - _count(before, rgb)
        assert gained >= 100, f"{gained} more pixels of {colour} {rgb} after the setup on {size}"


def test_the_robber_is_drawn_where_it_stands() -> None:
    state = after_setup("medium")
    moved = state.copy()
    moved.robber = next(h for h in state.board.robber_hexes if h != state.robber)
    a, b = _image(state), _image(moved)
    assert a.size == b.size
    (x1, y1), (x2, y2) = _centres(state)[state.robber], _centres(state)[moved.robber]
    box = picture.RADIUS
    for x, y in ((x1, y1), (x2, y2)):
        region = (int(x - box), int(y - box), int(x + box), int(y + box))
        assert a.crop(region).tobytes() != b.crop(region).tobytes()


def test_pieces_carry_letters_and_cities_differ_from_settlements() -> None:
    """For colour-blind players: the shapes differ (circle vs square), so a city's square
    corner pixel has the player's colour where a settlement's circle has none."""
    for seed in range(1, 40):
        final = None
        for st, _ in play_game(Settings.for_players(4), seed):
            final = st
            if any(lv == 2 for lv in st.level):
                break
        assert final is not None
        if any(lv == 2 for lv in final.level):
            break
    else:
        pytest.skip("no city in the first games")
    final = final.copy()
    final.road = [-1] * len(final.road)  # roads run into the corners; look at pieces alone
    img = _image(final)
    b = final.board
    min_x = min(h.x for h in b.hexes)
    min_row = min(h.row for h in b.hexes)
    centres = [picture._centre(h.row, h.x, min_x, min_row) for h in b.hexes]
    for c, owner in enumerate(final.owner):
        if owner < 0:
            continue
        hexes = b.crossing_hexes[c]
        x = sum(centres[h][0] for h in hexes) / 3
        y = sum(centres[h][1] for h in hexes) / 3
        corner = img.getpixel((int(x - 8), int(y - 8)))
        centre = img.getpixel((int(x), int(y) - 5))
        rgb = picture.PIECE[final.colours[owner]]
        assert centre == rgb, (c, centre)
        if final.level[c] == 2:
            assert corner == rgb, (c, corner)
        else:
            assert corner != rgb, (c, corner)


def test_pieces_tell_players_apart_without_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 6: colours distinguishable for colour-blind players (shapes or letters on the
    pieces too). Drawn with every colour as the same grey, swapping two players' colours must
    still change the picture; with the colour's initial as the only mark, blau/braun (B) and
    gelb/gruen (G) of a 5–6 player table look the same."""
    state = after_setup("huge")
    monkeypatch.setattr(picture, "PIECE", {c: (128, 128, 128) for c in picture.PIECE})
    base = _image(state).tobytes()
    alike = []
    n = len(state.colours)
    for a in range(n):
        for b in range(a + 1, n):
            swapped = state.copy()
            colours = list(state.colours)
            colours[a], colours[b] = colours[b], colours[a]
            swapped.colours = tuple(colours)
            if _image(swapped).tobytes() == base:
                alike.append(f"{state.colours[a]}/{state.colours[b]}")
    assert not alike, alike


def _fresh_png(state: GameState, lang: str) -> bytes:
    """The picture drawn with nothing kept from pictures before."""
    with picture._LOCK:
        picture._kept, picture._last = None, None
    return picture.board_png(state, lang)


def test_a_picture_does_not_depend_on_the_pictures_drawn_before() -> None:
    """The base is drawn into the picture, or kept when a board repeats (an archive's
    rounds): in any order, each picture is the one drawn afresh, also across sizes."""
    a, b = after_setup("medium"), after_setup("large")
    a_later = next(
        st for i, (st, _) in enumerate(play_game(Settings.for_players(4, "medium"), 5)) if i == 40
    )
    order = [(a, "de"), (a, "de"), (a_later, "de"), (a, "en"), (b, "de"), (a, "de"), (b, "de")]
    order += [(b, "de"), (a_later, "de"), (a_later, "de"), (a, "de")]
    drawn = [picture.board_png(st, lang) for st, lang in order]
    for (st, lang), png in zip(order, drawn, strict=True):
        assert png == _fresh_png(st, lang)
    assert drawn[0] == drawn[1] and drawn[0] != drawn[2]


def test_only_a_repeated_board_keeps_its_base() -> None:
    """A tick's reports are of other games each: no base is kept beside the picture; a board
    drawn twice in a row keeps its base for the next."""
    a, b = after_setup("medium"), after_setup("medium", seed=6)
    _fresh_png(a, "de")
    picture.board_png(b, "de")
    assert picture._kept is None
    picture.board_png(b, "de")
    assert picture._kept is not None and picture._kept[0] == (b.board, "de")
    picture.board_png(a, "de")
    assert picture._kept is None


def test_release_lets_go_of_the_buffers_and_pictures_stay_the_same() -> None:
    a, b = after_setup("medium"), after_setup("large")
    before = [picture.board_png(st, "de") for st in (a, a, b)]
    assert picture._kept is None
    picture.board_png(b, "de")
    assert picture._kept is not None
    picture.release()
    assert picture._kept is None and picture._last is None
    assert [picture.board_png(st, "de") for st in (a, a, b)] == before


def _texts_drawn(state: GameState, lang: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    drawn: list[str] = []
    real = picture._glyph

    def record(text: str, size: int) -> object:
        drawn.append(text)
        return real(text, size)

    monkeypatch.setattr(picture, "_glyph", record)
    _fresh_png(state, lang)
    return drawn


@pytest.mark.parametrize(
    ("lang", "codes"),
    [
        ("de", {"Ro", "Bl", "Ge", "Ws"}),
        ("en", {"Re", "Bl", "Ye", "Wh"}),
        ("da", {"Rø", "Bl", "Gu", "Hv"}),
    ],
)
def test_the_pieces_carry_their_colours_letters_in_the_games_language(
    lang: str, codes: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The text legend says `r rød, b blå, g gul, h hvid` in a Danish game: the picture's
    pieces are lettered in Danish too, not with the German colour names (`Ro`, `Ws`)."""
    drawn = set(_texts_drawn(after_setup("medium"), lang, monkeypatch))
    assert codes <= drawn
    others = {"Ro", "Ge", "Ws", "Re", "Ye", "Wh", "Rø", "Gu", "Hv"} - codes
    assert not drawn & others


def test_every_languages_picture_words_are_in_the_glyph_atlas() -> None:
    """The atlas holds each language's codes, gold label and workshop tags: FreeType (and
    HarfBuzz's resident code) is never needed for a picture of a game pbm lays."""
    from pbm.i18n import languages
    from pbm.reports import glyphs

    _, index = glyphs._atlas()
    for lang in languages():
        gold, tags = picture.PICTURE_WORDS[lang]
        assert (gold, glyphs.LABEL) in index
        for text in (*picture.PIECE_CODES[lang].values(), *tags):
            assert (text, glyphs.PIECE_CODE) in index
    assert picture.PICTURE_WORDS["da"] == ("Guld", ("S", "V", "B"))


@pytest.mark.parametrize(("lang", "alt"), [("de", "Brett"), ("en", "board"), ("da", "spilleplade")])
@pytest.mark.parametrize("scene", ["preview", "report_round"])
def test_a_mails_board_picture_has_its_words_and_fits_a_phone_without_the_style_block(
    scene: str, lang: str, alt: str
) -> None:
    """The island preview's picture said `alt="board"` in a Danish and a German game, and it
    had no inline `max-width` (the report's has): a mail program that drops the `<style>`
    block showed the island wider than a phone (QA, 2026-12)."""
    import re

    from reports import scenes

    _, rendered = scenes.SCENES[scene](lang)
    (img,) = [tag for tag in re.findall(r"<img [^>]*>", rendered.html) if scenes.BOARD_CID in tag]
    assert f'alt="{alt}"' in img
    assert "max-width:100%" in img


def _states_of_every_kind() -> list[GameState]:
    """States early and late in games of every board kind (pieces of every sort on them)."""
    from pbm.rules.scenarios import SCENARIOS

    kinds = [Settings.for_players(p, s) for p, s in ((3, "small"), (4, "medium"), (6, "huge"))]
    kinds += [Settings.for_kronlande(4, "large"), Settings.for_kronlande(5, "huge")]
    kinds += [Settings.for_scenario(name, 4) for name in SCENARIOS]
    states = []
    for settings in kinds:
        for i, (state, _) in enumerate(play_game(settings, 3, "autopilot")):
            if i in (0, 25, 90, 200):
                states.append(state)
    return states


def test_the_palette_picture_is_the_rgb_picture_quantized() -> None:
    """Drawn as a palette image (no RGB image four times its size), the picture is the one
    drawn in RGB and quantized, to the byte, on every board kind, in an order with repeats
    (the kept base) and in every language; a picture whose texts lie over each other is
    drawn in RGB."""
    drawn_in_rgb = 0
    real = picture._draw_rgb

    def rgb(state: GameState, lang: str) -> Image.Image:
        nonlocal drawn_in_rgb
        drawn_in_rgb += 1
        return real(state, lang)

    states = _states_of_every_kind()
    order = [(st, lang) for st in states for lang in ("de", "en", "da")]
    order += [(st, "de") for st in states for _ in (0, 1)]
    try:
        picture._draw_rgb = rgb  # type: ignore[assignment]
        for st, lang in order:
            with picture._LOCK:
                indexed = picture._draw(st, lang)
            expected = real(st, lang)
            assert indexed.mode == "P" and indexed.tobytes() == expected.tobytes()
            assert indexed.getpalette() == expected.getpalette()
            out, want = io.BytesIO(), io.BytesIO()
            indexed.save(out, format="PNG", compress_level=3)
            expected.save(want, format="PNG", compress_level=3)
            assert out.getvalue() == want.getvalue()
    finally:
        picture._draw_rgb = real  # type: ignore[assignment]
    # Most are drawn as palette images; texts over texts (late in a game) are rare.
    assert drawn_in_rgb < len(order) / 4


def test_the_palettes_allow_drawing_in_their_indices() -> None:
    """Every colour a shape is drawn in has an index of its own after `quantize` (else every
    picture would be drawn in RGB)."""
    for kron in (False, True):
        assert picture._true_palette(kron) is not None


def test_a_text_over_another_texts_blend_is_drawn_in_rgb() -> None:
    """Two texts whose inks meet: the palette image no longer knows the first one's blend in
    RGB, so the picture is drawn in RGB."""
    paint = picture._Indexed(picture._indexed_image((60, 40), False), False)
    paint.text((20, 20), "A1", 11, (20, 20, 20))
    assert not paint.clash
    paint.text((40, 20), "B1", 11, (20, 20, 20))
    assert not paint.clash
    paint.text((22, 21), "C2", 11, (20, 20, 20))
    assert paint.clash
