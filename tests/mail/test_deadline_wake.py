"""A deadline acts when it passes, not a tick later (`pbm serve`'s clock loop).

The clock used to look at the deadlines every `tick_seconds` (30 s by default), and a round
due while the mailbox had not been read past it waited one more tick after the inbox's pass:
up to a minute between the deadline and the reports. Now the clock wakes at the next deadline,
the inbox tells it when the pass the deadline waited for is through, and the resolution wakes
the sender. Here every period is 5 minutes: the round and its reports come within seconds of
the deadline or not at all (the test waits a minute for each, so that a loaded machine does
not fail it).
"""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from databases import game_row, records, seated
from harness import Games, eventually
from sqlmodel import Session

from pbm.service.clock import SystemClock
from pbm.service.context import Service
from pbm.service.games import get_game
from pbm.service.serve import serve

from .servers import Mailroom


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_the_round_closes_and_its_reports_leave_at_the_deadline(
    svc: Service, games: Games, mailroom: Mailroom
) -> None:
    games.start("alpha")
    players = seated(svc, "alpha")
    before = len(records(svc, "alpha"))
    # From here the service runs on the real clock, the deadline two seconds ahead.
    svc.clock = SystemClock()
    deadline = svc.clock.now() + timedelta(seconds=2)
    with Session(svc.engine) as s:
        game = get_game(s, "alpha")
        game.deadline = deadline
        s.add(game)
        s.commit()

    async def run() -> float:
        await mailroom.start([p.address for p in players.values()])
        stop = asyncio.Event()
        periods = {"poll_seconds": 300.0, "tick_seconds": 300.0, "send_seconds": 300.0}
        task = asyncio.create_task(
            serve(mailroom.configure(svc, **periods), stop, mailroom.transports)
        )
        try:
            await eventually(lambda: len(records(svc, "alpha")) == before + 1, 60, "the round")
            resolved = time.monotonic()
            to = {p.address for p in players.values()}
            await eventually(
                lambda: to <= {r for rs, raw in mailroom.sent if b"Runde 1" in raw for r in rs},
                60,
                "the reports",
            )
            return time.monotonic() - resolved
        finally:
            stop.set()
            await asyncio.wait_for(task, 30)
            await mailroom.stop()

    sent_after = asyncio.run(run())
    assert game_row(svc, "alpha").round == 2
    print(f"\nreports out {sent_after:.2f} s after the resolution")
