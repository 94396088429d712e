"""Seafarers scenarios ("Weite See"): their boards as data and their fixed rules.

One board file per scenario and player count (`neue_ufer_3.py`, `neue_ufer_4.py`, …) holds the
shape: sea, harbour slots, the pirate's start, the land by area and each area's tiles; the game
seed shuffles the tiles within each area, lays the number tokens by the red-token rules and the
harbours over their slots (`lay.py`). New World has no fixed shape: `new_world.py` generates it
from the seed. The base islands (`layouts.py`) are untouched by all of this.

The numbers come from `../shared/spec/seafarers.md` (the seed lost its digits), the harbour
counts from seed 001 where they survived (board version 2); the shapes are pbm's own, drawn
after the published scenarios. A board file may keep the data of an older board version
(`BoardData.older`), which the games laid by it keep (`board_data`). docs/rules-decisions.md,
"Seafarers", lists the decisions taken here.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Literal

from ..board import Board, HexSpec, Terrain
from . import (
    neue_ufer_3,
    neue_ufer_4,
    new_world,
    ozeanien_3,
    ozeanien_4,
    ueberfahrt_3,
    ueberfahrt_4,
    vier_inseln_3,
    vier_inseln_4,
    wueste_3,
    wueste_4,
)
from .data import Area, BoardData, Coord, read_map
from .lay import (
    LayoutError,
    base_island_tokens,
    hex_specs,
    place_harbors,
    place_tokens,
    reds_apart,
    terrain_of,
)

#: How a player earns special VP: the first settlement on each bonus area (New Shores, Through
#: the Desert), on foreign islands +1 then +2 each (Four Islands), +1 each (New World), +1 for
#: each trade line between the two start islands (The Great Crossing, `trade_lines.py`); none
#: in Oceania (every building counts as in the base game).
Special = Literal["bonus_areas", "foreign_1_2", "foreign_1", "trade_lines", "none"]
#: Whether a setup settlement on a coast facing other islands takes a ship: "should" is advice
#: in the preview, "must" a rule.
ShipCoast = Literal["should", "must", "none"]


@dataclass(frozen=True)
class Scenario:
    key: str
    name_de: str
    name_en: str
    vp_target: int
    ship_coast: ShipCoast
    special: Special
    #: Board files by player count; None where the board is generated (New World).
    boards: dict[int, BoardData] | None


SCENARIOS: dict[str, Scenario] = {
    "neue-ufer": Scenario(
        "neue-ufer",
        "Zu neuen Ufern",
        "New Shores",
        13,
        "should",
        "bonus_areas",
        {3: neue_ufer_3.BOARD, 4: neue_ufer_4.BOARD},
    ),
    "vier-inseln": Scenario(
        "vier-inseln",
        "Die vier Inseln",
        "The Four Islands",
        12,
        "must",
        "foreign_1_2",
        {3: vier_inseln_3.BOARD, 4: vier_inseln_4.BOARD},
    ),
    "ozeanien": Scenario(
        "ozeanien",
        "Ozeanien",
        "Oceania",
        12,
        "must",
        "none",
        {3: ozeanien_3.BOARD, 4: ozeanien_4.BOARD},
    ),
    "wueste": Scenario(
        "wueste",
        "Durch die Wüste",
        "Through the Desert",
        12,
        "must",
        "bonus_areas",
        {3: wueste_3.BOARD, 4: wueste_4.BOARD},
    ),
    "neue-welt": Scenario("neue-welt", "Neue Welt", "New World", 12, "none", "foreign_1", None),
    "ueberfahrt": Scenario(
        "ueberfahrt",
        "Die große Überfahrt",
        "The Great Crossing",
        12,
        "must",
        "trade_lines",
        {3: ueberfahrt_3.BOARD, 4: ueberfahrt_4.BOARD},
    ),
}

PLAYER_COUNTS = (3, 4)

#: Scenario and player count that `pbm board` lays and `pbm sim` plays, but no game is made for,
#: and why (docs/rules-decisions.md, "Seafarers: The Great Crossing").
NO_GAME: dict[tuple[str, int], str] = {
    ("ueberfahrt", 3): (
        "The Great Crossing is for 4 players: with 3, the player alone on one of its two"
        " islands wins half the games, and the first seat is the one alone most often"
    ),
}


def game_refusal(key: str, players: int) -> str | None:
    """Why no game of scenario `key` is made for `players`, or None when one is."""
    return NO_GAME.get((key, players))


def scenario(key: str) -> Scenario:
    try:
        return SCENARIOS[key]
    except KeyError:
        raise ValueError(f"unknown scenario {key!r} (one of {', '.join(SCENARIOS)})") from None


#: The newest board version of any scenario board. 1: every board as issue 17 laid it; 2: New
#: Shores' main island laid by the base rules (its tokens the base tokens along the spiral, the
#: islets the rest) and the seed's 9 harbours on the 3-player boards of New Shores and Through
#: the Desert (docs/rules-decisions.md, "Seafarers boards"). A board unchanged by a version
#: keeps the number of the last one that changed it (`newest_version`).
BOARD_VERSION = 2


def board_data(key: str, players: int, version: int = BOARD_VERSION) -> BoardData | None:
    """The board file a board of `version` is laid from (None for New World): the newest
    data of that version or earlier."""
    sc = scenario(key)
    if sc.boards is None:
        return None
    if players not in sc.boards:
        raise ValueError(f"{sc.name_en} is for 3 or 4 players")
    data = sc.boards[players]
    while data.version > version and data.older is not None:
        data = data.older
    return data


def newest_version(key: str, players: int) -> int:
    """The version a new game's board of this scenario and player count is laid by: the
    newest that changed it (1 where none did, so their stored form stays as it was)."""
    sc = scenario(key)
    if sc.boards is None or players not in sc.boards:
        return 1
    return sc.boards[players].version


@functools.lru_cache(maxsize=256)
def scenario_board(key: str, players: int, seed: int, version: int = BOARD_VERSION) -> Board:
    """The board of scenario `key` for `players`, fully determined by the seed and the board
    version (a stored game's `board_version`; new games: the newest)."""
    sc = scenario(key)
    if players not in PLAYER_COUNTS:
        raise ValueError(f"{sc.name_en} is for 3 or 4 players")
    data = board_data(key, players, version)
    if data is None:
        return new_world.generate(players, seed)
    return lay_board(data, seed)


def areas_of(key: str, players: int, seed: int) -> dict[int, Area]:
    """The areas of a scenario board (New World: its generated islands). Every board version
    of a scenario has the same areas."""
    sc = scenario(key)
    if sc.boards is None:
        return new_world.areas(scenario_board(key, players, seed))
    return sc.boards[players].areas


def lay_board(data: BoardData, seed: int) -> Board:
    shape = read_map(data.map)
    rng = random.Random(f"scenario:{data.scenario}:{data.players}:{seed}")
    tiles: dict[Coord, str] = {}
    area_of: dict[Coord, int] = {}
    for a, coords in shape.land.items():
        if a not in data.areas:
            raise LayoutError(f"area {a} is drawn but not described")
        pool = list(data.areas[a].tiles)
        if len(pool) != len(coords):
            raise LayoutError(f"area {a}: {len(coords)} hexes but {len(pool)} tiles")
        rng.shuffle(pool)
        tiles.update(zip(coords, pool, strict=True))
        area_of.update(dict.fromkeys(coords, a))
    terrain = {c: terrain_of(t)[0] for c, t in tiles.items()}
    producing = [c for c, t in terrain.items() if t != Terrain.DESERT]
    gold = {c for c, t in terrain.items() if t == Terrain.GOLD}
    if data.tokens and data.base_island:
        base = shape.land[data.base_island]
        numbers, rest = base_island_tokens(rng, base, set(producing), gold, data.tokens)
        others = [c for c in producing if c not in numbers]
        numbers.update(place_tokens(rng, others, gold, rest))
        if not reds_apart(numbers):
            raise LayoutError(f"{data.scenario}: red tokens side by side across the areas")
    elif data.tokens:
        numbers = place_tokens(rng, producing, gold, data.tokens)
    else:
        numbers = area_tokens(rng, data, shape.land, terrain, gold)
    harbors = place_harbors(rng, shape.slots, data.harbors, terrain)
    specs = hex_specs(shape.sea, tiles, area_of, numbers, harbors)
    # Oceania: the fog hexes stay hidden; what lies under them is drawn when they are
    # discovered, from stacks of their own (`fog.py`), so this layout never depends on them.
    specs += [HexSpec(r, x, Terrain.FOG) for r, x in shape.fog]
    return Board(specs, name=f"{data.scenario}-{data.players}", pirate_start=shape.pirate)


def area_tokens(
    rng: random.Random,
    data: BoardData,
    land: dict[int, tuple[Coord, ...]],
    terrain: dict[Coord, Terrain],
    gold: set[Coord],
) -> dict[Coord, int]:
    """Each area's own tokens over its producing hexes, area by area (The Great Crossing). The
    areas lie apart, so the red-token rule holds between them; checked all the same."""
    numbers: dict[Coord, int] = {}
    for a, coords in land.items():
        producing = [c for c in coords if terrain[c] != Terrain.DESERT]
        numbers.update(place_tokens(rng, producing, gold, data.areas[a].tokens))
    if not reds_apart(numbers):
        raise LayoutError(f"{data.scenario}: red tokens of two areas side by side")
    return numbers


__all__ = [
    "BOARD_VERSION",
    "NO_GAME",
    "SCENARIOS",
    "Area",
    "BoardData",
    "LayoutError",
    "Scenario",
    "areas_of",
    "board_data",
    "game_refusal",
    "newest_version",
    "scenario",
    "scenario_board",
]
