"""Seafarers in the report's JSON (`report_json.JSON_PARTS`): the game's kind and the pirate,
a player's special points (Seafarers' islands and scenarios) and ships."""

from __future__ import annotations

from typing import Any

from pbm.rules.state import GameState

from .report_json import JSON_PARTS, JsonPart


class SeaJson(JsonPart):
    def public(self, state: GameState, out: dict[str, Any]) -> None:
        sea = state.sea
        if sea is None:
            return
        if not state.settings.kronlande:
            out["kind"] = "seafarers"
        if sea.pirate >= 0:
            out["pirate"] = state.board.hexes[sea.pirate].label

    def player(self, state: GameState, p: int, row: dict[str, Any]) -> None:
        sea = state.sea
        if sea is None:
            return
        row["special_vp"] = sea.special_vp(p)
        row["ships"] = [state.board.path_label(e) for e in sorted(sea.ships[p])]


JSON_PARTS.append(SeaJson())
