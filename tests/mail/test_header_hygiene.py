"""Header values are cleaned of every kind of line break, both ways.

Inbound: whatever a mail's headers hold (raw UTF-8 line and paragraph separators, NEL, the
ASCII separators \\x1c-\\x1e, vertical tab and form feed, the same inside RFC 2047 words, bidi
overrides), what `parse_inbound` keeps is one line without control characters. Outbound:
`build_message` builds from any stored value, and the header block it makes holds only the
headers it set. And the whole way, over a real SMTP server: a stranger's mail with line
separators in its Message-ID and Subject is answered, its answer delivered.
"""

from __future__ import annotations

import email
import email.policy
import html as htmllib
import unicodedata
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
from harness import GM
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from pbm.mail.inbound import Inbound, parse_inbound
from pbm.mail.outgoing import PASSWORD_PLACEHOLDER, build_message
from pbm.service.context import Service
from pbm.service.ingest import ingest
from pbm.store.models import InboundMail, Outbox

from .servers import Outgoing

pytestmark = pytest.mark.timeout(60)

STRANGER = "mallory@evil.test"
#: Everything `str.splitlines` splits on.
BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
assert all(len(f"a{c}b".splitlines()) == 2 for c in BREAKS)


def clean(value: str) -> bool:
    """One line, no control character, no bidi control."""
    return (
        len(value.splitlines()) <= 1
        and not any(c in BREAKS or c in BIDI for c in value)
        and all(unicodedata.category(c) != "Cc" for c in value)
    )


def all_clean(parsed: Inbound) -> None:
    for value in (
        parsed.message_id,
        parsed.sender,
        parsed.subject,
        *parsed.headers,
        *parsed.headers.values(),
    ):
        assert clean(value), repr(value)


def raw_mail(
    message_id: bytes, subject: bytes, sender: bytes = STRANGER.encode(), extra: bytes = b""
) -> bytes:
    return (
        b"From: "
        + sender
        + b"\r\nTo: "
        + GM.encode()
        + b"\r\nSubject: "
        + subject
        + b"\r\nMessage-ID: "
        + message_id
        + b"\r\n"
        + extra
        + b"\r\nHilfe\r\n"
    )


def q_word(text: str) -> bytes:
    return b"=?utf-8?q?" + b"".join(b"=%02X" % b for b in text.encode()) + b"?="


# -- inbound -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "char", list(BREAKS + "\x00\x07\x1f\x7f\x9b" + BIDI), ids=lambda c: f"U+{ord(c):04X}"
)
@pytest.mark.parametrize("how", ["raw-utf8", "encoded-word"])
def test_no_line_break_or_control_survives_in_a_header(char: str, how: str) -> None:
    def put(text: str) -> bytes:
        if how == "encoded-word":
            return q_word(text)
        data = text.encode()
        if b"\r" in data or b"\n" in data:  # a raw CR or LF ends the header line
            pytest.skip("a raw CR or LF is a line end, not part of a value")
        return data

    raw = raw_mail(
        b"<id" + put(char) + b"x@evil.test>",
        b"Hilfe " + put(f"{char}Bcc: x"),
        b"Mallory " + put(char) + b" <" + STRANGER.encode() + b">",
        b"X-Trace: " + put(f"a{char}b") + b"\r\n",
    )
    parsed = parse_inbound(raw, GM)
    all_clean(parsed)
    assert parsed.sender == STRANGER
    assert "Bcc: x" in parsed.subject and parsed.subject.startswith("Hilfe")
    assert parsed.message_id.startswith("<id") and parsed.message_id.endswith("x@evil.test>")


def test_line_separators_in_an_address_leave_no_sender() -> None:
    raw = raw_mail(b"<a@evil.test>", b"Hilfe", "<mal\u2028lory@evil.test>".encode())
    parsed = parse_inbound(raw, GM)
    all_clean(parsed)
    assert parsed.sender == "", "no valid mailbox: nobody is answered"


def test_a_bidi_override_cannot_turn_a_subject_around() -> None:
    parsed = parse_inbound(raw_mail(b"<b@evil.test>", "Züge \u202efdp.exe".encode()), GM)
    assert parsed.subject == "Züge fdp.exe"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subject=st.text(max_size=80), message_id=st.text(max_size=40), encoded=st.booleans())
