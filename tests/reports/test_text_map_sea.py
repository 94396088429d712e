"""The text map of Seafarers boards (issue 17): the compact form keeps every scenario board
within 72 columns, draws ships in upper case (roads stay lower case), gold rivers as `11$` and
the pirate, and explains them in the legend."""

from __future__ import annotations

import pytest

from pbm.reports import text_map
from pbm.rules.board import Terrain
from pbm.rules.scenarios import SCENARIOS
from pbm.rules.sim import play_game
from pbm.rules.state import Phase, Settings, new_game


@pytest.mark.parametrize("scenario", list(SCENARIOS))
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_scenario_board_fits_72_columns(scenario: str, players: int, lang: str) -> None:
    for seed in (1, 2, 3):
        text = text_map.draw(new_game(Settings.for_scenario(scenario, players), seed), lang)
        for line in text.splitlines():
            assert len(line) <= text_map.WIDTH, (scenario, players, len(line), line)


def test_every_hex_label_and_gold_and_pirate_are_drawn() -> None:
    s = new_game(Settings.for_scenario("neue-ufer", 4), 3)
    text = text_map.draw(s, "en")
    for h in s.board.hexes:
        assert h.label in text
        if h.terrain == Terrain.GOLD:
            assert f"{h.number}$" in text
    assert text_map.PIRATE in text
    assert "Ships: a colour's letter in upper case on a path; <P> pirate" in text
    assert "Gold rivers: 11$" in text


def test_ships_are_drawn_in_upper_case_on_their_paths() -> None:
    state = next(
        st
        for st, _ in play_game(Settings.for_scenario("vier-inseln", 4), 3, max_rounds=0)
        if st.phase == Phase.ROUNDS
    )
    assert state.sea is not None
    g = text_map.COMPACT
    grid = text_map.draw(state, "de").splitlines()
    letters = text_map.colour_letters(state.colours, "de")
    ships = [(e, p) for e, p in enumerate(state.sea.ship) if p >= 0]
    roads = [(e, p) for e, p in enumerate(state.road) if p >= 0]
    assert ships and roads
    for e, p in ships:
        for line, col, _ in text_map.path_cells(state.board, e, g):
            assert grid[line][col] == letters[state.colours[p]].upper()
    for e, p in roads:
        for line, col, _ in text_map.path_cells(state.board, e, g):
            assert grid[line][col] == letters[state.colours[p]]


def test_the_picture_draws_ships_gold_and_the_pirate() -> None:
    import io

    from PIL import Image

    from pbm.reports.picture import board_png

    state = next(
        st
        for st, _ in play_game(Settings.for_scenario("neue-ufer", 4), 3, max_rounds=0)
        if st.phase == Phase.ROUNDS
    )
    assert state.sea is not None
    bare = state.copy()
    assert bare.sea is not None
    bare.sea.ship = [-1] * len(bare.sea.ship)
    bare.sea.pirate = -1
    bare.rebuild_indexes()
    e = next(x for x in range(len(state.board.path_hexes)) if state.board.path_sea[x])
    state.sea.ship[e] = 0
    state.rebuild_indexes()
    with_ships = Image.open(io.BytesIO(board_png(state, "de")))
    without = Image.open(io.BytesIO(board_png(bare, "de")))
    assert with_ships.size == without.size
    assert with_ships.convert("RGB").tobytes() != without.convert("RGB").tobytes()
