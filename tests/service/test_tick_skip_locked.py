"""The tick's candidates, read for all running games at once; and the tick on PostgreSQL
passes over a game someone else holds locked (`SKIP LOCKED`) and
takes it once the other games are done: two workers split the due games instead of queueing
behind each other's locks. On SQLite every game is waited for, as before."""

from __future__ import annotations

import threading

import pytest
from databases import game_row
from harness import Games, pass_deadline
from sqlalchemy import event, text
from sqlmodel import Session, select

from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.tick import TickResult, _candidates, _has_work, tick
from pbm.store.models import Game


def _attended(svc: Service) -> None:
    """The ticks that set up the second game resolved the first one's rounds with nobody
    writing: its seats went to the autopilot, which would pause it instead of resolving."""
    with svc.engine.begin() as conn:
        conn.execute(text("UPDATE player SET autopilot = false, nmr_count = 0"))
        conn.execute(text("UPDATE game SET paused = false"))


def test_a_game_locked_elsewhere_is_taken_after_the_others(
    svc: Service, clock: FakeClock, games: Games
) -> None:
    if svc.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer: the tick waits for every game")
    games.start("held", players=3)
    games.start("free", players=3)
    pass_deadline(svc, clock, "held")
    pass_deadline(svc, clock, "free")
    _attended(svc)
    held, free = game_row(svc, "held").round, game_row(svc, "free").round
    out: list[TickResult] = []
    with svc.engine.connect() as other:
        other.execute(text("SELECT id FROM game WHERE name = 'held' FOR UPDATE"))
        worker = threading.Thread(target=lambda: out.append(tick(svc)))
        worker.start()
        # The free game is resolved while the held one is still locked: it was passed over.
        for _ in range(600):
            if game_row(svc, "free").round == free + 1:
                break
            worker.join(0.1)
        assert game_row(svc, "free").round == free + 1
        assert game_row(svc, "held").round == held
        other.rollback()
    worker.join(60)
    assert not worker.is_alive()
    assert out[0].resolved == ["free", "held"], out[0]
    assert game_row(svc, "held").round == held + 1


def test_the_candidates_are_those_a_query_a_game_found(svc: Service, games: Games) -> None:
    """The tick's candidates read the seated players and order sets of all running games at
    once (two queries, not two a game) and find the same games as `ready` reading each
    game's own: here the first game, whose seats the autopilot took while the second was
    set up (every seat played, so its round is complete), and not the second."""
    games.start("first", players=3)
    games.start("second", players=3)
    with Session(svc.engine) as session:
        one_by_one = sorted(
            g.name
            for g in session.exec(select(Game))
            if _has_work(svc, session, g, svc.clock.now())
        )
    assert one_by_one == ["first"]
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(svc.engine, "before_cursor_execute", count)
    try:
        assert _candidates(svc) == one_by_one
    finally:
        event.remove(svc.engine, "before_cursor_execute", count)
    # The games, their seated players, their open rounds' senders (and BEGIN/ROLLBACK).
    assert len([q for q in statements if q.lstrip().upper().startswith("SELECT")]) == 3
