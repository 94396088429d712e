"""Whatever a mail holds, `parse_mail` never raises: errors are line results, and OrderError
subclasses. And reading 10 KB of garbage takes well under a second (asserted: < 2 s)."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from functools import cache

import pytest
from helpers import game, road, settle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.notation import Context, OrderError, parse_mail
from pbm.notation.checks import check_receipt
from pbm.rules.layouts import generate_board
from pbm.rules.state import GameState

BOARDS = [("medium", 1), ("medium", 6), ("large", 2)]


@cache
def _ctx(index: int, lang: str, phase: str) -> Context:
    size, seed = BOARDS[index]
    players = 6 if size == "large" else 4
    colours = ("rot", "blau", "gelb", "weiss", "gruen", "braun")[:players]
    return Context(generate_board(size, seed), lang, colours, phase)


@cache
def _state() -> GameState:
    s = game(4, 1, round_=3)
    settle(s, 0, "C3 C4 D4")
    road(s, 0, "C3 C4")
    return s


WORDS = [
    "Siedlung",
    "Straße",
    "Strasse",
    "S",
    "Stadt",
    "bei",
    "Räuber",
    "Raeuber",
    "raube",
    "Ritter",
    "vor",
    "nach",
    "Wurf:",
    "Handel",
    "gebe",
    "bekomme",
    "Seehandel",
    "Tausch",
    "gegen",
    "oder",
    "or",
    "Erfindung",
    "Glücksfund",
    "Straßenbau:",
    "Bautrupp",
    "Monopol",
    "Tribut",
    "Abwurf:",
    "Ersatzbau:",
    "Entwicklungskarte",
    "Kennwort:",
    "Runde:",
    "Spiel:",
    "Name:",
    "Farben:",
    "Settlement",
    "Road",
    "City",
    "Knight",
    "before",
    "roll:",
    "robber",
    "steal",
    "Trade",
    "give",
    "get",
    "Maritime",
    "for",
    "Discard:",
    "Substitute:",
    "Buy",
    "card",
    "und",
    "and",
    "6L",
    "5L",
    "11G",
    "6E",
    "4W",
    "3H",
    "10H",
    "12E",
    "C3",
    "c4",
    "D4",
    "Meer",
    "Sea",
    "Wüste",
    "Desert",
    "G-Hafen",
    "3:1-Hafen",
    "2:1",
    "Hafen",
    "Harbor",
    "rot",
    "blau",
    "gelb",
    "weiß",
    "grün",
    "lila",
    "H",
    "L",
    "W",
    "G",
    "E",
    "O",
    "B",
    "2H",
    "1E",
    "4",
    "-",
    "–",
    "→",
    "->",
    "(",
    ")",
    ",",
    ";",
    ":",
    ".",
    "#",
    ">",
    "--",
    "Ende",
    "End",
    "9Gold",
    "\u00a0",
    "\t",
    "\x00",
    "\x0b",
    "\x0c",
    "\u2028",
    "\u200b",
    "\ufeff",
    "İ",
    "ẞ",
    "ß",
    "99",
    "0",
    "00",
    "٣",
    "-1",
]
word_lines = st.lists(st.sampled_from(WORDS) | st.text(max_size=4), max_size=14).map(" ".join)
mails = st.lists(word_lines | st.text(max_size=200), max_size=8).map(lambda lines: "\n".join(lines))
eols = st.sampled_from(["\n", "\r\n", "\r"])


def _assert_never_raises(body: str, subject: str | None, ctx: Context) -> None:
    parsed = parse_mail(body, ctx, subject)
    for r in parsed.lines:
        assert isinstance(r.line, int) and r.line >= 1
        if r.error is not None:
            assert isinstance(r.error, OrderError)
            assert r.error.line == r.line
            assert r.error.text == r.text
            assert r.item is None
        else:
            assert r.canonical is not None
    if ctx.phase == "round" and ctx.board is _state().board:
        check_receipt(parsed, _state(), 0)
        for r in parsed.lines:
            assert r.error is None or isinstance(r.error, OrderError)
        parsed.turn_orders()
    else:
        parsed.setup_orders() if ctx.phase == "setup" else parsed.turn_orders()


contexts = st.tuples(
    st.integers(0, len(BOARDS) - 1),
    st.sampled_from(["de", "en"]),
    st.sampled_from(["round", "setup"]),
)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@FUZZ
@given(st.text(), st.none() | st.text(max_size=40), contexts)
def test_arbitrary_text_never_raises(
    body: str, subject: str | None, c: tuple[int, str, str]
) -> None:
    _assert_never_raises(body, subject, _ctx(*c))


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        # Counts that do not fit in an index or in memory: found while writing these tests.
        ("Abwurf: 999999999999999999999W", "de"),
        ("Handel blau: gebe 99999999999999999999H, bekomme 1E", "de"),
        ("Erfindung 999999999999H", "de"),
        ("Trade blue: give 1L, get 99999999999999999999O", "en"),
        ("Discard: 99999999999999999999 W", "en"),
    ],
)
def test_huge_counts_never_raise(line: str, lang: str) -> None:
    _assert_never_raises(f"Kennwort: x\n{line}\n", None, _ctx(0, lang, "round"))


@FUZZ
@given(
    mails, eols, st.none() | st.sampled_from(["Re: Hilfe", "AW: Spiel: x", "Fwd:", ":"]), contexts
)
def test_order_like_word_salad_never_raises(
    body: str, eol: str, subject: str | None, c: tuple[int, str, str]
) -> None:
    _assert_never_raises(body.replace("\n", eol), subject, _ctx(*c))


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(min_size=2000, max_size=6000), contexts)
def test_very_long_lines_never_raise(body: str, c: tuple[int, str, str]) -> None:
    _assert_never_raises(body.replace("\n", " "), None, _ctx(*c))


# -- time ------------------------------------------------------------------------------------

LIMIT = 2.0


def _garbage(kind: str, seed: int, size: int = 10_000) -> str:
    rng = random.Random(f"{kind}:{seed}")
    if kind == "ascii":
        alphabet = [chr(i) for i in range(32, 127)] + ["\n"] * 3
        return "".join(rng.choice(alphabet) for _ in range(size))
    if kind == "unicode":
        return "".join(chr(rng.randrange(1, 0x2FFFF)) for _ in range(size // 2)).replace(
            "\ud800", ""
        )
    if kind == "words":
        out: list[str] = []
        length = 0  # of " ".join(out), and one more: counted as it grows, not summed each time
        while length < size:
            out.append(rng.choice(WORDS) if rng.random() < 0.9 else "\n")
            length += len(out[-1]) + 1
        return " ".join(out)
    if kind == "one_line":
        return " ".join(rng.choice(WORDS[:90]) for _ in range(size // 6))[:size]
    raise ValueError(kind)


@pytest.mark.slow  # timed runs on growing inputs (the fast tier's tests read, not time)
@pytest.mark.parametrize("phase", ["round", "setup"])
@pytest.mark.parametrize("kind", ["ascii", "unicode", "words", "one_line"])
def test_ten_kilobytes_of_garbage_parse_fast(kind: str, phase: str) -> None:
    ctx = _ctx(0, "de", phase)
    for seed in range(3):
        body = _garbage(kind, seed)
        assert len(body.encode("utf-8", "surrogatepass")) >= 10_000 or kind == "one_line"
        start = time.process_time()  # CPU time: a loaded machine's pauses do not count
        parse_mail(body, ctx)
        elapsed = time.process_time() - start
        assert elapsed < LIMIT, f"{kind} seed {seed}: {elapsed:.2f} s"


_TIMED = """
import sys, time
from pbm.notation import Context, parse_mail
from pbm.rules.layouts import generate_board
body = sys.stdin.read()
ctx = Context(generate_board("medium", 1), "de", phase=sys.argv[1])
start = time.process_time()
parse_mail(body, ctx)
print(time.process_time() - start)
"""
#: Wall seconds before the child is stopped: the start-up and imports count here, and a loaded
#: machine may pause the child; the parse itself is held to LIMIT seconds of CPU time.
CHILD_TIMEOUT = 60


def _timed_in_child(body: str, phase: str) -> float:
    """Parse in a child process, so a pathological case cannot hang the suite."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _TIMED, phase],
            input=body,
            text=True,
            capture_output=True,
            timeout=CHILD_TIMEOUT,
            check=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"parsing took more than {CHILD_TIMEOUT} s")
    return float(done.stdout)


