"""Seafarers as a part of the game state (`parts.PartKind`): the `sea` slot (`sea.SeaState`),
the scenario's board, and the `scenario`/`pirate` settings in the stored forms (serial.py's
format version 2). Registered on import (`state.py` imports this module)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from .board import Board
from .parts import PartKind, StatePart, register
from .sea import new_sea, sea_from_json
from .state import GameState, Settings


def _new(s: GameState) -> StatePart:
    st = s.settings
    assert st.scenario is not None
    return new_sea(s.board, st.scenario, st.players, st.pirate)


def _read(d: dict[str, Any], s: GameState) -> StatePart:
    from .fog import with_discoveries

    sea = sea_from_json(d, s.board, s.settings.players)
    with_discoveries(s, sea)  # Oceania: the fog hexes found so far
    return sea


def _text_fields(s: GameState, d: dict[str, Any]) -> list[str]:
    st = s.settings
    fields = [
        f"scenario={st.scenario}:{int(st.pirate)}",
        "sea=" + quote(json.dumps(d["sea"], separators=(",", ":")), safe=""),
    ]
    if s.board.pirate_start is not None and s.board_seed is None:
        h = s.board.hexes[s.board.pirate_start]
        fields.append(f"pirate={h.row},{h.x}")
    return fields


def _text_settings(f: dict[str, str]) -> dict[str, Any]:
    key, pirate = f["scenario"].split(":")
    return {"scenario": key, "pirate": pirate == "1"}


def _board(settings: Settings, seed: int, version: int) -> Board:
    from .scenarios import scenario_board

    assert settings.scenario is not None
    return scenario_board(settings.scenario, settings.players, seed, version)


def _board_version(settings: Settings) -> int:
    from .scenarios import newest_version

    assert settings.scenario is not None
    return newest_version(settings.scenario, settings.players)


SEA = register(
    PartKind(
        field="sea",
        version=2,
        on=lambda settings: settings.scenario is not None,
        new=_new,
        read=_read,
        settings_json=lambda st: {"scenario": st.scenario, "pirate": st.pirate},
        text_fields=_text_fields,
        text_settings=_text_settings,
        board=_board,
        board_version=_board_version,
    )
)
