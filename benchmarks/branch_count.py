"""Count the conditions in `pbm/` that test which expansion is on (issue 29).

    python benchmarks/branch_count.py            # per area and module, shared modules
    python benchmarks/branch_count.py --all      # the expansions' own modules listed too
    python benchmarks/branch_count.py --json     # {"shared": N, "own": N, "areas": {...}, ...}
    python benchmarks/branch_count.py --show pbm/rules/legal.py   # each counted line

What is counted, precisely. The script parses every `*.py` file under `pbm/` with `ast` and
visits these *conditions*:

- the test of an `if` and of each `elif` (an `elif` is its own condition),
- the test of a `while`, of a conditional expression (`a if t else b`) and of an `assert`,
- each `if` clause of a comprehension,
- each `case` of a `match` (its pattern and guard together),
- a boolean operation (`and` / `or`) that is not inside one of the above: counted once, as the
  whole operation (`return sea is not None and ok`, `x = a or b`).

A condition counts when it *mentions an expansion*: some identifier in it (a name, an
attribute, a keyword-argument name, a class in a pattern) or some string constant in it,
split into words at `_`, `.`, spaces and lower-to-upper case changes, has one of the words

    sea seafarers kron kronlande fog scenario gold pirate ship ships expansion

(case-insensitive; so `state.sea`, `s.kron is None`, `isinstance(e, ShipBuilt)`,
`kind == "gold"`, `ships.ship_rule(...)` all count; `season` or `seat` do not). A condition
nested in another counted one counts on its own too (each `elif`, a conditional expression
inside an `if` body); a boolean operation inside a counted test is part of that test.

*Own* modules are the expansions' own code, where testing the expansion is the point:
a module whose file name starts with one of `sea`, `ship`, `pirate`, `gold`, `fog`, `kron`,
`castles`, `workshops`, `trade_lines`, `autopilot_sea`, `autopilot_fog`, `autopilot_kron`,
`randombot_sea`, `randombot_kron`, `expansion`, `describe_sea`, `describe_kron`, or ends in
`_sea`, `_kron` or `_fog` (an expansion's part of a shared module: `identity_sea`), or lies in
`pbm/rules/scenarios/` or in an `expansions/` folder. Every other module is *shared*: the
figure the issue is about. The areas are the first folder under `pbm/` (`rules`, `notation`,
`reports`, …).

The standard library only; run from the repository's root (or give the folder of `pbm`).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections import Counter
from pathlib import Path

WORDS = frozenset(
    {
        "sea",
        "seafarers",
        "kron",
        "kronlande",
        "fog",
        "scenario",
        "gold",
        "pirate",
        "ship",
        "ships",
        "expansion",
    }
)
OWN_PREFIXES = (
    "sea",
    "ship",
    "pirate",
    "gold",
    "fog",
    "kron",
    "castles",
    "workshops",
    "trade_lines",
    "autopilot_sea",
    "autopilot_fog",
    "autopilot_kron",
    "randombot_sea",
    "randombot_kron",
    "expansion",
    "describe_sea",
    "describe_kron",
)
#: An expansion's part of a shared module (`identity_sea`, `identity_kron`).
OWN_SUFFIXES = ("_sea", "_kron", "_fog")
_SPLIT = re.compile(r"[_.\s\-/]+|(?<=[a-z0-9])(?=[A-Z])")


def words_of(text: str) -> set[str]:
    """The lower-case words of an identifier or string (`ShipBuilt` → {ship, built})."""
    return {w.lower() for w in _SPLIT.split(text) if w}


def mentions_expansion(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        texts: list[str] = []
        if isinstance(sub, ast.Name):
            texts.append(sub.id)
        elif isinstance(sub, ast.Attribute):
            texts.append(sub.attr)
        elif isinstance(sub, ast.keyword) and sub.arg:
            texts.append(sub.arg)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            texts.append(sub.value)
        elif isinstance(sub, ast.MatchClass):
            pass  # its class is a Name/Attribute, visited by the walk
        elif isinstance(sub, ast.MatchAs) and sub.name:
            texts.append(sub.name)
        if any(words_of(t) & WORDS for t in texts):
            return True
    return False


def conditions(tree: ast.AST) -> list[ast.AST]:
    """Every condition of the docstring's list, as the node to test for a mention."""
    found: list[ast.AST] = []
    inside_test: set[int] = set()  # ids of BoolOps that are part of a listed test

    def mark(test: ast.AST) -> None:
        for sub in ast.walk(test):
            if isinstance(sub, ast.BoolOp):
                inside_test.add(id(sub))

    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            found.append(node.test)
            mark(node.test)
        elif isinstance(node, ast.comprehension):
            for cond in node.ifs:
                found.append(cond)
                mark(cond)
        elif isinstance(node, ast.match_case):
            parts: list[ast.AST] = [node.pattern] + ([node.guard] if node.guard else [])
            found.append(_Group(parts))
            if node.guard:
                mark(node.guard)
    for node in ast.walk(tree):
        if isinstance(node, ast.BoolOp) and id(node) not in inside_test:
            found.append(node)
            mark(node)  # a BoolOp inside it is part of it
    return found


