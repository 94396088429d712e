"""How long a player waits for the answer to an order mail, with `pbm serve`'s loops running
(IMAP IDLE) on loopback servers (pymap and aiosmtpd).

Order mails arrive at a steady rate (5, 20 and 50 a second by default) for a while (60 s by
default); each mail's latency runs from the moment it is stored in the game's mailbox to the
moment the service's answer is stored in the player's mailbox (both seen by the loopback
servers' delivery). Printed per rate: p50, p99 and the largest latency in ms, the mails
answered, and the rate the service kept.

`pbm serve` runs as a process of its own (`pbm --config … serve`, as installed), the mail
servers and the senders of the mails in this one: on the 2 cores of the machine this was
written on, the service then has a core of its own, as it would beside real mail servers.
`--in-process` runs the service's loops in this process instead (one core, one interpreter
lock for the servers, the senders and the service: the first measurements were taken so).

    pbm bench latency [--rates 5,20,50] [--seconds 60] [--in-process] [--json]
    pbm bench latency --burst [--games 40] [--interval 0.05] [--start-seconds 20] [--in-process]
        [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any

import aiosmtplib

from pbm.bench.mail import GM, SINK, _mail, _prepare
from pbm.bench.serve import _serve_cmd, _stop, _tail, _wait_ready
from pbm.config.model import ServiceSection, Settings
from pbm.devservers.loopback import LoopbackMail
from pbm.files import write_private
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.serve import serve
from pbm.store.db import make_engine
from pbm.store.migrate import upgrade

#: Seconds to wait, after the last mail is sent, for the last answers.
DRAIN_SECONDS = 60.0
#: What the subject of a round report says (the bench's games are German).
REPORT_SUBJECT = "Bericht Runde"


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class _Clock:
    """When each order mail reached the game's mailbox and its answer the player's."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}
        self.answered: dict[str, float] = {}
        #: When each player's first round report reached their mailbox (by address).
        self.reported: dict[str, float] = {}
        self._headers = BytesHeaderParser()

    def seen(self, user: str, raw: bytes) -> None:
        now = time.perf_counter()
        headers = self._headers.parsebytes(raw)
        if user == GM:
            self.arrived.setdefault(str(headers.get("Message-ID", "")).strip(), now)
        elif user == SINK:
            replied = str(headers.get("In-Reply-To", "")).strip()
            if replied:
                self.answered.setdefault(replied, now)
            elif REPORT_SUBJECT in str(headers.get("Subject", "")):
                self.reported.setdefault(str(headers.get("To", "")).strip().lower(), now)


def _write_config(work: Path, lb: LoopbackMail) -> Path:
    """The pbm.toml of the `pbm serve` process: the timings of the in-process run."""
    cfg = work / "pbm.toml"
    write_private(
        cfg,
        "# Written by `pbm bench latency`.\n"
        '[database]\nurl = "sqlite:///bench.db"\n\n'
        f'[service]\naddress = "{GM}"\nname = "pbm bench"\nrate_limit_per_hour = 1000000\n'
        "poll_seconds = 30.0\ntick_seconds = 30.0\nsend_seconds = 5.0\n\n"
        f'[imap]\nhost = "127.0.0.1"\nport = {lb.imap.port}\nuser = "{GM}"\n'
        'password = "pw"\nidle = true\n\n'
        f'[smtp]\nhost = "127.0.0.1"\nport = {lb.smtp_port}\nfrom = "{GM}"\n',
    )
    return cfg


