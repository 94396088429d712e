"""Die große Überfahrt (The Great Crossing), 3 players: Catanien (11 hexes, top left) and
Transcatanien (11 hexes, bottom right) across a strait two sea rows wide, an islet of two hexes
(one gold river) off each; 3 × 3:1 + 5 harbours. As on the 4-player board, the board turned
half round is the same board (Catanien ↔ Transcatanien). The robber starts on Catanien's
desert."""

from __future__ import annotations

from ..layouts import BASE_TOKENS
from .data import Area, BoardData
from .harbours import BASE_HARBORS

MAP = """
~ ~ ~ h ~ ~ ~ ~ ~
 h 1 1 1 ~ 3 3 ~ ~
~ 1 1 1 1 h ~ ~ ~
 ~ 1 1 1 1 ~ ~ ~ ~
~ ~ ~ h ~ ~ ~ p ~
 ~ ~ ~ ~ ~ h ~ ~ ~
~ ~ ~ ~ 2 2 2 2 ~
 ~ ~ ~ h 2 2 2 2 ~
~ ~ 4 4 ~ 2 2 2 h
 ~ ~ ~ ~ ~ h ~ ~ ~
"""

BOARD = BoardData(
    scenario="ueberfahrt",
    players=3,
    map=MAP,
    areas={
        1: Area("Catanien", "Catania", "HHLLWWGGEE-", start=True),
        2: Area("Transcatanien", "Transcatania", "HHLLWWGGEE-", start=True),
        3: Area("Nordostinsel", "north-east islet", "$E"),
        4: Area("Südwestinsel", "south-west islet", "$L"),
    },
    tokens=(*BASE_TOKENS, 3, 4, 5, 9, 10, 11),
    harbors=(None,) * 3 + BASE_HARBORS,
)
