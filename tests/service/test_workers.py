"""Two workers on one database: real processes racing over the same due games and the same
stored mails. Every round is resolved once and every mail answered once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from databases import (
    game_row,
    game_state,
    inbound,
    order_sets,
    outbox,
    passwords,
    records,
    replies_to,
    seated,
    slow_on_postgresql,
)
from harness import (
    Games,
    Mailer,
    confirmation_code,
    join_by_mail,
    new_game,
    orders_text,
    send_orders,
)
from sqlmodel import Session, select

import pbm.service.order_intake as order_intake
import pbm.service.signup as signup_module
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game
from pbm.service.ingest import ingest, process_mail, store_mail
from pbm.service.tick import tick
from pbm.store import codec
from pbm.store.db import transaction
from pbm.store.models import OrderSet, Player

DRIVER = Path(__file__).with_name("driver.py")
ROOT = Path(__file__).resolve().parents[2]
MAIL_GAMES = ["m0", "m1", "m2"]  # all orders arrive by mail: resolved when all are in
DEADLINE_GAMES = ["d0", "d1", "d2"]  # nobody writes; the deadline has passed


def _prepare(svc: Service, clock: FakeClock, mailer: Mailer) -> list[int]:
    """Six games in round 1; returns the ids of stored, unprocessed mails (orders and help)."""
    for n, name in enumerate(MAIL_GAMES + DEADLINE_GAMES):
        new_game(svc, name, players=3, seed=n)
        for i in range(3):
            r = join_by_mail(
                mailer, f"{name}p{i}@players.test", name, f"Name: {name} {i}\nFarben: rot\n"
            )
            assert r.status == "done"
    # All setups at once: each tick places one step in every game.
    while any(game_row(svc, n).phase == "setup" for n in MAIL_GAMES + DEADLINE_GAMES):
        clock.advance(hours=25)
        tick(svc)
    pw = passwords(svc)
    ids = []
    for name in MAIL_GAMES:
        _, st = game_state(svc, name)
        for seat, p in seated(svc, name).items():
            raw = mailer.raw(
                p.address, "Züge", f"Spiel: {name}\n" + orders_text(st, seat, pw[p.address])
            )
            mail_id, duplicate = store_mail(svc, raw)
            assert not duplicate
            ids.append(mail_id)
        raw = mailer.raw(f"{name}p0@players.test", "Hilfe", f"Spiel: {name}\nHilfe\n")
        ids.append(store_mail(svc, raw)[0])
    with transaction(svc.engine) as s:
        for name in DEADLINE_GAMES:
            get_game(s, name, lock=True).deadline = clock.now() - timedelta(minutes=1)
    return ids


def _spawn(url: str, clock: FakeClock, ids: list[int], start: float) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PBM_CRASH_AT", None)
    return subprocess.Popen(
        [
            sys.executable,
            str(DRIVER),
            url,
            clock.now().isoformat(),
            "work",
            ",".join(map(str, ids)),
            str(start),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


#: How long a paused worker waits for the other one. The pause holds a lock the other needs
#: (on SQLite the one writer; on PostgreSQL the game row, `FOR UPDATE`), so the other cannot
#: finish first: the pause ends by this timeout, and the other goes on after it.
_HOLD_SECONDS = 0.5


@pytest.mark.slow
def test_two_workers_race(db_url: str, svc: Service, clock: FakeClock, mailer: Mailer) -> None:
    ids = _prepare(svc, clock, mailer)
    start = time.time() + 2.0  # both processes have imported everything by then
    workers = [_spawn(db_url, clock, ids, start), _spawn(db_url, clock, ids[::-1], start)]
    outputs: list[dict[str, Any]] = []
    for w in workers:
        out, err = w.communicate(timeout=120)
        assert w.returncode == 0, err
        outputs.append(json.loads(out.strip().splitlines()[-1]))

    # Every game's round 1 was resolved once, by one of the two.
    claimed = outputs[0]["resolved"] + outputs[1]["resolved"]
    assert sorted(claimed) == sorted(MAIL_GAMES + DEADLINE_GAMES), outputs
    for name in MAIL_GAMES + DEADLINE_GAMES:
        game = game_row(svc, name)
        assert (game.phase, game.round) == ("rounds", 2), name
        rounds = [r.round for r in records(svc, name) if r.kind == "round"]
        assert rounds == [1], name
        with Session(svc.engine) as s:
            game_id = get_game(s, name).id
        reports = [o for o in outbox(svc, "report") if o.game_id == game_id]
        assert len(reports) == 1, name
        used = codec.loads(records(svc, name)[-1].orders)
        if name in MAIL_GAMES:
            assert all(o is not None for o in used), name
            assert not [o for o in outbox(svc, "nmr") if o.game_id == game_id]
        else:
            assert all(o is None for o in used), name

    # Every mail was processed once and answered once.
    for row in inbound(svc):
        if row.id not in ids:
            continue
        assert row.status == "done"
        answers = replies_to(svc, row.message_id)
        assert len(answers) == 1, (row.subject, [a.kind for a in answers])
        assert answers[0].kind == ("help" if row.subject == "Hilfe" else "ack")
    for name in MAIL_GAMES:
        sets = order_sets(svc, name)
        assert len(sets) == 3 and not any(o.superseded for o in sets)


@slow_on_postgresql
@pytest.mark.parametrize("pause", ["before", "after"])
def test_orders_acknowledged_during_a_concurrent_resolution_are_not_lost(
    svc: Service,
    clock: FakeClock,
    mailer: Mailer,
    monkeypatch: pytest.MonkeyPatch,
    pause: str,
    games: Games,
) -> None:
    """A worker processes a player's corrected orders while another resolves the round. Either
    the correction is in the resolution, or the player is told it came too late; it must never
    be acknowledged and then silently dropped."""
    games.start("alpha")
    send_orders(mailer, "alpha", [0, 1, 2, 3], resolve=False)  # all in, not yet resolved
    pw = passwords(svc)
    p0 = seated(svc, "alpha")[0]
    raw = mailer.raw(p0.address, "Korrektur", f"Kennwort: {pw[p0.address]}\nRunde: 1\nAbwurf: H\n")
    message_id = mailer.last_id
    mail_id, _ = store_mail(svc, raw)

    entered, proceed = threading.Event(), threading.Event()
    real = getattr(order_intake, "submit_orders")  # noqa: B009  (patched below)

    def slow_submit(*args: Any, **kw: Any) -> Any:
        # The mail's worker has read the game (round 1 open) and is about to store the orders:
        # it pauses before or after the insert while the other worker resolves.
        if pause == "before":
            entered.set()
            # The mail's transaction holds the game row (`FOR UPDATE`): the resolution waits
            # for it on PostgreSQL too, so the pause ends by its timeout.
            proceed.wait(timeout=_HOLD_SECONDS)
        replaced = real(*args, **kw)
        if pause == "after":
            entered.set()
            # PostgreSQL: the new row's foreign key holds a KEY SHARE lock on the game row.
            proceed.wait(timeout=_HOLD_SECONDS)
        return replaced

    monkeypatch.setattr(order_intake, "submit_orders", slow_submit)
    results: list[Any] = []
    worker = threading.Thread(target=lambda: results.append(process_mail(svc, mail_id)))
    worker.start()
    assert entered.wait(timeout=10)
    resolved = tick(svc).resolved  # the other worker: the round is ready, resolve it
    proceed.set()
    worker.join(timeout=30)
    assert results and results[0].status == "done"
    assert resolved == ["alpha"] or tick(svc).resolved == ["alpha"]

    [rec] = [r for r in records(svc, "alpha") if r.kind == "round"]
    used = codec.loads(rec.orders)[0]
    acks = replies_to(svc, message_id, "ack")
    live = [
        o
        for o in order_sets(svc, "alpha")
        if o.player_id == p0.id and o.round == 1 and not o.superseded
    ]
    if acks:
        assert len(live) == 1 and live[0].mail_id == mail_id
        assert used == codec.loads(live[0].parsed), (
            "the correction was acknowledged, but the round was resolved with the old orders"
        )
    else:
        assert replies_to(svc, message_id, "error")
        assert live and isinstance(live[0], OrderSet) and live[0].mail_id != mail_id


@slow_on_postgresql
def test_two_signups_for_the_last_seat_at_once_fill_the_table_once(
    svc: Service, mailer: Mailer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers each process a confirmed signup for the last free seat of a table of four.
    One of them gets the seat; the other is told the game is full. Never five players, never a
    seat drawn twice."""
    new_game(svc, "alpha", players=4)
    for i in range(3):
        join_by_mail(mailer, f"p{i}@players.test", "alpha", f"Name: P{i}\n")
    confirmations = []
    for i in (3, 4):
        address = f"p{i}@players.test"
        mailer.send(address, "Anmeldung", f"Spiel: alpha\nName: P{i}\n")
        code = confirmation_code(svc, address)
        confirmations.append(mailer.mail(address, "Re", f"Spiel: alpha\nBestätigen: {code}\n"))
    (_, raw4), (late_id, raw5) = confirmations
    id4, _ = store_mail(svc, raw4)

    entered, proceed = threading.Event(), threading.Event()
    real = signup_module.draw
    worker_name = "signup-worker"

    def slow_draw(*args: Any, **kw: Any) -> Any:
        if threading.current_thread().name == worker_name:
            entered.set()
            # The signup holds the game row (`FOR UPDATE`): the other signup waits for it on
            # PostgreSQL too, so the pause ends by its timeout.
            proceed.wait(timeout=_HOLD_SECONDS)
        return real(*args, **kw)

    monkeypatch.setattr(signup_module, "draw", slow_draw)
    results: list[Any] = []
    worker = threading.Thread(
        target=lambda: results.append(process_mail(svc, id4)), name=worker_name
    )
    worker.start()
    assert entered.wait(timeout=10)
    other = ingest(svc, raw5)  # the second worker
    proceed.set()
    worker.join(timeout=30)
    assert results[0].status == "done" and other.status == "done"

    with Session(svc.engine) as s:
        game_id = get_game(s, "alpha").id
    with Session(svc.engine) as s:
        players = list(s.exec(select(Player).where(Player.game_id == game_id)))
    assert len(players) == 4, [(p.address, p.seat, p.colour) for p in players]
    assert sorted(p.seat for p in players if p.seat is not None) == [0, 1, 2, 3]
    assert game_row(svc, "alpha").phase == "setup"
    assert len(outbox(svc, "welcome")) == 4
    (told,) = replies_to(svc, late_id)
    assert "Das Spiel alpha ist voll und hat begonnen." in told.body
