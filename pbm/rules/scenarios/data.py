"""The data a Seafarers board is made of, and the reading of its map.

A board file (one per scenario and player count, `neue_ufer_4.py` …) draws the map as text in
the board's own coordinates: line r is hex row r, column x is the hex's doubled x (so the two
hexes of a row stand two columns apart and the rows interlock). One character per hex:

| char | hex |
|---|---|
| `~` | sea |
| `h` | sea with a harbour slot (the harbours are shuffled over the slots) |
| `p` | sea, the pirate's start |
| `1`–`9` | land of that area (an island or part of one), its type drawn from its tiles |
| `?` | fog (Oceania): hidden until a road or ship reaches it, then drawn from the fog stack |

Tiles are letters: the resources `H L W G E` (German letters), `$` a gold river, `-` a desert.
The outer ring of the map is the frame and must be sea.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The tile letters of a board file: resources by their German letter, gold, desert.
GOLD = "$"
DESERT = "-"
TILE_LETTERS = frozenset("HLWGE" + GOLD + DESERT)

SEA_CHARS = frozenset("~hp")
FOG_CHAR = "?"

Coord = tuple[int, int]


@dataclass(frozen=True)
class Area:
    """One island, or one part of an island, of a scenario board."""

    name_de: str
    name_en: str
    #: Tile letters laid on this area's hexes, shuffled by the game seed.
    tiles: str
    #: Setup settlements may stand here.
    start: bool = False
    #: A player's first settlement here earns +1 VP (New Shores, Through the Desert).
    bonus: bool = False
    #: The number tokens of this area alone, shuffled over its hexes (The Great Crossing, whose
    #: two islands get the same tokens); () takes them from the board's pool (`tokens`).
    tokens: tuple[int, ...] = ()


@dataclass(frozen=True)
class BoardData:
    """One scenario's board for one player count."""

    scenario: str
    players: int
    map: str
    areas: dict[int, Area]
    #: Number tokens laid on every land hex but the deserts (shuffled, with the red-token rules);
    #: () where every area has its own (`Area.tokens`).
    tokens: tuple[int, ...]
    #: Harbour tiles: None for 3:1, else the resource of a 2:1 harbour.
    harbors: tuple[int | None, ...]
    #: Oceania: the tiles of the fog stack (tile letters, `~` sea) and the number tokens that
    #: belong to it, both shuffled by the game seed (`fog.py`); empty on boards without fog.
    fog_tiles: str = ""
    fog_tokens: tuple[int, ...] = ()
    #: The area laid as the base game lays its island (seed 001, New Shores: the main island "is
    #: set up by the rules of the base game"): the first tokens of `tokens` in letter order along
    #: the spiral, the red ones kept apart (`lay.base_island_tokens`); the other areas take the
    #: rest of the pool. 0: the pool is shuffled over all the land.
    base_island: int = 0
    #: The board version from which a game's board is laid from this data; `older` is the data
    #: of the version before, which a game laid by it keeps (`scenarios.board_data`).
    version: int = 1
    older: BoardData | None = None


@dataclass(frozen=True)
class Shape:
    """A map read into coordinates."""

    sea: tuple[Coord, ...]
    slots: tuple[Coord, ...]
    pirate: Coord | None
    #: Land hexes by area, each in (row, x) order.
    land: dict[int, tuple[Coord, ...]]
    #: Fog hexes (Oceania), in (row, x) order.
    fog: tuple[Coord, ...] = ()


def read_map(text: str) -> Shape:
    """The map's hexes by kind; a ValueError names a misdrawn map."""
    lines = text.strip("\n").split("\n")
    sea: list[Coord] = []
    slots: list[Coord] = []
    pirate: Coord | None = None
    land: dict[int, list[Coord]] = {}
    fog: list[Coord] = []
    parity: int | None = None
    for r, line in enumerate(lines):
        for x, ch in enumerate(line):
            if ch == " ":
                continue
            if parity is None:
                parity = (r + x) % 2
            elif (r + x) % 2 != parity:
                raise ValueError(f"hex at row {r}, column {x} is off the grid")
            if ch in SEA_CHARS:
                sea.append((r, x))
                if ch == "h":
                    slots.append((r, x))
                elif ch == "p":
                    if pirate is not None:
                        raise ValueError("two pirate starts")
                    pirate = (r, x)
            elif ch.isdigit() and ch != "0":
                land.setdefault(int(ch), []).append((r, x))
            elif ch == FOG_CHAR:
                fog.append((r, x))
            else:
                raise ValueError(f"unknown map character {ch!r} at row {r}, column {x}")
    return Shape(
        tuple(sea),
        tuple(slots),
        pirate,
        {a: tuple(sorted(c)) for a, c in sorted(land.items())},
        tuple(sorted(fog)),
    )
