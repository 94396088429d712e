#!/usr/bin/env python3
"""Compare the speed of our simulator with catanatron 3.2.1, in dice rolls per second.

Both sides play complete 4-player games with random players that choose uniformly among the
affordable legal actions (catanatron's `RandomPlayer`; pbm's `pbm.bench.affordable`, which
chooses as it does, see POLICY there). Only finished games count, on each side: their rolls
over their own seconds (a game that hits the turn limit is left out, its time too). The
seconds are the process's CPU seconds (`time.process_time`) on both sides: on a machine shared
with other work they move far less than wall-clock seconds.
catanatron is never a dependency of pbm: it is installed on first use into its own venv (see
DEFAULT_VENV) and measured there in a child process. pbm's side is a child process too, one
per board (the base island, then each Seafarers scenario and Kronlande, which catanatron does
not have),
which imports the rules engine alone (no typer, rich, database or mail module). Stdlib only.

Each side reports its own peak RSS: `getrusage(RUSAGE_SELF).ru_maxrss` taken inside
its process at the end. Linux starts an exec'd process's ru_maxrss at the peak RSS of
the process that forked it, so a child of this process (which may be the whole `pbm`
command line, ~80 MB) would report at least that; each side is therefore started
through LAUNCHER, a bare interpreter that forks it, and inherits that launcher's
few MB instead.

    pbm bench engine [--games 200] [--pbm-games N] [--sea-games 20] [--scenario NAME ...]
                     [--kron-games 20] [--kron-size large|huge] [--json] [--skip-catanatron]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: catanatron lives in a venv of its own, never in ours: created on first use, kept here.
DEFAULT_VENV = Path(
    os.environ.get("PBM_BENCH_VENV", Path.home() / ".cache" / "pbm" / "catanatron-venv")
)
#: The directory holding the `pbm` package this module belongs to: pbm's side imports that
#: one, installed or not.
SRC = Path(__file__).resolve().parents[2]
CATANATRON_REQ = "catanatron==3.2.1"

#: How each side measures its peak RSS (the "rss_measure" key of --json).
RSS_MEASURE = (
    "getrusage(RUSAGE_SELF).ru_maxrss inside each side's own process, started by "
    "a bare launcher so that it does not inherit the bench process's peak"
)

#: Starts the command in argv[1:] as a child of its own and exits with its status. Its
#: interpreter runs without site (-I -S) and imports only subprocess: the child's ru_maxrss
#: starts from this process's few MB, not from the bench process's peak.
LAUNCHER = "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))"

#: Printed last by both snippets: the process's own peak RSS in MB (ru_maxrss is KiB on
#: Linux, bytes on macOS).
_RSS = r"""
import resource
_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
_peak_mb = round(_peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)
"""

# Runs inside the catanatron venv: argv = [games, seed]. Prints one JSON object.
# In 3.2.1 every played action is appended to game.state.actions as a namedtuple
# Action(color, action_type, value); newer releases log ActionRecord(action, result)
# in game.state.action_records instead, so both are accepted. Game(seed=0) means
# "unseeded" to catanatron, hence seeds S+1 .. S+G. Game.play() stops at
# TURNS_LIMIT (1000 turns) with no winner; such games are counted as unfinished.
# Seeding is only reproducible within one process: on Python < 3.12 hash(None) is
# address-based and catanatron builds trade options from sets of tuples holding
# None, so the same seed can play out differently from run to run.
CATANATRON_SNIPPET = (
    r"""
import json, sys, time
from catanatron import ActionType, Color, Game, RandomPlayer
games, seed = int(sys.argv[1]), int(sys.argv[2])
colors = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
rolls = finished = turns = 0
seconds = 0.0
for i in range(games):
    t0 = time.process_time()
    game = Game([RandomPlayer(c) for c in colors], seed=seed + i + 1)
    winner = game.play()
    spent = time.process_time() - t0
    if winner is None:
        continue
    seconds += spent
    finished += 1
    turns += game.state.num_turns
    log = getattr(game.state, "action_records", None) or game.state.actions
    rolls += sum(getattr(a, "action", a).action_type == ActionType.ROLL for a in log)
"""
    + _RSS
    + r"""
print(json.dumps({"games": games, "finished": finished, "rolls": rolls,
                  "turns": turns, "seconds": seconds,
                  "rolls_per_s": rolls / seconds if seconds else None,
                  "games_per_s": finished / seconds if seconds else None,
                  "peak_rss_mb": _peak_mb}))
