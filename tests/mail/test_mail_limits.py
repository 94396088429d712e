"""Hostile mail is read in bounded time: huge encoded-word headers, MIME part bombs, mails over
the size limit, megabyte parameter lists.

Bounds are generous (the figures on a laptop are ten to a hundred times below them): the point
is quadratic against linear, not the last millisecond.
"""

from __future__ import annotations

import time

import pytest

from pbm.mail import inbound
from pbm.mail.inbound import MAX_PARTS, Inbound, keep_raw, parse_inbound, too_many_parts

GM = "gm@pbm.test"
ANNA = "anna.mueller@web.test"
MULTIPART = b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n'
#: Seconds anything here may take (measured: well under 0.1 s each).
QUICK = 2.0

pytestmark = pytest.mark.timeout(60)


def _mail(headers: bytes = b"", body: bytes = b"Hilfe\r\n", subject: bytes = b"Hilfe") -> bytes:
    return (
        f"From: Anna <{ANNA}>\r\nTo: {GM}\r\n".encode()
        + b"Subject: "
        + subject
        + b"\r\nMessage-ID: <limits-1@web.test>\r\n"
        + headers
        + b"\r\n"
        + body
    )


def _timed(raw: bytes, max_bytes: int | None = None) -> tuple[Inbound, float]:
    start = time.perf_counter()
    parsed = parse_inbound(raw, GM, max_bytes)
    return parsed, time.perf_counter() - start


def _parts(n: int, line_end: bytes = b"\r\n", boundary: bytes = b"b") -> bytes:
    nl = line_end
    return b"".join(b"--" + boundary + nl + nl + b"x" + nl for _ in range(n)) + b"--b--" + nl


# -- encoded words -----------------------------------------------------------------------------


def test_a_megabyte_of_encoded_words_in_the_subject_is_read_quickly() -> None:
    """45,000 encoded words, 1.1 MB: the stdlib decoder took 10 s for it (twice 5 s: the
    subject was decoded once for itself and once for the headers dict)."""
    subject = b" ".join([b"=?utf-8?q?=C3=A4=C3=B6?="] * 45_000)
    raw = _mail(subject=subject)
    assert len(raw) > 1_000_000
    parsed, took = _timed(raw)
    assert took < QUICK, took
    # One word per two letters (12 characters a letter): what the cut leaves is still long.
    assert parsed.subject.startswith("äöäö") and 250 < len(parsed.subject) <= 500
    assert (parsed.sender, parsed.message_id, parsed.refused) == (ANNA, "<limits-1@web.test>", "")
    assert parsed.text == "Hilfe\r\n"


def test_one_megabyte_encoded_word_is_cut_not_shown_half() -> None:
    raw = _mail(subject=b"=?utf-8?q?" + b"=C3=A4" * 150_000 + b"?=")
    parsed, took = _timed(raw)
    assert took < QUICK, took
    assert "=?" not in parsed.subject, "no half encoded word"
    assert parsed.sender == ANNA


def test_a_subject_with_umlauts_up_to_500_letters_is_kept_whole() -> None:
    """The cut before decoding leaves room for what a client writes (words of 75 characters,
    a letter in six)."""
    from email.header import Header

    text = "Züge für Runde 3: Straße bauen, Ärger über Räuber " * 10
    encoded = Header(text[:500], "utf-8").encode().encode()
    parsed = parse_inbound(_mail(subject=encoded), GM)
    assert parsed.subject == text[:500].strip()


@pytest.mark.parametrize("name", ["Message-ID", "From", "X-Junk", "Content-Type", "Reply-To"])
def test_any_megabyte_header_is_read_quickly(name: str) -> None:
    value = b" ".join([b"=?utf-8?b?w6TDtg==?="] * 50_000)
    parsed, took = _timed(_mail(name.encode() + b": " + value + b"\r\n"))
    assert took < QUICK, (name, took)
    assert parsed.message_id == "<limits-1@web.test>", "the first Message-ID counts"


def test_a_megabyte_of_parameters_is_read_quickly() -> None:
    """`; x=y` 200,000 times in a Content-Type: the stdlib's parameter parser is quadratic
    (11 s); every header is cut as it is read."""
    raw = _mail(b"Content-Type: text/plain" + b"; x=y" * 200_000 + b"\r\n")
    parsed, took = _timed(raw)
    assert took < QUICK, took
    assert parsed.text == "Hilfe\r\n"


