"""Board geometry and the seeded variable setup of seed 000 (layouts.py, board.py, `pbm board`).

The island sizes are the table of the `layouts.py` docstring; the medium island is seed 000's
board: 19 land hexes in rows 3 4 5 4 3 inside a frame of 18 sea hexes, 9 of them harbours.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import pytest
from typer.testing import CliRunner

from pbm.cli import app
from pbm.reports.text_map import draw, hex_code
from pbm.rules.board import Board, Hex, Terrain, row_letter
from pbm.rules.layouts import BASE_TOKENS, SIZES, generate_board
from pbm.rules.resources import ERZ, GETREIDE, HOLZ, LEHM, LETTERS_DE, WOLLE
from pbm.rules.state import Settings, deck_for, new_game

SEEDS = range(12)

#: The documented table of layouts.py: land hexes, deserts, VP target, classic bank,
#: generic harbours, special harbours, deck (total cards).
DOCUMENTED = {
    "small": (14, 1, 8, 19, 3, 5),
    "medium": (19, 1, 10, 19, 4, 5),
    "large": (30, 2, 12, 24, 5, 6),
    "huge": (37, 1, 15, 30, 6, 6),
}
#: docs/rules-decisions.md: the deck goes by the players, whatever the island.
DECK_BY_PLAYERS = {3: 25, 4: 25, 5: 34, 6: 34}


def _neighbours(h: Hex) -> list[tuple[int, int]]:
    r, x = h.row, h.x
    return [(r, x - 2), (r, x + 2), (r - 1, x - 1), (r - 1, x + 1), (r + 1, x - 1), (r + 1, x + 1)]


def _by_coord(board: Board) -> dict[tuple[int, int], Hex]:
    return {(h.row, h.x): h for h in board.hexes}


def _adjacent(a: Hex, b: Hex) -> bool:
    return (b.row, b.x) in _neighbours(a)


def _land(board: Board) -> list[Hex]:
    return [h for h in board.hexes if h.terrain in (Terrain.LAND, Terrain.DESERT)]


def _cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


# -- the medium island (seed 000) -------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_medium_counts(seed: int) -> None:
    b = generate_board("medium", seed)
    assert len(b.hexes) == 37
    assert sum(h.terrain in (Terrain.LAND, Terrain.DESERT) for h in b.hexes) == 19
    assert sum(h.terrain == Terrain.SEA for h in b.hexes) == 18
    assert len(b.crossing_hexes) == 54
    assert len(b.path_hexes) == 72
    assert all(b.crossing_land)  # no crossing of three sea hexes exists
    assert all(b.path_land)  # every path touches land: no sea-sea path exists


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("seed", [0, 3, 8])
def test_crossing_and_path_graph(size: str, seed: int) -> None:
    b = generate_board(size, seed)
    for c, hexes in enumerate(b.crossing_hexes):
        assert len(set(hexes)) == 3
        assert list(hexes) == sorted(hexes)
        # The three hexes of a crossing meet pairwise.
        x, y, z = (b.hexes[h] for h in hexes)
        assert _adjacent(x, y) and _adjacent(x, z) and _adjacent(y, z)
        assert len(b.crossing_neighbors[c]) in (2, 3), b.crossing_label(c)
        assert len(b.crossing_paths[c]) == len(b.crossing_neighbors[c])
    for e, (u, v) in enumerate(b.path_crossings):
        a, d = b.path_hexes[e]
        assert _adjacent(b.hexes[a], b.hexes[d])
        # The path's two hexes are exactly the hexes its two end crossings share.
        assert set(b.crossing_hexes[u]) & set(b.crossing_hexes[v]) == {a, d}
        assert b.path_between(u, v) == e
    # Every crossing touches land and is named back by its labels.
    for c in range(len(b.crossing_hexes)):
        assert b.crossing_by_labels(b.crossing_label(c).split()) == c
    for e in range(len(b.path_hexes)):
        assert b.path_by_labels(b.path_label(e).split()) == e


@pytest.mark.parametrize("seed", SEEDS)
def test_medium_tiles(seed: int) -> None:
    b = generate_board("medium", seed)
    land = [h for h in b.hexes if h.terrain == Terrain.LAND]
    deserts = [h for h in b.hexes if h.terrain == Terrain.DESERT]
    assert Counter(LETTERS_DE[h.resource] for h in land if h.resource is not None) == {
        "H": 4,
        "W": 4,
        "G": 4,
        "L": 3,
        "E": 3,
    }
    assert all(h.resource is not None for h in land)
    assert len(deserts) == 1
    assert deserts[0].resource is None and deserts[0].number is None
    assert b.robber_start == deserts[0].id


@pytest.mark.parametrize("seed", SEEDS)
def test_medium_tokens_multiset(seed: int) -> None:
    b = generate_board("medium", seed)
    tokens = [h.number for h in b.hexes if h.number is not None]
    assert sorted(tokens) == sorted([5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11])
    assert all(h.number is not None for h in b.hexes if h.terrain == Terrain.LAND)
    assert all(h.number is None for h in b.hexes if h.terrain != Terrain.LAND)


def _spiral_paths(board: Board, tokens: tuple[int, ...]) -> list[list[Hex]]:
    """Every walk over all land hexes, hex to adjacent hex, from a corner, whose tokens (the
    deserts skipped) read `tokens` in letter order."""
    land = _land(board)
    land_coords = {(h.row, h.x) for h in land}
    at = _by_coord(board)

    def degree(h: Hex) -> int:
        return sum(n in land_coords for n in _neighbours(h))

    fewest = min(degree(h) for h in land)
    corners = [h for h in land if degree(h) == fewest]
    found: list[list[Hex]] = []

    def walk(path: list[Hex], seen: set[int], k: int) -> None:
        if len(path) == len(land):
            found.append(path[:])
            return
        for n in _neighbours(path[-1]):
            h = at.get(n)
            if h is None or h.id in seen or n not in land_coords:
                continue
            if h.terrain == Terrain.DESERT:
                nk = k
            elif k < len(tokens) and h.number == tokens[k]:
                nk = k + 1
            else:
                continue
            seen.add(h.id)
            path.append(h)
            walk(path, seen, nk)
            path.pop()
            seen.discard(h.id)

    for c in corners:
        if c.terrain == Terrain.DESERT:
            walk([c], {c.id}, 0)
        elif c.number == tokens[0]:
            walk([c], {c.id}, 1)
    return found


def _counter_clockwise(board: Board, path: list[Hex]) -> bool:
    """The walk's first lap (the coast ring) turns counter-clockwise around the island."""
    land = _land(board)
    land_coords = {(h.row, h.x) for h in land}

    def centre(h: Hex) -> tuple[float, float]:
        return (h.x * math.sqrt(3) / 2, -h.row * 1.5)  # y up

    cx = sum(centre(h)[0] for h in land) / len(land)
    cy = sum(centre(h)[1] for h in land) / len(land)
    coast = sum(any(n not in land_coords for n in _neighbours(h)) for h in land)
    for a, b in itertools.pairwise(path[:coast]):
        ax, ay = centre(a)
        bx, by = centre(b)
        if (ax - cx) * (by - cy) - (ay - cy) * (bx - cx) <= 0:
            return False
    return True


