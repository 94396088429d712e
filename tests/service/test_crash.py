"""Crash safety with a real SIGKILL: a service process dies at each crash point of
`pbm.service.faults`; after a restart (recover + tick) nothing is lost and nothing is done twice.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from databases import (
    count_by,
    game_row,
    game_state,
    inbound,
    order_sets,
    outbox,
    passwords,
    records,
    replies_to,
    seated,
)
from harness import Games, Mailer, orders_text, pass_deadline, send_orders

from pbm.config.model import ServiceSection, Settings
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.ingest import pending_mail_ids, recover
from pbm.service.tick import tick
from pbm.store.db import make_engine

DRIVER = Path(__file__).with_name("driver.py")
ROOT = Path(__file__).resolve().parents[2]


def run_driver(
    url: str, clock: FakeClock, *args: str, crash_at: str = "", timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PBM_CRASH_AT", None)
    if crash_at:
        env["PBM_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, str(DRIVER), url, clock.now().isoformat(), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


# (crash point, what the process was doing when it was killed)
CASES = [
    ("stored", "ingest"),  # the mail is committed, not yet processed
    ("processing", "ingest"),  # inside the processing transaction, before its commit
    ("processed", "ingest"),  # processed and acknowledged; the round not yet resolved
    ("resolving", "ingest"),  # the last orders came in; killed inside the resolution
    ("resolving", "tick"),  # the deadline passed; killed inside the resolution
    ("resolved", "tick"),  # the resolution is committed; killed right after
    ("", "ingest"),  # control: the same run without a crash
]


@pytest.mark.slow  # a process started and killed (SIGKILL) per case
@pytest.mark.parametrize(
    ("point", "action"), CASES, ids=[f"{p or 'no-crash'}-{a}" for p, a in CASES]
)
def test_crash_and_restart(
    db_url: str,
    svc: Service,
    clock: FakeClock,
    mailer: Mailer,
    tmp_path: Path,
    point: str,
    action: str,
    games: Games,
) -> None:
    games.start("alpha")
    send_orders(mailer, "alpha", [0, 1, 2])
    pw = passwords(svc)
    last = seated(svc, "alpha")[3]
    message_id = ""
    if action == "ingest":
        _, st = game_state(svc, "alpha")
        eml = tmp_path / "orders.eml"
        eml.write_bytes(
            mailer.raw(last.address, "Züge Runde 1", orders_text(st, 3, pw[last.address]))
        )
        message_id = mailer.last_id
        args = ["ingest", str(eml)]
    else:
        pass_deadline(svc, clock, "alpha")
        args = ["tick"]

    proc = run_driver(db_url, clock, *args, crash_at=point)
    if point:
        assert proc.returncode == -signal.SIGKILL, (proc.returncode, proc.stdout, proc.stderr)
    else:
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["resolved"] in (True, ["alpha"])

    # Restart: a new process (here: a new engine) recovers stored mails, then ticks.
    engine = make_engine(db_url)
    try:
        again = Service(engine, clock, Settings(service=ServiceSection(address="gm@pbm.test")))
        recovered = recover(again)
        if point in ("stored", "processing"):
            assert [r.status for r in recovered] == ["done"]
        else:
            assert recovered == []
        tick(again)
        tick(again)  # idempotent: nothing is due twice
        assert pending_mail_ids(again) == []
    finally:
        engine.dispose()

    # The round is resolved exactly once, with one report.
    game = game_row(svc, "alpha")
    assert (game.phase, game.round) == ("rounds", 2)
    recs = records(svc, "alpha")
    round_recs = [r for r in recs if r.kind == "round"]
    assert [r.round for r in round_recs] == [1]
    assert len({r.step for r in recs}) == len(recs) == 2 * 4 + 1
    reports = outbox(svc, "report")
    assert [o.step for o in reports] == [round_recs[0].step]
    nmr = outbox(svc, "nmr")
    if action == "tick":
        assert [o.recipients for o in nmr] == [last.address]
    else:
        assert nmr == []
        # The mail is stored once, processed once, acknowledged once, and its orders counted.
        [row] = inbound(svc, message_id)
        assert row.status == "done"
        assert len(replies_to(svc, message_id)) == 1
        assert len(replies_to(svc, message_id, "ack")) == 1
        live = [o for o in order_sets(svc, "alpha") if o.mail_id == row.id]
        assert len(live) == 1 and not live[0].superseded
    # Nothing else was sent twice either.
    kinds = count_by(outbox(svc), "kind")
    assert kinds["ack"] == 3 + (1 if action == "ingest" else 0)
    # Each of the 8 setup placements, made at its deadline, went to the others and, in a mail
    # of its own, to its player.
    assert kinds["placed"] == 2 * 8 and kinds["welcome"] == 4
