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