@pytest.mark.parametrize("seed", SEEDS)
def test_medium_tokens_follow_counter_clockwise_spiral(seed: int) -> None:
    b = generate_board("medium", seed)
    paths = _spiral_paths(b, BASE_TOKENS)
    assert paths, "no walk from a corner over adjacent land hexes reads the tokens A..R"
    assert any(_counter_clockwise(b, p) for p in paths), "the spiral runs clockwise"


@pytest.mark.parametrize("size", ["small", "large", "huge"])
@pytest.mark.parametrize("seed", SEEDS)
def test_other_sizes_tokens_follow_spiral(size: str, seed: int) -> None:
    """layouts.py documents the same spiral for every size (board version 1: the tokens as
    they fall along it)."""
    b = generate_board(size, seed, 1)
    tokens = SIZES[size].tokens
    assert sorted(h.number for h in b.hexes if h.number is not None) == sorted(tokens)
    paths = _spiral_paths(b, tokens)
    assert paths, f"{size}: no walk from a corner over adjacent land hexes reads the tokens"
    assert any(_counter_clockwise(b, p) for p in paths)


def _red_neighbours(b: Board) -> list[tuple[int, int]]:
    red = [h.id for h in b.hexes if h.number in (6, 8)]
    return [
        (i, j)
        for i in red
        for j in red
        if i < j and set(b.hex_crossings[i]) & set(b.hex_crossings[j])
    ]


