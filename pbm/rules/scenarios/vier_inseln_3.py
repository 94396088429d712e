"""Die vier Inseln (The Four Islands), 3 players: islands of 4, 6, 6 and 4 hexes in the four
corners around an open sea; 4 × 3:1 + 5 harbours; no desert (the robber starts off the board)."""

from __future__ import annotations

from ..layouts import BASE_TOKENS
from .data import Area, BoardData
from .harbours import BASE_HARBORS

MAP = """
~ ~ ~ ~ ~ ~ ~ ~ ~
 ~ 1 1 h ~ ~ 2 2 h
~ 1 1 ~ ~ h 2 2 ~
 ~ h ~ ~ ~ ~ 2 2 ~
~ ~ ~ ~ p ~ ~ h ~
 h 3 3 h ~ ~ ~ ~ ~
~ 3 3 3 ~ h 4 4 ~
 ~ 3 h ~ ~ 4 4 ~ ~
~ ~ ~ ~ ~ ~ ~ ~ ~
"""

BOARD = BoardData(
    scenario="vier-inseln",
    players=3,
    map=MAP,
    areas={
        1: Area("Nordwestinsel", "north-west island", "HLWE", start=True),
        2: Area("Nordostinsel", "north-east island", "HLWGGE", start=True),
        3: Area("Südwestinsel", "south-west island", "HLLWGE", start=True),
        4: Area("Südostinsel", "south-east island", "HWGE", start=True),
    },
    tokens=(*BASE_TOKENS, 4, 10),
    harbors=(None,) * 4 + BASE_HARBORS,
)
