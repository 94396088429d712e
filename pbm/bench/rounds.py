"""How long the service takes to resolve due rounds, database and report mails included.

Creates N four-player games in round 1 (the setup played by the autopilot), all with their
deadline passed, then times one `tick` that resolves them all (each in its own transaction:
load, resolve, write record, state and report rows), on SQLite by default or `--database URL`.

    python benchmarks/rounds_bench.py --games 1000
    python benchmarks/rounds_bench.py --games 200 --database postgresql+psycopg://postgres@127.0.0.1:5432/bench
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from datetime import timedelta

from pbm.config.model import ServiceSection
from pbm.config.model import Settings as PbmSettings
from pbm.rules import Phase, Settings
from pbm.rules.sim import play_game
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import create_game, save_state
from pbm.service.secrets import hash_password
from pbm.service.tick import tick
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade
from pbm.store.models import Player


def setup_games(svc: Service, n: int) -> None:
    hashed = hash_password("bench-000000")  # one hash for all: setup speed only
    for i in range(n):
        state = None
        for state, _ in play_game(Settings.for_players(4), i, "autopilot"):
            if state.phase == Phase.ROUNDS:
                break
        assert state is not None
        with transaction(svc.engine) as session:
            game = create_game(svc, session, f"g{i}", players=4, seed=i)
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


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--database", default=None, help="SQLAlchemy URL (default: temp SQLite)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="pbm-bench-")
    url = args.database or f"sqlite:///{os.path.join(tmp, 'bench.db')}"
    upgrade(url)
    clock = FakeClock()
    svc = Service(
        make_engine(url), clock, PbmSettings(service=ServiceSection(address="gm@bench.test"))
    )
    t0 = time.perf_counter()
    setup_games(svc, args.games)
    prepared = time.perf_counter() - t0
    clock.advance(hours=2)
    load_start = os.getloadavg()[0]
    t1, c1 = time.perf_counter(), time.process_time()
    result = tick(svc)
    seconds = time.perf_counter() - t1
    cpu = time.process_time() - c1
    assert len(result.resolved) == args.games, result
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {
        "games": args.games,
        "seconds": round(seconds, 3),
        "per_game_ms": round(1000 * seconds / args.games, 2),
        # This process's CPU seconds over the tick: on a machine shared with other work the
        # wall-clock seconds grow with the load, these far less (SQLite works in-process;
        # PostgreSQL's own work is not in them).
        "cpu_seconds": round(cpu, 3),
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
            print(f"{k:16} {v}")


if __name__ == "__main__":
    main()
