"""Zu neuen Ufern (New Shores), 4 players: the base island (19 hexes, one desert) on the left,
three islets of three hexes (two gold rivers among them) to the right; 4 × 3:1 + 5 harbours."""

from __future__ import annotations

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

BOARD = BoardData(
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