def test_any_header_text_parses_clean_and_answers_build(
    subject: str, message_id: str, encoded: bool
) -> None:
    def put(text: str) -> bytes:
        if encoded:
            return q_word(text) if text else b""
        return text.replace("\r", " ").replace("\n", " ").encode("utf-8", "surrogatepass")

    try:
        raw = raw_mail(b"<" + put(message_id) + b"@x.test>", put(subject))
    except UnicodeEncodeError:
        return
    parsed = parse_inbound(raw, GM)
    all_clean(parsed)
    msg = build_message(
        from_address=GM,
        from_name="Spielleiter",
        recipients=[STRANGER],
        subject=f"Re: {parsed.subject}",
        body="Hilfe\n",
        html="",
        message_id="<answer@pbm.test>",
        in_reply_to=parsed.message_id,
        date=datetime(2026, 1, 1, tzinfo=UTC),
    )
    wire = msg.as_bytes(policy=email.policy.SMTP)
    back = email.message_from_bytes(wire, policy=email.policy.default)
    assert [k for k, _ in back.items()] == [
        k
        for k in (
            "From",
            "To",
            "Subject",
            "Date",
            "Message-ID",
            "In-Reply-To",
            "References",
            "Auto-Submitted",
            "X-PBM-Loop",
            "Content-Type",
            "Content-Transfer-Encoding",
            "MIME-Version",
        )
        if k in msg
    ], wire[:2000]


# -- outbound ------------------------------------------------------------------------------------


def build(**overrides: object) -> EmailMessage:
    values: dict[str, object] = dict(
        from_address=GM,
        from_name="Spielleiter",
        recipients=[STRANGER],
        subject="Hilfe",
        body="Text\n",
        html="<p>Text</p>",
        message_id="<m1@pbm.test>",
        in_reply_to="<orig@evil.test>",
        date=datetime(2026, 1, 1, tzinfo=UTC),
    )
    values.update(overrides)
    return build_message(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "field,value",
    [
        ("subject", "Züge\u2028Bcc: x@evil.test"),
        ("subject", "a\r\nBcc: x@evil.test"),
        ("subject", "\x85\x1c\x1d\x1e\v\f\x00"),
        ("subject", "x" * 10_000),
        ("from_name", "Spiel\u2029leiter\r\nBcc: x"),
        ("from_name", "\u202eretielleips"),
        ("recipients", ["a\u2028b@x.test"]),
        ("recipients", ["a\r\nBcc: b@x.test"]),
        ("recipients", ["jörg@example.de"]),
        ("recipients", []),
        ("recipients", ["", ","]),
        ("message_id", "<a\u2028b@x>"),
        ("message_id", "no brackets"),
        ("message_id", ""),
        ("in_reply_to", "<a\u2028b@x>"),
        ("in_reply_to", "<ä@x>"),
        ("in_reply_to", "<a b@x>"),
        ("in_reply_to", "plain"),
        ("in_reply_to", "<" + "a" * 2000 + "@x>"),
    ],
)
def test_build_message_builds_from_any_stored_value(field: str, value: object) -> None:
    msg = build(**{field: value})
    for policy in (email.policy.SMTP, email.policy.SMTPUTF8):
        wire = msg.as_bytes(policy=policy)
        head = wire.split(b"\r\n\r\n", 1)[0]
        back = email.message_from_bytes(wire, policy=email.policy.default)
        assert back["Bcc"] is None, head
        for name, text in back.items():
            assert clean(str(text)), (name, text)
    if field == "in_reply_to":
        assert msg["In-Reply-To"] is None and msg["References"] is None
        assert msg["Auto-Submitted"] == "auto-replied", "still an answer"
    if field == "message_id":
        assert str(msg["Message-ID"]).startswith("<") and " " not in str(msg["Message-ID"])
        assert build(**{field: value})["Message-ID"] == msg["Message-ID"], "stable"


def test_a_plain_in_reply_to_threads() -> None:
    msg = build(in_reply_to=" <orig.1@evil.test> ")
    assert (msg["In-Reply-To"], msg["References"]) == ("<orig.1@evil.test>",) * 2


def test_the_secret_takes_the_placeholders_place_in_both_parts() -> None:
    body = f"Ihr Kennwort: {PASSWORD_PLACEHOLDER}\n"
    html = f"<p>Ihr Kennwort: <b>{PASSWORD_PLACEHOLDER}</b></p>"
    assert htmllib.escape(PASSWORD_PLACEHOLDER) == PASSWORD_PLACEHOLDER
    assert PASSWORD_PLACEHOLDER.isascii()
    msg = build(body=body, html=html, secret="rot-<&>-1")
    plain, rich = msg.get_body(("plain",)), msg.get_body(("html",))
    assert isinstance(plain, EmailMessage) and isinstance(rich, EmailMessage)
    assert plain.get_content() == "Ihr Kennwort: rot-<&>-1\n"
    assert "<b>rot-&lt;&amp;&gt;-1</b>" in rich.get_content()
    assert PASSWORD_PLACEHOLDER not in msg.as_string()
    with pytest.raises(ValueError, match="placeholder"):
        build(body=body, html=html)
    assert "rot-" not in build(body="kein Kennwort\n", secret="rot-1").as_string()


