"""Messages through pbm, absence and time zones (issue 15)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from databases import game_row, game_state, order_sets, outbox, replies_to, seated
from harness import (
    GM,
    Games,
    Mailer,
    make_service,
    orders_text,
    pass_deadline,
    send_orders,
    set_service,
)
from sqlmodel import Session

from pbm.notation import vocab
from pbm.service import admin
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.press import MESSAGES_PER_HOUR, thread_id
from pbm.service.tick import tick
from pbm.store.db import transaction
from pbm.store.models import Game, Outbox


def _colour(p: object, lang: str = "de") -> str:
    return vocab.colour_name(p.colour or "", lang)  # type: ignore[attr-defined]


def test_a_message_to_a_colour_is_forwarded_signed_and_threaded(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha")
    players = seated(svc, "alpha")
    me, them = players[0], players[2]
    body = (
        f"Kennwort: {table.passwords[me.address]}\n"
        f"Nachricht an {_colour(them)}: Hallo!\n\nWillst du Holz? (2 für 1)\n"
        "Straße C3 D4\n\n> zitiert\n-- \nAnna\n"
    )
    mailer.send(me.address, "Handel?", body)
    (press,) = outbox(svc, "press")
    assert press.recipients == them.address
    assert f"{_colour(me)} ({me.name}) schreibt dir:" in press.body
    assert "Willst du Holz? (2 für 1)" in press.body and "Straße C3 D4" in press.body
    assert "zitiert" not in press.body and "Anna" not in press.body
    assert me.address not in press.body and table.passwords[me.address] not in press.body
    pair = "-".join(sorted((me.colour or "", them.colour or "")))
    assert press.in_reply_to == thread_id(svc, game_row(svc, "alpha"), pair)
    # The sender is told; the lines after the message line are not orders.
    (answer,) = replies_to(svc, mailer.last_id)
    assert answer.kind == "ack" and _colour(them) in answer.body
    # The answer comes back in the same thread.
    mailer.send(
        them.address,
        "Re",
        f"Kennwort: {table.passwords[them.address]}\nNachricht an {_colour(me)}: Ja.\n",
    )
    back = outbox(svc, "press")[-1]
    assert back.recipients == me.address and back.in_reply_to == press.in_reply_to


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_a_message_in_a_mail_whose_orders_are_refused_is_still_said_to_have_gone(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """Orders for the wrong round are refused ("nothing was changed"), but the message in the
    same mail went: the refusal says so, not only the answer to accepted orders."""
    table = games.start("alpha")
    players = seated(svc, "alpha")
    me, them = players[0], players[2]
    body = (
        f"Kennwort: {table.passwords[me.address]}\nRunde: 7\nStraße C3 D4\n"
        f"Nachricht an {_colour(them)}: Hallo!\n"
    )
    mailer.send(me.address, "Züge", body)
    (press,) = outbox(svc, "press")
    assert press.recipients == them.address
    (answer,) = replies_to(svc, mailer.last_id)
    assert answer.kind == "error" and "Runde 7" in answer.body
    assert _colour(them) in answer.body.split("Runde 7", 1)[1], answer.body


def test_a_message_needs_the_password(svc: Service, mailer: Mailer, games: Games) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(me, "x", "Spiel: alpha\nNachricht an alle: Hallo\n")
    assert outbox(svc, "press") == []
    assert replies_to(svc, mailer.last_id, "error")


def test_a_message_to_all_and_the_rate_limit(
    tmp_path: object, mailer: Mailer, games: Games, svc: Service
) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    pw = table.passwords[me]
    for i in range(MESSAGES_PER_HOUR + 2):
        mailer.send(me, "x", f"Kennwort: {pw}\nNachricht an alle: Nummer {i}\n")
    per_player = {a: len(outbox(svc, "press", to=a)) for a in table.addresses if a != me}
    assert set(per_player.values()) == {MESSAGES_PER_HOUR}
    last = replies_to(svc, mailer.last_id)[0]
    assert "Nicht verschickt" in last.body
    # One player's flood never silences another: the limit is per sender and recipient.
    other = table.seats[1]
    mailer.send(other, "x", f"Kennwort: {table.passwords[other]}\nNachricht an alle: Ich auch\n")
    assert "Nicht verschickt" not in replies_to(svc, mailer.last_id)[0].body
    assert all(
        any("Ich auch" in o.body for o in outbox(svc, "press", to=a))
        for a in table.addresses
        if a != other
    )


def test_an_anonymous_message_never_names_its_sender_in_its_headers(
    mailer: Mailer, games: Games, svc: Service
) -> None:
    table = games.start("alpha", press="anonymous")
    me = table.seats[0]
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nAnonyme Nachricht an alle: Psst\n")
    mails = outbox(svc, "press")
    assert len(mails) == 3
    sender = seated(svc, "alpha")[0].colour
    for mail in mails:
        assert sender not in mail.in_reply_to and sender not in mail.subject


def test_press_options(svc: Service, mailer: Mailer, games: Games) -> None:
    table = games.start("quiet", press="none")
    me = table.seats[0]
    pw = table.passwords[me]
    mailer.send(me, "x", f"Spiel: quiet\nKennwort: {pw}\nNachricht an alle: Hallo\n")
    assert outbox(svc, "press") == []
    assert "keine Nachrichten zwischen Spielern" in replies_to(svc, mailer.last_id)[0].body
    mailer.send(me, "x", f"Spiel: quiet\nKennwort: {pw}\nAnonyme Nachricht an alle: Hallo\n")
    assert outbox(svc, "press") == []


def test_anonymous_press_where_the_game_allows_it(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("grey", press="anonymous")
    me = table.seats[0]
    pw = table.passwords[me]
    mailer.send(me, "x", f"Spiel: grey\nKennwort: {pw}\nAnonyme Nachricht an alle: Psst\n")
    rows = outbox(svc, "press")
    assert len(rows) == 3
    players = seated(svc, "grey")
    for row in rows:
        assert "Psst" in row.body and players[0].name not in row.body
        assert _colour(players[0]) + " (" not in row.body


def test_to_gm_and_the_gms_answer(tmp_path: object, clock: FakeClock) -> None:
    from pathlib import Path

    from harness import start_game

    svc = make_service(Path(str(tmp_path)), clock, gm_address="spielleitung@pbm.test")
    mailer = Mailer(svc)
    table = start_game(mailer, clock, "alpha")
    me = table.seats[1]
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nAn Spielleitung: Ich bin krank.\n")
    (row,) = outbox(svc, "press_gm")
    assert row.recipients == "spielleitung@pbm.test" and "Ich bin krank." in row.body
    assert me in row.body  # the GM sees the address
    colour = seated(svc, "alpha")[1].colour or ""
    assert f"pbm game message alpha {colour}" in row.body
    with transaction(svc.engine) as s:
        from pbm.service.games import get_game
        from pbm.service.press import gm_message

        game = get_game(s, "alpha")
        assert gm_message(svc, s, game, colour, "Gute Besserung!") == [me]
        assert len(gm_message(svc, s, game, "all", "Frist verlängert.")) == 4
    answer = next(o for o in outbox(svc, "press") if o.recipients == me)
    assert "Die Spielleitung schreibt dir:" in answer.body and "Gute Besserung!" in answer.body
    assert answer.in_reply_to == row.in_reply_to
    assert GM not in answer.body


def _notices(svc: Service, subject: str) -> list[Outbox]:
    return [o for o in outbox(svc, "gm_notice") if subject in o.subject]


def test_away_lets_the_autopilot_play_and_everyone_is_told(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    table = games.start("alpha")
    me = table.seats[3]
    until = (clock.now() + timedelta(days=5)).date()
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nUrlaub bis {until.isoformat()}\n")
    assert replies_to(svc, mailer.last_id) == []  # its own confirmation below is the answer
    # The others are told who is away: colour and name, in the subject too.
    player = seated(svc, "alpha")[3]
    who = f"{vocab.colour_name(player.colour or '', 'de')} ({player.name})"
    (notice,) = _notices(svc, "abwesend")
    assert notice.subject == f"[alpha] {who} ist bis {until.isoformat()} abwesend"
    assert set(notice.recipients.split(",")) == set(table.addresses) - {me}
    assert f"{who} ist bis {until.isoformat()} abwesend." in notice.body
    # The absent player gets a confirmation of their own, with the dates.
    (own,) = _notices(svc, "Deine Abwesenheit")
    assert own.recipients == me
    assert own.subject == f"[alpha] Deine Abwesenheit bis {until.isoformat()} ist eingetragen"
    today = clock.now().date().isoformat()
    assert f"vom {today}\nbis zum {until.isoformat()}" in own.body
    assert "'Ich bin zurück'" in own.body and who not in own.body
    assert "Autopilot" in own.body
    # The other three send orders: the round resolves at once, the autopilot played seat 3.
    from harness import send_orders

    send_orders(mailer, "alpha", [0, 1, 2])
    assert game_row(svc, "alpha").round == 2
    assert not [o for o in outbox(svc, "nmr") if o.recipients == me]
    # Back early: the absence ends.
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nIch bin zurück\n")
    assert seated(svc, "alpha")[3].away_until is None
    # The others are told who; no deadline waited for this absence, so the notice names none.
    (back,) = _notices(svc, "zurück")
    assert back.subject == f"[alpha] {who} ist zurück"
    assert set(back.recipients.split(",")) == set(table.addresses) - {me}
    assert "Frist" not in back.body


def test_an_anonymous_game_tells_of_an_absence_without_naming_the_player(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    table = games.start("alpha", anonymous=True)
    me = table.seats[2]
    player = seated(svc, "alpha")[2]
    until = (clock.now() + timedelta(days=3)).date().isoformat()
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nUrlaub bis {until}\n")
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nIch bin zurück\n")
    (away,) = _notices(svc, "abwesend")
    (back,) = _notices(svc, "zurück")
    assert away.subject == f"[alpha] Jemand ist bis {until} abwesend"
    assert back.subject == "[alpha] Jemand ist zurück"
    colour = vocab.colour_name(player.colour or "", "de")
    for notice in (away, back):
        assert me not in notice.recipients.split(",")
        assert colour not in notice.subject + notice.body
        assert player.name not in notice.subject + notice.body
    assert away.body.startswith(f"Jemand ist bis {until} abwesend.")
    # The player's own confirmation still comes, to the player alone.
    (own,) = _notices(svc, "Deine Abwesenheit")
    assert own.recipients == me and f"bis zum {until}" in own.body


def test_back_from_a_waited_absence_keeps_the_deadline_and_says_so(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("wait", away_wait_days=3)
    before = game_row(svc, "wait").deadline
    assert before is not None
    me = table.seats[1]
    until = (before + timedelta(days=1)).date()
    mailer.send(me, "x", f"Spiel: wait\nKennwort: {table.passwords[me]}\nUrlaub bis {until}\n")
    waited = game_row(svc, "wait").deadline
    # The absent player's confirmation says how long the deadline waits.
    (own,) = _notices(svc, "Deine Abwesenheit")
    assert "Die Frist wartet auf dich:" in own.body
    mailer.send(me, "x", f"Spiel: wait\nKennwort: {table.passwords[me]}\nIch bin zurück\n")
    assert game_row(svc, "wait").deadline == waited
    (back,) = _notices(svc, "zurück")
    assert me not in back.recipients.split(",")
    assert "Die Frist, die gewartet hat, bleibt:" in back.body
    # Saying it again is no news: nobody is told twice.
    mailer.send(me, "x", f"Spiel: wait\nKennwort: {table.passwords[me]}\nIch bin zurück\n")
    assert len(_notices(svc, "zurück")) == 1


def test_away_with_a_waiting_deadline(svc: Service, mailer: Mailer, games: Games) -> None:
    table = games.start("wait", away_wait_days=3)
    before = game_row(svc, "wait").deadline
    assert before is not None
    me = table.seats[1]
    until = (before + timedelta(days=1)).date()
    mailer.send(me, "x", f"Spiel: wait\nKennwort: {table.passwords[me]}\nUrlaub bis {until}\n")
    after = game_row(svc, "wait").deadline
    assert after is not None and after > before
    # Confirmed by the player's own absence notice (no second "OK" beside it).
    assert replies_to(svc, mailer.last_id) == []
    (own,) = [o for o in outbox(svc, "gm_notice", to=me) if "Abwesenheit" in o.subject]
    assert "wartet" in own.body
    # Once per game: a second absence does not move the deadline again.
    mailer.send(me, "x", f"Spiel: wait\nKennwort: {table.passwords[me]}\nUrlaub bis {until}\n")
    assert game_row(svc, "wait").deadline == after


def test_every_seat_on_autopilot_pauses_the_game_and_tells_the_gm(
    tmp_path: object, clock: FakeClock
) -> None:
    from pathlib import Path

    from harness import start_game

    svc = make_service(Path(str(tmp_path)), clock, gm_address="spielleitung@pbm.test")
    start_game(Mailer(svc), clock, "alpha")
    for colour in [p.colour for p in seated(svc, "alpha").values()]:
        admin.set_autopilot(svc, "alpha", colour or "", True)
    pass_deadline(svc, clock, "alpha")
    result = tick(svc)
    assert "alpha" not in result.resolved
    game = game_row(svc, "alpha")
    assert game.paused and game.round == 1
    (alarm,) = outbox(svc, "unattended")
    assert alarm.recipients == "spielleitung@pbm.test"


def test_time_zone_shows_deadlines_locally(svc: Service, mailer: Mailer, games: Games) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    pw = table.passwords[me]
    mailer.send(me, "x", f"Kennwort: {pw}\nZeitzone: America/New_York\n")
    assert "America/New_York" in replies_to(svc, mailer.last_id)[0].body
    from databases import game_state

    _, st = game_state(svc, "alpha")
    mailer.send(me, "Züge", orders_text(st, 0, pw), resolve=False)
    ack = replies_to(svc, mailer.last_id, "ack")[0].body
    assert "America/New_York (" in ack and "UTC)" in ack
    mailer.send(me, "x", f"Kennwort: {pw}\nZeitzone: Mond/Krater\n")
    assert "Zeitzone wurde erwartet" in replies_to(svc, mailer.last_id)[0].body
    with Session(svc.engine) as s:
        assert s.get(Game, game_row(svc, "alpha").id) is not None
    assert seated(svc, "alpha")[0].timezone == "America/New_York"


def test_the_cli_sends_the_gms_message(
    svc: Service, games: Games, db_url: str, tmp_path: object
) -> None:
    from pathlib import Path

    from typer.testing import CliRunner

    from pbm.cli import app

    table = games.start("alpha")
    cfg = Path(str(tmp_path)) / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "{db_url}"\n\n[service]\naddress = "{GM}"\n')
    runner = CliRunner()
    colour = seated(svc, "alpha")[2].colour or ""
    out = runner.invoke(app, ["--config", str(cfg), "game", "message", "alpha", colour, "Hallo"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(app, ["--config", str(cfg), "game", "message", "alpha", "An alle"])
    assert out.exit_code == 0, out.output
    rows = outbox(svc, "press")
    assert rows[0].recipients == table.seats[2] and "Hallo" in rows[0].body
    assert sorted(rows[1].recipients.split(",")) == sorted(table.addresses)
    out = runner.invoke(app, ["--config", str(cfg), "game", "announce", "alpha", "Frohes Fest"])
    assert out.exit_code == 0 and "4 addresses" in out.output
    # The text forgotten: the colour (or `all`) is never sent to everyone as the message.
    before = len(outbox(svc))
    for word in (colour, "all", "Rød"):
        out = runner.invoke(app, ["--config", str(cfg), "game", "message", "alpha", word])
        assert out.exit_code == 2 and "error: no text" in out.output, out.output
    assert len(outbox(svc)) == before


def test_a_message_to_someone_not_understood_is_never_read_as_orders(
    mailer: Mailer, games: Games, svc: Service
) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    _, st = game_state(svc, "alpha")
    plan = "\n".join(orders_text(st, 0, "x").split("\n")[1:])
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nNachricht an Carol: mein Plan\n{plan}")
    assert not [o for o in order_sets(svc, "alpha") if o.player_id == seated(svc, "alpha")[0].id]
    assert outbox(svc, "press") == []


def test_a_message_to_the_game_master_in_other_words(
    mailer: Mailer, games: Games, svc: Service
) -> None:
    set_service(svc, gm_address=GM)
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nNachricht an die Spielleitung: Hallo\n")
    assert [o.recipients for o in outbox(svc, "press_gm")] == [GM]


@pytest.mark.parametrize(
    ("lang", "to_gm"), [("de", "An Spielleitung"), ("en", "To GM"), ("da", "Til spilleder")]
)
def test_the_answer_command_names_the_colour_in_the_games_words(
    mailer: Mailer, games: Games, svc: Service, lang: str, to_gm: str
) -> None:
    """The GM's copy of a player's message gives the command that answers it; it named the
    colour as stored, German (`pbm game message alpha gelb`) in an English and a Danish game
    (QA, 2026-12)."""
    from pbm.notation.format import word

    set_service(svc, gm_address=GM)
    table = games.start("alpha", lang=lang)
    me = table.seats[0]
    mailer.send(me, "x", f"{word('password', lang)}: {table.passwords[me]}\n{to_gm}: Hej\n")
    (row,) = outbox(svc, "press_gm")
    stored = seated(svc, "alpha")[0].colour or ""
    said = vocab.colour_name(stored, lang)
    assert f"pbm game message alpha {said} " in row.body
    assert f"pbm game message alpha {said} " in row.html
    if said != stored:
        assert f" {stored} " not in row.body


def test_an_absence_far_ahead_is_refused_not_quarantined(
    mailer: Mailer, games: Games, svc: Service
) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    result = mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nUrlaub bis 31.12.9999\n")
    assert result.status == "done"
    assert "ein Jahr" in replies_to(svc, mailer.last_id)[0].body


def _away_for(svc: Service, mailer: Mailer, address: str, password: str, days: int) -> None:
    until = (svc.clock.now() + timedelta(days=days)).date().isoformat()
    mailer.send(address, "x", f"Kennwort: {password}\nUrlaub bis {until}\n")


def test_a_capped_wait_waits_then_the_autopilot_plays(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha", away_wait_days=1)
    me = seated(svc, "alpha")[0]
    _away_for(svc, mailer, me.address, table.passwords[me.address], 10)
    send_orders(mailer, "alpha", [1, 2, 3])
    assert game_row(svc, "alpha").round == 1, "the deadline waits: no early resolution"
    pass_deadline(svc, svc.clock, "alpha")
    tick(svc)
    assert game_row(svc, "alpha").round == 2
    assert seated(svc, "alpha")[0].nmr_count == 0  # the autopilot played the absent seat


def test_an_uncapped_wait_gives_a_day_after_the_return(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha", away_wait_days=7)
    me = seated(svc, "alpha")[0]
    _away_for(svc, mailer, me.address, table.passwords[me.address], 3)
    back = seated(svc, "alpha")[0].away_until
    deadline = game_row(svc, "alpha").deadline
    assert back is not None and deadline is not None
    assert deadline.replace(tzinfo=None) - back.replace(tzinfo=None) == timedelta(days=1)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_an_absence_refused_is_not_answered_under_ok(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """`Urlaub bis` a day that has passed came back under "[ente] OK"."""
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(me, "Urlaub", f"Kennwort: {table.passwords[me]}\nUrlaub bis 2025-12-01\n")
    (answer,) = replies_to(svc, mailer.last_id)
    assert answer.subject == "[alpha] Nicht angenommen"
    # An absence recorded: one confirmation, its own (a second "OK" said the same).
    before = len(outbox(svc, to=me))
    mailer.send(me, "Urlaub", f"Kennwort: {table.passwords[me]}\nUrlaub bis 2026-12-24\n")
    assert replies_to(svc, mailer.last_id) == []
    assert [o.kind for o in outbox(svc, to=me)[before:]] == ["gm_notice"]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    "line", ["Urlaub bis 20.1.", "Ferie til 20. januar", "Away until January 20th"]
)
def test_an_absence_without_its_year_is_the_next_such_day(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock, line: str
) -> None:
    """`Ferie til 20. marts` was refused: the reader knows no today. The day is the nearest
    such day (the clock stands in January 2026)."""
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(me, "Urlaub", f"Kennwort: {table.passwords[me]}\n{line}\n")
    until = date(clock.now().year, 1, 20)
    assert clock.now().date() < until
    (own,) = _notices(svc, "Deine Abwesenheit")
    assert own.subject == f"[alpha] Deine Abwesenheit bis {until.isoformat()} ist eingetragen"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_day_without_its_year_that_just_passed_is_refused(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    """Not the same day next year (an absence of a year): it passed."""
    table = games.start("alpha")
    me = table.seats[0]
    gone = clock.now().date() - timedelta(days=3)
    mailer.send(
        me, "Urlaub", f"Kennwort: {table.passwords[me]}\nUrlaub bis {gone.day}.{gone.month}.\n"
    )
    (answer,) = replies_to(svc, mailer.last_id)
    assert "vorbei" in answer.body, answer.body
    assert seated(svc, "alpha")[0].away_until is None


@pytest.mark.parametrize("password", ["", "Kennwort: rot-falsch-falsch-falsch\n"])
def test_a_player_who_lost_the_password_still_reaches_the_gm(
    tmp_path: object, clock: FakeClock, password: str
) -> None:
    """The refusal of a mail without the right password says where questions go (`An
    Spielleitung:`); a player who lost the password has no other way to ask for a new one.
    From the seat's own address, the message is forwarded, marked as unchecked, with the
    command for a new password; nothing else of the mail is done."""
    from pathlib import Path

    from harness import start_game

    svc = make_service(Path(str(tmp_path)), clock, gm_address="spielleitung@pbm.test")
    mailer = Mailer(svc)
    table = start_game(mailer, clock, "alpha")
    me = table.seats[1]
    before = len(order_sets(svc, "alpha"))
    mailer.send(
        me,
        "Kennwort weg",
        f"{password}An Spielleitung: Ich habe mein Kennwort verloren.\nStraße C3 D4\n",
    )
    (row,) = outbox(svc, "press_gm")
    colour = seated(svc, "alpha")[1].colour or ""
    assert row.recipients == "spielleitung@pbm.test" and me in row.body
    assert "Ich habe mein Kennwort verloren." in row.body
    assert "Ohne das richtige Kennwort des Platzes geschickt" in row.body
    assert f"pbm player password alpha {colour}" in row.body
    assert "rot-falsch" not in row.body
    (answer,) = replies_to(svc, mailer.last_id)
    assert "Deine Nachricht ging an die Spielleitung." in answer.body
    assert len(order_sets(svc, "alpha")) == before  # no order was taken


def test_a_stranger_without_a_password_reaches_no_gm(tmp_path: object, clock: FakeClock) -> None:
    from pathlib import Path

    from harness import start_game

    svc = make_service(Path(str(tmp_path)), clock, gm_address="spielleitung@pbm.test")
    mailer = Mailer(svc)
    start_game(mailer, clock, "alpha")
    mailer.send("fremd@example.test", "x", "Spiel: alpha\nAn Spielleitung: Hallo!\n")
    assert outbox(svc, "press_gm") == []


def test_a_refusal_for_the_password_says_how_to_reach_the_gm(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(me, "Züge", "Straße C3 D4\n")
    (answer,) = replies_to(svc, mailer.last_id)
    assert "Kennwort fehlt oder ist falsch." in answer.body
    assert "Kennwort verloren? Eine Zeile 'An Spielleitung: …'" in " ".join(answer.body.split())
    assert outbox(svc, "press_gm") == []


@pytest.mark.parametrize(
    ("lang", "note"),
    [
        ("de", "Nicht gelesen, da sie mit '#' beginnen"),
        ("en", "Not read, as they start with '#'"),
        ("da", "Ikke læst, da de begynder med '#'"),
    ],
)
def test_the_order_form_sent_as_it_came_points_out_nothing(
    svc: Service, mailer: Mailer, games: Games, lang: str, note: str
) -> None:
    """The order form of the report (and of the mail its "Write orders" link opens) has
    lines without a placeholder (`# Udviklingskort`, `# Buy card`): sent back not filled in,
    such a line was listed as an order left with its `#`, for every player who used the form
    (QA, 2026-12)."""
    from pbm.notation.format import word
    from pbm.reports.report_data import order_form

    table = games.start("alpha", lang=lang)
    me = table.seats[0]
    _, state = game_state(svc, "alpha")
    form = order_form(state, lang)
    assert any(line == f"# {word('buy', lang)}" for line in form)
    body = f"{word('password', lang)}: {table.passwords[me]}\n" + "\n".join(form[1:]) + "\n"
    mailer.send(me, "orders", body)
    (answer,) = replies_to(svc, mailer.last_id)
    assert note not in " ".join(answer.body.split()), answer.body
    # Filled in and left with its `#`, a line is still pointed out.
    filled = body.replace(f"# {word('buy', lang)}\n", f"# {word('buy', lang)} x2\n")
    mailer.send(me, "orders", filled)
    (answer,) = replies_to(svc, mailer.last_id)
    assert note in " ".join(answer.body.split()), answer.body


def test_order_lines_left_with_the_forms_hash_are_pointed_out(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """The report's order form sends its lines as `#` comments to fill in; a player who fills
    them in and leaves the `#` sends nothing the service reads. The answer says which lines
    they were and what to delete; the form itself says it too."""
    table = games.start("alpha")
    me = table.seats[0]
    _, state = game_state(svc, "alpha")
    body = orders_text(state, 0, table.passwords[me])
    head, orders = body.split("\n", 2)[:2], body.split("\n", 2)[2]
    commented = "\n".join(f"# {line}" for line in orders.splitlines() if line)
    mailer.send(me, "Züge", "\n".join(head) + "\n" + commented + "\n# Straße <Pfad>\n")
    (answer,) = replies_to(svc, mailer.last_id)
    # Nothing else in the mail was an order: nothing stored, and the answer says so.
    assert answer.kind == "error"
    assert "Diese Mail enthält keinen gültigen Zug" in " ".join(answer.body.split())
    assert "Nicht gelesen, da sie mit '#' beginnen" in " ".join(answer.body.split())
    first = orders.splitlines()[0].split()[0]
    assert f"   3  {first}" in answer.body
    assert "Lösche das '#' vor jeder Zeile, die ein Zug sein soll." in " ".join(answer.body.split())
    assert "<Pfad>" not in answer.body
    (opened,) = outbox(svc, "round_open")[-1:]
    assert "# Lösche das '#' vor jeder Zeile, die du ausfüllst." in opened.body
