"""Kronlande as a part of the game state (`parts.PartKind`): the `kron` slot
(`kron.KronState`), its island, its wider hands and bank, its project cards, and the
`kronlande` setting in the stored forms (serial.py's format version 3). Registered on import
(`state.py` imports this module)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from .board import Board
from .kron import kron_from_json, new_kron
from .layouts import DECK_KRONLANDE, KRON_CARD_TYPES
from .parts import PartKind, StatePart, register
from .resources import KRON_WIDTH, N_KRON_RESOURCES
from .state import GameState, Settings


def _new(s: GameState) -> StatePart:
    return new_kron(len(s.board.crossing_hexes), s.settings.players)


def _read(d: dict[str, Any], s: GameState) -> StatePart:
    return kron_from_json(d, s.owner, s.settings.players)


def _text_fields(s: GameState, d: dict[str, Any]) -> list[str]:
    return ["kron=" + quote(json.dumps(d["kron"], separators=(",", ":")), safe="")]


def _board(settings: Settings, seed: int, version: int) -> Board:
    from .kron_board import generate_kron_board

    return generate_kron_board(settings.size, seed)


KRON = register(
    PartKind(
        field="kron",
        version=3,
        on=lambda settings: settings.kronlande,
        new=_new,
        read=_read,
        settings_json=lambda st: {"kronlande": True},
        text_fields=_text_fields,
        text_settings=lambda f: {"kronlande": True},
        hand_width=KRON_WIDTH,
        bank_width=N_KRON_RESOURCES,
        card_types=KRON_CARD_TYPES,
        deck=DECK_KRONLANDE,
        board=_board,
        # Laid by its own rules, never by the base islands' versions.
        board_version=lambda settings: 1,
    )
)
