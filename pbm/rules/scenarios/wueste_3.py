"""Durch die Wüste (Through the Desert), 3 players: the main island's larger part (14 hexes),
a belt of three deserts, the small part beyond it (3 hexes, top right), islets of 3 and 2 hexes
(two gold rivers). The robber starts on the first desert. Board version 2: 4 × 3:1 + 5 harbours
(seed 001: "Antal havne: 9"; a ninth slot off the west islet); version 1: 3 × 3:1 + 5."""

from __future__ import annotations

from dataclasses import replace

from ..layouts import BASE_TOKENS
from .data import Area, BoardData
from .harbours import BASE_HARBORS

#: Board version 1's map: eight harbour slots.
MAP_V1 = """
~ ~ ~ ~ ~ ~ ~ ~ ~
 ~ 4 4 ~ ~ ~ h ~ ~
~ ~ 4 ~ ~ ~ 3 3 ~
 ~ h ~ h 2 2 3 ~ ~
~ ~ 1 1 1 2 p ~ ~
 h 1 1 1 1 h ~ h ~
~ 1 1 1 1 ~ ~ 5 ~
 h 1 1 1 h ~ 5 ~ ~
~ ~ ~ ~ ~ ~ ~ ~ ~
"""

MAP = """
~ ~ ~ ~ ~ ~ ~ ~ ~
 ~ 4 4 h ~ ~ h ~ ~
~ ~ 4 ~ ~ ~ 3 3 ~
 ~ h ~ h 2 2 3 ~ ~
~ ~ 1 1 1 2 p ~ ~
 h 1 1 1 1 h ~ h ~
~ 1 1 1 1 ~ ~ 5 ~
 h 1 1 1 h ~ 5 ~ ~
~ ~ ~ ~ ~ ~ ~ ~ ~
"""

BOARD_V1 = BoardData(
    scenario="wueste",
    players=3,
    map=MAP_V1,
    areas={
        1: Area("Hauptinsel", "main island", "HHHLLLWWWGGGEE", start=True),
        2: Area("Wüstengürtel", "desert belt", "---"),
        3: Area("Land jenseits der Wüste", "land beyond the desert", "LGE", bonus=True),
        4: Area("Westinsel", "west islet", "$HW", bonus=True),
        5: Area("Ostinsel", "east islet", "$E", bonus=True),
    },
    tokens=(*BASE_TOKENS, 3, 4, 10, 11),
    harbors=(None,) * 3 + BASE_HARBORS,
)

BOARD = replace(BOARD_V1, map=MAP, harbors=(None,) * 4 + BASE_HARBORS, version=2, older=BOARD_V1)
