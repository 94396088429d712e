"""Zu neuen Ufern (New Shores), 4 players: the base island (19 hexes, one desert) on the left,
three islets of three hexes (two gold rivers among them) to the right; 4 × 3:1 + 5 harbours
(seed 001: "Antal havne: 9"). From board version 2 the main island is laid by the base rules
(seed 001: "Den store ø (hovedøen) opbygges efter reglerne i basis-spillet"): the base tokens
A–R along the spiral, the islets the other nine."""

from __future__ import annotations

from dataclasses import replace

from ..layouts import BASE_TOKENS
from .data import Area, BoardData
from .harbours import BASE_HARBORS

MAP = """
~ ~ ~ ~ ~ ~ ~ ~ ~ ~
 ~ ~ h ~ ~ ~ 2 2 ~ ~
~ ~ 1 1 1 h ~ 2 h ~
 h 1 1 1 1 ~ ~ ~ 3 ~
~ 1 1 1 1 1 h p 3 ~
 h 1 1 1 1 ~ ~ ~ 3 ~
~ ~ 1 1 1 h ~ 4 h ~
 ~ ~ h ~ ~ ~ 4 4 ~ ~
~ ~ ~ ~ ~ ~ ~ ~ ~ ~
"""

#: Board version 1: the whole pool shuffled over all the land (games laid by it keep it).
BOARD_V1 = BoardData(
    scenario="neue-ufer",
    players=4,
    map=MAP,
    areas={
        1: Area("Hauptinsel", "main island", "HHHHLLLWWWWGGGGEEE-", start=True),
        2: Area("Nordinsel", "north islet", "$EL", bonus=True),
        3: Area("Ostinsel", "east islet", "$HW", bonus=True),
        4: Area("Südinsel", "south islet", "LEG", bonus=True),
    },
    tokens=(*BASE_TOKENS, 2, 3, 4, 5, 6, 9, 10, 11, 12),
    harbors=(None,) * 4 + BASE_HARBORS,
)

BOARD = replace(BOARD_V1, base_island=1, version=2, older=BOARD_V1)
