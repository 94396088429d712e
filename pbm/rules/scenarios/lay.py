"""Laying tiles, number tokens and harbours on a scenario's fixed shape, by the game seed.

The red-token rules of docs/seafarers (spec "Pieces and board"): no two red tokens (6, 8) on
neighbouring hexes, never a red token on gold, and gold takes 2, 3, 11 or 12 while the token
pool has one. A draw that breaks them is drawn again from the same generator, so the result is
still a pure function of the seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..board import HexSpec, Terrain, hex_neighbours
from ..layouts import spiral, spread_reds
from ..resources import LETTERS_DE
from .data import DESERT, GOLD, Coord

RED = frozenset({6, 8})
#: The tokens a gold river takes first (docs/rules-decisions.md, "Seafarers").
GOLD_TOKENS = frozenset({2, 3, 11, 12})
#: Draws of the token layout before giving up (a board whose pool cannot satisfy the rules).
TOKEN_TRIES = 5000


class LayoutError(ValueError):
    """The shape and pools cannot be laid by the rules (a broken board file)."""


def terrain_of(tile: str) -> tuple[Terrain, int | None]:
    if tile == GOLD:
        return Terrain.GOLD, None
    if tile == DESERT:
        return Terrain.DESERT, None
    return Terrain.LAND, LETTERS_DE.index(tile)


def reds_apart(numbers: dict[Coord, int]) -> bool:
    for c, n in numbers.items():
        if n in RED:
            for d in hex_neighbours(c):
                if numbers.get(d) in RED:
                    return False
    return True


def place_tokens(
    rng: random.Random, producing: Iterable[Coord], gold: set[Coord], tokens: tuple[int, ...]
) -> dict[Coord, int]:
    """Tokens on the producing hexes (land but deserts), by the red-token rules."""
    hexes = sorted(producing)
    if len(hexes) != len(tokens):
        raise LayoutError(f"{len(hexes)} producing hexes but {len(tokens)} tokens")
    gold_hexes = [c for c in hexes if c in gold]
    others = [c for c in hexes if c not in gold]
    for _ in range(TOKEN_TRIES):
        pool = list(tokens)
        rng.shuffle(pool)
        at: dict[Coord, int] = {}
        for c in gold_hexes:
            pick = next((t for t in pool if t in GOLD_TOKENS), None)
            if pick is None:
                pick = next((t for t in pool if t not in RED), None)
            if pick is None:
                raise LayoutError("no token for a gold river that is not red")
            pool.remove(pick)
            at[c] = pick
        at.update(zip(others, pool, strict=True))
        if reds_apart(at):
            return at
    raise LayoutError("the red tokens cannot be laid apart")


def base_island_tokens(
    rng: random.Random,
    land: Iterable[Coord],
    producing: set[Coord],
    gold: set[Coord],
    tokens: tuple[int, ...],
) -> tuple[dict[Coord, int], tuple[int, ...]]:
    """An island laid as the base game lays its own (seed 000, `layouts.generate_board`): the
    tokens in letter order along a counter-clockwise spiral from a corner drawn by lot,
    skipping the deserts, then red tokens that touch swapped apart (`layouts.spread_reds`).
    Returns the tokens laid and the rest of the pool, for the other areas."""
    hexes = sorted(land)
    if any(c in gold for c in hexes):
        raise LayoutError("a gold river on the island laid by the base rules")
    laid = [c for c in spiral(hexes, rng) if c in producing]
    if len(laid) > len(tokens):
        raise LayoutError(f"{len(laid)} producing hexes but {len(tokens)} tokens")
    numbers = dict(zip(laid, tokens, strict=False))
    spread_reds(hexes, numbers, rng)
    return numbers, tokens[len(laid) :]


def place_harbors(
    rng: random.Random,
    slots: Iterable[Coord],
    kinds: tuple[int | None, ...],
    land: dict[Coord, Terrain],
) -> dict[Coord, tuple[int | None, Coord]]:
    """The harbour tiles shuffled over the slots, each facing one land hex next to its slot
    (a desert only where the slot touches nothing else)."""
    slot_list = sorted(slots)
    if len(slot_list) != len(kinds):
        raise LayoutError(f"{len(slot_list)} harbour slots but {len(kinds)} harbours")
    shuffled = list(kinds)
    rng.shuffle(shuffled)
    out: dict[Coord, tuple[int | None, Coord]] = {}
    for c, kind in zip(slot_list, shuffled, strict=True):
        facing = sorted(n for n in hex_neighbours(c) if n in land)
        if not facing:
            raise LayoutError(f"harbour slot {c} touches no land")
        useful = [n for n in facing if land[n] != Terrain.DESERT] or facing
        out[c] = (kind, rng.choice(useful))
    return out


def hex_specs(
    sea: Iterable[Coord],
    tiles: dict[Coord, str],
    areas: dict[Coord, int],
    numbers: dict[Coord, int],
    harbors: dict[Coord, tuple[int | None, Coord]],
) -> list[HexSpec]:
    specs: list[HexSpec] = []
    for c, tile in sorted(tiles.items()):
        terrain, res = terrain_of(tile)
        specs.append(HexSpec(c[0], c[1], terrain, res, numbers.get(c), area=areas[c]))
    for c in sorted(sea):
        if c in harbors:
            kind, faces = harbors[c]
            specs.append(HexSpec(c[0], c[1], Terrain.SEA, harbor_resource=kind, harbor_faces=faces))
        else:
            specs.append(HexSpec(c[0], c[1], Terrain.SEA))
    return specs