PATHOLOGICAL = [
    # (id, line, phase): a 10 KB line of mostly spaces after a keyword
    ("setup_spaces", "Siedlung a" + " " * 10_000 + "b", "setup"),
    ("knight_spaces", "Ritter" + " " * 10_000 + "x", "round"),
    ("path_spaces", "Straße 6L" + " " * 10_000 + "5L", "round"),
    ("setup_commas", "Siedlung 6L 5L 11G" + " ," * 5_000, "setup"),
]


@pytest.mark.slow  # timed runs on growing inputs (the fast tier's tests read, not time)
@pytest.mark.parametrize(
    ("line", "phase"), [(x[1], x[2]) for x in PATHOLOGICAL], ids=[x[0] for x in PATHOLOGICAL]
)
def test_pathological_lines_parse_fast(line: str, phase: str) -> None:
    elapsed = _timed_in_child(f"Kennwort: x\n{line}\nEntwicklungskarte\n", phase)
    assert elapsed < LIMIT, f"{elapsed:.2f} s"


SCALING = [
    # (id, keyword part, filler, tail, phase, n): a line of n fillers; time must grow about
    # linearly with n (regex backtracking makes some grow with n² or n³)
    ("setup", "Siedlung a", " ", "b", "setup", 40),
    ("round_guard", "Runde", " ", "x", "round", 600),
    ("substitute", "Ersatzbau", " ", "x", "round", 600),
    ("maritime", "Seehandel 4", " ", "h", "round", 600),
    ("knight", "Ritter", " ", "x", "round", 600),
    ("path", "Straße 6L", " ", "5L", "round", 600),
    ("robber", "Räuber 6L, raube", " ", "rot", "round", 600),
    ("trade", "Handel rot: gebe 1H", " ", "bekomme 1E", "round", 600),
    ("words", "Siedlung", " 6L", "", "round", 600),
]


