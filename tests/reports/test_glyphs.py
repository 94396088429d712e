"""The board picture's texts come from the glyph atlas, the very masks FreeType renders."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

import PIL
import pytest

from pbm.reports import glyphs, picture
from pbm.rules.scenarios import SCENARIOS
from pbm.rules.sim import play_game
from pbm.rules.state import Settings

ROOT = Path(__file__).resolve().parents[2]


def _index() -> dict[str, object]:
    data = resources.files("pbm.reports").joinpath(glyphs.INDEX).read_text("utf-8")
    index = json.loads(data)
    assert isinstance(index, dict)
    return index


def test_the_atlas_holds_every_text_a_picture_can_show() -> None:
    """Written from `known_texts` as the code stands (else: `python -m pbm.reports.glyphs`)."""
    _, index = glyphs._atlas()
    assert set(glyphs.known_texts()) == set(index)


def test_each_mask_is_the_one_freetype_renders() -> None:
    version = _index()["pillow"]
    if version != PIL.__version__:
        pytest.skip(f"the atlas was rendered by Pillow {version}, this is {PIL.__version__}")
    _, index = glyphs._atlas()
    for text, size in index:
        mask, left, top = glyphs.render(text, size)
        got, got_left, got_top = glyphs.glyph(text, size)
        assert (got_left, got_top) == (left, top), (text, size)
        assert got.tobytes() == mask.tobytes() and got.size == mask.size, (text, size)


def test_a_text_the_atlas_lacks_is_rendered() -> None:
    mask, left, top = glyphs.glyph("Zq", 9)
    expected = glyphs.render("Zq", 9)
    assert mask.tobytes() == expected[0].tobytes() and (left, top) == expected[1:]


def test_pictures_of_every_board_draw_from_the_atlas_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every board kind, both languages, pieces of every colour on them: no text is left to
    FreeType (`pbm serve` never loads its glyph code)."""

    def rendered(text: str, size: int) -> glyphs.Glyph:
        raise AssertionError(f"not in the atlas: {text!r} at {size}")

    monkeypatch.setattr(glyphs, "render", rendered)
    picture._glyph.cache_clear()
    kinds = [Settings.for_players(p, s) for p, s in ((3, "small"), (5, "large"), (6, "huge"))]
    kinds += [Settings.for_kronlande(4, "large")]
    kinds += [Settings.for_scenario(name, 4) for name in SCENARIOS]
    try:
        for settings in kinds:
            for i, (state, _) in enumerate(play_game(settings, 2, "autopilot")):
                if i in (0, 30, 120):
                    for lang in ("de", "en"):
                        assert picture.board_png(state, lang).startswith(b"\x89PNG")
                    # The colours a table may choose beyond the default ones.
                    other = state.copy()
                    other.colours = tuple(picture.PIECE)[-len(state.colours) :]
                    assert picture.board_png(other, "de").startswith(b"\x89PNG")
    finally:
        picture._glyph.cache_clear()


def test_the_atlas_is_packaged() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    package = data["tool"]["setuptools"]["package-data"]["pbm"]
    assert f"reports/{glyphs.ATLAS}" in package and f"reports/{glyphs.INDEX}" in package


def test_without_the_atlas_files_the_texts_are_rendered(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An installation that lacks the files still draws its pictures (a round must resolve)."""

    class Empty:
        def joinpath(self, name: str) -> Path:
            return tmp_path / name  # no such file

    monkeypatch.setattr(glyphs.resources, "files", lambda _package: Empty())
    glyphs._atlas.cache_clear()
    picture._glyph.cache_clear()
    try:
        assert glyphs._atlas()[1] == {}
        mask, left, top = glyphs.glyph("A1", glyphs.LABEL)
        expected = glyphs.render("A1", glyphs.LABEL)
        assert mask.tobytes() == expected[0].tobytes() and (left, top) == expected[1:]
    finally:
        glyphs._atlas.cache_clear()
        picture._glyph.cache_clear()
