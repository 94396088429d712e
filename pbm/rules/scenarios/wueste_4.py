"""Durch die Wüste (Through the Desert), 4 players: the main island's larger part (17 hexes),
a belt of three deserts, the small part beyond it (3 hexes, top right), islets of 3, 1 and 3
hexes (two gold rivers); 4 × 3:1 + 5 harbours. The robber starts on the first desert."""

from __future__ import annotations

from ..layouts import BASE_TOKENS
from .data import Area, BoardData
from .harbours import BASE_HARBORS

MAP = """
~ ~ ~ ~ ~ ~ ~ ~ ~ ~
 ~ 4 4 ~ 5 h ~ h ~ ~
~ ~ 4 ~ ~ ~ ~ 3 3 ~
 ~ h ~ h ~ 2 2 3 ~ ~
~ ~ 1 1 1 1 2 ~ ~ ~
 h 1 1 1 1 1 p h ~ ~
~ 1 1 1 1 1 h ~ 6 ~
 h 1 1 1 h ~ ~ 6 6 ~
~ ~ ~ ~ ~ ~ ~ ~ ~ ~
"""

BOARD = BoardData(
    scenario="wueste",
    players=4,
    map=MAP,
    areas={
        1: Area("Hauptinsel", "main island", "HHHHLLLWWWWGGGEEE", start=True),
        2: Area("Wüstengürtel", "desert belt", "---"),
        3: Area("Land jenseits der Wüste", "land beyond the desert", "LGE", bonus=True),
        4: Area("Westinsel", "west islet", "$HW", bonus=True),
        5: Area("Felseninsel", "rock islet", "E", bonus=True),
        6: Area("Ostinsel", "east islet", "$LG", bonus=True),
    },
    tokens=(*BASE_TOKENS, 2, 3, 4, 5, 6, 9, 10, 11, 12),
    harbors=(None,) * 4 + BASE_HARBORS,
)
