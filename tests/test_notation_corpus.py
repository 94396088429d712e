"""The corpus of order mails (tests/corpus/*.txt) against tests/corpus/expected.json.

Each mail is a raw body as a player's client sends it (CRLF kept where the file has it); the
expectations give, for every line that is not ignored, whether it is understood, its canonical
echo and, for ambiguities, the candidates in label form. The expectations were derived from the
board and notation.md (see tests/corpus/make_corpus.py), not copied from the parser.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from helpers import corpus_board, corpus_board_args
from typer.testing import CliRunner

from pbm.cli import app
from pbm.notation import Context, OrderError, parse_mail
from pbm.rules.board import Board
from pbm.rules.state import DEFAULT_COLOURS

CORPUS = Path(__file__).parent / "corpus"
EXPECTED: dict[str, dict[str, Any]] = json.loads(
    (CORPUS / "expected.json").read_text(encoding="utf-8")
)
NAMES = sorted(EXPECTED)


@cache
def _board(players: int, seed: int, scenario: str, kronlande: bool) -> Board:
    # Board version 1: the corpus was written against the boards laid before the red tokens
    # were spread (only the five-player mail's large island differs). A Seafarers mail is
    # read on its scenario's board, a Kronlande mail on the large Kronlande island.
    spec = {"players": players, "seed": seed, "scenario": scenario, "kronlande": kronlande}
    return corpus_board(spec, 1)


def _ctx(spec: dict[str, Any]) -> Context:
    players = spec["players"]
    board = _board(players, spec["seed"], spec.get("scenario", ""), spec.get("kronlande", False))
    return Context(board, spec["lang"], DEFAULT_COLOURS[:players], spec["phase"])


def _body(name: str) -> str:
    return (CORPUS / name).read_bytes().decode("utf-8")


def test_corpus_is_complete() -> None:
    files = sorted(p.name for p in CORPUS.glob("[0-9][0-9][0-9]_*.txt"))
    assert files == NAMES
    assert len(files) >= 60
    langs = {EXPECTED[n]["lang"] for n in NAMES}
    phases = {EXPECTED[n]["phase"] for n in NAMES}
    assert langs == {"de", "en", "da"}
    # Danish (issue 29): a corpus of its own order mails, as German's and English's.
    assert sum(EXPECTED[n]["lang"] == "da" for n in NAMES) >= 80
    # Danish Seafarers and Kronlande mails, on their own boards.
    assert sum(bool(EXPECTED[n].get("scenario")) for n in NAMES) >= 10
    assert sum(bool(EXPECTED[n].get("kronlande")) for n in NAMES) >= 10
    assert phases == {"round", "setup"}
    assert any(b"\r\n" in (CORPUS / n).read_bytes() for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_corpus_mail(name: str) -> None:
    spec = EXPECTED[name]
    parsed = parse_mail(_body(name), _ctx(spec))
    got = {r.line: r for r in parsed.lines}
    want = {x["line"]: x for x in spec["lines"]}
    # Lines a game master passes over (greetings, names: `noise`) may be refused or not read;
    # never accepted.
    noise = {n for n, x in want.items() if x.get("noise")}
    assert sorted(set(got) - noise) == sorted(set(want) - noise), (
        "lines read (the others must be ignored)"
    )
    assert not any(got[n].ok for n in noise & set(got)), "a line a GM passes over was accepted"
    problems = []
    for number, x in want.items():
        if number in noise:
            continue
        r = got[number]
        if r.ok:
            actual = {"ok": True, "canonical": r.canonical, "candidates": []}
        else:
            assert isinstance(r.error, OrderError)
            assert r.error.line == number
            assert r.error.text == r.text
            actual = {"ok": False, "canonical": None, "candidates": list(r.error.candidates)}
        expected = {"ok": x["ok"], "canonical": x["canonical"], "candidates": x["candidates"]}
        if actual != expected:
            error = "" if r.error is None else f" [{type(r.error).__name__}: {r.error}]"
            problems.append(
                f"line {number} {r.text!r}{error}\n  got      {actual}\n  expected {expected}"
            )
    assert not problems, "\n".join(problems)
    assert parsed.ok == all(r.ok for r in parsed.lines)


@pytest.mark.parametrize("name", NAMES)
def test_corpus_cli(name: str) -> None:
    spec = EXPECTED[name]
    args = [
        "orders",
        "check",
        "--seed",
        str(spec["seed"]),
        "--players",
        str(spec["players"]),
        "--phase",
        spec["phase"],
        "--lang",
        spec["lang"],
        "--json",
        "--board-version",
        "1",
        *corpus_board_args(spec),
        str(CORPUS / name),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    rows = json.loads(result.stdout)
    noise = {x["line"] for x in spec["lines"] if x.get("noise")}
    got = [
        (r["line"], r["ok"], r["canonical"], r["candidates"])
        for r in rows
        if r["line"] not in noise
    ]
    want = [
        (x["line"], x["ok"], x["canonical"], x["candidates"])
        for x in spec["lines"]
        if not x.get("noise")
    ]
    assert not any(r["ok"] for r in rows if r["line"] in noise)
    assert got == want
    all_ok = all(r["ok"] for r in rows)
    assert (result.exit_code == 0) == all_ok
    assert result.exit_code in (0, 1)
    # The text form prints one row per line too, and the same exit code.
    text = CliRunner().invoke(app, [a for a in args if a != "--json"])
    assert text.exit_code == result.exit_code
    for number, ok, canonical, _ in want:
        if ok:
            assert f"{number:4}  ok     {canonical}" in text.stdout
        else:
            assert f"{number:4}  error  " in text.stdout


def test_orders_check_json_gives_block_password_and_the_error_in_the_game_language() -> None:
    body = "Kennwort: rot-kadu-mepi (aus der Mail)\nStrase 6L 5L\nErsatzbau:\nStraße 5L 11G\n"
    rows = {}
    for lang in ("de", "en"):
        result = CliRunner().invoke(
            app, ["orders", "check", "--seed", "1", "--lang", lang, "--json", "-"], input=body
        )
        assert result.exit_code == 1
        rows[lang] = json.loads(result.stdout)
    de = rows["de"]
    assert [r["block"] for r in de] == ["main", "main", "substitute", "substitute"]
    assert [r["password"] for r in de] == [True, False, False, False]
    assert "rot-kadu-mepi" not in json.dumps(de) and de[0]["text"].startswith("Kennwort: ****")
    assert de[1]["key"] == "did_you_mean"
    assert de[1]["error"] == "'Strase' ist kein Befehl; meintest du 'Straße'?"
    assert de[1]["error_en"] == "'Strase' is not an order; did you mean 'Straße'?"
    assert rows["en"][1]["error"] == rows["en"][1]["error_en"]
