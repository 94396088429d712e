"""`pbm serve` killed with SIGKILL at random moments while 250 order mails for 10 games arrive
and rounds resolve, then restarted, 10 times over: every mail is acknowledged exactly once or,
where a kill fell between the send and the mark, at most twice with the same Message-ID; every
round is resolved exactly once; the final states equal those of a run without kills.

Real processes and servers on 127.0.0.1: `pbm serve` runs as a subprocess against an IMAP
server (pymap, in this process), into whose inbox the test APPENDs the players' order mails,
and an SMTP sink (aiosmtpd) that records every message the service delivers. The 10 games of
five players start at round 1; whenever a game reaches round r, its five players' orders for
round r go into the inbox (the mails that become due together in a drawn order): 5 rounds,
250 mails. The run without kills (in process, the same calls `pbm serve` makes for each mail)
runs meanwhile in a process of its own, on a copy of the same starting database.

The kill moments come from a seeded generator ($PBM_SIGKILL_SEED tries another seed). Every
fifth kill falls at a drawn moment of the start (imports, the migration check, the recovery of
stored mails); each of the others waits until the service has processed a drawn number of
order mails, one drawn in each tenth of the run, so the kills spread over all of it whatever
the seed, then a drawn fraction of a second. (It was 20 kills over 500 mails: as many kills a
mail, and each kind of moment still comes; half the games and kills take half the time.)
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest

from pbm.config.model import ImapSection
from pbm.devservers.loopback import LoopbackImap
from pbm.mail.imap import ImapInbox
from pbm.service.sending import LEASE

from .sigkill_support import (
    GAMES,
    GM,
    LAUNCH,
    NAMES,
    ROUNDS,
    SEATS,
    Delivery,
    OrderMail,
    Progress,
    Sink,
    Watcher,
    build_tables,
    copy_db,
    count,
    last_line,
    last_outbox_id,
    order_mails,
    outcome,
    seats_and_passwords,
    tail,
    timed_play_without_kills,
    write_config,
)

ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("PBM_SIGKILL_SEED", "20261130"))
KILLS = 10
MAILS = GAMES * SEATS * ROUNDS  # 250
#: Each restart runs this much later on the service's clock than the one before.
SHIFT = LEASE + timedelta(minutes=1)
#: The longest wait for any one thing (a start, a kill's moment, the end of the run).
PATIENCE = 180.0


@dataclass
class Kill:
    at: float  # time.monotonic()
    during_start: bool
    processed: int  # order mails processed when the process died
    doing: str  # the last line it logged


@dataclass
class KillRun:
    work: Path
    db: Path
    since_outbox_id: int
    seed: int
    kills: int = KILLS
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    killed: list[Kill] = field(default_factory=list)
    progress: Progress = field(default_factory=Progress)
    #: The order mails, in the order they went into the inbox.
    sent: list[OrderMail] = field(default_factory=list)
    sink: Sink = field(default_factory=Sink)
    imap: LoopbackImap = field(default_factory=LoopbackImap)
    watcher: Watcher | None = None
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    exit_code: int | None = None
    seconds: float = 0.0
    #: What the service left unseen in the inbox at the end.
    unseen: list[str] = field(default_factory=list)

    # -- the service processes ---------------------------------------------------------------

    def _spawn(self, config: Path) -> subprocess.Popen[bytes]:
        k = len(self.procs)
        log = self.work / f"serve-{k:02d}.log"
        env = {
            **os.environ,
            "PBM_TEST_CLOCK_SHIFT": str(k * SHIFT.total_seconds()),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        for key in ("PBM_CRASH_AT", "PBM_CONFIG"):
            env.pop(key, None)
        with log.open("wb") as f:
            proc = subprocess.Popen(
                [sys.executable, "-c", LAUNCH, "--config", str(config), "serve"],
                stdin=subprocess.DEVNULL,
                stdout=f,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=self.work,
            )
        self.procs.append(proc)
        self.logs.append(log)
        return proc

    def _connected(self) -> bool:
        try:
            return "imap: connected" in self.logs[-1].read_text(errors="replace")
        except OSError:
            return False

    def _processed(self, threshold: int) -> Callable[[], bool]:
        return lambda: self.progress.processed >= threshold

    def diagnose(self) -> str:
        p = self.progress
        behind = {n: r for n, r in p.rounds.items() if r <= ROUNDS}
        return (
            f"\nseed {self.seed}; kills so far {len(self.killed)}; order mails sent "
            f"{len(self.sent)}, processed {p.processed}; outbox pending {p.pending}; "
            f"games not done: {behind}\n--- {self.logs[-1] if self.logs else '-'}\n"
            + (tail(self.logs[-1]) if self.logs else "")
        )

    async def _until(self, check: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + PATIENCE
        while not check():
            for task in self.tasks:
                if task.done():
                    task.result()  # a player or the watcher failed: raise its error
            if self.procs[-1].poll() is not None:
                raise AssertionError(
                    f"pbm serve exited by itself with "
                    f"{self.procs[-1].returncode} while waiting for {what}" + self.diagnose()
                )
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"timed out after {PATIENCE:.0f} s waiting for {what}" + self.diagnose()
                )
            await asyncio.sleep(0.02)

    async def _kill_loop(self, config: Path) -> None:
        rng = random.Random(self.seed)
        # One threshold in each of `kills` equal parts of the run: spread over all of it.
        thresholds = [
            rng.randrange(i * MAILS // self.kills, (i + 1) * MAILS // self.kills)
            for i in range(self.kills)
        ]
        self._spawn(config)
        for n, threshold in enumerate(thresholds, 1):
            proc = self.procs[-1]
            during_start = n % 5 == 0  # every fifth kill: at a moment of the start
            start_delay = rng.uniform(0.2, 2.0)
            jitter = rng.uniform(0.0, 0.4)
            if during_start:
                await asyncio.sleep(start_delay)
            else:
                await self._until(self._connected, f"serve #{n} to connect to the inbox")
                await self._until(
                    self._processed(threshold),
                    f"{threshold} processed order mails before kill #{n}",
                )
                await asyncio.sleep(jitter)
            if proc.poll() is not None:
                raise AssertionError(
                    f"pbm serve #{n} exited by itself with {proc.returncode}" + self.diagnose()
                )
            os.kill(proc.pid, signal.SIGKILL)
            at = time.monotonic()
            await asyncio.to_thread(proc.wait, 10)
            assert proc.returncode == -signal.SIGKILL
            self.progress = await asyncio.to_thread(self._read)
            doing = last_line(self.logs[-1])
            self._spawn(config)
            self.killed.append(Kill(at, during_start, self.progress.processed, doing))

    # -- the players and the watcher ---------------------------------------------------------

    def _read(self) -> Progress:
        assert self.watcher is not None
        return self.watcher.read()

    async def _watch(self) -> None:
        while True:
            self.progress = await asyncio.to_thread(self._read)
            await asyncio.sleep(0.05)

    async def _players(self, seats: dict[str, dict[int, tuple[str, str]]]) -> None:
        """Once a game is at round r, its players' orders for round r go into the inbox."""
        assert self.watcher is not None
        rng = random.Random(self.seed + 1)
        written = dict.fromkeys(NAMES, 0)  # the last round each game's players wrote for
        while any(r < ROUNDS for r in written.values()):
            wave: list[OrderMail] = []
            for name in NAMES:
                if written[name] < ROUNDS and self.progress.rounds.get(name, 0) > written[name]:
                    rnd, state = await asyncio.to_thread(self.watcher.game, name)
                    assert rnd == written[name] + 1, (name, rnd, written[name])
                    wave += await asyncio.to_thread(order_mails, name, state, seats[name])
                    written[name] = rnd
            rng.shuffle(wave)
            for mail in wave:
                await self.imap.append(GM, mail.raw)
                self.sent.append(mail)
            await asyncio.sleep(0.05)

    def _done(self) -> bool:
        p = self.progress
        delivered = {d.message_id for d in self.sink.handler.snapshot()}
        return (
            all(p.rounds.get(n) == ROUNDS + 1 for n in NAMES)
            and p.processed == MAILS
            and p.pending == 0
            and p.outbox_ids <= delivered
        )

    async def run(self, config_path: Path, seats: dict[str, dict[int, tuple[str, str]]]) -> None:
        start = time.monotonic()
        await self.imap.start()
        await self.imap.add_user(GM, "pw")
        self.sink.start()
        config = write_config(config_path, self.db, self.imap.port, self.sink.port)
        self.watcher = Watcher(self.db, self.since_outbox_id)
        self.tasks = [asyncio.create_task(self._watch()), asyncio.create_task(self._players(seats))]
        try:
            await self._kill_loop(config)
            await self._until(self._done, "every mail answered and every round resolved")
            final = self.procs[-1]
            final.send_signal(signal.SIGTERM)
            self.exit_code = await asyncio.to_thread(final.wait, 30)
            self.seconds = time.monotonic() - start
            box = ImapInbox(ImapSection(port=self.imap.port, user=GM, password="pw", idle=False))
            await box.connect()
            self.unseen = await box.unseen()
            await box.close()
        finally:
            for task in self.tasks:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            for proc in self.procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(10)
            if self.watcher is not None:
                self.watcher.close()
            self.sink.stop()
            await self.imap.stop()


