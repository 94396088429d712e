"""A game stored by a pbm from before board versions (its board JSON without "version", laid
by version 1) replays identically: the replay lays the first state by the board version the
stored states name, not by the newest."""

from __future__ import annotations

import json

import pytest
from harness import Games, Mailer
from sqlmodel import Session

from pbm.rules import state as state_module
from pbm.service import admin
from pbm.service.context import Service
from pbm.service.games import get_game


def test_replay_of_a_game_laid_by_board_version_1(
    svc: Service, mailer: Mailer, games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as m:
        m.setattr(state_module, "board_version_for", lambda settings: 1)  # an older pbm
        games.start("old-large", players=5, size="large", round_=3)
    with Session(svc.engine) as s:
        assert json.loads(get_game(s, "old-large").state)["board"] == {"seed": 7}
    assert admin.replay_game(svc, "old-large").mismatches == []


def test_replay_of_a_game_laid_by_board_version_2(svc: Service, games: Games) -> None:
    games.start("new-large", players=5, size="large", round_=3)
    with Session(svc.engine) as s:
        assert json.loads(get_game(s, "new-large").state)["board"] == {"seed": 7, "version": 2}
    assert admin.replay_game(svc, "new-large").mismatches == []


def test_replay_of_new_shores_laid_by_scenario_board_version_1(
    svc: Service, mailer: Mailer, games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A New Shores game started before scenario board version 2 keeps its board (the pool
    over all land) and replays; one started now is laid by version 2 and says so."""
    with monkeypatch.context() as m:
        m.setattr(state_module, "board_version_for", lambda settings: 1)  # an older pbm
        games.start("old-shores", players=4, scenario="neue-ufer", round_=3)
    games.start("new-shores", players=4, scenario="neue-ufer", round_=3)
    with Session(svc.engine) as s:
        assert json.loads(get_game(s, "old-shores").state)["board"] == {"seed": 7}
        assert json.loads(get_game(s, "new-shores").state)["board"] == {"seed": 7, "version": 2}
    assert admin.replay_game(svc, "old-shores").mismatches == []
    assert admin.replay_game(svc, "new-shores").mismatches == []
