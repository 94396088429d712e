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
from pbm.notation.builds import BUILD_READERS, INHERITED_KINDS
from pbm.notation.game_words import EXPANSION_WORDS
from pbm.reports.report_json import JSON_PARTS
from pbm.reports.text_map import MAP_PARTS
assert {"ship", "move_ship", "castle", "make", "feast", "smithy"} <= set(BUILD_READERS)
assert {"castle", "residence", "smithy"} <= INHERITED_KINDS
from pbm.notation.refusals import ORDER_EXPECTED, SETUP_FORM
assert (len(ORDER_EXPECTED), len(SETUP_FORM)) == (2, 1)
from pbm.notation.names import NOT_LAND_YET
assert len(NOT_LAND_YET) == 1
assert (len(EXPANSION_WORDS), len(MAP_PARTS), len(JSON_PARTS)) == (1, 2, 2)
from pbm.reports.identity import KIND_PARTS
assert len(KIND_PARTS) == 2
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
    "pbm.notation.sea_builds",
    "pbm.notation.kron_builds",
    "pbm.notation.kron_words",
    "pbm.notation.context",
    "pbm.notation.lines",
    "pbm.reports.sea_map",
    "pbm.reports.kron_json",
    "pbm.reports.text_map",
    "pbm.reports.identity",
    "pbm.reports.identity_sea",
    "pbm.reports.identity_kron",
]


#: The first imports of the fast tier, one or two a package; the slow tier's tests take every
#: one of `FIRST_IMPORTS` (each costs an interpreter of its own).
FAST_FIRST_IMPORTS = (
    "pbm.rules",
    "pbm.rules.sim",
    "pbm.notation.lines",
    "pbm.reports.describe",
    "pbm.reports.identity",
)


@pytest.mark.parametrize(
    "first",
    [
        f if f in FAST_FIRST_IMPORTS else pytest.param(f, marks=pytest.mark.slow)
        for f in FIRST_IMPORTS
    ],
)
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
    # The notation's build lines and order words (`BUILD_READERS`, `GameWords`): left are
    # a ship move's pattern (`remarks.py`), Kronlande's question back for a good's letters
    # (`lines.py`) and its near words (`refusals.py`).
    "pbm/notation/builds.py": 0,
    "pbm/notation/words.py": 0,
    "pbm/notation/remarks.py": 1,
    "pbm/notation/lines.py": 1,
    "pbm/notation/refusals.py": 2,
    # The text map and the report's JSON (`MAP_PARTS`, `JSON_PARTS`): a hex's terrain is left.
    "pbm/reports/text_map.py": 3,
    "pbm/reports/report_json.py": 3,
    # What a game is (`KIND_PARTS`): nothing is left.
    "pbm/reports/identity.py": 0,
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
