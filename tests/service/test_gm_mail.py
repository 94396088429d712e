"""The game master by mail (issue 28): replies to forwarded player mails, mail commands with
the GM password, and everything else answered with what the GM can do; through the in-memory
mail path (`ingest`). The same over real servers: tests/mail/test_gm_mail_e2e.py."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from databases import game_row, inbound, order_sets, outbox, replies_to, seated
from harness import Games, Mailer, Table, set_service
from sqlmodel import Session, select

from pbm.notation import vocab
from pbm.service import admin
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.gm_mail import new_gm_password
from pbm.service.press import thread_id
from pbm.service.secrets import verify_password
from pbm.service.table import as_utc
from pbm.store.models import GmKey, Outbox

#: The GM reads the alerts here and writes from here or from the phone.
DESK = "spielleitung@pbm.test"
PHONE = "sl.mobil@pbm.test"


@pytest.fixture
def table(svc: Service, games: Games) -> Iterator[Table]:
    """Game alpha in round 1; the GM's addresses are set after it started (the game factory's
    snapshot stays shared)."""
    started = games.start("alpha")
    set_service(svc, gm_address=DESK)
    set_service(svc, gm=[PHONE])
    yield started


def _forwarded(svc: Service, mailer: Mailer, table: Table, seat: int = 1) -> Outbox:
    """A player's `An Spielleitung:` mail, as pbm forwarded it to the GM."""
    me = table.seats[seat]
    mailer.send(me, "Frage", f"Kennwort: {table.passwords[me]}\nAn Spielleitung: Ich bin krank.\n")
    return outbox(svc, "press_gm")[-1]


def _reply_headers(row: Outbox) -> dict[str, str]:
    """What a mail program writes into a reply to the forwarded mail."""
    return {"In-Reply-To": row.message_id, "References": f"{row.in_reply_to} {row.message_id}"}


QUOTED = "\n\nViele Grüße\n-- \nDie Spielleitung\n\nAm 03.01.2026 schrieb pbm:\n> Ich bin krank.\n"


def test_a_gm_reply_to_a_forwarded_mail_reaches_the_player_in_their_thread(
    svc: Service, mailer: Mailer, table: Table
) -> None:
    row = _forwarded(svc, mailer, table)
    assert row.recipients == DESK
    # The forwarded mail tells the GM that a reply works.
    assert "Oder antworte auf diese Mail" in row.body
    player = table.seats[1]
    result = mailer.send(
        DESK, f"Re: {row.subject}", "Gute Besserung!" + QUOTED, _reply_headers(row)
    )
    assert result.status == "done"
    (answer,) = outbox(svc, "press", to=player)
    assert answer.recipients == player
    assert "Die Spielleitung schreibt dir:" in answer.body
    assert "Gute Besserung!" in answer.body and "Viele Grüße" in answer.body
    assert "Ich bin krank" not in answer.body and "Die Spielleitung\n" not in answer.body
    colour = seated(svc, "alpha")[1].colour
    assert answer.in_reply_to == thread_id(svc, game_row(svc, "alpha"), f"gm-{colour}")
    assert answer.in_reply_to == row.in_reply_to
    # The GM is told where it went; nothing of it was read as orders.
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    who = f"{colour} ({seated(svc, 'alpha')[1].name})"
    assert told.recipients == DESK and f"Deine Antwort ging an {who}." in told.body
    assert order_sets(svc, "alpha") == []
    (stored,) = inbound(svc, mailer.last_id)
    assert stored.status == "done" and stored.game_id == game_row(svc, "alpha").id


def test_a_reply_from_another_gm_address_counts_too(
    svc: Service, mailer: Mailer, table: Table
) -> None:
    row = _forwarded(svc, mailer, table, seat=2)
    mailer.send(PHONE, f"Re: {row.subject}", "Kommt sofort." + QUOTED, _reply_headers(row))
    (answer,) = outbox(svc, "press", to=table.seats[2])
    assert "Kommt sofort." in answer.body
    assert replies_to(svc, mailer.last_id, "gm_mail")[0].recipients == PHONE


def test_a_forged_reply_without_the_token_reaches_nobody(
    svc: Service, mailer: Mailer, table: Table
) -> None:
    """From can be forged, and the thread's root Message-ID can be guessed: only the
    forwarded mail's own Message-ID (or the GM password) lets a reply through."""
    row = _forwarded(svc, mailer, table)
    guessed = {"In-Reply-To": row.in_reply_to, "References": row.in_reply_to}
    mailer.send(DESK, f"Re: {row.subject}", "Du bist raus." + QUOTED, guessed)
    assert outbox(svc, "press") == []
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert told.recipients == DESK
    assert "pbm konnte deine Mail nicht zuordnen" in told.body
    assert "Verlängern: 24" in told.body  # what the GM can do by mail
    assert inbound(svc, mailer.last_id)[0].error == "gm: not placed"


