"""`pbm serve`'s memory (and time) with N games whose round is due, as a process of its own.

N four-player games in round 1 (the setup played by the autopilot) go into a temporary SQLite
database, their deadlines passed but the games paused. Loopback mail servers (pymap and
aiosmtpd, in this process) accept every report. `pbm serve --config …` then runs as a
subprocess with the default timing (a tick every 30 s, an outbox pass of up to 200 mails every
5 s), and its VmRSS and VmHWM are read from /proc/<pid>/status every 0.2 s. Once it is up
(connected to the inbox, a first tick and outbox pass done) its RSS is the idle figure; then
the games are unpaused in the database, the next tick finds them all due, and the run ends
when every game's round 1 is resolved and no outbox row is pending. The serve process is
stopped with SIGTERM and must exit cleanly.

- rss_mb:      the serve process's peak RSS (VmHWM) over startup and the whole run
- rss_idle_mb: its RSS once started, before any work
- seconds:     from the first round resolved (the tick that found them due) to every round
  resolved and every report sent; resolved_seconds: to every round resolved;
  serve_cpu_seconds: the process's CPU time over the whole run

Every mail is stored by IMAP APPEND into pymap, in this process; `--discard` has them accepted
by an SMTP server that drops them instead (the bench process stays small; the serve figures
barely change).

`--mix` makes a third of the games Seafarers (the scenarios in turn) and a third Kronlande, as
`pbm bench rounds --mix` does: their boards and pictures are larger than the base game's.

    pbm bench serve --games 1000 [--mix] [--discard] [--tick-seconds 30] [--send-seconds 5]
        [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from aiosmtpd.controller import Controller

from pbm.config.model import ServiceSection, Settings
from pbm.devservers.loopback import LoopbackMail, free_port
from pbm.files import write_private
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.store.db import make_engine
from pbm.store.migrate import upgrade

from .rounds import setup_games

GM = "gm@bench.test"
SINK = "sink@bench.test"
#: Seconds between two samples of the serve process's memory.
SAMPLE_SECONDS = 0.2
#: Seconds the serve process may take to start, and to finish the work.
START_TIMEOUT = 120.0
WORK_TIMEOUT = 3600.0


def read_status(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM (MB) of a live process, from /proc/<pid>/status; {} once it is gone."""
    out: dict[str, float] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(value.split()[0]) / 1024  # kB
    except (OSError, ValueError):
        return {}
    return out


@dataclass
class Sampler:
    """The serve process's memory, sampled until stopped."""

    pid: int
    samples: list[tuple[float, float]] = field(default_factory=list)  # (t, VmRSS)
    hwm: float = 0.0

    def sample(self) -> float:
        status = read_status(self.pid)
        rss = status.get("VmRSS", 0.0)
        if status:
            self.samples.append((time.perf_counter(), rss))
            self.hwm = max(self.hwm, status.get("VmHWM", 0.0), rss)
        return rss

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.sample()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), SAMPLE_SECONDS)


class _Discard:
    """aiosmtpd handler: accepts every message and keeps only a count."""

    def __init__(self) -> None:
        self.count = 0

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        self.count += 1
        return "250 Message accepted and dropped"


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a live process, from /proc/<pid>/stat."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # After the command: state is field 3, utime and stime fields 14 and 15 (man 5 proc).
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _write_config(
    work: Path, lb: LoopbackMail, smtp_port: int, tick_seconds: float, send_seconds: float
) -> Path:
    """The pbm.toml `pbm serve` runs with (the format of `pbm demo`'s)."""
    cfg = work / "pbm.toml"
    write_private(
        cfg,
        "# Written by `pbm bench serve`.\n"
        '[database]\nurl = "sqlite:///pbm.db"\n\n'
        f'[service]\naddress = "{GM}"\nname = "pbm bench"\n'
        f"tick_seconds = {tick_seconds!r}\nsend_seconds = {send_seconds!r}\n\n"
        f'[imap]\nhost = "127.0.0.1"\nport = {lb.imap.port}\nuser = "{GM}"\n'
        'password = "pw"\n\n'
        f'[smtp]\nhost = "127.0.0.1"\nport = {smtp_port}\nfrom = "{GM}"\n',
    )
    return cfg


