"""The outbox's lease when its sender dies (docs/security.md, "Findings and fixes"):

- a row whose claimant has ended on this host (`claimant.gone`) is taken again at once, not
  after the 10-minute lease, so a reminder claimed by a killed `pbm serve` goes out when the
  service is back, before the deadline it reminds of; a row of a live claimant, of another
  host or of a claimant that cannot be told waits out the lease as before;
- a reminder still unsent when its round is resolved is dropped, never sent late;
- a real SIGKILL between two recipients of an announcement: the restarted sender serves the
  others at once and nobody twice.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from databases import outbox
from harness import GM, Games, pass_deadline
from sqlmodel import Session, col, select

from pbm.config.model import SmtpSection
from pbm.mail.memory import MemorySmtp
from pbm.mail.smtp import SmtpSession
from pbm.service import claimant
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.outbox import enqueue
from pbm.service.sending import LEASE, claim, send_pending
from pbm.service.tick import tick
from pbm.store.db import transaction
from pbm.store.models import Outbox

from .servers import FlakyHandler, smtp_server

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "service" / "driver.py"

linux = pytest.mark.skipif(not claimant.me(), reason="claimants are told apart through /proc")


def _token(pid: int) -> str:
    """The claimant name a process `pid` of this host has (as `claimant.me` in it)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return f"{claimant.me().rsplit(' ', 2)[0]} {pid} {fields[19]}"


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    """Another process of this host, alive until the test kills it."""
    proc = subprocess.Popen(["sleep", "60"])
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


@linux
def test_a_process_that_ran_is_told_from_one_that_runs(
    sleeper: subprocess.Popen[bytes],
) -> None:
    me = claimant.me()
    assert me.split()[-2] == str(os.getpid())
    assert not claimant.gone(me)
    token = _token(sleeper.pid)
    assert not claimant.gone(token)
    sleeper.kill()
    time.sleep(0.2)  # killed, and a zombie until it is waited for
    assert claimant.gone(token), "a zombie runs nothing"
    sleeper.wait()
    assert claimant.gone(token)
    # The pid taken by another process since: another start time.
    where, _pid, start = me.rsplit(" ", 2)
    assert claimant.gone(f"{where} {os.getpid()} {int(start) + 1}")


@linux
@pytest.mark.parametrize(
    "name",
    [
        "",
        "garbage",
        "otherhost 1f0e-boot pid:[1] 1 5",  # another host: cannot be told
        "{place} 0 5",  # pid 0 would be a process group
        "{place} -1 5",
        "{place} x 5",
        "{place} 123",
    ],
)
def test_what_cannot_be_told_is_never_taken_for_gone(name: str) -> None:
    place = claimant.me().rsplit(" ", 2)[0]
    assert not claimant.gone(name.replace("{place}", place))


def _queue(svc: Service, to: tuple[str, ...], kind: str = "reminder") -> int:
    with transaction(svc.engine) as session:
        row = enqueue(svc, session, kind, to, f"[alpha] {kind}", "Noch 12 Stunden.\n")
        session.flush()
        assert row.id is not None
        return row.id


def _lease(svc: Service, row_id: int, who: str) -> None:
    """As a claim by `who` left it."""
    with transaction(svc.engine) as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        row.next_attempt = svc.clock.now() + LEASE
        row.claimed_by = who


@linux
def test_a_row_whose_claimant_has_ended_is_taken_again_at_once(
    svc: Service, clock: FakeClock, sleeper: subprocess.Popen[bytes]
) -> None:
    dead, alive, elsewhere, unknown = (_queue(svc, (f"p{i}@players.test",)) for i in range(4))
    gone_token = _token(sleeper.pid)
    sleeper.kill()
    sleeper.wait()
    with subprocess.Popen(["sleep", "60"]) as other:
        try:
            _lease(svc, dead, gone_token)
            _lease(svc, alive, _token(other.pid))
            _lease(svc, elsewhere, "otherhost 1f0e-boot pid:[1] 4242 17")
            _lease(svc, unknown, "")
            assert claim(svc, 10) == [dead]
            with Session(svc.engine) as s:
                row = s.get(Outbox, dead)
                assert row is not None and row.claimed_by == claimant.me()
            assert claim(svc, 10) == [], "now this process's, under its lease"
            clock.advance(seconds=LEASE.total_seconds() + 1)
            assert claim(svc, 10) == [dead, alive, elsewhere, unknown]
        finally:
            other.kill()


@linux
def test_a_reminder_claimed_by_a_killed_sender_goes_out_before_the_deadline(
    svc: Service, clock: FakeClock, games: Games, sleeper: subprocess.Popen[bytes]
) -> None:
    """The reminders of a round, claimed by a sender that was killed before it sent them:
    the next pass sends them, minutes before the deadline, not 10 minutes later (after it)."""
    games.start("alpha")
    with Session(svc.engine) as s:
        from pbm.service.games import get_game

        game = get_game(s, "alpha")
        assert game.deadline is not None
        deadline = game.deadline
    clock.advance(seconds=(deadline - clock.now()).total_seconds() - 5 * 60)
    assert tick(svc).reminded == ["alpha"]
    reminders = [o.id for o in outbox(svc, "reminder")]
    assert len(reminders) == 4
    token = _token(sleeper.pid)
    sleeper.kill()
    sleeper.wait()
    for row_id in reminders:
        assert row_id is not None
        _lease(svc, row_id, token)
    clock.advance(seconds=30)
    smtp = MemorySmtp()
    sent = asyncio.run(send_pending(svc, smtp.sender)).sent
    assert set(reminders) <= set(sent), "taken again at once, with the game's other mails"
    assert clock.now() < deadline
    assert {o.status for o in outbox(svc, "reminder")} == {"sent"}


