"""The GM is visible (issue 15): pause, resume, a moved deadline, a replaced seat, the game ended by
the GM and announcements reach the players as notices in the game's language."""

from __future__ import annotations

import pytest
from databases import game_row, outbox, passwords, replies_to, seated
from harness import Games, Mailer, new_game, orders_text, signup

from pbm.notation import vocab
from pbm.service import admin
from pbm.service.broken import resume
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import ServiceError


def _notices(svc: Service, subject_part: str) -> list[str]:
    return [o.body for o in outbox(svc, "gm_notice") if subject_part in o.subject]


def test_pause_and_resume_are_told_with_the_deadline(
    svc: Service, games: Games, clock: FakeClock
) -> None:
    table = games.start("alpha")
    admin.pause_game(svc, "alpha")
    admin.pause_game(svc, "alpha")  # twice paused is told once
    (paused,) = [o for o in outbox(svc, "gm_notice") if "pausiert" in o.subject]
    assert set(paused.recipients.split(",")) == set(table.addresses)
    assert "pausiert" in paused.body
    resume(svc, "alpha")
    game = game_row(svc, "alpha")
    assert game.deadline is not None
    (resumed,) = _notices(svc, "fortgesetzt")
    assert game.deadline.strftime("%Y-%m-%d %H:%M UTC") in resumed


def test_status_says_paused(svc: Service, mailer: Mailer, games: Games) -> None:
    table = games.start("alpha")
    admin.pause_game(svc, "alpha")
    me = table.addresses[0]
    mailer.send(me, "Status", f"Kennwort: {table.passwords[me]}\nStatus\n")
    assert "pausiert" in replies_to(svc, mailer.last_id, "status")[0].body


def test_a_moved_deadline_is_told(svc: Service, games: Games) -> None:
    games.start("alpha")
    new = admin.extend_round(svc, "alpha", 24)
    (body,) = _notices(svc, "Neue Frist")
    assert new.strftime("%Y-%m-%d %H:%M UTC") in body and "Runde 1" in body


def test_replace_tells_the_leaving_player_and_gives_the_new_one_the_game(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    games.start("alpha", round_=2)
    old = seated(svc, "alpha")[1]
    admin.replace_player(svc, "alpha", old.colour or "", "dora@new.test", "Dora")
    (out,) = [o for o in outbox(svc, "gm_notice") if o.recipients == old.address]
    assert "Kennwort gilt nicht mehr" in out.body
    told = [o for o in outbox(svc, "gm_notice") if "Dora" in o.body]
    assert told and "dora@new.test" not in told[0].recipients
    (welcome,) = outbox(svc, "welcome", to="dora@new.test")
    assert "Runde 2 ist offen" in welcome.body and "Deine Karten:" in welcome.body
    assert "A1" in welcome.body  # the board map
    # The new player plays with the new password; the old one is answered why not (part 5).
    _, st = game_row(svc, "alpha"), None
    from databases import game_state

    _, st = game_state(svc, "alpha")
    pw = passwords(svc)["dora@new.test"]
    result = mailer.send("dora@new.test", "Züge", orders_text(st, 1, pw), resolve=False)
    assert result.status == "done"
    assert replies_to(svc, mailer.last_id, "ack")


def test_the_gm_ends_a_game(svc: Service, mailer: Mailer, games: Games) -> None:
    games.start("alpha")
    admin.end_game(svc, "alpha", "Zwei Spieler sind ausgestiegen.")
    game = game_row(svc, "alpha")
    assert game.phase == "ended" and game.deadline is None
    (body,) = _notices(svc, "beendet")
    assert "Zwei Spieler sind ausgestiegen." in body and "Endstand mit verdeckten Karten:" in body


def test_announce_reaches_everyone(svc: Service, games: Games) -> None:
    table = games.start("alpha")
    assert admin.announce(svc, "alpha", "Frohes Fest!") == 4
    (row,) = outbox(svc, "gm_notice")
    assert "Frohes Fest!" in row.body and set(row.recipients.split(",")) == set(table.addresses)
    assert not row.limited


def test_the_gm_switching_the_autopilot_is_told_to_everyone(svc: Service, games: Games) -> None:
    """`pbm player autopilot`: the seat's player gets the autopilot mail, every other player a
    notice naming the seat "gelb (Carol)"; switching it to what it is tells nobody."""
    table = games.start("alpha")
    player = seated(svc, "alpha")[2]
    colour = player.colour or ""
    admin.set_autopilot(svc, "alpha", colour, True)
    admin.set_autopilot(svc, "alpha", colour, True)  # on already: nobody is told again
    (own,) = outbox(svc, "autopilot_on")
    assert own.recipients == player.address
    (told,) = [o for o in outbox(svc, "gm_notice") if "Autopilot" in o.subject]
    others = set(table.addresses) - {player.address}
    assert set(told.recipients.split(",")) == others
    label = f"{vocab.colour_name(colour, 'de')} ({player.name})"
    assert label in told.body and "eingeschaltet" in told.body and label in told.html
    assert not told.limited
    admin.set_autopilot(svc, "alpha", colour, False)
    (back,) = [o for o in outbox(svc, "gm_notice") if "ausgeschaltet" in o.body]
    assert set(back.recipients.split(",")) == others and label in back.body
    assert outbox(svc, "autopilot_off", to=player.address)


def test_a_table_filled_while_paused_draws_when_the_game_goes_on(
    svc: Service, mailer: Mailer
) -> None:
    """No setup turn (with a deadline) starts for a game that takes no orders: the players are
    told the draw waits, and `pbm game resume` makes it."""
    new_game(svc, "alpha", players=3)
    admin.pause_game(svc, "alpha")
    signup(mailer, "alpha", 3)
    assert game_row(svc, "alpha").phase == "signup"
    assert not outbox(svc, "welcome")
    last = outbox(svc, "joined")[-1]
    assert "Die Spielleitung hat das Spiel angehalten" in last.body
    resume(svc, "alpha")
    assert game_row(svc, "alpha").phase == "setup"
    assert len(outbox(svc, "welcome")) == 3


def test_an_ended_game_is_not_resumed(svc: Service, games: Games) -> None:
    games.start("alpha")
    admin.end_game(svc, "alpha")
    with pytest.raises(ServiceError, match="has ended"):
        resume(svc, "alpha")


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_a_new_player_without_a_name_is_announced_in_words(
    svc: Service, games: Games, lang: str
) -> None:
    """QA: `pbm player replace isle green fay@new.test` (no --name) told the table "From
    now on green is played by -."."""
    games.start("alpha", lang=lang)
    old = seated(svc, "alpha")[1]
    admin.replace_player(svc, "alpha", old.colour or "", "fay@new.test")
    told = [
        o
        for o in outbox(svc, "gm_notice")
        if o.recipients != old.address and "fay@new.test" not in o.recipients
    ]
    assert told
    said = {"de": "ein neuer Spieler", "en": "a new player", "da": "en ny spiller"}[lang]
    for text in (told[-1].body, told[-1].html):
        assert said in " ".join(text.split()), text
        assert " -." not in text and "fay@new.test" not in text