def test_mail_from_a_gm_address_is_never_read_as_orders(
    svc: Service, mailer: Mailer, table: Table
) -> None:
    """The GM plays too, but from the address pbm now reads as the GM's: orders with the
    seat's right password are not taken; the GM learns what mail from that address does."""
    me = table.seats[0]
    set_service(svc, gm=[PHONE, me])
    body = f"Kennwort: {table.passwords[me]}\nStraße C3 D4\n"
    mailer.send(me, "Züge", body)
    assert order_sets(svc, "alpha") == []
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert "nie als Züge eines\nSpielers gelesen" in told.body
    assert table.passwords[me] not in told.body


def test_commands_with_the_gm_password(
    svc: Service, mailer: Mailer, table: Table, clock: FakeClock
) -> None:
    password = new_gm_password(svc)
    before = game_row(svc, "alpha").deadline
    assert before is not None
    body = (
        f"Kennwort: {password}\nSpiel: alpha\nPause\nVerlängern: 24 Stunden\n"
        "Grund: Die Feiertage\nAnkündigung: Frohes Fest!\n\nBis bald.\n-- \nSL\n"
    )
    mailer.send(PHONE, "Feiertage", body)
    game = game_row(svc, "alpha")
    assert game.paused and game.deadline == before + svc.config.service.hours(24)
    notices = {o.subject: o for o in outbox(svc, "gm_notice")}
    assert "Grund: Die Feiertage" in notices["[alpha] Neue Frist"].body
    assert "[alpha] Spiel pausiert" in notices
    announce = notices["[alpha] Von der Spielleitung"]
    assert "Frohes Fest!\n\nBis bald." in announce.body and "SL" not in announce.body
    assert set(announce.recipients.split(",")) == set(table.addresses)
    (done,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert done.subject == "[alpha] Erledigt" and done.recipients == PHONE
    assert "Das Spiel ist pausiert" in done.body and "Neue Frist:" in done.body
    # The password is in no stored mail and no mail sent.
    (stored,) = inbound(svc, mailer.last_id)
    assert password.encode() not in stored.raw
    assert all(password not in o.body for o in outbox(svc))
    # Resume, and a message to one colour, in English words in a German game.
    mailer.send(DESK, "x", f"Password: {password}\nGame: alpha\nResume\nMessage to yellow: Hi!\n")
    assert not game_row(svc, "alpha").paused
    gelb = next(p for p in seated(svc, "alpha").values() if p.colour == "gelb")
    (message,) = outbox(svc, "press", to=gelb.address)
    assert "Die Spielleitung schreibt dir:" in message.body and "Hi!" in message.body


def test_a_command_mail_with_a_mistake_does_nothing(
    svc: Service, mailer: Mailer, table: Table
) -> None:
    password = new_gm_password(svc)
    before = outbox(svc)
    mailer.send(DESK, "x", f"Kennwort: {password}\nSpiel: alpha\nPause\nVerlängern 24\n")
    # No reason for the deadline: nothing is done, not even the pause.
    assert not game_row(svc, "alpha").paused
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert "braucht ihren Grund" in told.body
    mailer.send(DESK, "x", f"Kennwort: {password}\nSpiel: alpha\nPause\nBitte alle warten\n")
    assert not game_row(svc, "alpha").paused
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert "Diese Zeilen sind kein Befehl" in told.body and "> Bitte alle warten" in told.body
    # A command the service refuses takes back the others of the mail (a savepoint), and the
    # reason is in the game's language.
    ended = len(outbox(svc))
    mailer.send(
        DESK, "x", f"Kennwort: {password}\nSpiel: alpha\nPause\nVerlängern: 5000\nGrund: x\n"
    )
    assert not game_row(svc, "alpha").paused
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    said = " ".join(told.body.split())
    assert (
        "Es wurde nichts getan: Per Mail wird eine Frist um 1 bis 2000 Stunden verschoben." in said
    )
    assert [o.kind for o in outbox(svc)[ended:]] == ["gm_mail"]
    # An ended game is not paused: said in its language too.
    admin.end_game(svc, "alpha", "Schluss")
    mailer.send(DESK, "x", f"Kennwort: {password}\nSpiel: alpha\nPause\n")
    assert not game_row(svc, "alpha").paused
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    said = " ".join(told.body.split())
    assert "Es wurde nichts getan: Das Spiel ist beendet: es gibt nichts anzuhalten." in said
    assert len(before) < ended
    # Nor is its deadline moved: said in its language, not the command line's English.
    mailer.send(DESK, "x", f"Kennwort: {password}\nSpiel: alpha\nVerlängern: 5\nGrund: x\n")
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    said = " ".join(told.body.split())
    assert "keine offene Runde und keinen Zug in der Aufstellung: keine Frist zu verschieben" in (
        said
    )
    assert "has no open round" not in said


def test_a_wrong_or_missing_gm_password(svc: Service, mailer: Mailer, table: Table) -> None:
    mailer.send(DESK, "x", "Kennwort: gm-baba-baba-baba-baba-baba\nSpiel: alpha\nPause\n")
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert "noch kein Spielleitungs-Kennwort" in told.body
    new_gm_password(svc)
    mailer.send(DESK, "x", "Kennwort: gm-baba-baba-baba-baba-baba\nSpiel: alpha\nPause\n")
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert "Spielleitungs-Kennwort ist falsch" in told.body
    # In the language of the game the mail names, not in all three.
    assert "The GM password" not in told.body and "spillederens" not in told.body.lower()
    assert inbound(svc, mailer.last_id)[0].error == "gm: wrong password"
    mailer.send(DESK, "x", "Spiel: alpha\nPause\n")
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert "Befehle brauchen das Spielleitungs-Kennwort" in told.body
    assert not game_row(svc, "alpha").paused
    assert [o.kind for o in outbox(svc) if o.kind == "gm_notice"] == []


def test_forged_gm_mail_is_answered_only_within_the_hourly_limit(
    svc: Service, mailer: Mailer, table: Table
) -> None:
    for _ in range(svc.config.service.rate_limit_per_hour + 3):
        mailer.send(DESK, "x", "Spiel: alpha\nPause\n")
    assert len(outbox(svc, "gm_mail")) == svc.config.service.rate_limit_per_hour


def test_a_mail_naming_no_game_is_answered_in_every_language(
    svc: Service, mailer: Mailer, table: Table
) -> None:
    mailer.send(DESK, "Hallo", "Wie geht das hier?\n")
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert told.subject == (
        "pbm: die Spielleitung per Mail / pbm: spillederen pr. mail / pbm: the game master by mail"
    )
    assert "Verlängern: 24" in told.body and "Extend: 24" in told.body


def test_a_new_gm_password_replaces_the_old(svc: Service, mailer: Mailer, table: Table) -> None:
    old = new_gm_password(svc)
    new = admin.gm_password(svc)
    assert old != new and new.startswith("gm-")
    assert admin.gm_password(svc, keep=True) == ""  # `pbm init` keeps a password set
    with Session(svc.engine) as s:
        (key,) = s.exec(select(GmKey)).all()
        # Hashed as a seat's password is (`secrets.hash_password`), never kept as it is.
        assert new not in key.password_hash and verify_password(new, key.password_hash)
    mailer.send(DESK, "x", f"Kennwort: {old}\nSpiel: alpha\nPause\n")
    assert not game_row(svc, "alpha").paused
    mailer.send(DESK, "x", f"Kennwort: {new}\nSpiel: alpha\nPause\n")
    assert game_row(svc, "alpha").paused


def test_help_alone_is_answered_without_a_password(
    svc: Service, mailer: Mailer, table: Table
) -> None:
    mailer.send(DESK, "x", "Spiel: alpha\nHilfe\n")
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert told.subject == "[alpha] Die Spielleitung per Mail"
    assert told.body.startswith("Was die Spielleitung per Mail tun kann")


def test_a_message_to_a_colour_nobody_plays_is_refused_in_the_games_language(
    svc: Service, mailer: Mailer, table: Table
) -> None:
    password = new_gm_password(svc)
    playing = {p.colour for p in seated(svc, "alpha").values()}
    colour = next(c for c in ("rot", "blau", "gelb", "weiss", "gruen", "braun") if c not in playing)
    name = vocab.colour_name(colour, "de")
    mailer.send(DESK, "x", f"Kennwort: {password}\nSpiel: alpha\nNachricht an {name}: Hallo\n")
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert f"Niemand spielt {name} in alpha." in " ".join(told.body.split())


def test_extend_by_mail_after_a_deadline_passed_counts_from_now(
    svc: Service, mailer: Mailer, table: Table, clock: FakeClock
) -> None:
    """The German answer held the command line's English ("would put the deadline in the
    past; … pbm round resolve --now"), and the GM had to work out the hours since."""
    password = new_gm_password(svc)
    mailer.send(DESK, "x", f"Kennwort: {password}\nSpiel: alpha\nPause\n")
    row = game_row(svc, "alpha")
    assert row.deadline is not None
    clock.advance(seconds=(as_utc(row.deadline) - clock.now()).total_seconds() + 30 * 3600)
    mailer.send(DESK, "x", f"Kennwort: {password}\nSpiel: alpha\nVerlängern: 24\nGrund: Pause\n")
    (told,) = replies_to(svc, mailer.last_id, "gm_mail")
    assert "would put" not in told.body and "Neue Frist" in told.body
    new = game_row(svc, "alpha").deadline
    assert new is not None and as_utc(new) - clock.now() == timedelta(hours=24)