def test_a_reminder_unsent_when_its_round_is_resolved_is_dropped(
    svc: Service, clock: FakeClock, games: Games
) -> None:
    """The outbox was down (or its sender dead and the service not back) until the deadline
    passed: the reminder would come after the deadline it reminds of. It is dropped by the
    resolution; every other mail of the game stays."""
    games.start("alpha")
    with Session(svc.engine) as s:
        from pbm.service.games import get_game

        deadline = get_game(s, "alpha").deadline
        assert deadline is not None
    clock.advance(seconds=(deadline - clock.now()).total_seconds() - 60)
    assert tick(svc).reminded == ["alpha"]
    other = _queue(svc, ("p0@players.test",), kind="gm_notice")
    pass_deadline(svc, clock, "alpha")
    assert tick(svc).resolved == ["alpha"]
    reminders = outbox(svc, "reminder")
    assert reminders and {o.status for o in reminders} == {"dropped"}
    assert all("resolved" in o.last_error for o in reminders)
    with Session(svc.engine) as s:
        row = s.get(Outbox, other)
        assert row is not None and row.status == "pending"
    assert {o.status for o in outbox(svc, "report")} == {"pending"}
    smtp = MemorySmtp()
    asyncio.run(send_pending(svc, smtp.sender))
    assert not [o for o in outbox(svc) if o.kind == "reminder" and o.status == "sent"]


def _driver(
    url: str, clock: FakeClock, port: int, crash_at: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PBM_CRASH_AT": crash_at}
    return subprocess.run(
        [sys.executable, str(DRIVER), url, clock.now().isoformat(), "send", str(port)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


@linux
@pytest.mark.slow  # a process started and killed (SIGKILL), a real SMTP server
@pytest.mark.parametrize("point", ["smtp-recipient-sent", "smtp-sent"])
def test_a_sender_killed_mid_announcement_serves_the_rest_at_restart_and_nobody_twice(
    db_url: str, svc: Service, clock: FakeClock, point: str
) -> None:
    """`pbm game announce` to four, then two reminders; the sender is killed (SIGKILL) after
    the announcement's first recipient (or after its last, before the mark). The restarted
    sender, at the same moment (no lease waited out), sends the announcement to the others
    only (after the last: to the last once more, the same Message-ID: the one window left)
    and the reminders the dead one had claimed."""
    everyone = tuple(f"p{i}@players.test" for i in range(4))
    announcement = _queue(svc, everyone, kind="gm_notice")
    reminders = [_queue(svc, (address,)) for address in everyone[:2]]
    handler = FlakyHandler()
    with smtp_server(handler) as port:
        killed = _driver(db_url, clock, port, point)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        first = Counter(a.rcpt_tos[0] for a in handler.accepted)
        assert first == Counter(everyone[:1] if point == "smtp-recipient-sent" else everyone)
        with Session(svc.engine) as s:
            claimed = {r.id: r.claimed_by for r in s.exec(select(Outbox))}
        assert set(claimed.values()) != {""}, "the killed sender had claimed them"
        clock.advance(seconds=5)
        result = asyncio.run(send_pending(svc, _config(port)))
    assert sorted(result.sent) == sorted([announcement, *reminders])
    got = Counter(a.rcpt_tos[0] for a in handler.accepted)
    twice = {everyone[-1]} if point == "smtp-sent" else set()
    expected = Counter({a: 1 + (a in twice) + (a in everyone[:2]) for a in everyone})
    assert got == expected, "each recipient once (and its reminders), the one window aside"
    ids = {
        a.message["Message-ID"]
        for a in handler.accepted
        if a.message["Subject"].endswith("gm_notice")
    }
    assert len(ids) == 1
    with Session(svc.engine) as s:
        rows = list(s.exec(select(Outbox).order_by(col(Outbox.id))))
    assert [(r.status, r.delivered, r.claimed_by) for r in rows] == [("sent", "", "")] * 3
    assert rows[0].recipients == ",".join(everyone)


def _config(port: int) -> Callable[[], SmtpSession]:
    return lambda: SmtpSession(SmtpSection.model_validate({"port": port, "from": GM}))


def test_the_lease_is_still_waited_out_for_a_live_sender(svc: Service, clock: FakeClock) -> None:
    """This process's own rows (a send that raised, in the tests' in-process crashes) are a
    live claimant's: the lease holds."""
    row_id = _queue(svc, ("p0@players.test",))
    _lease(svc, row_id, claimant.me())
    assert claim(svc, 4) == []
    clock.advance(seconds=LEASE.total_seconds() - 1)
    assert claim(svc, 4) == []
    clock.advance(seconds=2)
    assert claim(svc, 4) == [row_id]


def test_the_look_for_rows_of_ended_senders_reads_only_the_leased_rows(svc: Service) -> None:
    """Every claim looks for rows under the lease of a process that has ended: the partial
    index over the leased rows serves it, not the status index, which held every report of
    a tick still pending (8 ms a claim with 5,000 pending; docs/performance.md)."""
    from pbm.service.sending import _LEASED

    with svc.engine.connect() as conn:
        if conn.dialect.name != "sqlite":
            pytest.skip("the plan of PostgreSQL's planner depends on its statistics")
        compiled = _LEASED.compile(dialect=conn.dialect)
        values = compiled.construct_params({"now": "2026-01-01"})
        args = tuple(values[name] for name in compiled.positiontup or ())
        plan = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + str(compiled), args).all()
    assert any("ix_outbox_leased" in str(row) for row in plan), plan
