"""Die große Überfahrt (The Great Crossing), 4 players: Catanien (14 hexes, top left) and
Transcatanien (14 hexes, bottom right) facing each other across a strait two sea rows wide,
an islet of two hexes (one gold river) off each; 3 × 3:1 + 5 harbours. The board is the same
turned half round (Catanien ↔ Transcatanien, the islets, the harbour slots), so neither island
is the better one by its shape, and both get the same tiles and the same number tokens: only
where the seed lays them tells the islands apart. The robber starts on Catanien's desert (the
first in label order)."""

from __future__ import annotations

from .data import Area, BoardData
from .harbours import BASE_HARBORS

#: The tokens of each large island (42 pips).
ISLAND = (2, 3, 4, 5, 5, 6, 8, 8, 9, 10, 10, 11, 12)

MAP = """
~ ~ ~ h ~ ~ ~ ~ ~ ~
 h 1 1 1 1 ~ 3 3 ~ ~
~ 1 1 1 1 1 h ~ ~ ~
 ~ 1 1 1 1 1 ~ ~ ~ ~
~ ~ ~ h ~ ~ ~ ~ p ~
 ~ ~ ~ ~ ~ ~ h ~ ~ ~
~ ~ ~ ~ 2 2 2 2 2 ~
 ~ ~ ~ h 2 2 2 2 2 ~
~ ~ 4 4 ~ 2 2 2 2 h
 ~ ~ ~ ~ ~ ~ h ~ ~ ~
"""

BOARD = BoardData(
    scenario="ueberfahrt",
    players=4,
    map=MAP,
    areas={
        1: Area("Catanien", "Catania", "HHHLLWWWGGGEE-", start=True, tokens=ISLAND),
        2: Area("Transcatanien", "Transcatania", "HHHLLWWWGGGEE-", start=True, tokens=ISLAND),
        3: Area("Nordostinsel", "north-east islet", "$E", tokens=(3, 9)),
        4: Area("Südwestinsel", "south-west islet", "$L", tokens=(11, 5)),
    },
    # Each area lays its own tokens: the two islands the same, the islets as many pips.
    tokens=(),
    harbors=(None,) * 3 + BASE_HARBORS,
)