async def _one_rate(rate: float, seconds: float, in_process: bool = False) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="pbm-bench-latency-")
    try:
        return await _run_rate(Path(tmp), rate, seconds, in_process)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class Served:
    """The loopback servers (pymap and aiosmtpd, every player's mail into one sink), the clock
    of arrivals and answers, and `pbm serve` on the bench's database: a process of its own
    (as installed), or its loops in this one (`in_process`)."""

    def __init__(self, work: Path, svc: Service, in_process: bool) -> None:
        self.work, self.svc, self.in_process = work, svc, in_process
        self.lb = LoopbackMail(catch_all=SINK)
        self.clock = _Clock()
        self.code = 0
        self._stop = asyncio.Event()
        self._proc: subprocess.Popen[bytes] | None = None
        self._server: asyncio.Task[None] | None = None
        self._log = work / "serve.log"

    async def __aenter__(self) -> Served:
        lb, clock = self.lb, self.clock
        await lb.start()
        await lb.add_user(GM, "pw")
        await lb.add_user(SINK, "pw")
        append = lb.imap.append

        async def timed_append(
            user: str, raw: bytes, folder: str = "INBOX", date: datetime | None = None
        ) -> None:
            await append(user, raw, folder, date)
            clock.seen(user, raw)

        lb.imap.append = timed_append  # type: ignore[method-assign]
        if self.in_process:
            self.svc.config = self.svc.config.updated(
                imap={"port": lb.imap.port, "user": GM, "password": "pw", "idle": True},
                smtp={"port": lb.smtp_port, "from": GM},
                service={"poll_seconds": 30.0, "tick_seconds": 30.0, "send_seconds": 5.0},
            )
            self._server = asyncio.create_task(serve(self.svc, self._stop))
        else:
            self.svc.engine.dispose()
            config = _write_config(self.work, lb)
            with self._log.open("wb") as out:
                self._proc = subprocess.Popen(
                    _serve_cmd(config),
                    cwd=self.work,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            await _wait_ready(self._proc, self._log)
        await asyncio.sleep(1.0)  # connected and idling
        return self

    def send(self, msg: EmailMessage) -> asyncio.Task[Any]:
        """The mail sent by SMTP, as a player's mail program would, on a connection of its own."""
        return asyncio.create_task(
            aiosmtplib.send(msg, hostname="127.0.0.1", port=self.lb.smtp_port)
        )

    async def __aexit__(self, *exc: object) -> None:
        self._stop.set()
        if self._server is not None:
            await asyncio.wait_for(self._server, 30)
        self.code = await _stop(self._proc) if self._proc is not None else 0
        if self.code != 0:
            # Reported with the figures (a run's figures are not thrown away for it).
            print(
                f"pbm bench: `pbm serve` exited with {self.code}:\n{_tail(self._log)}",
                file=sys.stderr,
            )
        await self.lb.stop()


def bench_service(work: Path, now: datetime) -> Service:
    """The bench's service on a new SQLite database in `work`, its clock at `now`."""
    url = f"sqlite:///{work / 'bench.db'}"
    upgrade(url)
    return Service(
        make_engine(url),
        FakeClock(now),
        Settings(service=ServiceSection(address=GM, rate_limit_per_hour=10**6)),
    )


def latencies(clock: _Clock, ids: list[str]) -> list[float]:
    """Each answered mail's latency in ms, from its arrival to its answer's."""
    return [
        1000 * (clock.answered[i] - clock.arrived[i])
        for i in ids
        if i in clock.answered and i in clock.arrived
    ]


def spread(values: list[float]) -> dict[str, float | None]:
    """p50, p99, max and mean of latencies in ms."""
    if not values:
        return {"p50_ms": None, "p99_ms": None, "max_ms": None, "mean_ms": None}
    return {
        "p50_ms": round(_percentile(values, 0.50), 1),
        "p99_ms": round(_percentile(values, 0.99), 1),
        "max_ms": round(max(values), 1),
        "mean_ms": round(statistics.fmean(values), 1),
    }


async def _run_rate(work: Path, rate: float, seconds: float, in_process: bool) -> dict[str, Any]:
    # The games' deadlines are two days from now on the real clock: `pbm serve` runs on it.
    svc = bench_service(work, datetime.now(UTC))
    seats = _prepare(svc)
    total = max(1, int(rate * seconds))
    ids: list[str] = []
    async with Served(work, svc, in_process) as served:
        sends: list[asyncio.Task[Any]] = []
        start = time.perf_counter()
        for k in range(total):
            address, body = seats[k % len(seats)]
            msg = _mail(address, GM, 10_000 + k, body)
            ids.append(str(msg["Message-ID"]))
            due = start + k / rate
            pause = due - time.perf_counter()
            if pause > 0:
                await asyncio.sleep(pause)
            sends.append(served.send(msg))
        await asyncio.gather(*sends, return_exceptions=True)
        sent_for = time.perf_counter() - start
        clock = served.clock
        drain = time.perf_counter() + DRAIN_SECONDS
        while time.perf_counter() < drain and not all(i in clock.answered for i in ids):
            await asyncio.sleep(0.05)
    values = latencies(clock, ids)
    done = max((clock.answered[i] for i in ids if i in clock.answered), default=start)
    return {
        "rate": rate,
        "mails": total,
        "answered": len(values),
        **spread(values),
        "sent_per_s": round(total / sent_for, 1),
        "answered_per_s": round(len(values) / max(done - start, 1e-9), 1),
        "serve_exit": served.code,
    }


async def measure(rates: list[float], seconds: float, in_process: bool = False) -> dict[str, Any]:
    runs = [await _one_rate(rate, seconds, in_process) for rate in rates]
    return {
        "seconds": seconds,
        "runs": runs,
        "server": "pymap",
        "idle": True,
        "serve": "in-process" if in_process else "pbm serve process",
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "load": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rates", default="5,20,50", help="mails a second, comma-separated")
    ap.add_argument("--seconds", type=float, default=60.0, help="how long each rate runs")
    ap.add_argument("--in-process", action="store_true", help="the service's loops in this process")
    ap.add_argument("--burst", action="store_true", help="the deadline rush (pbm/bench/burst.py)")
    ap.add_argument("--games", type=int, default=40, help="--burst: games sharing the deadline")
    ap.add_argument("--interval", type=float, default=0.05, help="--burst: seconds between mails")
    ap.add_argument(
        "--start-seconds",
        type=float,
        default=20.0,
        help="--burst: seconds allowed for pbm serve to start before the burst",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.burst:
        _print_burst(args)
        return
    rates = [float(r) for r in args.rates.split(",") if r.strip()]
    result = asyncio.run(measure(rates, args.seconds, args.in_process))
    if args.json:
        print(json.dumps(result))
        return
    print(f"{'rate/s':>7} {'mails':>6} {'answered':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for run in result["runs"]:
        print(
            f"{run['rate']:>7g} {run['mails']:>6} {run['answered']:>8} "
            f"{run['p50_ms']!s:>8} {run['p99_ms']!s:>8} {run['max_ms']!s:>8}"
        )
    print(
        f"{result['serve']}; load {result['load']}, {result['cores']} cores, "
        f"Python {result['python']}"
    )


def _print_burst(args: argparse.Namespace) -> None:
    from pbm.bench.burst import measure_burst

    run = asyncio.run(measure_burst(args.games, args.interval, args.in_process, args.start_seconds))
    run.update(
        serve="in-process" if args.in_process else "pbm serve process",
        cores=os.cpu_count(),
        python=platform.python_version(),
        load=round(os.getloadavg()[0], 2),
    )
    if args.json:
        print(json.dumps(run))
        return
    print(
        f"{run['mails']} order mails for {run['games']} games, one every "
        f"{run['interval_s']:g} s, then the deadline"
    )
    print(
        f"answered {run['answered']}: p50 {run['p50_ms']} ms, p99 {run['p99_ms']} ms, "
        f"max {run['max_ms']} ms"
    )
    print(
        f"reports {run['reports']} of {run['reports_expected']}: first "
        f"{run['first_report_after_deadline_s']} s, all {run['all_reports_after_deadline_s']} s "
        "after the deadline"
    )
    print(f"{run['serve']}; load {run['load']}, {run['cores']} cores, Python {run['python']}")


if __name__ == "__main__":
    main()