"""
)

# pbm's side: argv = [games, seed, SRC, board]: board "" (the base island), a Seafarers
# scenario, or "kronlande:SIZE". Plays and times as `pbm.bench.affordable.measure` (or, for
# Kronlande, `pbm.bench.kron_engine.measure`) says. `imports`: the top-level modules outside
# the standard library that the engine pulled in.
PBM_SNIPPET = (
    r"""
import json, sys
before = set(sys.modules)
sys.path.insert(0, sys.argv[3])
games, seed, board = int(sys.argv[1]), int(sys.argv[2]), sys.argv[4]
if board.startswith("kronlande:"):
    from pbm.bench.kron_engine import measure as measure_kron
    result = measure_kron(games, seed, board.split(":", 1)[1])
else:
    from pbm.bench.affordable import measure
    result = measure(games, seed, board or None)
imports = sorted({m.split(".")[0] for m in set(sys.modules) - before}
                 - set(sys.stdlib_module_names))
"""
    + _RSS
    + r"""
result.update(imports=imports, peak_rss_mb=_peak_mb)
print(json.dumps(result))
"""
)

#: How catanatron's random player chooses (the "catanatron_policy" key of --json).
CATANATRON_POLICY = (
    "RandomPlayer: random.choice among the playable actions at each decision (builds, card "
    "purchase and bank trades it can pay, card plays, end of turn, the roll)"
)


def scenario_keys() -> tuple[str, ...]:
    """The Seafarers scenarios measured by default, every one pbm has (pbm only: catanatron
    has no Seafarers)."""
    from pbm.rules.scenarios import SCENARIOS

    return tuple(SCENARIOS)


@dataclass
class Child:
    """Outcome of one measured child process."""

    ok: bool
    data: dict[str, Any]
    error: str = ""

    @property
    def rss_mb(self) -> float | None:
        """The peak RSS the child measured in itself."""
        value = self.data.get("peak_rss_mb")
        return float(value) if self.ok and value is not None else None


def note(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def run_measured(cmd: list[str], cwd: Path, timeout: float) -> Child:
    """Run cmd through LAUNCHER and parse the JSON object it prints last."""
    launched = [sys.executable, "-I", "-S", "-c", LAUNCHER, *cmd]
    try:
        # A session of its own: on a timeout the launcher and the child are killed together.
        proc = subprocess.Popen(
            launched,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return Child(False, {}, f"cannot start {cmd[0]}: {exc}")
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return Child(False, {}, f"killed after --timeout {timeout:g}s")
    stdout = out.decode(errors="replace")
    stderr = err.decode(errors="replace")
    if proc.returncode != 0:
        tail = "\n".join(stderr.strip().splitlines()[-8:])
        return Child(False, {}, f"exit {proc.returncode}: {tail}")
    for text in (stdout, *reversed(stdout.strip().splitlines())):
        try:
            data = json.loads(text)
        except ValueError:
            continue
        if isinstance(data, dict):
            return Child(True, data)
    return Child(False, {}, f"no JSON object on stdout: {stdout[-300:]!r}")


def ensure_catanatron(venv: Path) -> Path | None:
    """Return the venv's python with catanatron 3.2.1 in it, creating it if needed."""
    py = venv / "bin" / "python"
    check = "import importlib.metadata as m; print(m.version('catanatron'))"
    if py.exists():
        probe = subprocess.run([str(py), "-c", check], capture_output=True, text=True, check=False)
        if probe.returncode == 0 and probe.stdout.strip() == CATANATRON_REQ.split("==")[1]:
            return py
    note(f"setting up {venv} with {CATANATRON_REQ} (first use only)")
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(py), "-m", "pip", "install", "-q", CATANATRON_REQ],
    ]
    for step in steps:
        try:
            done = subprocess.run(step, stdout=sys.stderr, stderr=sys.stderr, check=False)
        except OSError as exc:
            note(f"NOTE: {' '.join(step)} could not start: {exc}")
            return None
        if done.returncode != 0:
            note(
                f"NOTE: `{' '.join(step)}` failed (exit {done.returncode}); "
                "catanatron figures will be null, reporting pbm only."
            )
            return None
    return py


