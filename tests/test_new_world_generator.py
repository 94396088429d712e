"""New World's generator judges each draw by cheap tables before it builds a board (issue 30:
a board took 21–23 ms, most of it on draws thrown away; docs/performance.md, eighth round).
The boards it lays must not move by a byte: stored games are replayed from their seed."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from pbm.rules.board import shape_crossings
from pbm.rules.layouts import frame_coords
from pbm.rules.scenarios import new_world

#: sha256 of the New World boards of seeds 0–59, 3 and 4 players, taken before the cheap checks.
BOARDS_DIGEST = "48c929231312104c4d1abf3ae1ac8b0891768aaf285aeab010b772a82942b067"


@pytest.mark.slow
def test_the_boards_are_the_ones_laid_before() -> None:
    h = hashlib.sha256()
    for players in (3, 4):
        for seed in range(60):
            board = new_world.generate(players, seed)
            h.update(json.dumps(board.to_json(), sort_keys=True).encode())
    assert h.hexdigest() == BOARDS_DIGEST


@pytest.mark.parametrize("players", [3, 4])
def test_the_island_sizes_are_those_of_the_islands(players: int) -> None:
    rows = new_world.WORLDS[players].rows
    inner = new_world.inner_coords(rows)
    neighbours = new_world._neighbour_masks(rows)
    rng = random.Random(players)
    for _ in range(500):
        land = {c for c in inner if rng.random() < 0.5}
        mask = sum(1 << i for i, c in enumerate(inner) if c in land)
        sizes = new_world._island_sizes(mask, neighbours)
        assert sorted(sizes) == sorted(len(i) for i in new_world.islands(land))


@pytest.mark.parametrize("players", [3, 4])
def test_the_spread_from_the_numbers_is_the_boards(players: int) -> None:
    """The crossings of the hexes' shape are the board's own (same numbers, same pips)."""
    inner = new_world.inner_coords(new_world.WORLDS[players].rows)
    coords = tuple(sorted({*inner, *frame_coords(inner)}))
    crossing_hexes, crossing_neighbours = shape_crossings(coords)
    for seed in range(3):
        board = new_world.generate(players, seed)
        assert [(h.row, h.x) for h in board.hexes] == list(coords)
        assert board.crossing_hexes == crossing_hexes
        assert board.crossing_neighbors == crossing_neighbours
        pips = [h.pips for h in board.hexes]
        crossing_pips = [pips[a] + pips[b] + pips[c] for a, b, c in crossing_hexes]
        assert crossing_pips == list(board.crossing_pips)
        assert new_world.start_spread(board, players) == new_world._spread(
            crossing_pips, crossing_neighbours, players
        )