def _summary(
    run: KillRun, deliveries: list[Delivery], twice: list[str], setup_s: float, control_s: float
) -> str:
    doing = count(
        ["start" if k.during_start else k.doing.split(":")[0].split(" ")[0] for k in run.killed]
    )
    logs = "".join(log.read_text(errors="replace") for log in run.logs)
    return (
        f"seed {run.seed}: tables {setup_s:.1f} s, run without kills {control_s:.1f} s "
        f"(beside the other), run with {len(run.killed)} kills {run.seconds:.1f} s; "
        f"{len(deliveries)} deliveries, twice: {count(twice)}; mails fetched again "
        f"{logs.count(': duplicate')}, rounds resolved by the clock loop "
        f"{logs.count(': round resolved')}; kills after "
        f"{[k.processed for k in run.killed]} processed mails; last log words {doing}"
    )


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_serve_sigkilled_10_times_while_250_orders_arrive(tmp_path: Path) -> None:
    t0 = time.monotonic()
    template = tmp_path / "template.db"
    build_tables(template)
    since = last_outbox_id(template)
    seats = seats_and_passwords(template)
    t1 = time.monotonic()

    control_db = copy_db(template, tmp_path / "control" / "pbm.db")
    work = tmp_path / "killed"
    db = copy_db(template, work / "pbm.db")
    run = KillRun(work, db, since, SEED)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        control = pool.submit(timed_play_without_kills, control_db)
        asyncio.run(run.run(work / "pbm.toml", seats))
        control_mails, control_s = control.result()
    expected = outcome(control_db, since)
    got = outcome(db, since)
    deliveries = run.sink.handler.snapshot()
    where = f" (seed {SEED}; logs in {work})"

    # Ten kills, each a real SIGKILL of a running service, two of them during a start; the
    # last one stopped cleanly.
    assert len(run.killed) == KILLS
    assert sum(k.during_start for k in run.killed) == KILLS // 5
    assert run.exit_code == 0, f"pbm serve did not stop cleanly on SIGTERM{where}\n" + tail(
        run.logs[-1]
    )
    assert "Traceback" not in "".join(log.read_text(errors="replace") for log in run.logs), where
    assert run.unseen == [], f"mails left unseen in the inbox{where}"

    # Both runs got the same 250 mails, byte for byte: the players wrote their orders from
    # the same state in every round.
    assert len(control_mails) == len(run.sent) == MAILS
    assert sorted((m.message_id, m.raw) for m in run.sent) == sorted(
        (m.message_id, m.raw) for m in control_mails
    ), where
    ids = sorted(m.message_id for m in run.sent)

    # Every order mail is stored once and processed once, without error.
    assert sorted(m.message_id for m in got.inbound) == ids, where
    assert {(m.status, m.error) for m in got.inbound} == {("done", "")}, where

    # The run wrote what the run without kills wrote: an acknowledgement per mail and a report
    # per round, every row sent.
    assert (
        count([o.kind for o in got.outbox])
        == count([o.kind for o in expected.outbox])
        == {"ack": MAILS, "report": GAMES * ROUNDS}
    ), where
    assert {o.status for o in got.outbox} == {"sent"}, where
    acks = {o.in_reply_to: o for o in got.outbox if o.kind == "ack"}
    assert sorted(acks) == ids, where

    # Every delivery is a row of the outbox, delivered to each of its recipients (one message
    # each, showing only that recipient) once, or twice when a kill fell between the send and
    # the mark: with the same Message-ID, first by the process that was killed, then by a
    # later one (and again, should that one be killed on it too). A process sends one row at a
    # time, so each kill leaves at most one row sent (to some of its recipients) and not marked.
    def process(d: Delivery) -> int:
        """Which `pbm serve` delivered `d`: the one running when the sink answered its RCPT."""
        return sum(1 for k in run.killed if k.at < d.sender_alive_at)

    rows = {o.message_id: o for o in got.outbox}
    by_id: dict[str, list[Delivery]] = {}
    for d in deliveries:
        assert d.message_id in rows, f"a mail that is in no outbox row: {d}{where}"
        by_id.setdefault(d.message_id, []).append(d)
    twice: list[str] = []
    unmarked: list[int] = []  # the processes whose last row was sent again
    for message_id, row in rows.items():
        sent = by_id.get(message_id, [])
        assert sent, (row.kind, row.in_reply_to, where)
        recipients = row.recipients.split(",")
        assert all(len(d.recipients) == 1 and d.recipients[0] in recipients for d in sent), (
            sent,
            row,
        )
        per_recipient = {r: [d for d in sent if d.recipients == (r,)] for r in recipients}
        assert all(per_recipient.values()), (row.kind, per_recipient, where)
        again: set[int] = set()
        for got_it in per_recipient.values():
            if len(got_it) >= 2:
                # Once more for each kill that fell between this row's send and its mark
                # (usually one; two when the restarted process was killed on it again).
                senders = [process(d) for d in got_it]
                assert senders == sorted(set(senders)) and senders[-2] < KILLS, (
                    f"{row.kind} {message_id} delivered by serve {senders}{where}"
                )
                again |= set(senders[:-1])
        if again:
            twice.append(row.kind)
            unmarked += sorted(again)
    assert len(unmarked) == len(set(unmarked)), (sorted(unmarked), where)
    print(_summary(run, deliveries, twice, t1 - t0, control_s))

    # Acknowledgements, seen from the players' side: every mail is answered, and its answer
    # (once, or the same twice) is its one ack.
    replies: dict[str, set[str]] = {}
    for d in deliveries:
        if d.in_reply_to:
            replies.setdefault(d.in_reply_to, set()).add(d.message_id)
    assert sorted(replies) == ids, where
    games = {m.message_id: got.game_ids[m.game] for m in run.sent}
    for message_id, answers in replies.items():
        assert answers == {acks[message_id].message_id}, (message_id, answers, where)
        assert acks[message_id].game_id == games[message_id], message_id

    # Every round resolved exactly once: one record and one report per round and game.
    for name in NAMES:
        recs = [r for r in got.records[name] if r[1] == "round"]
        assert [r[2] for r in recs] == list(range(1, ROUNDS + 1)), (name, where)
        steps = [r[0] for r in got.records[name]]
        assert len(set(steps)) == len(steps), (name, where)
        reports = [o for o in got.outbox if o.kind == "report" and o.game_id == got.game_ids[name]]
        assert sorted(o.step or 0 for o in reports) == [r[0] for r in recs], (name, where)
        assert all(len(o.recipients.split(",")) == SEATS for o in reports), name

    # The same final states, records and orders as the run without kills.
    assert got.games == expected.games, where
    assert {(phase, rnd) for phase, rnd, _ in got.games.values()} == {("rounds", ROUNDS + 1)}
    for name in NAMES:
        assert got.records[name] == expected.records[name], (name, where)
        assert got.orders[name] == expected.orders[name], (name, where)
        assert not any(superseded for *_, superseded in got.orders[name]), name
