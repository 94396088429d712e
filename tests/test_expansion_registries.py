"""The expansions plug in by registries (docs/architecture.md, "How an expansion plugs in"):
every registry is full whichever module a process imports first, and the shared modules that
were freed of expansion tests stay free of them (`benchmarks/branch_count.py`)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Each registry and how many registrations the two expansions make in it.
CHECK = """
from pbm.rules.autopilot import SETUP_PLANS, SITE_BONUSES, TURN_PLANS
from pbm.rules.legal_hooks import ACTION_RULES, CERTAIN_RULES, EXECUTORS, HOOKS, PLACERS
from pbm.rules.parts import PARTS
from pbm.rules.piece_hooks import PIECE_HOOKS, SETUP_HOOKS
from pbm.rules.randombot import CARD_LINES, RANDOM_HOOKS
from pbm.rules.orders import MoveShip, Ship, Workshop, Feast
from pbm.reports.describe import PIECE_LINES, TOLD_AFTER_NEXT, event_line
from pbm.rules.sea_events import ShipMoved
from pbm.rules.kron_events import GoodsMade
counts = (len(PARTS), len(HOOKS), len(PIECE_HOOKS), len(SETUP_HOOKS), len(TURN_PLANS),
          len(SETUP_PLANS), len(SITE_BONUSES), len(RANDOM_HOOKS), len(CARD_LINES),
          len(TOLD_AFTER_NEXT))
assert counts == (2, 2, 1, 1, 2, 1, 1, 2, 3, 1), counts
for registry in (ACTION_RULES, CERTAIN_RULES, PLACERS):
    assert Ship in registry and MoveShip in registry and Workshop in registry
assert Ship in EXECUTORS and Feast in EXECUTORS
from pbm.rules.legal import AFTER_KINDS
assert Ship in AFTER_KINDS and Workshop in AFTER_KINDS
assert {"ship", "castle", "smithy"} <= set(PIECE_LINES)
assert ShipMoved in event_line.registry and GoodsMade in event_line.registry
"""

FIRST_IMPORTS = [
    "pbm.rules",
    "pbm.rules.state",
    "pbm.rules.serial",
    "pbm.rules.legal_hooks",
    "pbm.rules.sea_legal",
    "pbm.rules.kron_part",
    "pbm.rules.setup",
    "pbm.rules.autopilot_sea",
    "pbm.rules.autopilot_fog",
    "pbm.rules.randombot_sea",
    "pbm.rules.sim",
    "pbm.reports.describe_sea",
    "pbm.reports.describe",
]


@pytest.mark.parametrize("first", FIRST_IMPORTS)
def test_every_registry_is_full_whatever_is_imported_first(first: str) -> None:
    code = f"import {first}\n{CHECK}"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


#: Modules that ask the registries instead of testing which expansion a game plays, and the
#: conditions still counted in each (what they test is board or order data: fog crossings,
#: `RobberOrder.pirate`, road building's ships; docs/architecture.md lists them).
FREED = {
    "pbm/rules/legal.py": 3,
    "pbm/rules/legal_hooks.py": 1,
    "pbm/rules/state.py": 1,
    "pbm/rules/serial.py": 4,
    "pbm/rules/autopilot.py": 1,
    "pbm/rules/building.py": 1,
    "pbm/rules/setup.py": 0,
    "pbm/rules/randombot.py": 1,
    "pbm/reports/describe.py": 6,
}


def _branch_count() -> object:
    spec = importlib.util.spec_from_file_location(
        "branch_count", ROOT / "benchmarks" / "branch_count.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("module", sorted(FREED))
def test_freed_modules_do_not_test_for_an_expansion_again(module: str) -> None:
    counted = _branch_count().counted(ROOT / module)  # type: ignore[attr-defined]
    assert len(counted) <= FREED[module], (
        f"{module}: a condition on an expansion at line(s) {counted}; register a hook instead "
        "(docs/architecture.md, 'How an expansion plugs in')"
    )
