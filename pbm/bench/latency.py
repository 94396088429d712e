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
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any

import aiosmtplib

from pbm.bench.mail import GM, SINK, _mail, _prepare
from pbm.bench.serve import _serve_cmd, _stop, _tail, _wait_ready
from pbm.config.model import ServiceSection, Settings
from pbm.devservers.loopback import LoopbackMail
from pbm.files import write_private
from pbm.mail.imap import ImapConfig
from pbm.mail.smtp import SmtpConfig
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.serve import ServeConfig, serve
from pbm.store.db import make_engine
from pbm.store.migrate import upgrade

#: Seconds to wait, after the last mail is sent, for the last answers.
DRAIN_SECONDS = 60.0


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class _Clock:
    """When each order mail reached the game's mailbox and its answer the player's."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}
        self.answered: dict[str, float] = {}
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


async def _run_rate(work: Path, rate: float, seconds: float, in_process: bool) -> dict[str, Any]:
    url = f"sqlite:///{work / 'bench.db'}"
    upgrade(url)
    # The games' deadlines are two days from now on the real clock: `pbm serve` runs on it.
    svc = Service(
        make_engine(url),
        FakeClock(datetime.now(UTC)),
        Settings(service=ServiceSection(address=GM, rate_limit_per_hour=10**6)),
    )
    seats = _prepare(svc)
    lb = LoopbackMail(catch_all=SINK)
    await lb.start()
    await lb.add_user(GM, "pw")
    await lb.add_user(SINK, "pw")
    clock = _Clock()
    append = lb.imap.append

    async def timed_append(
        user: str, raw: bytes, folder: str = "INBOX", date: datetime | None = None
    ) -> None:
        await append(user, raw, folder, date)
        clock.seen(user, raw)

    lb.imap.append = timed_append  # type: ignore[method-assign]
    cfg = ServeConfig(
        imap=ImapConfig(port=lb.imap.port, user=GM, password="pw", idle=True),
        smtp=SmtpConfig(port=lb.smtp_port, from_address=GM),
        poll_seconds=30.0,
        tick_seconds=30.0,
        send_seconds=5.0,
    )
    stop = asyncio.Event()
    proc: subprocess.Popen[bytes] | None = None
    server: asyncio.Task[None] | None = None
    log = work / "serve.log"
    if in_process:
        server = asyncio.create_task(serve(svc, cfg, stop))
    else:
        svc.engine.dispose()
        config = _write_config(work, lb)
        with log.open("wb") as out:
            proc = subprocess.Popen(
                _serve_cmd(config),
                cwd=work,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        await _wait_ready(proc, log)
    await asyncio.sleep(1.0)  # connected and idling
    total = max(1, int(rate * seconds))
    ids: list[str] = []
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
        sends.append(
            asyncio.create_task(aiosmtplib.send(msg, hostname="127.0.0.1", port=lb.smtp_port))
        )
    await asyncio.gather(*sends, return_exceptions=True)
    sent_for = time.perf_counter() - start
    drain = time.perf_counter() + DRAIN_SECONDS
    while time.perf_counter() < drain and not all(i in clock.answered for i in ids):
        await asyncio.sleep(0.05)
    stop.set()
    if server is not None:
        await asyncio.wait_for(server, 30)
    code = await _stop(proc) if proc is not None else 0
    if code != 0:
        # Reported with the figures (a run's figures are not thrown away for it).
        print(f"pbm bench latency: `pbm serve` exited with {code}:\n{_tail(log)}", file=sys.stderr)
    await lb.stop()
    latencies = [
        1000 * (clock.answered[i] - clock.arrived[i])
        for i in ids
        if i in clock.answered and i in clock.arrived
    ]
    done = max((clock.answered[i] for i in ids if i in clock.answered), default=start)
    return {
        "rate": rate,
        "mails": total,
        "answered": len(latencies),
        "p50_ms": round(_percentile(latencies, 0.50), 1) if latencies else None,
        "p99_ms": round(_percentile(latencies, 0.99), 1) if latencies else None,
        "max_ms": round(max(latencies), 1) if latencies else None,
        "mean_ms": round(statistics.fmean(latencies), 1) if latencies else None,
        "sent_per_s": round(total / sent_for, 1),
        "answered_per_s": round(len(latencies) / max(done - start, 1e-9), 1),
        "serve_exit": code,
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
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
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


if __name__ == "__main__":
    main()
