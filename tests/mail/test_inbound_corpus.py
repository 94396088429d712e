"""A corpus of inbound mails shaped like those of common clients (Thunderbird, Outlook, Gmail web,
Apple Mail, iPhone, K-9), in `corpus/*.eml`, plus the mails that must never be answered
(auto-replies, bounces, list mails, our own mail).

For each mail: what `parse_inbound` makes of it (sender, decoded subject, the order lines with
their umlauts intact, nothing of attachments or quotes), and what the whole service does with it
(`ingest` on a running game): one acknowledgement that accepts exactly the new orders, or, for
the mails that must not be answered, status "ignored" and not a single outbox row.

The order lines pass the checks at receipt for their sender in the game of `games.start(cast=True)`
(medium board, seed 7), so each must appear, in canonical form, under "Angenommen:".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from harness import ANNA, BERND, CARLA, DIETER, GM, PLAYERS, Mailer, make_service, start_game
from sqlmodel import Session, col, func, select

from pbm.mail.inbound import parse_inbound
from pbm.notation import Context, parse_mail
from pbm.notation.clean import clean_lines
from pbm.rules.layouts import generate_board
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.ingest import ingest
from pbm.service.secrets import masked, password_values
from pbm.store.models import InboundMail, OrderSet, Outbox

CORPUS = Path(__file__).parent / "corpus"

#: Each player's earlier orders (a city), in quotes and attachments: never to be read again.
ANNA_OLD, BERND_OLD = "Stadt E3 F2 F3", "Stadt C3 D3 D4"
CARLA_OLD, DIETER_OLD = "Stadt B3 B4 C4", "Stadt C4 C5 D5"


@dataclass(frozen=True)
class Case:
    sender: str
    subject: str
    #: Whole lines the decoded text must contain (leading/trailing blanks aside).
    lines: tuple[str, ...] = ()
    #: The order lines the service must accept (the password line aside).
    orders: tuple[str, ...] = ()
    #: Substrings the decoded text must not contain (attachments, markup, transfer encoding).
    absent: tuple[str, ...] = ()
    #: Order lines that are in the mail only as a quote or an attachment: never parsed.
    quoted: tuple[str, ...] = ()
    #: Must never be answered (`no_reply` gives a reason); False: must be answered.
    no_reply: bool = False


def _answer(
    sender: str,
    subject: str,
    orders: tuple[str, ...],
    *,
    extra: tuple[str, ...] = (),
    absent: tuple[str, ...] = (),
    quoted: tuple[str, ...] = (),
) -> Case:
    password = PLAYERS[sender][0]
    return Case(
        sender,
        subject,
        (f"Kennwort: {password}", *orders, *extra),
        orders,
        ("=C3", "=E4", "=DF", "=20", "\ufffd", "Ã", *absent),
        quoted,
    )


def _ignored(sender: str, subject: str, *lines: str) -> Case:
    return Case(sender, subject, lines, no_reply=True)


RE_ACK = "Re: [alpha] Züge erhalten, Runde 1"
HTML = ("<p", "<div", "<br", "&nbsp;", "&auml;", "&szlig;", "MsoNormal", "font-family")

CASES: dict[str, Case] = {
    # Thunderbird: format=flowed; the greeting paragraph was soft-wrapped over three lines.
    "01_thunderbird_flowed.eml": _answer(
        ANNA,
        "Züge für Runde 1",
        (
            "Runde: 1",
            "Räuber C4, raube blau",
            "Straße 12W 9H",
            "Siedlung 12W 9H H-Hafen",
            "Stadt 5W 10W 9H",
            "Entwicklungskarte",
        ),
        extra=(
            "Hallo Spielleitung, hier sind meine Züge für diese Runde, ich hoffe diesmal "
            "klappt es mit dem Handel besser als beim letzten Mal.",
            "-- ",
            "Gartenstraße 12, 12345 Musterstadt",
        ),
    ),
    "02_thunderbird_reply_quoted.eml": _answer(
        ANNA,
        RE_ACK,
        ("Straße 4H 5W", "Handel gelb: gebe 2H, bekomme 1E"),
        extra=(
            "Am 10.01.26 um 12:08 schrieb pbm game master:",
            ">     2  Stadt E3 F2 F3 (4H 8E 10W)",
        ),
        quoted=(ANNA_OLD,),
    ),
    # HTML-only reply: the quote is a <blockquote> of a status answer listing the old orders.
    "03_thunderbird_html_only_reply.eml": _answer(
        ANNA, RE_ACK, ("Straße 4H 8E", "Seehandel 4H gegen 1E"), absent=HTML, quoted=(ANNA_OLD,)
    ),
    "04_outlook_alternative_cp1252_qp.eml": _answer(
        BERND,
        "AW: [alpha] Züge erhalten, Runde 1",
        ("Räuber C4, raube blau", "Abwurf: W W G", "Stadt bei Siedlung 6G 9E 3L", "Straße C3 D4"),
        extra=("Bernd Schäfer", "-----Ursprüngliche Nachricht-----"),
        absent=HTML,
        quoted=(BERND_OLD,),
    ),
    # HTML-only, Word markup; one paragraph is wrapped inside the HTML source.
    "05_outlook_html_only.eml": _answer(
        BERND,
        "AW: [alpha] Züge erhalten, Runde 1",
        ("Räuber C4, raube blau", "Abwurf: W W G", "Stadt bei Siedlung 6G 9E 3L", "Straße C3 D4"),
        extra=("Bernd Schäfer",),
        absent=(*HTML, "Cambria", "panose", "shapedefaults"),
        quoted=(BERND_OLD,),
    ),
    "06_outlook_mixed_attachments.eml": _answer(
        BERND,
        "AW: [alpha] Züge erhalten, Runde 1",
        ("Seehandel 4H gegen 1E", "Straße 9E 4H"),
        extra=("Die Tabelle hänge ich an.",),
        absent=("%PDF", BERND_OLD, *HTML),
        quoted=(BERND_OLD,),
    ),
    # Outlook with S/MIME, "clear text signed" off: the whole mail inside the signature
    # (`smime.p7m`, an attachment by its header), read as the mail it holds.
    "24_outlook_smime_opaque_signed.eml": _answer(
        BERND,
        "AW: [alpha] Züge erhalten, Runde 1",
        ("Seehandel 4H gegen 1E", "Straße 9E 4H"),
        extra=("Bernd",),
        absent=(*HTML, "MII"),
    ),
    "07_gmail_alternative_qp.eml": _answer(
        CARLA,
        RE_ACK,
        ("Runde: 1", "Handel gelb: gebe 2H, bekomme 1E", "Stadt 11G 6G 5W", "Straße 8L 4L"),
        extra=("Liebe Grüße, Carla",),
        absent=HTML,
        quoted=(CARLA_OLD,),
    ),
    "08_gmail_base64.eml": _answer(
        CARLA,
        RE_ACK,
        ("Runde: 1", "Handel gelb: gebe 2H, bekomme 1E", "Stadt 11G 6G 5W", "Straße 8L 4L"),
        absent=(*HTML, "S2Vu"),
        quoted=(CARLA_OLD,),
    ),
    "09_apple_mail_alternative.eml": _answer(
        DIETER,
        "Züge",
        ("Räuber C4, raube blau", "Stadt 5E 8L 10H", "Entwicklungskarte"),
        extra=("Gruß",),
        absent=HTML,
    ),
    "10_apple_iphone_plain.eml": _answer(
        DIETER,
        RE_ACK,
        ("Straße 10H 3W", "Straße 11G Wüste", "Siedlung 11G Meer Wüste"),
        extra=("Von meinem iPhone gesendet",),
        quoted=(DIETER_OLD,),
    ),
    # format=flowed; delsp=yes: the soft-break space is removed, even inside a word.
    "11_apple_mail_flowed_delsp.eml": _answer(
        DIETER,
        "Züge Runde 1",
        ("Handel gelb: gebe 2H, bekomme 1E", "Straße C3 C4"),
        extra=(
            "Dies ist ein langer Satz, den Apple Mail mit delsp umbricht: "
            "Donaudampfschifffahrtsgesellschaft.",
        ),
    ),
    # quoted-printable with a soft line break in the middle of an order.
    "12_k9_plain_qp.eml": _answer(
        ANNA,
        "Züge",
        (
            "Räuber C4, raube blau",
            "Handel gelb: gebe 2H, bekomme 1E",
            "Straße E4 E5",
            "Stadt E4 F3 F4",
        ),
        extra=("Gesendet von meinem Fairphone mit K-9 Mail.",),
    ),
    # HTML body and a text/plain attachment: the attachment is not the body.
    "13_k9_html_with_txt_attachment.eml": _answer(
        ANNA,
        "Zuege",
        ("Straße F2 F3", "Seehandel 4H gegen 1E"),
        extra=("Anhang: meine alten Züge",),
        absent=(*HTML, ANNA_OLD),
        quoted=(ANNA_OLD,),
    ),
    "14_latin1_declared.eml": _answer(
        BERND,
        "Züge",
        ("Räuber C4, raube blau", "Straße D2 E2", "Abwurf: W W G"),
        extra=("Grüße aus Köln",),
    ),
    # No charset declared; windows-1252 bytes (ß, „ “, –).
    "15_cp1252_undeclared.eml": _answer(
        BERND,
        "Zuege Runde 1",
        ("Straße E2 E3", "Handel blau: gebe 1W, bekomme 1L"),
        extra=("# „Notiz“: nächstes Mal Stadt – vielleicht",),
    ),
    "16_no_mime_headers_latin1.eml": _answer(
        BERND, "Zuege", ("Straße 2H 10H", "Straße 5E 2H", "Siedlung Meer 5E 2H"), extra=("Tschüß",)
    ),
    "17_missing_message_id.eml": _answer(CARLA, "Züge", ("Straße D4 E3", "Entwicklungskarte")),
    # Broken quoted-printable, an attachment that is not base64, an empty charset.
    "18_broken_mime_parts.eml": _answer(
        CARLA,
        "Zuege mit kaputtem Anhang",
        ("Straße B3 C4", "Seehandel 4H gegen 1E"),
        absent=(CARLA_OLD, "SGFsbG8"),
        quoted=(CARLA_OLD,),
    ),
    "19_unterminated_multipart.eml": _answer(
        CARLA, "Zuege", ("Räuber C4, raube rot", "Straße 6G 5W")
    ),
    "20_unknown_charset.eml": _answer(ANNA, "Zuege", ("Straße F3 F4", "Räuber C4, raube blau")),
    # Raw UTF-8 in the headers (RFC 6532), as some phone clients send it.
    "21_subject_8bit_utf8.eml": _answer(
        DIETER, "Züge für Runde 1", ("Straße B2 C3", "Entwicklungskarte")
    ),
    "22_latin1_b_encoded_subject.eml": _answer(
        BERND, "Züge für die Straße", ("Straße C2 D3", "Straße D3 D4")
    ),
    "23_auto_submitted_no.eml": _answer(
        CARLA, "Zuege", ("Straße 8L 4L", "Straße 4L 11G", "Siedlung 4L 3:1-Hafen 11G")
    ),
    # ---- never answered -----------------------------------------------------------------------
    "30_vacation_auto_replied.eml": _ignored(
        ANNA, "Abwesend: [alpha] Züge erhalten, Runde 1", "Stadt C4 C5 D5"
    ),
    "31_exchange_oof_auto_generated.eml": _ignored(
        BERND, "Automatische Antwort: [alpha] Züge erhalten", "Stadt C4 C5 D5"
    ),
    "32_webmail_x_autoreply.eml": _ignored(ANNA, "Re: [alpha] Zuege erhalten, Runde 1"),
    "33_precedence_bulk.eml": _ignored(CARLA, "Zuege", "Straße C3 C4"),
    "34_precedence_junk.eml": _ignored(CARLA, "Zuege", "Straße C3 C4"),
    "35_precedence_list.eml": _ignored(CARLA, "Zuege", "Straße C3 C4"),
    "36_bounce_empty_return_path.eml": _ignored(
        "noreply@mx.firma.test", "Unzustellbar: [alpha] Zuege erhalten"
    ),
    "37_bounce_mailer_daemon.eml": _ignored(
        "mailer-daemon@mx.firma.test", "Returned mail: see transcript for details"
    ),
    "38_bounce_multipart_report.eml": _ignored(
        "bounces@mx.firma.test", "Undelivered Mail Returned to Sender"
    ),
    "39_list_mail.eml": _ignored(CARLA, "[siedler-runde] Meine Zuege", "Straße C3 C4"),
    "40_own_address.eml": _ignored(GM, "[alpha] Bericht Runde 1", "Hilfe"),
    "41_loop_header.eml": _ignored(ANNA, "Fwd: [alpha] Züge erhalten", "Straße C3 C4"),
}

NAMES = sorted(CASES)


def _raw(name: str) -> bytes:
    return (CORPUS / name).read_bytes()


def _lines(text: str) -> set[str]:
    return {line.replace("\u00a0", " ").strip() for line in text.splitlines()} | {
        line.replace("\u00a0", " ").rstrip("\r") for line in text.splitlines()
    }


# -- parse_inbound --------------------------------------------------------------------------------


def test_the_corpus_is_complete() -> None:
    files = sorted(p.name for p in CORPUS.glob("*.eml"))
    assert files == NAMES
    assert sum(not c.no_reply for c in CASES.values()) >= 20
    assert sum(c.no_reply for c in CASES.values()) >= 12


@pytest.mark.timeout(30)
@pytest.mark.parametrize("name", NAMES)
def test_parse_inbound(name: str) -> None:
    case = CASES[name]
    inbound = parse_inbound(_raw(name), GM)
    assert inbound.sender == case.sender
    assert inbound.subject == case.subject
    assert inbound.message_id.startswith("<") and inbound.message_id.endswith(">")
    lines = _lines(inbound.text)
    missing = [line for line in case.lines if line not in lines]
    assert not missing, f"{missing} not among the lines of:\n{inbound.text}"
    for fragment in case.absent:
        assert fragment not in inbound.text, f"{fragment!r} in:\n{inbound.text}"
    parsed = [text for _, text in clean_lines(inbound.text)]
    for old in case.quoted:
        assert not [line for line in parsed if old in line], (
            f"quoted {old!r} would be read as an order:\n{inbound.text}"
        )
    if case.no_reply:
        assert inbound.no_reply, "this mail must never be answered"
    else:
        assert inbound.no_reply == "", f"wrongly not answered: {inbound.no_reply}"


def test_a_mail_without_message_id_gets_a_stable_one() -> None:
    raw = _raw("17_missing_message_id.eml")
    first, again = parse_inbound(raw, GM), parse_inbound(raw, GM)
    assert first.message_id == again.message_id
    other = parse_inbound(raw.replace(b"D4 E3", b"D4 D5"), GM)
    assert other.message_id != first.message_id


def test_own_address_is_recognised_in_any_case() -> None:
    raw = _raw("40_own_address.eml")
    assert parse_inbound(raw, "GM@PBM.TEST").no_reply
    assert parse_inbound(raw, "someone-else@pbm.test").no_reply == ""


# -- through the service ---------------------------------------------------------------------------


@dataclass
class Table:
    svc: Service
    ctx: Context


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """A game of the four corpus senders at the start of round 1, passwords as in the corpus."""
    clock = FakeClock()
    svc = make_service(tmp_path_factory.mktemp("corpus"), clock)
    yield Table(svc, start_game(Mailer(svc), clock, cast=True).ctx)
    svc.engine.dispose()


def _count(svc: Service, model: type) -> int:
    with Session(svc.engine) as s:
        return int(s.exec(select(func.count()).select_from(model)).one())


def _accepted(body: str) -> list[str]:
    """The canonical lines under "Angenommen:" (each `  <line number>  <canonical>`)."""
    out: list[str] = []
    inside = False
    for line in body.splitlines():
        m = re.match(r"^ +\d+  (.*)$", line)
        if line.strip() == "Angenommen:":
            inside = True
        elif inside and m:
            out.append(m.group(1).strip())
        elif inside:
            break
    return out


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", NAMES)
def test_through_the_service(table: Table, name: str) -> None:
    svc, case = table.svc, CASES[name]
    raw = _raw(name)
    message_id = parse_inbound(raw, GM).message_id
    outbox_before, orders_before = _count(svc, Outbox), _count(svc, OrderSet)
    result = ingest(svc, raw)
    assert not result.duplicate
    with Session(svc.engine) as s:
        mail = s.exec(select(InboundMail).where(InboundMail.message_id == message_id)).one()
        replies = list(
            s.exec(select(Outbox).where(Outbox.in_reply_to == message_id).order_by(col(Outbox.id)))
        )
    # Kept as it came, but for the values of its password lines (masked once processed, also
    # in a mail that is never answered): the same text with **** for the password.
    inbound = parse_inbound(raw, GM)
    password = parse_mail(inbound.text, Context(generate_board("medium", 0))).password
    stored = parse_inbound(mail.raw, GM)
    if password and "*" not in password:
        assert password.encode() not in mail.raw and password not in stored.text
    assert stored.text == masked(inbound.text, *password_values(inbound.text))
    assert stored.subject == inbound.subject and stored.sender == inbound.sender
    if case.no_reply:
        assert (result.status, mail.status) == ("ignored", "ignored")
        assert mail.error, "the reason is kept"
        assert _count(svc, Outbox) == outbox_before, "no outbox row at all"
        assert _count(svc, OrderSet) == orders_before
        return
    assert result.status == "done", mail.error
    assert len(replies) == 1, [(r.kind, r.recipients) for r in replies]
    reply = replies[0]
    assert (reply.kind, reply.recipients) == ("ack", case.sender), reply.body
    assert _count(svc, OrderSet) == orders_before + 1
    accepted = _accepted(reply.body)
    assert accepted[0] == "Kennwort: ****", reply.body
    for line in case.orders:
        canonical = parse_mail(line, table.ctx).lines[0].canonical
        assert canonical in accepted, f"{line!r} ({canonical!r}) not accepted:\n{reply.body}"
    for old in case.quoted:
        canonical = parse_mail(old, table.ctx).lines[0].canonical
        assert canonical not in accepted, f"quoted {old!r} was taken as an order:\n{reply.body}"
    assert "\ufffd" not in reply.body and "Ã" not in reply.body


@pytest.mark.timeout(30)
def test_a_mail_without_message_id_fetched_twice_is_a_duplicate(table: Table) -> None:
    raw = _raw("17_missing_message_id.eml").replace(b"D4 E3", b"D4 D5")
    svc = table.svc
    before = _count(svc, Outbox)
    first = ingest(svc, raw)
    again = ingest(svc, raw)
    assert (first.duplicate, first.status) == (False, "done")
    assert (again.duplicate, again.status) == (True, "duplicate")
    assert again.mail_id == first.mail_id
    assert _count(svc, Outbox) == before + 1