def test_parameters_in_every_part_are_read_quickly() -> None:
    part = (
        b"--b\r\nContent-Type: text/plain" + b"; x=y" * 2000 + b"\r\nContent-Disposition: "
        b'inline; x="' + b";" * 10_000 + b'"\r\n\r\nx\r\n'
    )
    parsed, took = _timed(_mail(MULTIPART, part * 99 + b"--b--\r\n"))
    assert took < QUICK, took
    assert parsed.refused == ""


def test_many_header_lines_are_read_quickly() -> None:
    for headers in (
        b"X-A: b\r\n" * 50_000,
        b"X-F: a\r\n" + b" b\r\n" * 200_000,
        b"".join(b"X-%d: v\r\n" % i for i in range(50_000)),
    ):
        parsed, took = _timed(_mail(headers))
        assert took < QUICK, took
        assert parsed.sender == ANNA
        assert len(parsed.headers) <= inbound.KEPT_HEADERS + len(inbound._WANTED)


def test_the_sender_is_found_behind_many_header_fields() -> None:
    """Mail through Exchange carries sixty and more header fields before From."""
    received = b"".join(b"X-MS-Exchange-%d: v\r\n" % i for i in range(120))
    raw = received + f"From: {ANNA}\r\nSubject: Hilfe\r\n\r\nHilfe\r\n".encode()
    assert parse_inbound(raw, GM).sender == ANNA


# -- MIME part bombs ---------------------------------------------------------------------------


def test_a_mail_with_200000_parts_is_refused_at_once() -> None:
    """The parser took 3 s for it (7 MB); counted without parsing, it takes milliseconds."""
    raw = _mail(MULTIPART, _parts(200_000))
    parsed, took = _timed(raw)
    assert took < QUICK, took
    assert parsed.refused == "too_many_parts"
    assert parsed.text == ""
    assert (parsed.sender, parsed.message_id, parsed.subject) == (
        ANNA,
        "<limits-1@web.test>",
        "Hilfe",
    ), "enough to answer with a refusal"
    assert parsed.no_reply == ""


@pytest.mark.parametrize(
    "variant",
    [
        "bare-cr",
        "lf",
        "quoted-pair",
        "rfc2231",
        "folded",
        "empty-boundary",
        "many-boundaries",
        "nested-1000",
    ],
)
def test_part_bombs_in_disguise_are_refused(variant: str) -> None:
    header, body = MULTIPART, _parts(20_000)
    if variant == "bare-cr":
        body = _parts(20_000, b"\r")
    elif variant == "lf":
        body = _parts(20_000, b"\n")
    elif variant == "quoted-pair":
        header = b'Content-Type: multipart/mixed; boundary="a\\"b"\r\n'
        body = _parts(20_000, boundary=b'a"b')
    elif variant == "rfc2231":
        header = b"Content-Type: multipart/mixed; boundary*=utf-8''%62\r\n"
    elif variant == "folded":
        header = b'Content-Type: multipart/mixed;\r\n boundary=\r\n "b"\r\n'
    elif variant == "empty-boundary":
        header = b'Content-Type: multipart/mixed; boundary=""\r\n'
        body = b"--\r\n\r\nx\r\n" * 20_000
    elif variant == "many-boundaries":
        header = b"".join(b"X-%d: boundary=q%d\r\n" % (i, i) for i in range(300)) + MULTIPART
    elif variant == "nested-1000":
        header = b""
        body = b"".join(
            b'Content-Type: multipart/mixed; boundary="n%d"\r\n\r\n--n%d\r\n' % (i, i)
            for i in range(1000)
        )
    parsed, took = _timed(_mail(header, body))
    assert took < QUICK, took
    assert parsed.refused == "too_many_parts"


def test_dash_lines_that_are_no_boundaries_are_read() -> None:
    """Signature separators, rulers and quoted diffs are not parts."""
    text = b"Kennwort: x\r\n" + b"-- \r\n------------\r\n--- a/x\r\n" * 200
    assert parse_inbound(_mail(body=text), GM).refused == ""
    multipart = MULTIPART + b"\r\n--b\r\nContent-Type: text/plain\r\n\r\n" + text + b"--b--\r\n"
    parsed = parse_inbound(_mail(body=multipart[len(MULTIPART) + 2 :], headers=MULTIPART), GM)
    assert parsed.refused == ""
    assert parsed.text.startswith("Kennwort: x")


