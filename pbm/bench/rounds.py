"""How long the service takes to resolve due rounds, database and report mails included.

Creates N four-player games in round 1 (the setup played by the autopilot), all with their
deadline passed, then times one `tick` that resolves them all (each in its own transaction:
load, resolve, write record, state and report rows), on SQLite by default or `--database URL`.

`--workers N` has N processes tick at once, as N `pbm serve` workers on one database would
(each game is locked and checked again under its lock, so every round is resolved once);
`--mix` makes a third of the games Seafarers (each scenario in turn) and a third Kronlande.
Beside the time: what one round of one game adds to the database.

    pbm bench rounds --games 1000 [--mix] [--json]
    pbm bench rounds --games 10000 --workers 2 \\
        --database postgresql+psycopg://postgres@127.0.0.1:5432/bench
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timedelta

from sqlalchemy import text

from pbm.config.model import ServiceSection
from pbm.config.model import Settings as PbmSettings
from pbm.rules import GameState, Phase, Settings
from pbm.rules.scenarios import SCENARIOS
from pbm.rules.sim import play_game
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import create_game, save_state
from pbm.service.secrets import hash_password
from pbm.service.tick import tick
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade
from pbm.store.models import Player

#: The kinds of `--mix`, in turn: the base game, a Seafarers scenario (each in turn), Kronlande.
MIX = ("base", "sea", "kron")
#: Distinct setups played by the autopilot per kind; further games reuse them (the setup of
#: 10,000 games would otherwise take longer than the bench).
DISTINCT_SETUPS = 60


def _kind(i: int, mix: bool) -> tuple[str, str | None]:
    """Game `i`'s kind and, for a Seafarers game, its scenario."""
    if not mix:
        return "base", None
    kind = MIX[i % len(MIX)]
    if kind != "sea":
        return kind, None
    names = list(SCENARIOS)
    return kind, names[(i // len(MIX)) % len(names)]


def _rules_settings(kind: str, scenario: str | None) -> Settings:
    if kind == "sea" and scenario is not None:
        return Settings.for_scenario(scenario, 4)
    if kind == "kron":
        return Settings.for_kronlande(4, "large")
    return Settings.for_players(4)


def setup_games(svc: Service, n: int, mix: bool = False) -> dict[str, int]:
    """N four-player games in round 1, their deadline an hour ahead; with `mix` a third each
    base, Seafarers (the scenarios in turn) and Kronlande. Returns the games of each kind."""
    hashed = hash_password("bench-000000")  # one hash for all: setup speed only
    states: dict[tuple[str, str | None, int], GameState] = {}
    kinds: dict[str, int] = {}
    for i in range(n):
        kind, scenario = _kind(i, mix)
        kinds[kind] = kinds.get(kind, 0) + 1
        seed = i % DISTINCT_SETUPS
        key = (kind, scenario, seed)
        if key not in states:
            state = None
            for state, _ in play_game(_rules_settings(kind, scenario), seed, "autopilot"):
                if state.phase == Phase.ROUNDS:
                    break
            assert state is not None
            states[key] = state
        state = states[key]
        with transaction(svc.engine) as session:
            game = create_game(
                svc,
                session,
                f"g{i}",
                players=4,
                seed=seed,
                scenario=scenario,
                kronlande=kind == "kron",
            )
            save_state(game, state)
            game.deadline = svc.clock.now() + timedelta(hours=1)
            for seat, colour in enumerate(state.colours):
                session.add(
                    Player(
                        game_id=game.id or 0,
                        address=f"p{seat}@g{i}.test",
                        name=f"P{seat}",
                        colour=colour,
                        seat=seat,
                        password_hash=hashed,
                        joined_at=svc.clock.now(),
                    )
                )
    return kinds


def database_bytes(url: str) -> int:
    """The database's size on disk: SQLite's file with its WAL, PostgreSQL's database."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1]
        return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return int(
                conn.execute(text("SELECT pg_database_size(current_database())")).scalar_one()
            )
    finally:
        engine.dispose()


def _settings() -> PbmSettings:
    return PbmSettings(service=ServiceSection(address="gm@bench.test"))


def _worker_tick(url: str, at: datetime) -> tuple[int, float]:
    """One worker's tick (in a process of its own): the rounds it resolved, its CPU seconds."""
    svc = Service(make_engine(url), FakeClock(at), _settings())
    c0 = time.process_time()
    resolved = len(tick(svc).resolved)
    svc.engine.dispose()
    return resolved, time.process_time() - c0


def _ticks(svc: Service, url: str, workers: int) -> tuple[list[int], float]:
    """Every due round resolved by `workers` processes ticking at once (1: in this process).
    Returns the rounds each worker resolved (each counted once) and the workers' CPU
    seconds."""
    if workers == 1:
        c0 = time.process_time()
        resolved = len(tick(svc).resolved)
        return [resolved], time.process_time() - c0
    svc.engine.dispose()
    at = svc.clock.now()
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=spawn) as pool:
        done = list(pool.map(_worker_tick, [url] * workers, [at] * workers))
    return [r for r, _ in done], sum(c for _, c in done)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--database", default=None, help="SQLAlchemy URL (default: temp SQLite)")
    ap.add_argument(
        "--workers", type=int, default=1, help="processes ticking at once (as `pbm serve`s)"
    )
    ap.add_argument(
        "--mix", action="store_true", help="a third each base, Seafarers and Kronlande games"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="pbm-bench-")
    url = args.database or f"sqlite:///{os.path.join(tmp, 'bench.db')}"
    upgrade(url)
    clock = FakeClock()
    svc = Service(make_engine(url), clock, _settings())
    t0 = time.perf_counter()
    kinds = setup_games(svc, args.games, args.mix)
    prepared = time.perf_counter() - t0
    size_before = database_bytes(url)
    clock.advance(hours=2)
    load_start = os.getloadavg()[0]
    t1 = time.perf_counter()
    per_worker, cpu = _ticks(svc, url, args.workers)
    resolved = sum(per_worker)
    seconds = time.perf_counter() - t1
    assert resolved == args.games, (resolved, args.games)
    size_after = database_bytes(url)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {
        "games": args.games,
        "kinds": kinds,
        "workers": args.workers,
        # The rounds each worker resolved: split between them, or all by one while the
        # others waited for its locks.
        "per_worker": per_worker,
        "seconds": round(seconds, 3),
        "per_game_ms": round(1000 * seconds / args.games, 2),
        "rounds_per_s": round(args.games / seconds, 1),
        # The CPU seconds of the process(es) that ticked: on a machine shared with other work
        # the wall-clock seconds grow with the load, these far less (SQLite works in-process;
        # PostgreSQL's own work is not in them).
        "cpu_seconds": round(cpu, 3),
        # What one round of one game adds to the database (its record, state and reports).
        "db_kb_per_game_round": round((size_after - size_before) / args.games / 1024, 1),
        "db_kb_per_game": round(size_after / args.games / 1024, 1),
        "load_start": round(load_start, 2),
        "load": round(os.getloadavg()[0], 2),
        "rss_mb": round(rss_mb, 1),
        "database": url.split(":")[0],
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "prepare_seconds": round(prepared, 1),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:21} {v}")


if __name__ == "__main__":
    main()