# -- the whole way -------------------------------------------------------------------------------


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\u2028\u2029\x85"])
def test_a_strangers_mail_with_line_separators_is_answered(
    svc: Service, separator: str, outgoing: Outgoing
) -> None:
    """Used to make the answer unbuildable (EmailMessage refused the In-Reply-To), so the
    outbox loop died on it after every restart."""
    raw = (
        f"From: Mallory{separator} <{STRANGER}>\r\nTo: {GM}\r\n"
        f"Subject: Hilfe{separator}Bcc: victim@else.test{separator}\r\n"
        f"Message-ID: <ls{separator}sep@evil.test>\r\n\r\nHilfe\r\n"
    ).encode()
    result = ingest(svc, raw)
    assert result.status == "done"
    with Session(svc.engine) as session:
        (mail,) = session.exec(select(InboundMail))
        (answer,) = session.exec(select(Outbox))
    assert clean(mail.message_id) and clean(mail.subject)
    assert (answer.recipients, answer.in_reply_to) == (STRANGER, mail.message_id)

    handler = outgoing.start()
    sent = handler.send(svc, from_address=GM)
    assert sent.sent == [answer.id] and sent.failed == []
    (delivered,) = handler.accepted
    assert delivered.rcpt_tos == [STRANGER]
    msg = delivered.message
    assert str(msg["To"]) == STRANGER
    assert msg["Bcc"] is None
    assert msg["Auto-Submitted"] == "auto-replied"
    for name, value in msg.items():
        assert clean(str(value)), (name, value)


@pytest.mark.parametrize(
    ("label", "body", "text"),
    [
        # Outlook's windows-1252 labelled Latin-1: the dash, not an invisible C1 control.
        ("iso-8859-1", "Stadt B2 B3 C3 – danke".encode("cp1252"), "Stadt B2 B3 C3 – danke"),
        ("ISO-8859-1", "„Straße“ 6L 5L".encode("cp1252"), "„Straße“ 6L 5L"),
        # A phone's UTF-8 labelled Latin-1 or ASCII: read as UTF-8, not as `StraÃŸe`.
        ("iso-8859-1", "Straße 6L 5L".encode(), "Straße 6L 5L"),
        ("us-ascii", "Grüße".encode(), "Grüße"),
        # Latin-1 as it says, and another charset as it says.
        ("iso-8859-1", "Straße 6L 5L".encode("latin-1"), "Straße 6L 5L"),
        ("koi8-r", "Привет".encode("koi8-r"), "Привет"),
    ],
)
def test_a_text_part_is_read_as_mail_clients_mean_its_charset(
    label: str, body: bytes, text: str
) -> None:
    raw = (
        b"From: a@players.test\r\nTo: gm@pbm.test\r\nSubject: x\r\nMessage-ID: <c@x>\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset="
        + label.encode()
        + b"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        + body
        + b"\r\n"
    )
    assert parse_inbound(raw).text.strip() == text


@pytest.mark.parametrize(
    ("html", "lines"),
    [
        # Gmail: each line a <div>, an empty line <div><br></div>.
        (
            "<div>Kennwort: x</div><div>Runde: 3</div><div>Stadt B2 B3 C3</div>"
            "<div><br></div><div>Gruß</div>",
            ["Kennwort: x", "Runde: 3", "Stadt B2 B3 C3", "", "Gruß"],
        ),
        # Outlook: each line a <p class=MsoNormal>, an empty line one holding &nbsp;.
        (
            "<p class=MsoNormal>Kennwort: x<o:p></o:p></p>\r\n"
            "<p class=MsoNormal>Stadt B2 B3 C3<o:p></o:p></p>\r\n"
            "<p class=MsoNormal><o:p>&nbsp;</o:p></p>\r\n<p class=MsoNormal>Gruß<o:p></o:p></p>",
            ["Kennwort: x", "Stadt B2 B3 C3", "", "Gruß"],
        ),
        # Line breaks only, and a quote.
        ("Kennwort: x<br>Stadt B2<br><br>Gruß<blockquote>alt</blockquote>", None),
    ],
)
def test_an_html_only_mail_has_the_lines_its_player_sees(
    html: str, lines: list[str] | None
) -> None:
    """The answer's line numbers are the lines the player sees: a block's two edges make one
    line break, not two (the lines 1 to 4 were numbered 1, 3, 5, 7)."""
    raw = (
        b"From: a@players.test\r\nTo: gm@pbm.test\r\nSubject: x\r\nMessage-ID: <h@x>\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        + html.encode()
        + b"\r\n"
    )
    text = parse_inbound(raw).text
    if lines is None:
        lines = ["Kennwort: x", "Stadt B2", "", "Gruß", "> alt"]
    assert text.splitlines() == lines


def test_a_paragraph_keeps_its_blank_line_and_outlooks_line_does_not() -> None:
    """Thunderbird's paragraphs show a blank line between them; Outlook's MsoNormal lines do
    not: each keeps what the player sees."""
    from pbm.mail.inbound import html_to_text

    assert html_to_text("<p>Hallo</p><p>Straße 6L 5L</p>") == "Hallo\n\nStraße 6L 5L\n"
    assert html_to_text("<p class=MsoNormal>Hallo</p><p class=MsoNormal>x</p>") == "Hallo\nx\n"
