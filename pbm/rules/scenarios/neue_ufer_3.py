"""Zu neuen Ufern (New Shores), 3 players: a main island of 14 hexes (no desert) on the left,
three islets (3, 3, 2 hexes; two gold rivers) to the right. Board version 2 (seed 001): 4 × 3:1 +
5 harbours ("Antal havne: 9"; a ninth slot between the east and the south islet), and the main
island laid by the base rules (the base tokens A–N along the spiral, as the small base island
takes A–M; the islets the other eight). Version 1: 3 × 3:1 + 5, the pool shuffled over all."""

from __future__ import annotations

from dataclasses import replace

from ..layouts import BASE_TOKENS
from .data import Area, BoardData
from .harbours import BASE_HARBORS

#: Board version 1's map: eight harbour slots.
MAP_V1 = """
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

MAP = """
~ ~ ~ ~ ~ ~ ~ ~ ~
 ~ ~ h ~ ~ 2 2 ~ ~
~ ~ 1 1 h ~ 2 h ~
 h 1 1 1 ~ ~ ~ 3 ~
~ 1 1 1 1 h p 3 ~
 h 1 1 1 ~ ~ ~ 3 ~
~ ~ 1 1 h ~ 4 h ~
 ~ ~ h ~ ~ 4 ~ ~ ~
~ ~ ~ ~ ~ ~ ~ ~ ~
"""

BOARD_V1 = BoardData(
    scenario="neue-ufer",
    players=3,
    map=MAP_V1,
    areas={
        1: Area("Hauptinsel", "main island", "HHHLLLWWWGGGEE", start=True),
        2: Area("Nordinsel", "north islet", "$EL", bonus=True),
        3: Area("Ostinsel", "east islet", "$HW", bonus=True),
        4: Area("Südinsel", "south islet", "GE", bonus=True),
    },
    tokens=(*BASE_TOKENS, 3, 4, 10, 11),
    harbors=(None,) * 3 + BASE_HARBORS,
)

BOARD = replace(
    BOARD_V1,
    map=MAP,
    harbors=(None,) * 4 + BASE_HARBORS,
    base_island=1,
    version=2,
    older=BOARD_V1,
)
