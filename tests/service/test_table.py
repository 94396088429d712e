"""Who plays whom (issue 15): the roster in the welcome mail, the round-1 mail, the Status answer
and on request (`Mitspieler` / `Players`); anonymous games; reports name players "gelb (…)"."""

from __future__ import annotations

from databases import outbox, replies_to, seated
from harness import Games, Mailer, send_orders

from pbm.service.context import Service


def test_the_welcome_and_round_one_mails_carry_the_roster(svc: Service, games: Games) -> None:
    table = games.start("alpha")
    players = seated(svc, "alpha")
    for o in outbox(svc, "welcome"):
        for p in players.values():
            assert f"{p.name} <{p.address}>" in o.body, o.body
    opened = outbox(svc, "round_open")
    assert opened and all("Mitspieler:" in o.body for o in opened)
    assert all(f"<{a}>" in opened[0].body for a in table.addresses)


def test_status_shows_deadline_who_sent_and_the_roster(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha")
    send_orders(mailer, "alpha", [0], resolve=False)
    other = table.seats[1]
    mailer.send(other, "Status", f"Spiel: alpha\nKennwort: {table.passwords[other]}\nStatus\n")
    body = replies_to(svc, mailer.last_id, "status")[0].body
    players = seated(svc, "alpha")
    from pbm.notation import vocab

    colour = vocab.colour_name(players[0].colour or "", "de")
    assert f"Züge da: {colour}" in body
    assert "Frist: " in body and "Es fehlen noch: " in body
    assert f"<{players[2].address}>" in body  # with the password: the addresses
    # Without a password: the roster without addresses, nothing of anybody's orders.
    mailer.send("stranger@else.test", "Status", "Spiel: alpha\nStatus\n")
    body = replies_to(svc, mailer.last_id, "status")[0].body
    assert players[2].name in body and "@players.test" not in body


def test_mitspieler_answers_the_roster(svc: Service, mailer: Mailer, games: Games) -> None:
    table = games.start("alpha")
    me = table.seats[2]
    mailer.send(me, "Frage", f"Kennwort: {table.passwords[me]}\nMitspieler\n")
    (answer,) = replies_to(svc, mailer.last_id, "players")
    assert answer.recipients == me
    for p in seated(svc, "alpha").values():
        assert f"{p.name} <{p.address}>" in answer.body
    mailer.send(me, "Players", "Players?\n")
    assert replies_to(svc, mailer.last_id, "players")


def test_an_anonymous_game_never_shows_an_address(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("anon", anonymous=True, round_=2)
    me = table.seats[0]
    mailer.send(me, "x", f"Spiel: anon\nKennwort: {table.passwords[me]}\nMitspieler\nStatus\n")
    for o in outbox(svc):
        for address in table.addresses:
            if address not in o.recipients.split(","):
                assert address not in o.body and address not in o.html, (o.kind, address)


def test_reports_name_the_players(svc: Service, games: Games) -> None:
    games.start("alpha", round_=2)
    players = seated(svc, "alpha")
    from pbm.notation import vocab

    report = outbox(svc, "report")[-1].body
    for p in players.values():
        assert f"{vocab.colour_name(p.colour or '', 'de')} ({p.name})" in report


def _watched_to_round_one(svc: Service, mailer: Mailer) -> str:
    """Game alpha of three players, set up by mail, with a confirmed observer: its address."""
    from harness import confirmation_code, new_game, play_setup_by_mail, signup

    new_game(svc, "alpha", players=3)
    signup(mailer, "alpha", 3)
    watcher = "watcher@fans.test"
    mailer.send(watcher, "Beobachten", "Spiel: alpha\nBeobachten\n")
    mailer.send(watcher, "Re", f"Spiel: alpha\nBestätigen: {confirmation_code(svc, watcher)}\n")
    play_setup_by_mail(mailer, "alpha")
    return watcher


def test_an_observer_is_not_asked_for_orders_in_the_round_one_mail(
    svc: Service, mailer: Mailer
) -> None:
    """The observer's round-1 mail said "Schicke deine Züge" and carried the order form."""
    watcher = _watched_to_round_one(svc, mailer)
    (theirs,) = outbox(svc, "round_open", to=watcher)
    assert "Du beobachtest dieses Spiel" in theirs.body
    assert "Schicke deine Züge" not in theirs.body and "Zugformular" not in theirs.body
    players = [o for o in outbox(svc, "round_open") if watcher not in o.recipients]
    assert players and all("Schicke deine Züge" in o.body for o in players)


def test_an_observer_reads_the_round_report_without_the_order_form(
    svc: Service, mailer: Mailer
) -> None:
    """The round report went to players and observers as one mail: the observer's carried
    the order form and the address to send orders to."""
    from harness import play_round as play

    from pbm.service.clock import FakeClock

    assert isinstance(svc.clock, FakeClock)
    watcher = _watched_to_round_one(svc, mailer)
    play(mailer, svc.clock, "alpha")
    (theirs,) = outbox(svc, "report", to=watcher)
    assert theirs.recipients == watcher
    assert "Du beobachtest dieses Spiel" in theirs.body and "Du beobachtest" in theirs.html
    assert "Zugformular" not in theirs.body and "Zugformular" not in theirs.html
    assert "Runde 1" in theirs.subject and "Wurf für" in theirs.body
    (players,) = [o for o in outbox(svc, "report") if watcher not in o.recipients]
    assert len(players.recipients.split(",")) == 3
    assert "Zugformular" in players.body and "Du beobachtest" not in players.body
    # The same round and board for both.
    assert theirs.subject == players.subject and theirs.step == players.step