def fmt(value: float | None, spec: str = ",.0f") -> str:
    return "n/a" if value is None else format(value, spec)


def _rate(d: dict[str, Any], key: str) -> float | None:
    value = d.get(key)
    return None if value is None else round(float(value), 2 if key == "games_per_s" else 1)


def main(argv: list[str] | None = None) -> int:
    from pbm.bench.affordable import POLICY
    from pbm.bench.kron_engine import DEFAULT_SIZE
    from pbm.bench.kron_engine import POLICY as KRON_POLICY

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=200, help="games per engine (default 200)")
    ap.add_argument("--pbm-games", type=int, default=None, help="games for pbm (default --games)")
    ap.add_argument(
        "--sea-games", type=int, default=20, help="games for each Seafarers scenario (default 20)"
    )
    ap.add_argument(
        "--scenario",
        action="append",
        choices=scenario_keys(),
        help="a Seafarers scenario to measure (repeatable; default all; --sea-games 0: none)",
    )
    ap.add_argument(
        "--kron-games",
        type=int,
        default=20,
        help="games on the Kronlande island, 4 players (default 20; 0: none)",
    )
    ap.add_argument(
        "--kron-size",
        choices=("large", "huge"),
        default=DEFAULT_SIZE,
        help=f"the Kronlande island's size (default {DEFAULT_SIZE})",
    )
    ap.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    ap.add_argument(
        "--python",
        default=sys.executable,
        help="interpreter that runs pbm's side (it needs only the standard library)",
    )
    ap.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="catanatron venv path")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per child run")
    ap.add_argument("--skip-catanatron", action="store_true", help="measure pbm only")
    ap.add_argument("--json", action="store_true", help="print one JSON object only")
    args = ap.parse_args(argv)
    pbm_games: int = args.pbm_games if args.pbm_games is not None else args.games
    scenarios: tuple[str, ...] = (
        tuple(args.scenario or scenario_keys()) if args.sea_games > 0 else ()
    )

    cat: Child | None = None
    cat_py = None if args.skip_catanatron else ensure_catanatron(args.venv)
    if cat_py is not None:
        note(f"catanatron: {args.games} games ...")
        cmd = [str(cat_py), "-I", "-c", CATANATRON_SNIPPET, str(args.games)]
        cmd.append(str(args.seed))
        cat = run_measured(cmd, Path(tempfile.gettempdir()), args.timeout)
        if not cat.ok:
            note(f"catanatron run failed: {cat.error}")

    def pbm_side(games: int, scenario: str) -> Child:
        note(f"pbm: {games} games on {scenario or 'the base island'} ...")  # or kronlande:SIZE
        cmd = [args.python, "-I", "-c", PBM_SNIPPET, str(games), str(args.seed), str(SRC)]
        child = run_measured([*cmd, scenario], Path(tempfile.gettempdir()), args.timeout)
        if not child.ok:
            note(f"pbm's engine run failed: {child.error}")
        return child

    pbm = pbm_side(pbm_games, "")
    sea = {name: pbm_side(args.sea_games, name) for name in scenarios}
    kron = pbm_side(args.kron_games, f"kronlande:{args.kron_size}") if args.kron_games > 0 else None

    c = cat.data if cat is not None and cat.ok else {}
    p = pbm.data if pbm.ok else {}
    c_rps, p_rps = _rate(c, "rolls_per_s"), _rate(p, "rolls_per_s")
    ratio = round(p_rps / c_rps, 3) if p_rps and c_rps else None
    result: dict[str, Any] = {
        "pbm_rolls_per_s": p_rps,
        "catanatron_rolls_per_s": c_rps,
        "ratio": ratio,
        "pbm_games_per_s": _rate(p, "games_per_s"),
        "catanatron_games_per_s": _rate(c, "games_per_s"),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "catanatron_games": c.get("games"),
        "catanatron_finished": c.get("finished"),
        "catanatron_rolls": c.get("rolls"),
        "pbm_games": p.get("games"),
        "pbm_finished": p.get("finished"),
        "pbm_rolls": p.get("rolls"),
        # Each side's peak RSS as it measured it in its own process (RSS_MEASURE);
        # rss_mb is pbm's, under the name the other benches use.
        "pbm_rss_mb": pbm.rss_mb,
        "rss_mb": pbm.rss_mb,
        "catanatron_rss_mb": cat.rss_mb if cat is not None else None,
        "rss_measure": RSS_MEASURE,
        "counted": "finished games only, on each side: their rolls over their own CPU seconds",
        "pbm_policy": POLICY,
        "catanatron_policy": CATANATRON_POLICY,
        # Modules outside the standard library that pbm's side imported (just "pbm").
        "pbm_imports": p.get("imports"),
        # What pbm's games came to (`pbm.bench.affordable.digest`): the same on every run.
        "pbm_digest": p.get("digest"),
        # pbm alone on each Seafarers scenario, each in a process of its own.
        "scenarios": {
            name: {
                "games": child.data.get("games"),
                "finished": child.data.get("finished"),
                "rolls": child.data.get("rolls"),
                "rolls_per_s": _rate(child.data, "rolls_per_s"),
                "games_per_s": _rate(child.data, "games_per_s"),
                "rss_mb": child.rss_mb,
                "digest": child.data.get("digest"),
            }
            for name, child in sea.items()
        },
        # pbm alone on the Kronlande island (null with --kron-games 0), its own player.
        "kronlande": None
        if kron is None
        else {
            "size": args.kron_size,
            "players": 4,
            "games": kron.data.get("games"),
            "finished": kron.data.get("finished"),
            "rolls": kron.data.get("rolls"),
            "rolls_per_s": _rate(kron.data, "rolls_per_s"),
            "games_per_s": _rate(kron.data, "games_per_s"),
            "rss_mb": kron.rss_mb,
            "digest": kron.data.get("digest"),
            "policy": KRON_POLICY,
        },
    }
    if args.json:
        print(json.dumps(result))
        return 0

    def per_game(d: dict[str, Any]) -> float | None:
        done = d.get("finished")
        return d["rolls"] / done if done and d.get("rolls") is not None else None

    rows = [
        ("", "catanatron 3.2.1", "pbm"),
        (
            "games (finished)",
            f"{fmt(c.get('games'))} ({fmt(c.get('finished'))})",
            f"{fmt(p.get('games'))} ({fmt(p.get('finished'))})",
        ),
        ("rolls (finished)", fmt(c.get("rolls")), fmt(p.get("rolls"))),
        ("rolls / game", fmt(per_game(c), ".1f"), fmt(per_game(p), ".1f")),
        ("seconds", fmt(c.get("seconds"), ".2f"), fmt(p.get("seconds"), ".2f")),
        ("rolls / s", fmt(c_rps), fmt(p_rps)),
        ("games / s", fmt(c.get("games_per_s"), ".2f"), fmt(p.get("games_per_s"), ".2f")),
        (
            "peak RSS MB (own)",
            fmt(result["catanatron_rss_mb"], ".1f"),
            fmt(result["pbm_rss_mb"], ".1f"),
        ),
    ]
    print(
        f"machine: {os.cpu_count()} cores, Python {platform.python_version()}"
        f" ({platform.python_implementation()}), pbm via {args.python}"
    )
    for label, a, b in rows:
        print(f"  {label:<18}{a:>20}{b:>16}")
    print(f"  ratio pbm/catanatron (rolls/s): {fmt(ratio, '.2f')}")
    for name, row in result["scenarios"].items():
        print(
            f"  pbm, Seafarers {name}: {fmt(row['games'])} games ({fmt(row['finished'])} "
            f"finished), {fmt(row['rolls_per_s'])} rolls/s, {fmt(row['games_per_s'], '.2f')} "
            f"games/s, peak RSS {fmt(row['rss_mb'], '.1f')} MB"
        )
    k = result["kronlande"]
    if k is not None:
        print(
            f"  pbm, Kronlande {k['size']}: {fmt(k['games'])} games ({fmt(k['finished'])} "
            f"finished), {fmt(k['rolls_per_s'])} rolls/s, {fmt(k['games_per_s'], '.2f')} "
            f"games/s, peak RSS {fmt(k['rss_mb'], '.1f')} MB; player: {k['policy']}"
        )
    imports = ", ".join(p.get("imports") or []) or "n/a"
    print(f"  counted: {result['counted']}.")
    print(f"  pbm's player: {POLICY}.")
    print(f"  catanatron's player: {CATANATRON_POLICY}.")
    print(f"  peak RSS: {RSS_MEASURE}.")
    print(f"  pbm's side imported {imports} beside the standard library.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