def test_a_mail_with_the_most_parts_allowed_is_read() -> None:
    def body(parts: int) -> bytes:
        return (
            b"".join(
                b"--b\r\nContent-Type: text/plain\r\n\r\nStrasse %d\r\n" % i for i in range(parts)
            )
            + b"--b--\r\n"
        )

    # 199 parts and the closing line: 200 boundary lines.
    parsed = parse_inbound(_mail(MULTIPART, body(MAX_PARTS - 1)), GM)
    assert parsed.refused == ""
    assert parsed.text.startswith("Strasse 0")
    assert parse_inbound(_mail(MULTIPART, body(MAX_PARTS + 1)), GM).refused == "too_many_parts"
    assert not too_many_parts(_mail(MULTIPART, body(MAX_PARTS - 1)))


# -- too big -----------------------------------------------------------------------------------


def test_keep_raw() -> None:
    assert keep_raw(b"abcdef", 4) == (b"abcd", True)
    assert keep_raw(b"abcd", 4) == (b"abcd", False)
    assert keep_raw(b"", 4) == (b"", False)
    assert keep_raw(b"abc", 0) == (b"", True)
    assert keep_raw(b"abc", -1) == (b"", True)


def test_a_mail_over_max_bytes_is_read_only_as_far_as_its_headers() -> None:
    raw = _mail(b"MIME-Version: 1.0\r\n", b"Kennwort: geheim\r\n" + b"# x\r\n" * 400_000)
    parsed, took = _timed(raw, 1024 * 1024)
    assert took < QUICK, took
    assert parsed.refused == "too_big"
    assert parsed.text == ""
    assert (parsed.sender, parsed.message_id, parsed.subject) == (
        ANNA,
        "<limits-1@web.test>",
        "Hilfe",
    )
    assert parse_inbound(raw, GM, len(raw)).refused == "", "the limit itself is allowed"
    assert parse_inbound(raw, GM).refused == "", "no limit given: read"


def test_a_big_auto_reply_is_still_known_as_one() -> None:
    raw = _mail(b"Auto-Submitted: auto-replied\r\n", b"x" * 100_000)
    parsed = parse_inbound(raw, GM, 1000)
    assert (parsed.refused, parsed.no_reply) == ("too_big", "auto-submitted")


def test_a_big_mail_without_a_blank_line_is_refused_with_what_was_read() -> None:
    raw = f"From: {ANNA}\r\nSubject: Hilfe\r\n".encode() + b"X-Junk: " + b"a" * 2_000_000
    parsed, took = _timed(raw, 1000)
    assert took < QUICK
    assert (parsed.refused, parsed.sender, parsed.subject) == ("too_big", ANNA, "Hilfe")


@pytest.mark.parametrize(
    "raw",
    [b"", b"\x00" * 5000, b"\r\n\r\n", b"--" * 100_000, b"boundary=" * 100_000, b"=?" * 100_000],
)
def test_parse_inbound_never_raises(raw: bytes) -> None:
    for max_bytes in (None, 0, 100):
        parsed, took = _timed(raw, max_bytes)
        assert took < QUICK
        assert parsed.message_id


# -- linear regexes --------------------------------------------------------------------------------


@pytest.mark.slow  # timed runs on growing inputs (the fast tier's tests read, not time)
@pytest.mark.parametrize(
    "unit",
    [
        b"boundary",
        b"boundary*",
        b"boundary \t",
        b"boundary=",
        b'boundary="',
        b"boundary=\r\n",
        b"boundary*1*",
        b" \t",
    ],
)
def test_the_boundary_scan_is_linear(unit: bytes) -> None:
    """Each quantifier of the boundary pattern is bounded: no input makes it backtrack."""
    small, big = unit * 20_000, unit * 200_000
    times = []
    for text in (small, big):
        # The process's CPU time, the best of five: a loaded machine stops the process for
        # whole time slices (a wall-clock 115 ms for 200,000 units was seen), which its CPU
        # time does not count; a quadratic scan is 100 times slower on ten times the input.
        best = float("inf")
        for _ in range(5):
            start = time.process_time()
            inbound._boundaries(text)
            best = min(best, time.process_time() - start)
        times.append(best)
    assert times[1] < QUICK
    # Linear is 10 times; half of quadratic's 100 leaves room for caches and a busy machine
    # (36 times was seen with the suite running on both cores).
    assert times[1] < 50 * times[0] + 0.05, times
