"""Seafarers on the text map (`text_map.MAP_PARTS`): the compact layout its boards need, ships
as their colour's letter in upper case on a path, the pirate, an island's letter (New World),
and their lines of the legend, with the gold rivers and the fog (Oceania)."""

from __future__ import annotations

from pbm.i18n import translator
from pbm.rules.board import Terrain
from pbm.rules.state import GameState

from .identity_sea import island_letter
from .identity_sea import lettered as island_marks
from .text_map import COMPACT, FOG_MARK, GOLD_MARK, MAP_PARTS, PIRATE, Geometry, MapPart


class SeaMap(MapPart):
    def geometry(self, state: GameState) -> Geometry | None:
        return COMPACT if state.sea is not None else None

    def path_mark(self, state: GameState, path: int, letter: dict[str, str]) -> str | None:
        sea = state.sea
        if sea is None or sea.ship[path] < 0:
            return None
        # A ship: its colour's letter in upper case (a road's is lower case).
        return letter[state.colours[sea.ship[path]]].upper()

    def hex_mark(self, state: GameState, hex_id: int) -> str | None:
        sea = state.sea
        if sea is None:
            return None
        if hex_id == sea.pirate:
            return PIRATE
        area = state.board.hexes[hex_id].area
        if island_marks(sea.scenario) and area is not None:
            # New World: the island's letter, so "Insel B" of a report is found on the map.
            return f"({island_letter(area)})"
        return None

    def legend(self, state: GameState, lang: str) -> list[str]:
        sea = state.sea
        if sea is None:
            return []
        lines = _sea_legend(lang)
        if not any(h.terrain == Terrain.GOLD for h in state.board.hexes):
            lines.pop()  # no gold river on this island (none found yet in the fog, either)
        if state.board.fog or sea.fog:
            lines.append(_fog_legend(lang))
        if island_marks(sea.scenario):
            lines.append(
                translator(lang).gettext("Islands: (A) low in a hex, the hex is part of island A")
            )
        return lines


def _fog_legend(lang: str) -> str:
    """Oceania: the fog's line, also once every fog hex is discovered (the map looks the same
    for every game of the scenario)."""
    return (
        translator(lang)
        .gettext("Fog: {mark} not discovered yet (a road or ship reaching it discovers it)")
        .format(mark=FOG_MARK)
    )


def _sea_legend(lang: str) -> list[str]:
    _ = translator(lang).gettext
    return [
        _("Ships: a colour's letter in upper case on a path; {pirate} pirate").format(
            pirate=PIRATE
        ),
        _("Gold rivers: 11{mark} (each card a resource of the owner's choice)").format(
            mark=GOLD_MARK
        ),
    ]


MAP_PARTS.append(SeaMap())
