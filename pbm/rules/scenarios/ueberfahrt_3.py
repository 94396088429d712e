"""Die große Überfahrt (The Great Crossing), 3 players: Catanien (11 hexes, top left) and
Transcatanien (11 hexes, bottom right) across a strait two sea rows wide, an islet of two hexes
(one gold river) off each; 3 × 3:1 + 5 harbours. As on the 4-player board, the board turned
half round is the same board (Catanien ↔ Transcatanien), and both islands get the same tiles
and number tokens. The robber starts on Catanien's desert.

No game is made on it (`NO_GAME`): with three players one is alone on an island and wins about
half the games, the first seat most often. `pbm board` and `pbm sim` still lay and play it, to
measure (docs/rules-decisions.md, "Seafarers: The Great Crossing")."""

from __future__ import annotations

from .data import Area, BoardData
from .harbours import BASE_HARBORS

#: The tokens of each large island (30 pips).
ISLAND = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)

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
        1: Area("Catanien", "Catania", "HHLLWWGGEE-", start=True, tokens=ISLAND),
        2: Area("Transcatanien", "Transcatania", "HHLLWWGGEE-", start=True, tokens=ISLAND),
        3: Area("Nordostinsel", "north-east islet", "$E", tokens=(3, 9)),
        4: Area("Südwestinsel", "south-west islet", "$L", tokens=(11, 5)),
    },
    # Each area lays its own tokens: the two islands the same, the islets as many pips.
    tokens=(),
    harbors=(None,) * 3 + BASE_HARBORS,
)
