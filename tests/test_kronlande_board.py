"""The Kronlande island (spec kronlande.md, "Table"): the large and huge islands with 3/4
quarries and 4/5 fishing grounds, tokens without red neighbours, fishing grounds on the frame
without a harbour; settings for 3–6 players; the board's JSON names Stein and Fisch."""

from __future__ import annotations

import pytest

from pbm.rules.board import Terrain, hex_neighbours
from pbm.rules.kron_board import generate_kron_board
from pbm.rules.layouts import KRON_ISLANDS, SIZES, generate_board
from pbm.rules.resources import FISCH, STEIN
from pbm.rules.state import Settings, new_game

SEEDS = range(60)


@pytest.mark.parametrize(("size", "quarries", "grounds"), [("large", 3, 4), ("huge", 4, 5)])
def test_quarries_and_fishing_grounds_by_size(size: str, quarries: int, grounds: int) -> None:
    for seed in SEEDS:
        b = generate_kron_board(size, seed)
        assert len(b.quarries) == quarries and len(b.fishing_grounds) == grounds
        for h in b.quarries:
            x = b.hexes[h]
            assert x.terrain == Terrain.LAND and x.resource == STEIN and x.number
        for h in b.fishing_grounds:
            x = b.hexes[h]
            assert x.terrain == Terrain.SEA and x.resource == FISCH and x.number
            assert h in b.frame and x.harbor is None
        assert sorted(b.hexes[h].number for h in b.fishing_grounds) == sorted(
            KRON_ISLANDS[size].fish_tokens
        )


@pytest.mark.parametrize("size", ["large", "huge"])
def test_the_island_keeps_its_shape_harbours_and_token_pool(size: str) -> None:
    base = generate_board(size, 3)
    b = generate_kron_board(size, 3)
    assert [(h.row, h.x) for h in b.hexes] == [(h.row, h.x) for h in base.hexes]
    land = [h for h in b.hexes if h.is_land]
    assert len(land) == sum(SIZES[size].rows)
    assert sorted(h.number for h in land if h.number) == sorted(SIZES[size].tokens)
    assert sum(h.harbor is not None for h in b.hexes) == len(SIZES[size].harbors)
    assert b.robber_start is not None and b.hexes[b.robber_start].terrain == Terrain.DESERT


@pytest.mark.parametrize("size", ["large", "huge"])
def test_no_red_token_next_to_a_red_one(size: str) -> None:
    for seed in SEEDS:
        b = generate_kron_board(size, seed)
        at = {(h.row, h.x): h for h in b.hexes}
        for h in b.hexes:
            if h.number in (6, 8):
                for n in hex_neighbours((h.row, h.x)):
                    assert n not in at or at[n].number not in (6, 8), (seed, h.label)


def test_the_board_is_a_function_of_the_seed_and_differs_by_seed() -> None:
    one = generate_kron_board("large", 11)
    generate_kron_board.cache_clear()
    assert generate_kron_board("large", 11).to_json() == one.to_json()
    assert generate_kron_board("large", 12).to_json() != one.to_json()
    assert one.name == "kronlande-large"


def test_fishing_grounds_pay_the_coast_and_count_in_the_pips() -> None:
    b = generate_kron_board("large", 5)
    for h in b.fishing_grounds:
        coast = [c for c in b.hex_crossings[h] if b.crossing_land[c]]
        assert len(coast) >= 2
        for c in coast:
            assert b.crossing_pips[c] >= b.hexes[h].pips
    assert b.to_json()["hexes"][b.fishing_grounds[0]]["resource"] == "F"  # type: ignore[index]
    assert b.to_json()["hexes"][b.quarries[0]]["resource"] == "S"  # type: ignore[index]
    # Never a robber target: the robber goes onto land.
    assert not set(b.fishing_grounds) & set(b.robber_hexes)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("size", ["large", "huge"])
def test_settings_and_a_new_game(players: int, size: str) -> None:
    st = Settings.for_kronlande(players, size)
    assert st.kronlande and st.size == size and st.players == players
    assert st.vp_target == SIZES[size].vp_target and st.bank_count == SIZES[size].bank
    s = new_game(st, 7)
    assert s.board.name == f"kronlande-{size}"
    assert s.bank == [SIZES[size].bank] * 7  # Stein and Fisch like the others; goods unlimited
    assert s.hands == [[0] * 10 for _ in range(players)]
    assert len(s.deck) == 40 and s.kron is not None


def test_kronlande_is_for_the_large_and_huge_island_only() -> None:
    for size in ("small", "medium"):
        with pytest.raises(ValueError, match="large or the huge"):
            Settings.for_kronlande(4, size)
    with pytest.raises(ValueError):
        Settings.for_kronlande(2, "large")
