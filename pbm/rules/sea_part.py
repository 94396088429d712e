"""Seafarers as a part of the game state (`parts.PartKind`): the `sea` slot (`sea.SeaState`),
the scenario's board, and the `scenario`/`pirate` settings in the stored forms (serial.py's
format version 2); and its ships in the base game's building rules (`piece_hooks.PieceHooks`)
and its setup (`setup.SetupHooks`, carried out by `sea_setup.py`).
Registered on import (`state.py` imports this module)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from .board import Board
from .events import Event
from .orders import SetupPlacement
from .parts import PartKind, StatePart, register
from .piece_hooks import PIECE_HOOKS, SETUP_HOOKS, PieceHooks, SetupHooks
from .reasons import Reason
from .route import trade_route_length
from .sea import new_sea, sea_from_json
from .state import GameState, Phase, Settings


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


class SeaPieces(PieceHooks):
    """Ships in the building rules: a ship line reaching land reaches a settlement site, a
    ship takes its side, a settlement scores where it stands (special VP) and may cut or join
    ship lines, the longest road is the trade route of roads and ships, and a new piece may
    close or cut a trade line (The Great Crossing)."""

    def reaches(self, state: GameState, p: int, c: int) -> bool:
        sea = state.sea
        return sea is not None and any(sea.ship[e] == p for e in state.board.crossing_paths[c])

    def unreached(self, state: GameState) -> Reason | None:
        return None if state.sea is None else Reason.SETTLEMENT_NOT_REACHED

    def takes(self, state: GameState, e: int) -> bool:
        return state.sea is not None and state.sea.ship[e] >= 0

    def settled(self, state: GameState, p: int, c: int, events: list[Event]) -> None:
        sea = state.sea
        if sea is not None and state.phase == Phase.ROUNDS:
            from .special import award

            award(state, sea, p, c, events)

    def touched(self, state: GameState, p: int, c: int) -> set[int]:
        sea = state.sea
        if sea is None:
            return set()
        # It may cut a ship line too, and join the player's own roads and ships.
        road, ship = state.road, sea.ship
        paths = state.board.crossing_paths[c]
        return {road[e] for e in paths if road[e] >= 0} | {ship[e] for e in paths if ship[e] >= 0}

    def built(self, state: GameState, p: int, events: list[Event]) -> None:
        if state.sea is not None:
            from .trade_lines import update

            update(state, p, events)

    def route_length(self, state: GameState, p: int) -> int | None:
        sea = state.sea
        return None if sea is None else trade_route_length(state, sea, p)


PIECE_HOOKS.append(SeaPieces())


class SeaSetup(SetupHooks):
    """The Seafarers setup (`sea_setup.py`, imported when a Seafarers game first needs it)."""

    def applies(self, state: GameState) -> bool:
        return state.sea is not None

    def placement_rule(self, state: GameState, placement: SetupPlacement) -> Reason | None:
        from .sea_setup import sea_placement_rule

        assert state.sea is not None
        return sea_placement_rule(state, state.sea, placement)

    def automatic_placement(self, state: GameState) -> SetupPlacement:
        from .sea_setup import automatic_placement

        assert state.sea is not None
        return automatic_placement(state, state.sea)

    def place_piece(
        self, state: GameState, p: int, placement: SetupPlacement, events: list[Event]
    ) -> None:
        from .sea_setup import place_piece

        assert state.sea is not None
        place_piece(state, state.sea, p, placement, events)

    def second_income(self, state: GameState, p: int, c: int, events: list[Event]) -> None:
        from .sea_setup import gold_income

        gold_income(state, p, c, events)

    def end(self, state: GameState, events: list[Event]) -> None:
        from .sea_setup import end_of_setup

        assert state.sea is not None
        end_of_setup(state, state.sea, events)


SETUP_HOOKS.append(SeaSetup())
