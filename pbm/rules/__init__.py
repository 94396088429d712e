"""The pure rules engine: no IO, no clock, no global randomness.

Public entry points: `new_game`, the setup functions, `resolve_round`, the legal-move view
(`LegalMoves`), the rule reasons (`Reason`), the bots, and the (de)serialisation of the state.
"""

from .board import Board, Terrain
from .layouts import SIZES, generate_board
from .legal import LegalMoves
from .reasons import Reason
from .round import resolve_round
from .serial import state_from_json, state_from_text, state_to_json, state_to_text
from .setup import place_setup, place_setup_automatic, setup_player
from .state import GameState, Phase, Settings, new_game

__all__ = [
    "SIZES",
    "Board",
    "GameState",
    "LegalMoves",
    "Phase",
    "Reason",
    "Settings",
    "Terrain",
    "generate_board",
    "new_game",
    "place_setup",
    "place_setup_automatic",
    "resolve_round",
    "setup_player",
    "state_from_json",
    "state_from_text",
    "state_to_json",
    "state_to_text",
]
