"""Kronlande in the report's JSON (`report_json.JSON_PARTS`): the game's kind, the builder's
title, a player's cities with a Burg or a Residenz apart from the others, and their workshops."""

from __future__ import annotations

from typing import Any

from pbm.rules.kron import BURG, RESIDENZ, WORKSHOP_PIECES
from pbm.rules.state import GameState

from .report_json import JSON_PARTS, JsonPart


class KronJson(JsonPart):
    def public(self, state: GameState, out: dict[str, Any]) -> None:
        if state.settings.kronlande:
            out["kind"] = "kronlande"

    def player(self, state: GameState, p: int, row: dict[str, Any]) -> None:
        kron = state.kron
        if kron is None:
            return
        board = state.board
        if kron.builder == p:
            row["titles"].append("builder")
        by_rank: dict[int, list[str]] = {BURG: [], RESIDENZ: []}
        cities: list[str] = []
        for c in sorted(state.cities[p]):
            by_rank.get(kron.castle[c], cities).append(board.crossing_label(c))
        row["cities"], row["castles"], row["residences"] = cities, by_rank[BURG], by_rank[RESIDENZ]
        row["workshops"] = [
            {"kind": WORKSHOP_PIECES[kind], "crossing": board.crossing_label(c)}
            for kind, c in enumerate(kron.workshops[p])
            if c >= 0
        ]


JSON_PARTS.append(KronJson())