@pytest.mark.parametrize("size", ["small", "medium", "large", "huge"])
def test_no_two_red_tokens_touch_on_a_new_board(size: str) -> None:
    """Board version 2 spreads the red tokens on every base island; it changes only tokens
    (the terrain and the harbours are those of version 1), and the medium island not at all."""
    for seed in range(60):
        new, old = generate_board(size, seed), generate_board(size, seed, 1)
        assert not _red_neighbours(new), (size, seed)
        assert [(h.terrain, h.resource, h.harbor) for h in new.hexes] == [
            (h.terrain, h.resource, h.harbor) for h in old.hexes
        ]
        assert sorted(h.number or 0 for h in new.hexes) == sorted(h.number or 0 for h in old.hexes)
        if size == "medium":
            assert new.hexes == old.hexes
    # Before, neighbouring reds were common on the other islands.
    if size != "medium":
        assert sum(bool(_red_neighbours(generate_board(size, s, 1))) for s in range(60)) > 30


def _harbour_checks(b: Board, size: str) -> None:
    spec = SIZES[size]
    sea = {(h.row, h.x) for h in b.hexes if h.terrain == Terrain.SEA}
    harbours = [h for h in b.hexes if h.harbor is not None]
    assert len(harbours) == len(spec.harbors)
    codes = Counter(h.harbor.code() for h in harbours if h.harbor)
    expected = Counter("3:1" if r is None else f"2:1 {LETTERS_DE[r]}" for r in spec.harbors)
    assert codes == expected
    for h in harbours:
        assert h.harbor is not None
        assert h.terrain == Terrain.SEA
        faced = b.hexes[h.harbor.faces]
        assert faced.terrain in (Terrain.LAND, Terrain.DESERT)
        assert _adjacent(h, faced)
        # The harbour's two crossings lie on the side it faces, and both touch land.
        crossings = [c for c, hb in enumerate(b.crossing_harbor) if hb is h.harbor]
        assert len(crossings) == 2, h.label
        for c in crossings:
            assert {h.id, faced.id} <= set(b.crossing_hexes[c])
            assert b.crossing_land[c]
        # Seed 000: "always a free space between the harbour tiles".
        for n in _neighbours(h):
            if n in sea:
                assert _by_coord(b)[n].harbor is None, f"harbours {h.label} and neighbour"
    assert sum(hb is not None for hb in b.crossing_harbor) == 2 * len(harbours)


@pytest.mark.parametrize("seed", SEEDS)
def test_medium_harbours(seed: int) -> None:
    b = generate_board("medium", seed)
    _harbour_checks(b, "medium")
    codes = Counter(h.harbor.code() for h in b.hexes if h.harbor)
    assert codes == {"3:1": 4, "2:1 H": 1, "2:1 L": 1, "2:1 W": 1, "2:1 G": 1, "2:1 E": 1}


