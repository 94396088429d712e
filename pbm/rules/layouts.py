"""Island layouts as data, and the seeded variable setup of seed 000.

An island size names the land rows, the terrain tiles, the number tokens in letter order
(A, B, C, …), the harbour tiles, the VP target and the classic bank. The development deck goes
by the number of players, not the island (`state.deck_for`).
`generate_board` lays them out the way seed 000 describes the variable setup:

1. the land tiles are shuffled and laid row by row;
2. the number tokens are laid in letter order along a counter-clockwise spiral that starts at a
   corner of the island (drawn by lot) and winds inwards, skipping the desert(s);
3. the harbour tiles are shuffled and laid on every other hex of the sea frame (the offset drawn by
   lot), each facing one land hex next to it, so both harbour crossings touch land.

Sizes (seed 002 gives the names and VP targets; the hex counts of small and huge are ours):

| size   | land rows        | hexes | deserts | VP | classic bank | harbours      |
|--------|------------------|-------|---------|----|--------------|---------------|
| small  | 2 3 4 3 2        | 14    | 1       | 8  | 19           | 3 × 3:1 + 5   |
| medium | 3 4 5 4 3        | 19    | 1       | 10 | 19           | 4 × 3:1 + 5   |
| large  | 3 4 5 6 5 4 3    | 30    | 2       | 12 | 24           | 5 × 3:1 + 6   |
| huge   | 4 5 6 7 6 5 4    | 37    | 1       | 15 | 30           | 6 × 3:1 + 6   |
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

from .board import Board, HexSpec, Terrain, hex_neighbours
from .resources import ERZ, GETREIDE, HOLZ, LEHM, STEIN, WOLLE

#: The 18 number tokens of seed 000, letters A to R.
BASE_TOKENS = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)

# Development cards, by name; the deck is a list of these. The deck of 3–4 players (25 cards),
# and of 5–6 players (34 cards), whatever the island.
KNIGHT = "knight"
VICTORY_POINT = "vp"
ROAD_BUILDING = "road_building"
YEAR_OF_PLENTY = "year_of_plenty"
MONOPOLY = "monopoly"
CARD_TYPES = (KNIGHT, VICTORY_POINT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY)

DECK_3_4 = {KNIGHT: 14, VICTORY_POINT: 5, ROAD_BUILDING: 2, YEAR_OF_PLENTY: 2, MONOPOLY: 2}
DECK_5_6 = {KNIGHT: 20, VICTORY_POINT: 5, ROAD_BUILDING: 3, YEAR_OF_PLENTY: 3, MONOPOLY: 3}

# Kronlande's project cards (spec kronlande.md): added to the 34-card deck, for 3–6 players.
BUILDERS_HUT = "builders_hut"  # Bauhütte: 1 Werkzeug and 1 Brot
HARBOUR_PRIVILEGE = "harbour_privilege"  # Hafenprivileg: bank trades at 2:1 this build step
FEAST = "feast"  # Festmahl: one of a named resource or good from every other player
KRON_CARD_TYPES = (BUILDERS_HUT, HARBOUR_PRIVILEGE, FEAST)
DECK_KRONLANDE = {**DECK_5_6, BUILDERS_HUT: 2, HARBOUR_PRIVILEGE: 2, FEAST: 2}


@dataclass(frozen=True)
class KronIsland:
    """What Kronlande changes on an island size (`kron_board.generate_kron_board`): the land
    tiles with the quarries among them (the same number of land hexes and number tokens as the
    size's), and the fishing grounds with their number tokens."""

    size: str
    #: Terrain tiles: resource -> count, quarries (STEIN) included; deserts apart.
    tiles: dict[int, int]
    deserts: int
    #: Number tokens of the fishing grounds, one each.
    fish_tokens: tuple[int, ...]


#: Kronlande is played on the large and the huge island only. The quarries take the places of
#: a Holz, a Wolle and a Getreide tile (large), of a Holz, a Wolle, two Getreide tiles (huge):
#: the island keeps its shape and its token pool (docs/rules-decisions.md, "Kronlande").
KRON_ISLANDS: dict[str, KronIsland] = {
    "large": KronIsland(
        "large", {HOLZ: 5, LEHM: 5, WOLLE: 5, GETREIDE: 5, ERZ: 5, STEIN: 3}, 2, (5, 6, 9, 10)
    ),
    "huge": KronIsland(
        "huge", {HOLZ: 7, LEHM: 6, WOLLE: 7, GETREIDE: 6, ERZ: 6, STEIN: 4}, 1, (4, 5, 8, 9, 10)
    ),
}


@dataclass(frozen=True)
class IslandSize:
    name: str
    rows: tuple[int, ...]
    #: Terrain tiles: resource -> count; deserts apart.
    tiles: dict[int, int]
    deserts: int
    tokens: tuple[int, ...]
    #: Harbour tiles: None for 3:1, else the resource of a 2:1 harbour.
    harbors: tuple[int | None, ...]
    vp_target: int
    bank: int


def _tiles(h: int, lehm: int, w: int, g: int, e: int) -> dict[int, int]:
    return {HOLZ: h, LEHM: lehm, WOLLE: w, GETREIDE: g, ERZ: e}


_SPECIAL = (HOLZ, LEHM, WOLLE, GETREIDE, ERZ)

SIZES: dict[str, IslandSize] = {
    "small": IslandSize(
        "small",
        (2, 3, 4, 3, 2),
        _tiles(3, 2, 3, 3, 2),
        1,
        BASE_TOKENS[:13],
        (None,) * 3 + _SPECIAL,
        8,
        19,
    ),
    "medium": IslandSize(
        "medium",
        (3, 4, 5, 4, 3),
        _tiles(4, 3, 4, 4, 3),
        1,
        BASE_TOKENS,
        (None,) * 4 + _SPECIAL,
        10,
        19,
    ),
    "large": IslandSize(
        "large",
        (3, 4, 5, 6, 5, 4, 3),
        _tiles(6, 5, 6, 6, 5),
        2,
        (*BASE_TOKENS, 2, 5, 4, 6, 3, 9, 8, 11, 10, 12),
        (None,) * 5 + _SPECIAL + (WOLLE,),
        12,
        24,
    ),
    "huge": IslandSize(
        "huge",
        (4, 5, 6, 7, 6, 5, 4),
        _tiles(8, 6, 8, 8, 6),
        1,
        BASE_TOKENS + BASE_TOKENS,
        (None,) * 6 + _SPECIAL + (WOLLE,),
        15,
        30,
    ),
}


def default_size(players: int) -> str:
    """Seed 002: 5–6 players play on the large island."""
    return "large" if players >= 5 else "medium"


def _center(c: tuple[int, int]) -> tuple[float, float]:
    # Cartesian centre with y pointing up, so that a growing angle is counter-clockwise.
    return (c[1] * math.sqrt(3) / 2, -c[0] * 1.5)


def island_coords(rows: tuple[int, ...]) -> list[tuple[int, int]]:
    """(row, x) of the land hexes, rows centred, one frame row above (so land starts at row 1)."""
    widest = max(rows)
    out: list[tuple[int, int]] = []
    for r, n in enumerate(rows):
        first = widest - n + 2  # leaves room for the frame hex on the left
        out.extend((r + 1, first + 2 * i) for i in range(n))
    return out


def frame_coords(land: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sea ring around the land: every hex next to land that is not land."""
    land_set = set(land)
    ring = {n for c in land for n in hex_neighbours(c) if n not in land_set}
    return sorted(ring)


def _ring_order(cells: list[tuple[int, int]], start_angle: float) -> list[tuple[int, int]]:
    """Cells sorted counter-clockwise around their centroid, beginning nearest start_angle."""
    cx = sum(_center(c)[0] for c in cells) / len(cells)
    cy = sum(_center(c)[1] for c in cells) / len(cells)

    def angle(c: tuple[int, int]) -> float:
        x, y = _center(c)
        return (math.atan2(y - cy, x - cx) - start_angle + 1e-9) % (2 * math.pi)

    return sorted(cells, key=lambda c: (round(angle(c), 9), c))


#: The six neighbour directions in counter-clockwise order: E, NE, NW, W, SW, SE (row, x).
_DIRECTIONS = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))


def spiral(land: list[tuple[int, int]], rng: random.Random) -> list[tuple[int, int]]:
    """A counter-clockwise spiral over the land from a corner drawn by lot, inwards.

    The walk keeps the sea and the hexes already visited on its right (a right-hand wall
    follower), so it runs along the coast counter-clockwise and then winds inwards, every step
    to a neighbouring hex.
    """
    remaining = set(land)
    degree = {c: sum(n in remaining for n in hex_neighbours(c)) for c in land}
    fewest = min(degree.values())
    corner = rng.choice(sorted(c for c in land if degree[c] == fewest))

    def free(c: tuple[int, int], d: int) -> bool:
        dr, dx = _DIRECTIONS[d % 6]
        return (c[0] + dr, c[1] + dx) in remaining

    # Start heading so that the outside is on the right and land straight ahead.
    heading = next(d for d in range(6) if free(corner, d) and not free(corner, d - 1))
    order = [corner]
    remaining.discard(corner)
    cur = corner
    while remaining:
        for turn in (-1, 0, 1, 2, 3, 4):
            if free(cur, heading + turn):
                heading = (heading + turn) % 6
                dr, dx = _DIRECTIONS[heading]
                cur = (cur[0] + dr, cur[1] + dx)
                break
        else:
            # Cut off (no free neighbour): continue at the nearest free hex.
            cur = min(sorted(remaining), key=lambda c: abs(c[0] - cur[0]) + abs(c[1] - cur[1]))
        order.append(cur)
        remaining.discard(cur)
    return order


#: How the base islands are laid (a stored game keeps the version its board was laid by,
#: `GameState.board_version`): 1, the tokens along the spiral as they fall; 2, then the red
#: tokens (6, 8) spread so that no two touch (`spread_reds`), as on every scenario and the
#: Kronlande island. The medium island's spiral never puts two reds together, so its boards
#: are the same in both.
BOARD_VERSION = 2

Coord = tuple[int, int]

RED = frozenset({6, 8})


def red_clash(c: Coord, number_at: dict[Coord, int]) -> bool:
    """Whether a red token at c would touch another red one."""
    return any(number_at.get(n) in RED for n in hex_neighbours(c))


def spread_reds(land: list[Coord], number_at: dict[Coord, int], rng: random.Random) -> None:
    """Swap red tokens that touch a red away to land hexes where they touch none: the later red
    in label order swaps with a non-red land token drawn by lot among those where it touches no
    red. No draw when no reds touch."""
    order = sorted(land)
    for c in order:
        if number_at.get(c) not in RED or not red_clash(c, number_at):
            continue
        red = number_at.pop(c)
        spots = [
            d
            for d in order
            if d in number_at and number_at[d] not in RED and not red_clash(d, number_at)
        ]
        if not spots:
            number_at[c] = red  # nowhere better: it stays (never seen on these islands)
            continue
        d = spots[rng.randrange(len(spots))]
        number_at[c], number_at[d] = number_at[d], red


#: 16 boards: the games a burst of order mails is for (a board is some 15 kB and 0.7 ms to
#: make, a mail's work tens of ms). 256, then 64, kept boards in `pbm serve` that a tick over
#: a thousand games never hit again (issue 20).
@functools.lru_cache(maxsize=16)
def generate_board(size: str = "medium", seed: int = 0, version: int = BOARD_VERSION) -> Board:
    """The variable setup of seed 000 for an island size, fully determined by the seed and the
    board version (`BOARD_VERSION`)."""
    spec = SIZES[size]
    rng = random.Random(f"board:{size}:{seed}")
    land = island_coords(spec.rows)
    tiles: list[int | None] = [r for r, n in sorted(spec.tiles.items()) for _ in range(n)]
    tiles += [None] * spec.deserts
    rng.shuffle(tiles)
    resource_at = dict(zip(land, tiles, strict=True))
    number_at: dict[tuple[int, int], int] = {}
    tokens = iter(spec.tokens)
    for c in spiral(land, rng):
        if resource_at[c] is not None:
            number_at[c] = next(tokens)
    if version >= 2:
        # Its own draws, so that the terrain and the harbours stay those of version 1.
        spread_reds(land, number_at, random.Random(f"board:{size}:{seed}:reds"))
    frame = frame_coords(land)
    land_set = set(land)
    ring = _ring_order(frame, rng.uniform(0, 2 * math.pi))
    harbor_at = place_harbours(ring, list(spec.harbors), land_set, rng)
    return Board(island_specs(land, frame, resource_at, number_at, harbor_at), name=size)


def place_harbours(
    ring: list[Coord], harbors: list[int | None], land_set: set[Coord], rng: random.Random
) -> dict[Coord, tuple[int | None, Coord]]:
    """Harbours shuffled onto every other hex of the frame's ring (which half by lot), each
    facing a land hex drawn among its neighbours: the frame hex → (kind, the land it faces)."""
    rng.shuffle(harbors)
    offset = rng.randrange(2)
    harbor_at: dict[Coord, tuple[int | None, Coord]] = {}
    for c, kind in zip(ring[offset::2][: len(harbors)], harbors, strict=False):
        facing = sorted(n for n in hex_neighbours(c) if n in land_set)
        harbor_at[c] = (kind, rng.choice(facing))
    return harbor_at


def island_specs(
    land: list[Coord],
    frame: list[Coord],
    resource_at: dict[Coord, int | None],
    number_at: dict[Coord, int],
    harbor_at: dict[Coord, tuple[int | None, Coord]],
    sea_yield: dict[Coord, tuple[int, int]] | None = None,
) -> list[HexSpec]:
    """The hexes of a laid island: land (a desert where no resource), then the frame with its
    harbours and, in Kronlande, the sea hexes that yield (resource, number)."""
    specs: list[HexSpec] = []
    for c in land:
        res = resource_at[c]
        terrain = Terrain.DESERT if res is None else Terrain.LAND
        specs.append(HexSpec(c[0], c[1], terrain, res, number_at.get(c)))
    for c in frame:
        if c in harbor_at:
            kind, faces = harbor_at[c]
            specs.append(HexSpec(c[0], c[1], Terrain.SEA, harbor_resource=kind, harbor_faces=faces))
        elif sea_yield and c in sea_yield:
            res, number = sea_yield[c]
            specs.append(HexSpec(c[0], c[1], Terrain.SEA, res, number))
        else:
            specs.append(HexSpec(c[0], c[1], Terrain.SEA))
    return specs
