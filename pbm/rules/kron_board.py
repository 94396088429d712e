"""The Kronlande island: the large or huge island with quarries and fishing grounds.

Spec kronlande.md, "Table": quarries (Steinbruch, Stein) are land hexes in the island's terrain
mix; fishing grounds (Fischgrund, Fisch) are sea hexes of the frame without a harbour, with a
number token; the tokens follow the token pool rules, no red (6, 8) next to a red. The board is
laid like the variable setup of seed 000 (`layouts.generate_board`), from its own seed stream:

1. the land tiles (quarries among them, `layouts.KRON_ISLANDS`) are shuffled and laid row by row,
   and the size's number tokens laid along the spiral in letter order, skipping the deserts;
2. where two red tokens touch, the later red (in label order) swaps its token with a non-red
   land hex drawn by lot where a red touches no red;
3. the harbours are laid as on the base island;
4. the fishing grounds are drawn by lot among the frame hexes without a harbour, none next to
   another where the frame allows; their tokens are shuffled and a red one goes only where it
   touches no red.

A fishing ground is a `Terrain.SEA` hex whose `resource` is `FISCH`; a quarry a `Terrain.LAND`
hex whose `resource` is `STEIN`. Production pays both like any numbered hex; the robber never
goes onto the sea, so never onto a fishing ground.
"""

from __future__ import annotations

import functools
import math
import random

from .board import Board, hex_neighbours
from .layouts import (
    KRON_ISLANDS,
    RED,
    SIZES,
    _ring_order,
    frame_coords,
    island_coords,
    island_specs,
    place_harbours,
    red_clash,
    spiral,
    spread_reds,
)
from .resources import FISCH

Coord = tuple[int, int]


@functools.lru_cache(maxsize=64)
def generate_kron_board(size: str = "large", seed: int = 0) -> Board:
    """The Kronlande island of a size, fully determined by the seed."""
    kron = KRON_ISLANDS[size]
    spec = SIZES[size]
    rng = random.Random(f"board:kronlande:{size}:{seed}")
    land = island_coords(spec.rows)
    tiles: list[int | None] = [r for r, n in sorted(kron.tiles.items()) for _ in range(n)]
    tiles += [None] * kron.deserts
    rng.shuffle(tiles)
    resource_at = dict(zip(land, tiles, strict=True))
    number_at: dict[Coord, int] = {}
    tokens = iter(spec.tokens)
    for c in spiral(land, rng):
        if resource_at[c] is not None:
            number_at[c] = next(tokens)
    spread_reds(land, number_at, rng)
    frame = frame_coords(land)
    land_set = set(land)
    ring = _ring_order(frame, rng.uniform(0, 2 * math.pi))
    harbor_at = place_harbours(ring, list(spec.harbors), land_set, rng)
    fish_at = _fishing_grounds(frame, harbor_at, number_at, kron.fish_tokens, rng)
    sea_yield = {c: (FISCH, n) for c, n in fish_at.items()}
    specs = island_specs(land, frame, resource_at, number_at, harbor_at, sea_yield)
    return Board(specs, name=f"kronlande-{size}")


def _fishing_grounds(
    frame: list[Coord],
    harbor_at: dict[Coord, tuple[int | None, Coord]],
    number_at: dict[Coord, int],
    fish_tokens: tuple[int, ...],
    rng: random.Random,
) -> dict[Coord, int]:
    """Fishing grounds with their tokens: frame hexes without a harbour, drawn by lot, apart
    from each other where the frame allows, a red token only where it touches no red."""
    free = sorted(c for c in frame if c not in harbor_at)
    rng.shuffle(free)
    tokens = list(fish_tokens)
    rng.shuffle(tokens)
    # Reds first, so that each finds a hex touching no red if there is one.
    tokens.sort(key=lambda n: n not in RED)
    numbers = dict(number_at)
    out: dict[Coord, int] = {}
    for n in tokens:

        def fits(c: Coord, apart: bool, n: int = n) -> bool:
            if c in out:
                return False
            if apart and any(x in out for x in hex_neighbours(c)):
                return False
            return n not in RED or not red_clash(c, numbers)

        c = next((c for c in free if fits(c, True)), None)
        if c is None:
            c = next(c for c in free if fits(c, False))
        out[c] = n
        numbers[c] = n
    return out