def _progress(db: Path) -> tuple[int, int, int, int]:
    """(games past round 1, outbox pending, sent, failed) as the serve process left them.
    A read-only connection: a reader in WAL mode takes no lock (pbm's engine would take the
    write lock for every transaction, and compete with the process measured)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        done = conn.execute("SELECT count(*) FROM game WHERE round >= 2").fetchone()[0]
        rows: dict[str, int] = {
            str(status): int(count)
            for status, count in conn.execute("SELECT status, count(*) FROM outbox GROUP BY status")
        }
    finally:
        conn.close()
    return int(done), rows.get("pending", 0), rows.get("sent", 0), rows.get("failed", 0)


def _set_paused(db: Path, paused: bool) -> None:
    conn = sqlite3.connect(db, timeout=30)
    try:
        with conn:
            conn.execute("UPDATE game SET paused = ?", (paused,))
    finally:
        conn.close()


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _serve_cmd(config: Path) -> list[str]:
    """`pbm serve` in this interpreter (the venv's, when run from it)."""
    return [sys.executable, "-m", "pbm", "--config", str(config), "serve"]


async def _wait_ready(proc: subprocess.Popen[bytes], log: Path) -> None:
    """Until the serve process is connected to the inbox (its log says so)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(
                f"pbm bench serve: `pbm serve` exited with {proc.returncode}:\n" + _tail(log)
            )
        if "imap: connected" in log.read_text(errors="replace"):
            return
        await asyncio.sleep(0.05)
    raise SystemExit(
        f"pbm bench serve: `pbm serve` not up after {START_TIMEOUT:g} s:\n" + _tail(log)
    )


async def _stop(proc: subprocess.Popen[bytes]) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return await asyncio.to_thread(proc.wait, 60)
    except subprocess.TimeoutExpired:
        proc.kill()
        return await asyncio.to_thread(proc.wait, 10)


async def measure(
    n: int,
    work: Path,
    discard: bool = False,
    tick_seconds: float = 30.0,
    send_seconds: float = 5.0,
    mix: bool = False,
) -> dict[str, object]:
    load_start = os.getloadavg()[0]
    db = work / "pbm.db"
    url = f"sqlite:///{db}"
    upgrade(url)
    # Created two hours ago: every deadline (an hour after creation) has passed.
    clock = FakeClock(datetime.now(UTC) - timedelta(hours=2))
    svc = Service(make_engine(url), clock, Settings(service=ServiceSection(address=GM)))
    prep = time.perf_counter()
    kinds = setup_games(svc, n, mix)
    svc.engine.dispose()
    _set_paused(db, True)
    prepare_s = time.perf_counter() - prep

    lb = LoopbackMail(catch_all=SINK)
    await lb.start()
    await lb.add_user(GM, "pw")
    await lb.add_user(SINK, "pw")
    sink: Controller | None = None
    dropped = _Discard()
    if discard:
        sink = Controller(dropped, hostname="127.0.0.1", port=free_port())
        sink.start()
    config = _write_config(
        work, lb, sink.port if sink is not None else lb.smtp_port, tick_seconds, send_seconds
    )
    log = work / "serve.log"
    stop_sampling = asyncio.Event()
    try:
        with log.open("wb") as out:
            t_spawn = time.perf_counter()
            proc = subprocess.Popen(
                _serve_cmd(config),
                cwd=work,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        sampler = Sampler(proc.pid)
        sampling = asyncio.create_task(sampler.run(stop_sampling))
        try:
            await _wait_ready(proc, log)
            # A first (empty) tick and outbox pass, then the process is idle.
            await asyncio.sleep(1.5)
            startup_s = time.perf_counter() - t_spawn
            idle = sampler.sample()
            hwm_idle = sampler.hwm
            released = time.perf_counter()
            await asyncio.to_thread(_set_paused, db, False)
            first: float | None = None  # the first round seen resolved: the tick began
            resolved_s: float | None = None
            while True:
                done, pending, sent, failed = await asyncio.to_thread(_progress, db)
                now = time.perf_counter()
                if done and first is None:
                    first = now
                if done >= n and resolved_s is None and first is not None:
                    resolved_s = now - first
                if done >= n and pending == 0:
                    break
                if proc.poll() is not None:
                    raise SystemExit(
                        f"pbm bench serve: `pbm serve` exited with "
                        f"{proc.returncode}:\n" + _tail(log)
                    )
                if now - released > WORK_TIMEOUT:
                    raise SystemExit(
                        f"pbm bench serve: {done} of {n} games resolved, "
                        f"{pending} mails pending after {WORK_TIMEOUT:g} s"
                    )
                await asyncio.sleep(SAMPLE_SECONDS)
            assert first is not None
            seconds = time.perf_counter() - first
            waited = first - released
            end = sampler.sample()
            cpu = cpu_seconds(proc.pid)
        finally:
            stop_sampling.set()
            await sampling
            code = await _stop(proc)
    finally:
        received = len(lb.handler.received) if lb.handler else 0
        received += dropped.count
        if sink is not None:
            await asyncio.to_thread(sink.stop)
        await lb.stop()
    if code != 0:
        raise SystemExit(
            f"pbm bench serve: `pbm serve` exited with {code} on SIGTERM:\n" + _tail(log)
        )
    return {
        "games": n,
        "kinds": kinds,
        "seconds": round(seconds, 2),
        "rss_mb": round(sampler.hwm, 1),
        "rss_idle_mb": round(idle, 1),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "rss_end_mb": round(end, 1),
        "rss_idle_hwm_mb": round(hwm_idle, 1),
        "resolved_seconds": round(resolved_s or seconds, 2),
        "wait_seconds": round(waited, 2),
        "tick_seconds": tick_seconds,
        "send_seconds": send_seconds,
        "serve_cpu_seconds": round(cpu, 1),
        "startup_seconds": round(startup_s, 2),
        "reports_to": "discarded" if discard else "pymap",
        "mails_sent": sent,
        "mails_received": received,
        "outbox_failed": failed,
        "samples": len(sampler.samples),
        "database": "sqlite",
        "prepare_seconds": round(prepare_s, 1),
        "load_start": round(load_start, 2),
        "load": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--discard",
        action="store_true",
        help="drop the reports at SMTP instead of storing them in pymap",
    )
    ap.add_argument(
        "--tick-seconds",
        type=float,
        default=30.0,
        help="pbm serve's tick_seconds (default 30, as in config.example.toml)",
    )
    ap.add_argument(
        "--send-seconds", type=float, default=5.0, help="pbm serve's send_seconds (default 5)"
    )
    ap.add_argument(
        "--mix", action="store_true", help="a third each base, Seafarers and Kronlande games"
    )
    ap.add_argument(
        "--keep", action="store_true", help="keep the work folder (database, pbm.toml, serve.log)"
    )
    args = ap.parse_args(argv)
    if not Path("/proc/self/status").exists():
        raise SystemExit("pbm bench serve: needs /proc (Linux) to read the process's memory")
    work = Path(tempfile.mkdtemp(prefix="pbm-bench-serve-"))
    try:
        result = asyncio.run(
            measure(args.games, work, args.discard, args.tick_seconds, args.send_seconds, args.mix)
        )
    finally:
        if args.keep:
            print(f"work folder: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps(result))
        return
    rows = [
        ("games", f"{result['games']}"),
        ("seconds (resolve + send all)", f"{result['seconds']}"),
        ("seconds to all resolved", f"{result['resolved_seconds']}"),
        ("serve CPU seconds", f"{result['serve_cpu_seconds']}"),
        ("peak RSS MB (VmHWM)", f"{result['rss_mb']}"),
        ("idle RSS MB (after startup)", f"{result['rss_idle_mb']}"),
        ("RSS MB at the end", f"{result['rss_end_mb']}"),
        ("startup seconds", f"{result['startup_seconds']}"),
        ("wait for the next tick (s)", f"{result['wait_seconds']}"),
        ("mails sent (failed)", f"{result['mails_sent']} ({result['outbox_failed']})"),
    ]
    print(
        f"pbm serve, {result['games']} games due ({result['kinds']}), SQLite, "
        f"reports {result['reports_to']}, "
        f"tick {result['tick_seconds']:g} s, send {result['send_seconds']:g} s; "
        f"machine: {result['cores']} cores, "
        f"Python {result['python']}, load {result['load_start']} → {result['load']}"
    )
    for label, value in rows:
        print(f"  {label:<30}{value:>12}")


if __name__ == "__main__":
    main()