class _Group(ast.AST):
    """Several nodes tested as one condition (a `case` pattern with its guard)."""

    _fields = ("parts",)

    def __init__(self, parts: list[ast.AST]) -> None:
        super().__init__()
        self.parts = parts


def is_own(path: Path, root: Path) -> bool:
    rel = path.relative_to(root)
    if "scenarios" in rel.parts[:-1] or "expansions" in rel.parts[:-1]:
        return True
    return path.stem.startswith(OWN_PREFIXES) or path.stem.endswith(OWN_SUFFIXES)


def counted(path: Path) -> list[int]:
    """The line numbers of a module's counted conditions."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    lines = []
    for c in conditions(tree):
        if mentions_expansion(c):
            first = c.parts[0] if isinstance(c, _Group) else c
            lines.append(getattr(first, "lineno", 0))
    return sorted(lines)


def count(pkg: Path) -> dict[str, int]:
    """Counted conditions per module (path relative to the folder holding `pbm`)."""
    result: dict[str, int] = {}
    for path in sorted(pkg.rglob("*.py")):
        n = len(counted(path))
        if n:
            result[str(path.relative_to(pkg.parent))] = n
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", nargs="?", default=".", help="folder holding pbm/ (default: .)")
    ap.add_argument("--all", action="store_true", help="list the expansions' own modules too")
    ap.add_argument("--json", action="store_true", help="one JSON object")
    ap.add_argument("--show", metavar="MODULE", help="print each counted line of one module")
    args = ap.parse_args(argv)
    if args.show:
        path = Path(args.show)
        text = path.read_text(encoding="utf-8").splitlines()
        for n in counted(path):
            print(f"{path}:{n}: {text[n - 1].strip()}")
        return 0
    pkg = Path(args.root) / "pbm"
    if not pkg.is_dir():
        print(f"no pbm/ under {args.root}", file=sys.stderr)
        return 2
    counts = count(pkg)
    shared = {m: n for m, n in counts.items() if not is_own(pkg.parent / m, pkg)}
    own = {m: n for m, n in counts.items() if m not in shared}
    areas: Counter[str] = Counter()
    for m, n in shared.items():
        parts = Path(m).parts
        areas[parts[1] if len(parts) > 2 else parts[1].removesuffix(".py")] += n
    if args.json:
        print(
            json.dumps(
                {
                    "shared": sum(shared.values()),
                    "own": sum(own.values()),
                    "areas": dict(areas.most_common()),
                    "modules": shared,
                    "own_modules": own,
                },
                indent=1,
            )
        )
        return 0
    print("shared modules (conditions that mention an expansion):")
    for m, n in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {n:4d}  {m}")
    print("per area:")
    for a, n in areas.most_common():
        print(f"  {n:4d}  {a}")
    if args.all:
        print("the expansions' own modules:")
        for m, n in sorted(own.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {n:4d}  {m}")
    print(f"total in shared modules: {sum(shared.values())}")
    print(f"total in the expansions' own modules: {sum(own.values())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
