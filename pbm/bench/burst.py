"""The deadline rush: 40 games whose orders all arrive in the last seconds before one shared
deadline (a mail every 50 ms, then the deadline), against `pbm serve` as it runs by default
(IMAP IDLE, the clock ticking every 30 s, the sender every 5 s).

Measured: each order mail's latency from the game's mailbox to the answer in the player's
(p50, p99, largest) during the burst; then, from the deadline, how long until every round was
resolved and every player's report was in their mailbox. The games resolve only at their
deadline (not when the last orders come in), so all of them fall due at the same moment.

    pbm bench latency --burst [--games 40] [--interval 0.05] [--in-process] [--json]
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbm.bench.latency import DRAIN_SECONDS, Served, bench_service, latencies, spread
from pbm.bench.mail import GM, _mail, _prepare

#: Seconds allowed for `pbm serve` to start before the burst must begin (`--start-seconds`);
#: the deadline is set before it starts (a deadline moved under a running service is seen at
#: its next tick), so the bench waits them out whatever the start took.
START_SECONDS = 20.0
#: Seconds between the last order mail and the deadline.
GAP_SECONDS = 1.0
#: Seats a game.
SEATS = 4


async def _burst(
    work: Path, games: int, interval: float, in_process: bool, start_seconds: float
) -> dict[str, Any]:
    mails = games * SEATS
    now = datetime.now(UTC)
    deadline = now + timedelta(seconds=start_seconds + mails * interval + GAP_SECONDS)
    svc = bench_service(work, now)
    seats = _prepare(svc, games=games, deadline=deadline)
    ids: list[str] = []
    async with Served(work, svc, in_process) as served:
        # The deadline on this process's performance counter, to time the reports by.
        at_deadline = time.perf_counter() + (deadline - datetime.now(UTC)).total_seconds()
        first = at_deadline - GAP_SECONDS - mails * interval
        if time.perf_counter() > first:
            raise SystemExit("pbm bench latency --burst: `pbm serve` took too long to start")
        await asyncio.sleep(first - time.perf_counter())
        sends: list[asyncio.Task[Any]] = []
        # Round robin over the games, as players of many tables write at once.
        order = [seats[g * SEATS + s] for s in range(SEATS) for g in range(games)]
        for k, (address, body) in enumerate(order):
            pause = first + k * interval - time.perf_counter()
            if pause > 0:
                await asyncio.sleep(pause)
            msg = _mail(address, GM, 20_000 + k, body)
            ids.append(str(msg["Message-ID"]))
            sends.append(served.send(msg))
        await asyncio.gather(*sends, return_exceptions=True)
        clock = served.clock
        players = {address.lower() for address, _ in seats}
        wait_until = max(at_deadline, time.perf_counter()) + DRAIN_SECONDS
        while time.perf_counter() < wait_until and not players <= set(clock.reported):
            await asyncio.sleep(0.05)
    values = latencies(clock, ids)
    reported = [clock.reported[a] for a in players if a in clock.reported]
    return {
        "games": games,
        "interval_s": interval,
        "mails": mails,
        "answered": len(values),
        **spread(values),
        "reports": len(reported),
        "reports_expected": len(players),
        "first_report_after_deadline_s": (
            round(min(reported) - at_deadline, 2) if reported else None
        ),
        "all_reports_after_deadline_s": (
            round(max(reported) - at_deadline, 2) if len(reported) == len(players) else None
        ),
        "serve_exit": served.code,
    }


async def measure_burst(
    games: int, interval: float, in_process: bool, start_seconds: float = START_SECONDS
) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="pbm-bench-burst-")
    try:
        return await _burst(Path(tmp), games, interval, in_process, start_seconds)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