@pytest.mark.parametrize("size", ["small", "large", "huge"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_other_sizes_harbours(size: str, seed: int) -> None:
    _harbour_checks(generate_board(size, seed), size)


@pytest.mark.parametrize("size", list(SIZES))
def test_sizes_match_documentation(size: str) -> None:
    land, deserts, vp, bank, generic, special = DOCUMENTED[size]
    spec = SIZES[size]
    b = generate_board(size, 4)
    assert len(_land(b)) == land
    assert sum(h.terrain == Terrain.DESERT for h in b.hexes) == deserts
    assert sum(h.number is not None for h in b.hexes) == land - deserts == len(spec.tokens)
    # The frame is exactly the sea ring around the land.
    coords = {(h.row, h.x) for h in _land(b)}
    ring = {n for h in _land(b) for n in _neighbours(h) if n not in coords}
    assert {(h.row, h.x) for h in b.hexes if h.terrain == Terrain.SEA} == ring
    assert spec.harbors.count(None) == generic
    assert len(spec.harbors) - generic == special
    assert set(LETTERS_DE[r] for r in spec.harbors if r is not None) == set("HLWGE")
    assert sum(spec.tiles.values()) + spec.deserts == land
    for players in range(3, 7):
        st = Settings.for_players(players, size)
        assert (st.vp_target, st.bank_count, st.size) == (vp, bank, size)
        assert len(new_game(st, 4).deck) == DECK_BY_PLAYERS[players]


def test_default_sizes_and_settings() -> None:
    assert Settings.for_players(3).size == Settings.for_players(4).size == "medium"
    assert Settings.for_players(5).size == Settings.for_players(6).size == "large"
    assert [Settings.for_players(4, s).vp_target for s in SIZES] == [8, 10, 12, 15]
    assert [Settings.for_players(4, s).bank_count for s in SIZES] == [19, 19, 24, 30]
    m = SIZES["medium"]
    assert m.tiles == {HOLZ: 4, LEHM: 3, WOLLE: 4, GETREIDE: 4, ERZ: 3}
    assert sum(deck_for(Settings.for_players(4, "huge")).values()) == 25
    assert sum(deck_for(Settings.for_players(5, "small")).values()) == 34


def test_same_seed_same_board_other_seed_other_board() -> None:
    for size in SIZES:
        assert generate_board(size, 9).to_json() == generate_board(size, 9).to_json()
        assert generate_board(size, 9).to_json() != generate_board(size, 10).to_json()


# -- labels ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES))
def test_labels_row_letter_and_position_from_left(size: str) -> None:
    b = generate_board(size, 2)
    labels = [h.label for h in b.hexes]
    assert len(set(labels)) == len(labels)
    rows = sorted({h.row for h in b.hexes})
    assert rows == list(range(len(rows)))  # the frame's top row is row A
    for r in rows:
        in_row = sorted((h for h in b.hexes if h.row == r), key=lambda h: h.x)
        assert [h.label for h in in_row] == [
            f"{row_letter(r)}{i}" for i in range(1, len(in_row) + 1)
        ]
    assert row_letter(0) == "A"
    for h in b.hexes:
        assert b.hex_by_label(h.label.lower()) is h


# -- the `pbm board` command -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "size", "hexes"),
    [(3, "medium", 37), (4, "medium", 37), (5, "large", None), (6, "large", None)],
)
def test_cli_board_json(players: int, size: str, hexes: int | None) -> None:
    data = json.loads(_cli("board", "--seed", "7", "--players", str(players), "--json"))
    assert data["hexes"] and data["crossings"] and data["paths"]
    board = generate_board(size, 7)
    assert data == json.loads(json.dumps(board.to_json(), ensure_ascii=False))
    if hexes is not None:
        assert len(data["hexes"]) == hexes
        assert len(data["crossings"]) == 54
        assert len(data["paths"]) == 72
    labels = [h["label"] for h in data["hexes"]]
    assert len(set(labels)) == len(labels)
    for h in data["hexes"]:
        assert {"label", "terrain", "resource", "number", "harbor"} <= set(h)
        assert h["terrain"] in {"land", "desert", "sea"}
        if h["terrain"] == "land":
            assert h["resource"] in set("HLWGE") and isinstance(h["number"], int)
        else:
            assert h["resource"] is None and h["number"] is None
        assert h["harbor"] is None or (
            h["terrain"] == "sea"
            and h["harbor"] in {"3:1", "2:1 H", "2:1 L", "2:1 W", "2:1 G", "2:1 E"}
        )
    label_set = set(labels)
    for c in data["crossings"]:
        assert len(c["hexes"]) == 3 and set(c["hexes"]) <= label_set
    for p in data["paths"]:
        assert len(p["hexes"]) == 2 and set(p["hexes"]) <= label_set
    # Labels: a row letter from the top and a position from the left, numbered without gaps.
    by_row: dict[str, list[int]] = {}
    for label in labels:
        by_row.setdefault(label[0], []).append(int(label[1:]))
    assert sorted(by_row) == [chr(ord("A") + i) for i in range(len(by_row))]
    for positions in by_row.values():
        assert positions == list(range(1, len(positions) + 1))


def test_cli_board_text_map_contains_every_label() -> None:
    for players in (4, 6):
        text = _cli("board", "--seed", "3", "--players", str(players))
        size = "medium" if players == 4 else "large"
        board = generate_board(size, 3)
        words = text.split()
        for h in board.hexes:
            assert h.label in words, h.label
        state = new_game(Settings.for_players(players, size), 3, board=board)
        assert text.rstrip("\n") == draw(state, "de").rstrip("\n")
        # Every hex is printed with its code (token and resource, desert, sea or harbour)
        # two lines under its label.
        lines = text.splitlines()
        for h in board.hexes:
            at = next(i for i, line in enumerate(lines) if h.label in line.split())
            assert hex_code(board, h.id, "de") in lines[at + 2], h.label


def test_cli_board_size_option() -> None:
    data = json.loads(_cli("board", "--seed", "1", "--size", "small", "--json"))
    assert data["name"] == "small"
    assert sum(h["terrain"] != "sea" for h in data["hexes"]) == 14
    result = CliRunner().invoke(app, ["board", "--size", "gigantic"])
    assert result.exit_code != 0


def test_cli_board_same_seed_same_json_other_seed_other() -> None:
    a = _cli("board", "--seed", "5", "--json")
    assert a == _cli("board", "--seed", "5", "--json")
    assert a != _cli("board", "--seed", "6", "--json")
