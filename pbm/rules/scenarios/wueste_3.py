"""Durch die Wüste (Through the Desert), 3 players: the main island's larger part (14 hexes),
a belt of three deserts, the small part beyond it (3 hexes, top right), islets of 3 and 2 hexes
(two gold rivers); 3 × 3:1 + 5 harbours. The robber starts on the first desert."""

from __future__ import annotations

from ..layouts import BASE_TOKENS
from .data import Area, BoardData
from .harbours import BASE_HARBORS

MAP = """
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

BOARD = BoardData(
    scenario="wueste",
    players=3,
    map=MAP,
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
