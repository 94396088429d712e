"""Hostile mails cost little: every pattern of the order language runs in linear time.

Two kinds of tests. Structural: every regular expression of `pbm/notation/` (found by reading
the modules, so a new one is covered without being listed) and every hand-written matcher that
replaced one is run on inputs of 50,000 characters built to hurt a backtracking pattern (a run
that an earlier quantifier could also take, a keyword repeated, brackets without end). A
linear pattern takes milliseconds there; a quadratic one takes seconds to minutes (the bracket
pattern the echo matcher replaced, 8 s), and is stopped after 1.25 s and named. End to end:
the same kinds of input, and mails far over the caps, go through `clean_lines`, `parse_line`
and `parse_mail`, all of them in a few seconds together (the parser before these tests took
minutes on single lines of them).
"""

from __future__ import annotations

import ast
import re
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import cache, partial
from pathlib import Path
from types import FrameType, ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.notation import (
    Context,
    OrderError,
    builds,
    cards,
    clean,
    counts,
    cuts,
    headers,
    heading_kinds,
    headings,
    kron_builds,
    lines,
    mail,
    names,
    parse_line,
    parse_mail,
    places,
    refusals,
    remarks,
    robber,
    sea_builds,
    setup,
    text,
    trades,
    upgrades,
    words,
    written,
)
from pbm.notation.clean import clean_lines
from pbm.notation.limits import MAX_LINE_CHARS, MAX_MAIL_LINES
from pbm.rules.layouts import generate_board

NOTATION = Path(__file__).resolve().parent.parent / "pbm" / "notation"
#: The parser's modules (`lines.py` dispatches to the readers by what they read).
MODULES: list[ModuleType] = [
    builds,
    kron_builds,
    cards,
    clean,
    counts,
    cuts,
    headers,
    heading_kinds,
    headings,
    lines,
    mail,
    names,
    places,
    refusals,
    remarks,
    robber,
    sea_builds,
    setup,
    text,
    trades,
    upgrades,
    words,
    written,
]

#: Characters of each structural input.
SIZE = 50_000
#: CPU seconds one structural check may take. A linear one needs milliseconds (the slowest,
#: the hex names over `meer+` repeated, about 90 ms). A quadratic one, c·n², fails where
#: c·SIZE² passes this: the bound keeps c at 5·10⁻¹⁰ s as 5 s for 100,000 characters did, at
#: half the CPU for these checks (docs/performance.md, ninth round).
CHECK_SECONDS = 1.25
#: CPU seconds for one end-to-end mail (up to 2,000,000 characters: far from both).
MAIL_SECONDS = 5.0
#: CPU seconds for the whole end-to-end set: about 3 s on a developer's machine. A quadratic
#: step on its 50,000-line mails would take hours, so the bound only has to be far from both.
ALL_SECONDS = 30.0


class TooSlow(Exception):
    pass


@contextmanager
def deadline(seconds: float, what: str) -> Iterator[None]:
    """Stop the check after `seconds` of this process's CPU time (the regex engine looks at
    signals while it matches), so a pattern that went quadratic fails here, named, instead of
    hanging the suite. CPU time, not wall time: a loaded machine that stops the process for a
    while does not fail a linear check."""
    if not hasattr(signal, "setitimer"):
        yield  # no interval timer (Windows): the time is still asserted afterwards
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TooSlow(f"{what}: over {seconds} s")

    previous = signal.signal(signal.SIGVTALRM, expire)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


def _wall(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def timed(what: str, run: Callable[[], object], seconds: float = CHECK_SECONDS) -> float:
    start = time.process_time()
    try:
        with deadline(seconds, what):
            run()
    except TooSlow as e:
        pytest.fail(str(e))
    elapsed = time.process_time() - start
    assert elapsed < seconds, f"{what}: {elapsed:.2f} s"
    return elapsed


# -- the patterns ---------------------------------------------------------------------------


def _compiled(module: ModuleType) -> dict[str, re.Pattern[str]]:
    """Every compiled pattern a module holds: alone, in a dict or in a list of pairs."""
    out: dict[str, re.Pattern[str]] = {}
    for name, value in vars(module).items():
        where = f"{module.__name__.rsplit('.', 1)[1]}.{name}"
        if isinstance(value, re.Pattern):
            out[where] = value
        elif isinstance(value, dict):
            for k, v in value.items():
                if isinstance(v, re.Pattern):
                    out[f"{where}[{k!r}]"] = v
        elif isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, tuple) and v and isinstance(v[0], re.Pattern):
                    out[f"{where}[{i}]"] = v[0]
    return out


