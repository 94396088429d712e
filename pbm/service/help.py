"""The answer to `Hilfe` / `Help`: the overview for the game's kind, a chapter of the player
guide or the whole guide (`pbm.reports.help`), with where the game stands."""

from __future__ import annotations

from typing import Any

from pbm.reports.help import help_data, status_text
from pbm.reports.notices import CommandLine
from pbm.reports.order_form import GameKind
from pbm.rules.state import GameState, board_for
from pbm.store.models import Game

from .games import game_kind_of, load_state, settings_of
from .table import local_deadline


def game_kind(game: Game, state: GameState | None = None) -> GameKind:
    """The game's kind, from its state (read when not given), else from its settings and the
    board its seed lays (a Seafarers game in signup: its gold rivers)."""
    if state is None and game.state:
        state = load_state(game)
    if state is not None:
        return GameKind.of_state(state)
    settings = settings_of(game)
    board = board_for(settings, game.seed) if settings.scenario is not None else None
    return GameKind.of(settings, board)


def help_answer(
    game: Game, state: GameState | None, topic: str, commands: list[CommandLine]
) -> dict[str, Any]:
    """The help mail's data for `Hilfe` with `topic` ("" for the overview); in UTC, since the
    help needs no password and so knows no player's time zone."""
    status = status_text(
        game.locale, str(game.phase), game.round, local_deadline(game, None), game.paused
    )
    data = help_data(
        game.locale,
        topic,
        game_kind(game, state),
        commands,
        status,
        beginner=game.layout == "beginner",
    )
    # What game this is, with its target, special rules and islands (`reports.identity`).
    if state is None and game.state:
        state = load_state(game)
    data["identity"] = game_kind_of(game, state)
    return data