def _parse_seconds(body: str, ctx: Context, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        parse_mail(body, ctx)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize(
    ("head", "filler", "tail", "phase", "n"), [x[1:] for x in SCALING], ids=[x[0] for x in SCALING]
)
def test_parse_time_grows_linearly_with_the_line(
    head: str, filler: str, tail: str, phase: str, n: int
) -> None:
    ctx = _ctx(0, "de", phase)
    small = _parse_seconds(head + filler * n + tail, ctx, 3)
    large = _parse_seconds(head + filler * (8 * n) + tail, ctx, 3)
    # linear: 8 times as long; quadratic: 64 times. The margin absorbs a busy machine.
    assert large < 40 * small + 0.05, f"{n}: {small:.4f} s, {8 * n}: {large:.4f} s"


@pytest.mark.parametrize(
    "line", ["Abwurf: 1000000W", "Erfindung 1000000H", "Handel blau: gebe 1000000H, bekomme 1E"]
)
def test_a_huge_count_is_not_expanded_card_by_card(line: str) -> None:
    """Nobody holds a million cards; today the line is accepted and echoed as a list of a
    million letters (and ten times that costs seconds and gigabytes, see the examples of
    `test_arbitrary_text_never_raises` for counts that crash)."""
    ctx = _ctx(0, "de", "round")
    start = time.process_time()
    (r,) = parse_mail(line, ctx).lines
    assert time.process_time() - start < 1.0
    assert r.error is not None or len(r.canonical or "") < 200