_RE_CALLS = {
    "compile",
    "match",
    "fullmatch",
    "search",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
}


def _inline() -> dict[str, re.Pattern[str]]:
    """The patterns written into `re.…(pattern, …)` calls inside functions."""
    out: dict[str, re.Pattern[str]] = {}
    for path in sorted(NOTATION.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.func.attr in _RE_CALLS
            ):
                continue
            arg = node.args[0]
            if node.func.attr == "compile":
                continue  # a module-level pattern: found by `_compiled`
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out[f"{path.name}:{node.lineno}"] = re.compile(arg.value)
            else:
                pytest.fail(
                    f"{path.name}:{node.lineno}: a pattern built at run time; make it "
                    "a module-level re.compile so that this test sees it"
                )
    return out


@cache  # read once a worker: parsing the modules is 80 ms, and 67 tests ask
def all_patterns() -> dict[str, re.Pattern[str]]:
    out: dict[str, re.Pattern[str]] = {}
    for module in MODULES:
        out.update(_compiled(module))
    out.update(_inline())
    return out


def test_every_module_with_patterns_is_checked() -> None:
    for path in sorted(NOTATION.glob("*.py")):
        if re.search(r"^import re$", path.read_text(encoding="utf-8"), re.MULTILINE):
            assert path.stem in {m.__name__.rsplit(".", 1)[1] for m in MODULES}, path.name
    found = all_patterns()
    assert len(found) >= 40
    for name in (
        "clean._STOP_BLOCK",
        "words._OR",
        "robber._STEAL",
        "trades._GET",
        "robber._KNIGHT",
        "words._PATTERNS['trade']",
        "words._PATTERNS['road']",
        "names.HEX_TOKEN",
        "text._ODD_SPACE",
    ):
        assert name in found


#: What is typed at the start of a line, so that an anchored pattern gets past its keyword.
PREFIXES = [
    "",
    "kennwort",
    "kennwort:",
    "pw",
    "spiel:",
    "name =",
    "farben:",
    "bestaetigen",
    "confirm:",
    "runde",
    "runde:",
    "ersatzbau",
    "ritter",
    "ritter vor wurf",
    "knight before the roll",
    "raeuber",
    "raeuber 6l",
    "abwurf",
    "handel",
    "handel mit",
    "handel rot",
    "seehandel",
    "seehandel 4",
    "seehandel 4h",
    "tausche",
    "monopol",
    "erfindung",
    "strassenbau",
    "entwicklungskarte",
    "schiff",
    "siedlung",
    "stadt",
    "s",
    "str.",
    "strasse",
    "on ",
    "am ",
    "on x wrote",
    "--",
    "-----",
    "from:",
    "von: ",
    "schrieb",
    "wrote",
    "back",
    "ich bin zurueck",
    "beobachten",
    "gebe",
    "bekomme",
    "3:1",
    "g-",
    "6",
    "c",
]
#: What is repeated after it, to SIZE characters: each makes some pattern backtrack.
FILLERS = [
    " ",
    "\t",
    " \t",
    "\u00a0",
    "(",
    ")",
    "()",
    "in",
    "ni",
    "1",
    "a",
    "ab1",
    ",",
    ", ",
    ",;",
    ":",
    " :",
    ": ",
    "=",
    "-",
    "->",
    "_",
    ".",
    "!",
    "x wrote",
    "wrote:",
    "schrieb ",
    "raube ",
    "steal ",
    "oder ",
    "or ",
    " oder",
    "von",
    "gegen",
    "g hafen",
    "g-",
    "6l ",
    "und ",
    "ininin",
]
#: After the run: nothing, or something that makes a `$` or a keyword fail at the very end.
TAILS = ["", "\n", "!x", ":", "\nx\nx"]


