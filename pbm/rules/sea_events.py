"""The events only a Seafarers game makes. They join the event table (`events.EVENT_TYPES`), so
a stored round of a Seafarers game loads like any other; a ship built is a `Built` event with
the piece "ship", gold paid is a `Produced` event on the gold hex with the chosen resource."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .events import EVENT_TYPES, Event


@dataclass(slots=True)
class ShipMoved(Event):
    kind: ClassVar[str] = "ship_moved"
    player: int
    source: int
    target: int


@dataclass(slots=True)
class PirateMoved(Event):
    """The pirate moved (a 7 or a knight); the steals follow as `Stole` events."""

    kind: ClassVar[str] = "pirate_moved"
    player: int
    hex: int
    #: "seven" or "knight".
    cause: str


@dataclass(slots=True)
class SpecialVP(Event):
    """A player's settlement earned special VP (first on an island, a foreign island)."""

    kind: ClassVar[str] = "special_vp"
    player: int
    crossing: int
    area: int
    vp: int


@dataclass(slots=True)
class HomeIslands(Event):
    """The islands a player's start settlements stand on (Four Islands, New World)."""

    kind: ClassVar[str] = "home_islands"
    player: int
    areas: tuple[int, ...]


@dataclass(slots=True)
class TradeLineGained(Event):
    """The Great Crossing: a trade line between buildings on the two islands now scores for
    `player` (+1 VP): made, or taken over from another player (`trade_lines.py`)."""

    kind: ClassVar[str] = "trade_line_gained"
    player: int
    #: Its end crossing on the first island (Catanien) and on the second (Transcatanien).
    start: int
    end: int
    #: The pieces (ships and roads) of its chain, and how many of them are the player's.
    pieces: int
    own: int


@dataclass(slots=True)
class TradeLineLost(Event):
    """The Great Crossing: a trade line no longer scores for `player` (-1 VP): cut (a ship
    moved away, a building between its ends), or another player now holds it."""

    kind: ClassVar[str] = "trade_line_lost"
    player: int
    start: int
    end: int


@dataclass(slots=True)
class HexDiscovered(Event):
    """Oceania: `player`'s road or ship reached a fog hex, which takes the top tile of the fog
    stack and, on land, the top token (`fog.py`); the card it pays follows as `Produced` (or
    `BankShort` when the classic bank has none)."""

    kind: ClassVar[str] = "hex_discovered"
    player: int
    hex: int
    #: A resource's German letter, `$` gold, `-` desert or `~` sea.
    tile: str
    number: int | None


for _cls in (
    ShipMoved,
    PirateMoved,
    SpecialVP,
    HomeIslands,
    TradeLineGained,
    TradeLineLost,
    HexDiscovered,
):
    EVENT_TYPES.setdefault(_cls.kind, _cls)
