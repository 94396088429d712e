"""No two red tokens (6, 8) touch on any board a new game gets (issue 31, finding 3): the base
large and huge islands, the Kronlande islands and every scenario, on every path that lays one:
the service's game creation (the game `pbm game create` and `pbm demo` make, whose board the
island preview and `pbm game board` draw), `pbm board`, `pbm orders check`, `pbm sim`, and the
board the service reads a sign-up mail against. Version 1 of the large and huge islands (the
boards of games stored before the red tokens were spread) had touching reds on 189 and 200 of
200 seeds; those boards stay as they were (tests/test_scenarios.py, BASE_BOARDS_DIGEST)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from databases import sqlite_database

from pbm.cli.board import board as cli_board
from pbm.rules.board import Board, Hex
from pbm.rules.layouts import RED, generate_board
from pbm.rules.rng import derive_seed
from pbm.rules.scenarios import NO_GAME, SCENARIOS
from pbm.rules.sim import play_game
from pbm.rules.state import DEFAULT_COLOURS, Settings, board_for
from pbm.service.context import Service
from pbm.service.games import create_game, first_state, settings_of
from pbm.store.db import make_engine, transaction

SEEDS = range(200)
#: (players, size, Kronlande): the islands with more than one pair of red tokens to keep apart
#: that the spiral alone does not (the medium island's spiral never puts two together).
ISLANDS = [(5, "large", False), (6, "huge", False), (5, "large", True), (4, "huge", True)]


def touching_reds(b: Board) -> list[tuple[str, str]]:
    """Pairs of neighbouring hexes that both carry a red token (land, and Kronlande's
    fishing grounds, which carry tokens too)."""
    at = {(h.row, h.x): h for h in b.hexes}
    pairs = []
    for h in b.hexes:
        if h.number not in RED:
            continue
        for dr, dx in ((0, 2), (1, -1), (1, 1)):
            n: Hex | None = at.get((h.row + dr, h.x + dx))
            if n is not None and n.number in RED:
                pairs.append((h.label, n.label))
    return pairs


def _settings(players: int, size: str, kron: bool) -> Settings:
    return Settings.for_kronlande(players, size) if kron else Settings.for_players(players, size)


def _cli_json(**kw: Any) -> Any:
    """`pbm board … --json`, the command's own function (typer only parses its options)."""
    out = io.StringIO()
    options: dict[str, Any] = {"lang": "de", "layout": "variable", "scenario": None}
    options |= {"kronlande": False, "size": None, **kw}
    with redirect_stdout(out):
        cli_board(as_json=True, **options)
    return json.loads(out.getvalue())


def _sim_board(settings: Settings, seed: int) -> Board:
    """The board `pbm sim` plays: its first step's state (the seeds as `simulate` draws them)."""
    state, _ = next(play_game(settings, derive_seed(seed, "sim", 0)))
    return state.board


def _service_boards(tmp_path: Path, games: list[dict[str, Any]]) -> list[Board]:
    """The boards of games made as `pbm game create` (and `pbm demo`) make them, when their
    seats are drawn (`first_state`); the preview and `pbm game board` draw these states."""
    svc = Service(make_engine(sqlite_database(tmp_path / "pbm.db")))
    out = []
    with transaction(svc.engine) as session:
        for i, kw in enumerate(games):
            game = create_game(svc, session, f"g{i}", **kw)
            colours = DEFAULT_COLOURS[: settings_of(game).players]
            out.append(first_state(game, colours).board)
    return out


def _assert_apart(boards: list[tuple[str, Board]]) -> None:
    bad = [(what, pairs) for what, b in boards if (pairs := touching_reds(b))]
    assert not bad, bad[:5]


@pytest.mark.parametrize(("players", "size", "kron"), ISLANDS)
def test_the_base_and_kronlande_islands_a_new_game_gets(
    players: int, size: str, kron: bool
) -> None:
    """The board a new game's settings lay (`board_for`: the service's game, the preview, `pbm
    game board`, `pbm sim`) and `pbm orders check --seed S --size Z` (its default
    --board-version is the newest)."""
    settings = _settings(players, size, kron)
    boards = [(f"game {seed}", board_for(settings, seed)) for seed in SEEDS]
    if not kron:
        boards += [(f"orders check {seed}", generate_board(size, seed)) for seed in SEEDS]
        # Version 1 (stored games) did have touching reds here: the test sees them.
        assert sum(bool(touching_reds(generate_board(size, s, 1))) for s in range(20)) > 10
    _assert_apart(boards)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "size", "kron"), ISLANDS)
def test_the_base_and_kronlande_islands_by_the_service_and_pbm_board(
    players: int, size: str, kron: bool, tmp_path: Path
) -> None:
    """The games `pbm game create` (and `pbm demo`) make, and `pbm board --json`: the boards
    checked above, 200 seeds each."""
    settings = _settings(players, size, kron)
    for seed in SEEDS:
        shown = _cli_json(seed=seed, players=players, size=size, kronlande=kron)
        assert shown == board_for(settings, seed).to_json(), seed
    made = [{"players": players, "seed": seed, "size": size, "kronlande": kron} for seed in SEEDS]
    boards = _service_boards(tmp_path, made)
    for seed, b in zip(SEEDS, boards, strict=True):
        assert b.hexes == board_for(settings, seed).hexes, seed
    _assert_apart([(f"service {seed}", b) for seed, b in zip(SEEDS, boards, strict=True)])


@pytest.mark.slow
@pytest.mark.parametrize(("players", "size", "kron"), ISLANDS)
def test_the_islands_pbm_sim_plays(players: int, size: str, kron: bool) -> None:
    settings = _settings(players, size, kron)
    _assert_apart([(f"sim {seed}", _sim_board(settings, seed)) for seed in SEEDS])


#: Each scenario and player count a game is made for.
SCENARIO_GAMES = [(k, p) for k in SCENARIOS for p in (3, 4) if (k, p) not in NO_GAME]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "players"), SCENARIO_GAMES, ids=[f"{k}-{p}" for k, p in SCENARIO_GAMES]
)
def test_every_scenario_on_every_path(tmp_path: Path, key: str, players: int) -> None:
    """Each scenario and player count a game is made for (a test each, so that the workers
    share them out), 200 seeds: the game's board, the one the service makes, and `pbm board
    --scenario` (the scenarios' own red-token rules, `scenarios.lay`); 20 games of `pbm sim`."""
    svc = Service(make_engine(sqlite_database(tmp_path / "pbm.db")))
    boards: list[tuple[str, Board]] = []
    settings = Settings.for_scenario(key, players)
    with transaction(svc.engine) as session:
        for seed in SEEDS:
            what = f"{key}-{players} {seed}"
            board = board_for(settings, seed)
            boards.append((what, board))
            shown = _cli_json(seed=seed, players=players, scenario=key)
            assert shown == board.to_json(), what
            name = f"{key}-{players}-{seed}"
            game = create_game(svc, session, name, players=players, seed=seed, scenario=key)
            made = first_state(game, DEFAULT_COLOURS[:players]).board
            assert made.hexes == board.hexes, what
    boards += [(f"sim {key}-{players} {s}", _sim_board(settings, s)) for s in range(20)]
    _assert_apart(boards)
