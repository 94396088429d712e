"""What players write besides orders: a name signed under them (the one the player joined
with) is no refused order, as the reader knows no names but the service does; a question is
answered with where questions go."""

from __future__ import annotations

import pytest
from databases import seated
from harness import Games, Mailer
from sqlmodel import Session, col, select

from pbm.service.context import Service
from pbm.store.models import Outbox, Player


def _rename(svc: Service, address: str, name: str) -> None:
    with Session(svc.engine) as s:
        player = s.exec(select(Player).where(Player.address == address)).first()
        assert player is not None
        player.name = name
        s.add(player)
        s.commit()


def _ack(svc: Service, address: str) -> str:
    with Session(svc.engine) as s:
        rows = s.exec(select(Outbox).order_by(col(Outbox.id).desc()))
        return next(r.body for r in rows if address in r.recipients.split(","))


@pytest.mark.parametrize("signed", ["Anna", "anna", "- Anna", "Anna Müller", "Anna.", "—Anna"])
def test_the_players_own_name_under_the_orders_is_not_refused(
    svc: Service, mailer: Mailer, games: Games, signed: str
) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    _rename(svc, me, "Anna Müller")
    mailer.send(me, "Züge", f"Kennwort: {table.passwords[me]}\nIch passe\n\n{signed}\n")
    body = _ack(svc, me)
    assert "Abgelehnt:" not in body and "ist kein Befehl" not in body, body


def test_another_name_is_still_refused(svc: Service, mailer: Mailer, games: Games) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    _rename(svc, me, "Anna")
    mailer.send(me, "Züge", f"Kennwort: {table.passwords[me]}\nIch passe\nBerta\n")
    body = _ack(svc, me)
    assert "Abgelehnt:" in body and "'Berta' ist kein Befehl" in body
    assert seated(svc, "alpha")[0].name == "Anna"


