"""Ozeanien (Oceania), 3 players: a main island of 12 hexes on the left, an islet of 2 in the
south, and a band of 12 fog hexes along the east edge beyond a strait two sea hexes wide (so no
start settlement's road or ship reaches the fog); 3 × 3:1 + 5 harbours; no desert (the robber
starts off the board). The fog stack holds 2 sea, 2 gold rivers and 8 land hexes with 10
tokens, none of them red (so no two red tokens ever meet, whatever the order of discovery)."""

from __future__ import annotations

from .data import Area, BoardData
from .harbours import BASE_HARBORS

MAP = """
~ ~ ~ h ~ ~ ~ ~ ~ ~
 ~ ~ 1 1 h ~ ~ ? ? ~
~ h 1 1 1 ~ ~ ? ? ~
 ~ 1 1 1 h ~ ~ ~ ? ~
~ h 1 1 ~ ~ ~ ? ? ~
 ~ ~ 1 1 h ~ ~ ? ? ~
~ ~ ~ h ~ 2 ~ ? ? ~
 ~ p ~ ~ h 2 ~ ~ ? ~
~ ~ ~ ~ ~ ~ ~ ~ ~ ~
"""

BOARD = BoardData(
    scenario="ozeanien",
    players=3,
    map=MAP,
    areas={
        1: Area("Hauptinsel", "main island", "HHLLWWWGGGEE", start=True),
        2: Area("Südinsel", "south islet", "HE"),
    },
    # Two red tokens only: with four on the small main island the first seat's pick was worth
    # too much (docs/rules-decisions.md, "Oceania").
    tokens=(2, 3, 4, 4, 5, 5, 6, 8, 9, 9, 10, 10, 11, 12),
    harbors=(None,) * 3 + BASE_HARBORS,
    fog_tiles="~~$$HHLLWWGE",
    fog_tokens=(3, 4, 4, 5, 5, 9, 9, 10, 10, 11),
)
