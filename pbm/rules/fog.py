"""Fog (Oceania): hexes hidden at the start, discovered by the roads and ships that reach them.

Spec `seafarers.md`, "Fog", after seed 001 ("Oceanien") and the "Weite See" paragraph of seed
002 (docs/rules-decisions.md, "Oceania: fog"):

- A fog hex is neither land nor sea (`board.SETTLEABLE`): a road needs a known land hex beside
  it, a ship a known sea hex, and no settlement stands on a crossing touching fog.
- When a road or ship is placed (built, moved, by road building, or in the setup) and one of
  its end crossings touches fog, every fog hex there is discovered, in label order: it takes the
  top tile of the game's fog stack, a land hex the top token of its token stack, and the placing
  player gets one card of it at once (gold: the round's `Gold:` preference, else the resource
  held fewest; the classic bank pays only what it has). Sea pays nothing.

The stacks come from the game seed alone (`stacks`), apart from the board's own layout, and
nothing in the state or on the board shows them: the board carries `Terrain.FOG` until a hex is
discovered (`SeaState.fog` lists the discoveries, and `discovered_board` lays them on the
scenario's board). So every report, map, picture and answer drawn from a state shows no more
than the players have found. The token stacks hold no red number (6, 8): no two red tokens can
meet, whatever the order of discovery.
"""

from __future__ import annotations

import functools
import random

from .board import Board, HexSpec, Terrain
from .events import BankShort, Event, Produced
from .gold import GoldChoices
from .scenarios import scenario
from .scenarios.lay import terrain_of
from .sea import SeaState
from .sea_events import HexDiscovered
from .state import GameState

#: The tile letter of a sea hex in a fog stack (the board files' `~`).
SEA_TILE = "~"

#: A discovery as the state keeps it: (hex, tile, token or None).
Found = tuple[int, str, int | None]


@functools.lru_cache(maxsize=256)
def stacks(key: str, players: int, seed: int) -> tuple[str, tuple[int, ...]]:
    """The fog stack (tile letters) and its token stack of a game, top first, shuffled by the
    game seed with a generator of their own (the board's layout does not depend on them)."""
    data = scenario(key).boards
    if data is None or not data[players].fog_tiles:
        return "", ()
    board = data[players]
    rng = random.Random(f"fog:{key}:{players}:{seed}")
    tiles = list(board.fog_tiles)
    rng.shuffle(tiles)
    tokens = list(board.fog_tokens)
    rng.shuffle(tokens)
    return "".join(tiles), tuple(tokens)


def tile_terrain(tile: str) -> tuple[Terrain, int | None]:
    """(terrain, resource) of a fog stack's tile."""
    if tile == SEA_TILE:
        return Terrain.SEA, None
    return terrain_of(tile)


def fog_reached(board: Board, e: int) -> list[int]:
    """The fog hexes a piece on path e reaches: those at either of its end crossings, in label
    order (hex ids follow the labels)."""
    if not board.fog:
        return []
    found: set[int] = set()
    for c in board.path_crossings[e]:
        if board.crossing_fog[c]:
            found.update(
                h for h in board.crossing_hexes[c] if board.hexes[h].terrain == Terrain.FOG
            )
    return sorted(found)


def discover(
    state: GameState, p: int, e: int, events: list[Event], gold: GoldChoices | None = None
) -> None:
    """After p's road or ship came to stand on path e: discover the fog it reaches (module
    doc). A no-op on boards without fog."""
    sea = state.sea
    if sea is None or not state.board.fog:
        return
    hexes = fog_reached(state.board, e)
    if not hexes:
        return
    tiles, tokens = stacks(sea.scenario, state.settings.players, _seed(state))
    taken = sum(1 for _, _, t in sea.fog if t is not None)
    for h in hexes:
        tile = tiles[len(sea.fog)]
        terrain, resource = tile_terrain(tile)
        token: int | None = None
        if terrain in (Terrain.LAND, Terrain.GOLD):
            token = tokens[taken]
            taken += 1
        sea.fog.append((h, tile, token))
        events.append(HexDiscovered(p, h, tile, token))
        if terrain == Terrain.GOLD:
            resource = (gold if gold is not None else GoldChoices()).choose(p, state.hands[p][:])
        if resource is not None:
            _pay(state, p, h, resource, events)
    state.board = discovered_board(state.board, tuple(sea.fog))


def _pay(state: GameState, p: int, h: int, r: int, events: list[Event]) -> None:
    """One card of resource r from the bank, if it has one (the classic bank's shortage)."""
    bank = state.bank
    if bank is not None and bank[r] < 1:
        events.append(BankShort(r, 1, 0, p))
        return
    state.hands[p][r] += 1
    if bank is not None:
        bank[r] -= 1
    events.append(Produced(p, h, r, 1))


def _seed(state: GameState) -> int:
    return state.board_seed if state.board_seed is not None else state.seed


#: A game's board is asked for once a state of it is loaded (every mail), and a new one made
#: at each discovery: a few games' boards are enough to keep (each holds the board's tables).
@functools.lru_cache(maxsize=32)
def discovered_board(board: Board, found: tuple[Found, ...]) -> Board:
    """`board` with the discoveries laid on the hexes still in its fog (a hex already laid, as
    on a board written out hex by hex, stays as it is)."""
    laid = {h: (tile, token) for h, tile, token in found if board.hexes[h].terrain == Terrain.FOG}
    if not laid:
        return board
    specs: list[HexSpec] = []
    for x in board.hexes:
        faces = None
        if x.harbor is not None:
            f = board.hexes[x.harbor.faces]
            faces = (f.row, f.x)
        if x.id in laid:
            tile, token = laid[x.id]
            terrain, resource = tile_terrain(tile)
            specs.append(HexSpec(x.row, x.x, terrain, resource, token))
        else:
            specs.append(
                HexSpec(
                    x.row,
                    x.x,
                    x.terrain,
                    x.resource,
                    x.number,
                    None if x.harbor is None else x.harbor.resource,
                    faces,
                    x.area,
                )
            )
    pirate = None
    if board.pirate_start is not None:
        start = board.hexes[board.pirate_start]
        pirate = (start.row, start.x)
    return Board(specs, name=board.name, pirate_start=pirate)


def with_discoveries(state: GameState, sea: SeaState) -> None:
    """A state read back: its board with the discoveries made so far (`serial.py`)."""
    if sea.fog:
        state.board = discovered_board(state.board, tuple(sea.fog))