def test_a_question_in_an_orders_mail_is_told_where_questions_go(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(
        me,
        "Frage",
        f"Kennwort: {table.passwords[me]}\nKurze Frage: wann ist die Frist genau?\n",
    )
    body = _ack(svc, me)
    assert "Eine Frage? Diese Adresse liest Züge." in body
    assert "'An Spielleitung:'" in body


@pytest.mark.parametrize(
    "written",
    [
        "{pw}",  # alone on its line, as copied from the welcome mail
        "Kennwort: {spaced}",  # blanks where the dashes go
        "{spaced}",
        "Pwd: {pw}",
        "{nbsp}",  # a phone's non-breaking spaces
        "Kenwort: {pw}",  # a label misspelt: nothing but a password has the shape
        "Pasword= {pw}",
        # After a greeting on the same line (the answer said it stood in a quoted mail).
        "Hallo! Mein Kennwort ist {pw}",
        "Hi, here are my orders. Password: {pw}",
        "Hej! Min adgangskode er {pw}.",
        "Hallo! Mein Kennwort ist {own}",  # the colour with its own letters (`weiß-`)
    ],
)
def test_a_password_in_pbms_shape_is_read_however_it_is_written(
    svc: Service, mailer: Mailer, games: Games, written: str
) -> None:
    """And kept in no stored mail, in any of these forms."""
    from databases import order_sets

    from pbm.store.models import InboundMail, OrderSet

    table = games.start("alpha")
    # A seat whose colour has a spelling with its own letters (`weiß-`, `grün-`).
    letters = {"weiss": "weiß", "gruen": "grün"}
    me = next(a for a in table.seats.values() if table.passwords[a].split("-")[0] in letters)
    pw = table.passwords[me]
    colour = pw.split("-")[0]
    own = letters[colour] + pw[len(colour) :]
    line = written.format(
        pw=pw, spaced=pw.replace("-", " "), nbsp=pw.replace("-", "\u00a0"), own=own
    )
    before = len(order_sets(svc, "alpha"))
    mailer.send(me, "Züge", f"{line}\nIch passe\n")
    assert len(order_sets(svc, "alpha")) == before + 1
    with Session(svc.engine) as s:
        raw = s.exec(select(InboundMail).order_by(col(InboundMail.id).desc())).first()
        assert raw is not None
        kept = raw.raw.decode("utf-8", "replace")
        stored = s.exec(select(OrderSet).order_by(col(OrderSet.id).desc())).first()
        assert stored is not None
    for text in (kept, stored.text):  # the stored mail and the stored orders
        assert pw not in text and pw.replace("-", " ") not in text
        assert pw.split("-")[1] not in text  # not one syllable pair of it


def test_orders_sent_as_an_attachment_are_told_attachments_are_not_read(
    svc: Service, games: Games
) -> None:
    from email.message import EmailMessage

    from databases import replies_to

    from pbm.service.ingest import ingest

    table = games.start("alpha")
    me = table.seats[0]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = me, "gm@pbm.test", "Züge"
    msg["Message-ID"] = "<attached@players.test>"
    msg.set_content("Siehe Anhang.\n")
    orders = f"Kennwort: {table.passwords[me]}\nIch passe\n"
    msg.add_attachment(orders.encode(), maintype="text", subtype="plain", filename="zuege.txt")
    ingest(svc, msg.as_bytes())
    (answer,) = replies_to(svc, "<attached@players.test>")
    assert "Anhänge werden nicht gelesen" in " ".join(answer.body.split()), answer.body


def test_a_partner_or_victim_named_by_name_is_their_seat(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """`Handel mit Bernd: …`, `raube Bernd`: pbm mailed the roster ("blau Bernd"); a name
    that is one player's alone reads as their colour, echoed as the colour."""
    from pbm.notation import vocab

    table = games.start("alpha")
    me, other = table.seats[0], table.seats[1]
    _rename(svc, other, "Bernd Schmidt")
    colour = vocab.colour_name(seated(svc, "alpha")[1].colour or "", "de")
    mailer.send(
        me,
        "Züge",
        f"Kennwort: {table.passwords[me]}\nHandel mit Bernd: gebe 1H, bekomme 1L\n",
    )
    body = _ack(svc, me)
    assert f"Handel {colour}: gebe 1H, bekomme 1L" in body, body
    assert "keine Farbe" not in body


def test_a_name_two_players_share_is_still_asked_for_as_a_colour(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    _rename(svc, table.seats[1], "Anna Berg")
    _rename(svc, table.seats[2], "Anna Tal")
    mailer.send(
        me, "Züge", f"Kennwort: {table.passwords[me]}\nHandel mit Anna: gebe 1H, bekomme 1L\n"
    )
    assert "'Anna' ist keine Farbe" in _ack(svc, me)


@pytest.mark.parametrize("written", ["{a} - {b}", "{mixed}"])
def test_a_password_written_half_one_way_is_not_taken_and_not_kept(
    svc: Service, mailer: Mailer, games: Games, written: str
) -> None:
    """Blanks around the dashes, or dashes and blanks mixed: not read as the password (the
    reader takes one kind of separator), and not kept in the stored mail either."""
    from pbm.store.models import InboundMail

    table = games.start("alpha")
    me = table.seats[0]
    pw = table.passwords[me]
    parts = pw.split("-")
    line = written.format(
        a=parts[0], b=" - ".join(parts[1:]), mixed="-".join(parts[:3]) + " " + " ".join(parts[3:])
    )
    mailer.send(me, "Züge", f"Kennwort: {line}\nIch passe\n")
    with Session(svc.engine) as s:
        raw = s.exec(select(InboundMail).order_by(col(InboundMail.id).desc())).first()
        assert raw is not None and raw.error == "bad password"
        kept = raw.raw.decode("utf-8", "replace")
    assert parts[2] not in kept and parts[4] not in kept


@pytest.mark.parametrize(
    ("body", "said"),
    [
        # Outlook: the player typed into the quoted order form, under the reply header.
        (
            "Hallo, meine Züge stehen unten im Formular.\n\n"
            "Von: pbm game master <gm@pbm.test>\nGesendet: Freitag, 9. Januar 2026 13:08\n"
            "An: anna@players.test\nBetreff: [alpha] Bericht Runde 1\n\n"
            "Kennwort: {pw}\nIch passe\n",
            "nur in der zitierten Mail darunter",
        ),
        ("Ich passe\n\n> Kennwort: {pw}\n", "nur in der zitierten Mail darunter"),
    ],
)
def test_a_password_only_in_the_quoted_mail_is_told_where_it_stood(
    svc: Service, mailer: Mailer, games: Games, body: str, said: str
) -> None:
    """The answer was only "the password is missing or wrong" to a player who had typed the
    right one."""
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(me, "Re: [alpha] Bericht Runde 1", body.format(pw=table.passwords[me]))
    answer = _ack(svc, me)
    assert "Kennwort fehlt oder ist falsch." in answer
    assert said in answer and "oben in deine Mail" in answer


def test_a_password_only_in_the_subject_is_told_to_go_into_the_text(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(me, f"Kennwort: {table.passwords[me]}", "Ich passe\n")
    answer = _ack(svc, me)
    assert "Das Kennwort stand nur im Betreff" in answer


@pytest.mark.parametrize(
    "question",
    ["Wann ist eigentlich die Frist?", "Darf ich zwei Straßen in einer Runde bauen?"],
)
def test_a_question_beside_valid_orders_is_told_where_questions_go(
    svc: Service, mailer: Mailer, games: Games, question: str
) -> None:
    """The orders were taken and the question only refused as "no order": nobody answered it."""
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(me, "Züge", f"Kennwort: {table.passwords[me]}\nIch passe\n{question}\n")
    body = _ack(svc, me)
    assert "Angenommen:" in body
    assert "Eine Frage? Diese Adresse liest Züge." in body


@pytest.mark.parametrize("lang", ["da", "de"])
def test_the_colour_of_a_password_may_be_written_with_its_own_letters(
    svc: Service, mailer: Mailer, games: Games, lang: str
) -> None:
    """The welcome mail writes `roed-…` / `weiss-…`; a Dane who writes `rød-…` (as the Danish
    guide showed it) was told the password is wrong."""
    from databases import order_sets

    table = games.start("alpha", lang=lang)
    word = {"roed": "rød", "blaa": "blå", "groen": "grøn", "weiss": "weiß", "gruen": "grün"}
    seat = next(a for a in table.seats.values() if table.passwords[a].split("-")[0] in word)
    pw = table.passwords[seat]
    colour, rest = pw.split("-", 1)
    label = {"da": "Adgangskode", "de": "Kennwort"}[lang]
    passing = {"da": "Jeg melder pas", "de": "Ich passe"}[lang]
    before = len(order_sets(svc, "alpha"))
    mailer.send(seat, "Ordrer", f"{label}: {word[colour]}-{rest}\n{passing}\n")
    assert len(order_sets(svc, "alpha")) == before + 1


def test_a_question_without_the_password_is_told_where_questions_go(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """The answer was only "the password is missing or wrong"."""
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(me, "Frage", "Hallo, wann ist eigentlich die Frist?\n")
    answer = _ack(svc, me)
    assert "Kennwort fehlt oder ist falsch." in answer
    assert "'An Spielleitung:'" in answer


#: The hint's opening in each language.
_QUESTION_HINT = {
    "de": "Eine Frage? Diese Adresse liest Züge.",
    "en": "A question? This address reads orders.",
    "da": "Et spørgsmål? Denne adresse læser ordrer.",
}
_PASS = {"de": "Ich passe", "en": "I pass", "da": "Jeg melder pas"}


@pytest.mark.parametrize(
    ("lang", "question"),
    [
        # The QA mail: two question marks, then more of the sentence.
        ("de", "Wieso war mein Banditenzug ungültig?? Es stand doch nirgends dass das nicht geht"),
        ("de", "Warum wurde meine Straße abgelehnt"),
        ("en", "Why was my robber refused? It said nowhere that this is not allowed"),
        ("en", "How do I build a ship"),
        ("da", "Hvorfor blev min røver afvist? Der stod ingen steder, at det ikke går"),
        ("da", "Hvordan bygger jeg et skib"),
    ],
)
def test_a_question_anywhere_in_its_line_is_told_where_questions_go(
    svc: Service, mailer: Mailer, games: Games, lang: str, question: str
) -> None:
    """The hint came only where the line ended on its question mark: a question word first,
    or a question mark with the sentence going on after it, asks as well."""
    table = games.start("alpha", lang=lang)
    me = table.seats[0]
    mailer.send(me, "Orders", f"Password: {table.passwords[me]}\n{_PASS[lang]}\n{question}\n")
    body = _ack(svc, me)
    assert _QUESTION_HINT[lang] in body, body


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("de", "Straße 6L 5L (?)"),
        ("de", "Wie letzte Runde"),
        ("en", "Road 6B 5B (?)"),
        ("en", "Road 6B 5B? or else nothing"),
        ("da", "Vej 6T 5T (?)"),
    ],
)
def test_an_order_with_a_doubt_is_no_question(
    svc: Service, mailer: Mailer, games: Games, lang: str, line: str
) -> None:
    """A question mark inside an order line is a doubt beside the order (the remarks read
    it), not a question to send elsewhere; `Wie letzte Runde` tells."""
    from pbm.notation.lines import asks_a_question

    assert not asks_a_question(line)
    table = games.start("alpha", lang=lang)
    me = table.seats[0]
    mailer.send(me, "Orders", f"Password: {table.passwords[me]}\n{_PASS[lang]}\n{line}\n")
    assert _QUESTION_HINT[lang] not in _ack(svc, me)


def test_a_question_word_without_the_password_is_told_where_questions_go(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha", lang="da")
    me = table.seats[0]
    mailer.send(me, "Spørgsmål", "Hej, hvornår er fristen? Jeg kan ikke finde den\n")
    assert "'Til spilleder:'" in _ack(svc, me)
