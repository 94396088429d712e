"""How many order mails of the corpus pbm reads the way a human game master reads them.

The corpus (tests/corpus/, expectations from tests/corpus/make_corpus.py) gives, for every mail,
the reading a game master makes: each line understood with its canonical form and the block it
stands in (main builds, substitute builds, setup), each line a game master would ask back about
refused, the lines a game master passes over (greetings, names: refused or not read, never
accepted), and where it matters the password taken. This module compares pbm's reading with it
and counts:

- mails read fully as a game master reads them (every line as expected);
- false accepts: lines accepted with a meaning the player did not write (a refused or unread line
  accepted, another canonical form, another block, another password). There must be none.

Print the figures with one command:

    python tests/test_gm_reading.py          (or: python -m pytest tests/test_gm_reading.py -s)
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from helpers import corpus_board

from pbm.notation import Context, LineResult, parse_mail
from pbm.rules.board import Board
from pbm.rules.layouts import BOARD_VERSION
from pbm.rules.state import DEFAULT_COLOURS

CORPUS = Path(__file__).parent / "corpus"
EXPECTED: dict[str, dict[str, Any]] = json.loads(
    (CORPUS / "expected.json").read_text(encoding="utf-8")
)
#: The mails written for issue 13 ("read what real players write"): 075 on.
FIRST_GM_MAIL = 75
#: Of the mails, at least this share is read fully as a game master reads them.
FULLY_READ_SHARE = 0.95


@cache
def _board(players: int, seed: int, scenario: str = "", kronlande: bool = False) -> Board:
    spec = {"players": players, "seed": seed, "scenario": scenario, "kronlande": kronlande}
    return corpus_board(spec, BOARD_VERSION)


def _block(r: LineResult, phase: str) -> str:
    block = getattr(r, "block", None)
    if isinstance(block, str):
        return block
    # Before lines had a block of their own: the substitute flag, the header by its item.
    if phase == "setup":
        return "setup"
    if r.substitute or type(r.item).__name__ == "SubstituteHeader":
        return "substitute"
    return "main"


@dataclass
class Reading:
    name: str
    #: Lines read differently from a game master (any difference).
    problems: list[str] = field(default_factory=list)
    #: Lines accepted with a meaning the player did not write.
    false_accepts: list[str] = field(default_factory=list)

    @property
    def fully(self) -> bool:
        return not self.problems


def judge(name: str) -> Reading:
    spec = EXPECTED[name]
    players = spec["players"]
    board = _board(players, spec["seed"], spec.get("scenario", ""), spec.get("kronlande", False))
    ctx = Context(board, spec["lang"], DEFAULT_COLOURS[:players], spec["phase"])
    body = (CORPUS / name).read_bytes().decode("utf-8")
    parsed = parse_mail(body, ctx)
    out = Reading(name)
    got = {r.line: r for r in parsed.lines}
    want = {x["line"]: x for x in spec["lines"]}
    for number in sorted(set(got) | set(want)):
        r, x = got.get(number), want.get(number)
        shown = repr(r.text if r is not None else "")
        if r is None:
            if x is not None and not x.get("noise"):
                out.problems.append(f"line {number}: not read, expected {x['canonical']!r}")
            continue
        if r.ok:
            actual = f"{r.canonical!r} [{_block(r, spec['phase'])}]"
            if x is None or x.get("noise") or not x["ok"]:
                what = "not read" if x is None else ("passed over" if x.get("noise") else "refused")
                message = f"line {number} {shown}: accepted as {actual}, a GM: {what}"
            elif r.canonical != x["canonical"] or _block(r, spec["phase"]) != x["block"]:
                message = (
                    f"line {number} {shown}: accepted as {actual}, "
                    f"a GM: {x['canonical']!r} [{x['block']}]"
                )
            else:
                continue
            out.problems.append(message)
            out.false_accepts.append(message)
            continue
        assert r.error is not None
        error = r.error.localized(spec["lang"])
        if x is None:
            out.problems.append(f"line {number} {shown}: refused ({error}), a GM does not read it")
        elif x.get("noise"):
            continue
        elif x["ok"]:
            out.problems.append(
                f"line {number} {shown}: refused ({error}), a GM: {x['canonical']!r}"
            )
        elif list(r.error.candidates) != x["candidates"]:
            out.problems.append(
                f"line {number} {shown}: candidates {r.error.candidates}, a GM: {x['candidates']}"
            )
        elif x.get("hint") and x["hint"] not in error:
            out.problems.append(f"line {number} {shown}: {error!r} does not say {x['hint']!r}")
    password = spec.get("password")
    if password is not None and parsed.password != password:
        message = f"password {parsed.password!r}, a GM: {password!r}"
        out.problems.append(message)
        if parsed.password is not None:
            out.false_accepts.append(message)
    return out


def figures(names: list[str]) -> tuple[int, int, int]:
    """(mails, mails read fully as a GM reads them, false accepts)."""
    readings = [judge(n) for n in names]
    return (
        len(readings),
        sum(r.fully for r in readings),
        sum(len(r.false_accepts) for r in readings),
    )


def _gm_mails() -> list[str]:
    return [n for n in sorted(EXPECTED) if int(n[:3]) >= FIRST_GM_MAIL]


def report() -> str:
    lines = []
    for label, names in (("all mails", sorted(EXPECTED)), ("issue-13 mails", _gm_mails())):
        mails, fully, false = figures(names)
        lines.append(
            f"{label}: {fully}/{mails} read fully as a GM reads them ({fully / mails:.0%}); "
            f"{false} false accepts"
        )
    return "\n".join(lines)


def test_no_false_accepts() -> None:
    found = [a for n in sorted(EXPECTED) for a in judge(n).false_accepts]
    assert not found, "\n".join(found)


def test_mails_read_as_a_gm_reads_them() -> None:
    print("\n" + report())
    readings = [judge(n) for n in sorted(EXPECTED)]
    fully = sum(r.fully for r in readings)
    assert len(_gm_mails()) >= 120
    assert fully >= FULLY_READ_SHARE * len(readings), "\n".join(
        f"{r.name}: {p}" for r in readings for p in r.problems
    )


if __name__ == "__main__":
    verbose = "-v" in sys.argv[1:]
    for n in sorted(EXPECTED):
        reading = judge(n)
        if verbose and reading.problems:
            print(n)
            for p in reading.problems:
                print("   ", ("FALSE ACCEPT " if p in reading.false_accepts else "") + p)
    print(report())
