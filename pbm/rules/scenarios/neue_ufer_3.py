"""Zu neuen Ufern (New Shores), 3 players: a main island of 14 hexes (no desert) on the left,
three islets (3, 3, 2 hexes; two gold rivers) to the right; 3 × 3:1 + 5 harbours."""

from __future__ import annotations

from ..layouts import BASE_TOKENS
from .data import Area, BoardData
from .harbours import BASE_HARBORS

MAP = """
~ ~ ~ ~ ~ ~ ~ ~ ~
 ~ ~ h ~ ~ 2 2 ~ ~
~ ~ 1 1 h ~ 2 h ~
 h 1 1 1 ~ ~ ~ 3 ~
~ 1 1 1 1 h p 3 ~
 h 1 1 1 ~ ~ ~ 3 ~
~ ~ 1 1 h ~ 4 ~ ~
 ~ ~ h ~ ~ 4 ~ ~ ~
~ ~ ~ ~ ~ ~ ~ ~ ~
"""

BOARD = BoardData(
    scenario="neue-ufer",
    players=3,
    map=MAP,
    areas={
        1: Area("Hauptinsel", "main island", "HHHLLLWWWGGGEE", start=True),
        2: Area("Nordinsel", "north islet", "$EL", bonus=True),
        3: Area("Ostinsel", "east islet", "$HW", bonus=True),
        4: Area("Südinsel", "south islet", "GE", bonus=True),
    },
    tokens=(*BASE_TOKENS, 3, 4, 10, 11),
    harbors=(None,) * 3 + BASE_HARBORS,
)