def _adversarial(prefix: str, tails: list[str] = TAILS) -> Iterator[tuple[str, str]]:
    for filler in FILLERS:
        run = filler * (SIZE // len(filler))
        for tail in tails:
            yield f"{prefix!r} + {filler!r}*n + {tail!r}", prefix + run + tail


def _anchored(p: re.Pattern[str]) -> bool:
    return p.pattern.startswith("^")


@pytest.mark.slow(seconds=8)
def test_anchored_patterns_are_linear() -> None:
    """`^…` patterns are only ever matched at the start of a line."""
    anchored = {n: p for n, p in all_patterns().items() if _anchored(p)}
    assert len(anchored) >= 25
    for prefix in PREFIXES:
        for what, s in _adversarial(prefix):

            def run(s: str = s) -> None:
                for p in anchored.values():
                    p.match(s)
                    p.fullmatch(s)

            timed(f"anchored patterns on {what}", run)


@pytest.mark.slow  # timed runs on growing inputs
@pytest.mark.parametrize("name", sorted(n for n, p in all_patterns().items() if not _anchored(p)))
def test_searched_patterns_are_linear(name: str) -> None:
    """Patterns searched through a line are tried from every position of it (`finditer` also
    goes on after each match, as `search` does after each failed start)."""
    p = all_patterns()[name]
    for what, s in _adversarial("", ["", "\n!x"]):

        def run(s: str = s) -> None:
            for _ in p.finditer(s):
                pass

        timed(f"{name} on {what}", run)


# -- the hand-written matchers that replaced patterns ----------------------------------------


class _Folded(lines.Text):
    """A piece of a line taken as already folded (folding 100,000 odd blanks one character at
    a time is linear too, but slow in Python; `test_adversarial_mails_are_read_fast` has it)."""

    def __init__(self, folded: str) -> None:
        self.original = self.folded = folded
        self.offset = 0

    def sub(self, start: int, end: int | None = None) -> lines.Text:
        return _Folded(self.folded[start:end])


@pytest.mark.slow
def test_hand_written_matchers_are_linear() -> None:
    for prefix in ("", "on ", "4h "):
        for what, s in _adversarial(prefix, ["", "\n!x"]):
            folded = s.strip()

            def run(s: str = s, folded: str = folded, pos: int = len(prefix)) -> None:
                clean._quote_header(folded)
                clean._quote_head_start(folded)
                trades._maritime_split(folded)
                places._without_echo(_Folded(s))
                words._keyword_span(robber._STEAL, s)
                words._keyword_span(trades._GET, s, pos)
                counts._split_count(s)

            timed(f"matchers on {what}", run)


@pytest.mark.slow  # timed runs on growing inputs (the fast tier's tests read, not time)
def test_names_are_linear() -> None:
    """Hex names: tokenized as far as they go (an error stops at the first bad word)."""
    for filler in ("6l ", "g-hafen ", "3:1 hafen, ", "c3/", "6 l und ", " \t", "meer+"):
        s = filler * (SIZE // len(filler))
        timed(f"names on {filler!r}*n", partial(names.tokenize_hexes, s))
        timed(f"harbour names on {filler!r}*n", partial(names.join_harbour_names, s))
        timed(f"fold on {filler!r}*n", partial(text.simple, s))


@pytest.mark.slow  # timed runs on growing inputs (the fast tier's tests read, not time)
def test_the_old_patterns_were_not() -> None:
    """The inputs do hurt: each pattern replaced by hand-written matching goes quadratic on
    them, where its replacement does not (at 5,000 characters, so the old ones finish)."""
    n = 5_000
    cases: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        (
            "echo brackets",
            lambda: re.search(r"\((?P<inner>[^)]*)\)\s*$", "(" * n),
            lambda: places._without_echo(lines.Text("(" * n)),
        ),
        (
            "quote header",
            lambda: re.match(
                r"^(am |on |le |el |il ).{3,}(schrieb|wrote|a ecrit|escribio|"
                r"ha scritto)[^:]*:\s*$",
                "on " + "x wrote" * (n // 7),
            ),
            lambda: clean._quote_header("on " + "x wrote" * (n // 7)),
        ),
        (
            "bank trade",
            lambda: re.match(
                r"^(?P<give>\d*\s*[a-z]+)\s*(gegen|fuer|for|zu|in|->|=>|>|-)\s*"
                r"(?P<get>\d*\s*[a-z]+)$",
                "in" * (n // 2) + "1",
            ),
            lambda: trades._maritime_split("in" * (n // 2) + "1"),
        ),
        (
            "steal",
            lambda: re.search(r"[,;]?\s*\b(raube|steal)\b\s*", " " * n),
            lambda: words._keyword_span(robber._STEAL, " " * n),
        ),
    ]
    for what, old, new in cases:
        # Wall time for a ratio of two runs (CPU time is too coarse for the quick one), the
        # best of three for the quick one: a loaded machine may stop any single run.
        slow = _wall(old)
        fast = min(_wall(partial(timed, what, new)) for _ in range(3))
        assert slow > 10 * fast, (what, slow, fast)


# -- end to end -------------------------------------------------------------------------------


@cache
def _ctx(phase: str = "round", lang: str = "de") -> Context:
    return Context(generate_board("medium", 1), lang, ("rot", "blau", "gelb", "weiss"), phase)


def _line_at(head: str, filler: str, length: int, tail: str = "") -> str:
    """`head`, then `filler` repeated, then `tail`: exactly `length` characters."""
    body = length - len(head) - len(tail)
    return head + (filler * (body // len(filler) + 1))[:body] + tail


#: One line each: (name, head, filler, tail).
LINES = [
    ("bracket flood", "Siedlung 6L 5L 11G ", "(", ""),
    ("bracket flood, closed", "Stadt C3 C4 D4 ", "(", ")"),
    ("quote header", "On Monday, ", "Anna wrote ", ""),
    ("quote header, colons", "Am 3. Mai ", "schrieb: ", "x"),
    ("repeated keyword", "", "Kennwort ", "x y"),
    ("repeated robber words", "Räuber 6L", ", raube", " lila"),
    ("repeated or", "Siedlung 6L", " oder ", "x"),
    ("ininin", "Seehandel ", "in", "1"),
    ("ininin with count", "Seehandel 4", "in", "!"),
    ("digits", "Runde ", "9", ""),
    ("digits, count", "Abwurf: ", "9", "W"),
    ("digits, bank", "Seehandel ", "9", "H gegen 1E"),
    ("digits, hexes", "Straße ", "9", "L 5L"),
    ("spaces", "Siedlung", " ", "x"),
    ("tabs", "Ritter", "\t", "x"),
    ("blanks mixed", "Handel rot: gebe 1H", " \t\u00a0", "bekomme 1E"),
    ("commas", "Siedlung 6L 5L 11G Straße 6L 5L", " ,", ""),
    ("give get", "Handel blau:", " gebe bekomme", ""),
    ("hex names", "Straßenbau: ", "6L 5L, ", ""),
    ("harbours", "Siedlung ", "G-Hafen ", ""),
    ("colons", "Kennwort", " :", ""),
    ("dashes", "Straße C3 C4 D4 ", "- ", "C4 D4 D5"),
    ("underscores", "", "_", "x"),
    ("forward header", "-----", "-", "Original Message x"),
    ("password words", "Kennwort: ", "x, ", ""),
    ("confirmation", "Bestätigen: ", "ab-", ""),
]


def _adversarial_mails() -> Iterator[tuple[str, str, str | None]]:
    """(name, body, subject): every line at the cap, just over it and far over it; mails of
    many lines; the same as subjects."""
    for name, head, filler, tail in LINES:
        for length in (MAX_LINE_CHARS, MAX_LINE_CHARS + 1, 200_000):
            line = _line_at(head, filler, length, tail)
            yield f"{name} ({length})", f"Kennwort: x\n{line}\nEntwicklungskarte\n", line
    yield "many lines", "Status\n" * 50_000, None
    yield "many order lines", "Siedlung 6L 5L 11G\n" * 20_000, None
    # Each line a chain to join (`mail._joined`): past blank lines, bracket by bracket.
    yield "many oder lines", "Siedlung 6L 5L 11G oder\n" * 20_000, None
    yield "many oder lines with blanks", "x oder\n\n" * 10_000, None
    yield "many open brackets", "Stadt C3 C4 D4 (6L\n" * 20_000, None
    yield "many quote headers", "On Monday, Anna wrote\n" * 50_000, None
    yield "many quote header pairs", "On Monday, Anna <a@b.de>\nwrote:\n" * 25_000, None
    yield "many quotes", "> Siedlung\n" * 50_000 + "Status\n", None
    yield "many comments", "# (((((\n" * 50_000 + "Status\n", None
    yield "many long lines", ("x" * (MAX_LINE_CHARS + 1) + "\n") * 5_000, None
    yield "many huge quoted lines", ("> " + "(" * 100_000 + "\n") * 20, None
    yield "many blank lines", "\n" * 200_000 + "Status", None
    yield "carriage returns", "Status\r" * 50_000, None
    yield "one huge line", "(" * 2_000_000, None
    yield "one huge line of blanks", " \t" * 1_000_000 + "x", None
    yield "replies", "Status", "Re: " * 100_000 + "Hilfe"
    yield "replies at the cap", "Status", _line_at("", "Re: ", MAX_LINE_CHARS, "Hilfe")


@pytest.mark.slow  # timed runs on growing inputs
@pytest.mark.parametrize("phase", ["round", "setup"])
def test_adversarial_mails_are_read_fast(phase: str) -> None:
    ctx = _ctx(phase)
    total = 0.0
    for name, body, subject in _adversarial_mails():

        def run(body: str = body, subject: str | None = subject) -> None:
            parsed = parse_mail(body, ctx, subject)
            assert len(parsed.lines) <= MAX_MAIL_LINES + 1
            for r in parsed.lines:
                assert r.error is None or isinstance(r.error, OrderError)
                assert len(r.text) <= MAX_LINE_CHARS + 1
            for _, line in clean_lines(body)[:MAX_MAIL_LINES]:
                with suppress(OrderError):
                    parse_line(line, ctx)

        total += timed(f"{phase}: {name}", run, MAIL_SECONDS)
    assert total < ALL_SECONDS, f"{total:.2f} s"


def test_every_adversarial_line_is_refused_or_read() -> None:
    """At the cap a line is read (and may be refused for what it says); over it, refused for
    its length; never an exception other than an OrderError."""
    for name, head, filler, tail in LINES:
        for length in (MAX_LINE_CHARS, MAX_LINE_CHARS + 1):
            line = _line_at(head, filler, length, tail)
            assert len(line) == length
            try:
                parse_line(line, _ctx())
            except OrderError as e:
                if length > MAX_LINE_CHARS:
                    assert e.key == "line_too_long", name
                else:
                    assert e.key != "line_too_long", name


# -- fuzz: runs of anything, near the cap ------------------------------------------------------

PIECES = [
    "(",
    ")",
    " ",
    "\t",
    "in",
    "9",
    "0",
    "٣",
    "²",
    ",",
    ":",
    "-",
    ">",
    "oder",
    "raube",
    "wrote",
    "on ",
    "Runde",
    "Seehandel",
    "Kennwort",
    "Bestätigen",
    "Siedlung",
    "6L",
    "C3",
    "gebe",
    "bekomme",
    "Handel rot",
    "\n",
    "\r\n",
    "x",
]
runs = st.lists(st.tuples(st.sampled_from(PIECES), st.integers(1, 300)), max_size=6).map(
    lambda parts: "".join(p * n for p, n in parts)
)


@pytest.mark.slow  # timed runs on growing inputs (the fast tier's tests read, not time)
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(runs, st.sampled_from(["round", "setup"]), st.sampled_from(["de", "en"]))
def test_runs_of_anything_never_raise_and_are_fast(body: str, phase: str, lang: str) -> None:
    timed("fuzzed mail", lambda: parse_mail(body, _ctx(phase, lang), body[:500]), 2.0)


# -- the password masks (pbm/service/secrets.py) -------------------------------------------------
#
# The service masks passwords in every text it passes on or stores (issue 32): by their label,
# by their shape, and by a hash check of the words that begin like one. The patterns run over
# whole mail texts and stored mails' bytes (up to `max_stored_kb`, 10 MB), under the write lock.

#: Runs that come close to a password's shape, or to a label, and fail at the last moment.
PASSWORD_FILLERS = [
    "kadu-",
    "kadu",
    "ka",
    "-ka",
    "rot-",
    "rot-kadu-",
    "rot-kadu-mepi-rosa-tule-",
    "kadu-mepi-rosa-tule-x ",
    "kadu\u2013",
    "\u2013",
    "rot\u2013",
    "-",
    "a-",
    "rot-1",
    "kennwort ",
    "pw=",
    "pw pw",
    "\xe2",
]


def _mask_inputs(size: int, fillers: list[str]) -> Iterator[tuple[str, str]]:
    for filler in fillers:
        run = filler * (size // len(filler))
        for tail in ("", "\n!x", "-wibo"):
            yield f"{filler!r}*n + {tail!r}", run + tail


def _mask_checks(s: str) -> None:
    from pbm.service import secrets as pw

    for p in (pw._SHAPE, pw._CANDIDATE, pw._PASSWORD_LINE):
        for _ in p.finditer(s):
            pass
    pw.password_values(s)
    pw.masked_text(s, ["rot-kadu-mepi-rosa-tule-wibo"])
    pw._lines_masked(s)


# Over 2 s of timed runs: the slow tier (issue 30: the fast tier's tests stay under 2 s).
@pytest.mark.slow
def test_password_masks_are_linear_on_texts() -> None:
    """The patterns on whole texts (a mail's text is capped at `max_mail_kb`, 256 KB)."""
    for what, s in _mask_inputs(SIZE, PASSWORD_FILLERS):
        timed(f"password masks on {what}", partial(_mask_checks, s))


@pytest.mark.slow(seconds=7)  # every filler of the order language's checks too
def test_password_masks_are_linear_on_the_notations_inputs() -> None:
    for what, s in _adversarial(""):
        timed(f"password masks on {what}", partial(_mask_checks, s))


@pytest.mark.slow  # timed runs on growing inputs (the fast tier's tests read, not time)
@pytest.mark.parametrize(
    ("size", "seconds"),
    # 3 s for 10 MB, the most a stored mail holds (`max_stored_kb`), is 0.6 s for 2 MB: a pass
    # that is linear and takes that for 2 MB takes 3 s for 10 MB; one that is not takes
    # hours for either, so the five times bigger mail would prove nothing more.
    [(500_000, 3.0), pytest.param(2_000_000, 0.6, marks=pytest.mark.slow)],
    ids=["500KB", "2MB"],
)
def test_password_masks_are_linear_on_stored_mails(size: int, seconds: float) -> None:
    """A stored mail's bytes, up to 10 MB (`max_stored_kb`): one translation and a scan for a
    literal, whatever they hold (the worst, 10 MB of `kadu-`, about 0.5 s here). The deep pass
    (the mail read part by part) is the email library's."""
    from pbm.service.secrets import _lines_masked_bytes, masked_raw

    for what, s in _mask_inputs(size, PASSWORD_FILLERS):
        raw = s.encode()
        timed(f"stored mail of {what}", partial(masked_raw, raw, [], deep=False), seconds)
        timed(
            f"password lines in a stored mail of {what}",
            partial(_lines_masked_bytes, raw),
            seconds,
        )


@pytest.mark.slow  # timed runs on growing inputs (the fast tier's tests read, not time)
def test_a_masker_costs_at_most_six_hash_checks() -> None:
    """A message of nothing but words that begin like a seat's password: six checks, and
    the masks of a text stay linear."""
    from pbm.service.secrets import Masker, hash_password

    masker = Masker(["rot-kadu-mepi-rosa-tule-wibo"], {"rot": hash_password("rot-000000")})
    words = " ".join(f"rot-{i:06d}" for i in range(SIZE // 11))
    timed("a masker on words like passwords", partial(masker.text, words, "X"))
    assert masker.checked == 6
    for what, s in _mask_inputs(SIZE, PASSWORD_FILLERS):
        timed(f"a masker on {what}", partial(masker.text, s, "X"))


# Over 2 s of timed runs: the slow tier (issue 30: the fast tier's tests stay under 2 s).
@pytest.mark.slow
def test_a_mail_of_many_password_lines_is_masked_in_one_pass() -> None:
    """Each password line's value was replaced by a pass of its own over the stored mail:
    8,000 lines and a 5 MB attachment took 62 s. Past `MAX_VALUES` values the lines are masked
    where they stand, in one pass."""
    from pbm.service.secrets import MASK, Masker, masked_raw, password_values

    body = "".join(f"pw a{i:07d}\n" for i in range(20_000)) + "Kennwort: rot-12345678, ja\n"
    raw = b"From: a@b.test\nSubject: x\n\n" + body.encode() + b"x" * 5_000_000
    values = password_values(body)
    assert len(values) == 20_001
    timed("a stored mail of 20,000 password lines", partial(masked_raw, raw, values), 5.0)
    stored = masked_raw(raw, values)
    assert b"a0000001" not in stored and b"a0019999" not in stored
    assert b"rot-12345678" not in stored and stored.count(MASK.encode()) == 20_001
    masker = Masker(values, {})
    timed("a masker with 20,000 values", partial(masker.text, body, "X"))
    assert "a00" not in masker.text(body, "X")
