"""Late and stray mail (issue 15): a replaced player, a game that has ended, a game that does
not exist and a stranger asking how to join get a short answer saying why, not silence."""

from __future__ import annotations

import pytest
from databases import outbox, replies_to, seated
from harness import Games, Mailer, new_game

from pbm.service import admin
from pbm.service.context import Service
from pbm.service.games import ServiceError


def _answer(svc: Service, mailer: Mailer) -> str:
    (row,) = replies_to(svc, mailer.last_id)
    return row.body


def test_a_game_that_does_not_exist(svc: Service, mailer: Mailer) -> None:
    """Answered in the stranger's language alone when it is the open games' (German here);
    else in every language, theirs first (tests/service/test_no_game_answers.py)."""
    new_game(svc, "offen")
    mailer.send("someone@else.test", "Frage", "Spiel: gibtsnicht\nStatus\n")
    body = _answer(svc, mailer)
    assert "Es gibt kein Spiel namens 'gibtsnicht'." in body
    assert "There is no game named 'gibtsnicht'." not in body
    assert "offen" in body and "Anmeldung" in body
    mailer.send("someone@else.test", "Question", "Game: nosuch\nStatus\n")
    body = _answer(svc, mailer)
    assert body.index("There is no game named 'nosuch'.") < body.index(
        "Es gibt kein Spiel namens 'nosuch'."
    )


def test_a_stranger_asking_how_to_join_gets_the_open_games(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "offen")
    mailer.send("neu@else.test", "Mitspielen?", "Hallo, wie kann ich mitspielen?\n")
    body = _answer(svc, mailer)
    assert "Offene Spiele zum Anmelden: offen." in body and "'Spiel: <Name>'" in body


def test_a_stranger_with_a_password_is_still_not_answered(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "offen")
    mailer.send("spoof@else.test", "Züge", "Kennwort: rate-123\nStraße C3 D4\n")
    assert replies_to(svc, mailer.last_id) == []


def test_a_replaced_player_is_told_why(svc: Service, mailer: Mailer, games: Games) -> None:
    table = games.start("alpha")
    old = seated(svc, "alpha")[1]
    admin.replace_player(svc, "alpha", old.colour or "", "dora@new.test")
    pw = table.passwords[old.address]
    mailer.send(old.address, "Züge", f"Kennwort: {pw}\nStraße C3 D4\n")
    assert "nicht mehr in alpha" in _answer(svc, mailer)
    mailer.send(old.address, "Züge", f"Spiel: alpha\nKennwort: {pw}\nStraße C3 D4\n")
    assert "nicht mehr in alpha" in _answer(svc, mailer)


def test_mail_after_the_end(svc: Service, mailer: Mailer, games: Games) -> None:
    table = games.start("alpha")
    admin.end_game(svc, "alpha")
    me = table.seats[0]
    mailer.send(me, "Züge", f"Kennwort: {table.passwords[me]}\nStraße C3 D4\n")
    assert "Das Spiel alpha ist zu Ende" in _answer(svc, mailer)
    mailer.send(me, "Züge", f"Spiel: alpha\nKennwort: {table.passwords[me]}\nStraße C3 D4\n")
    assert "ist zu Ende" in _answer(svc, mailer)
    assert len(outbox(svc, "stray")) == 1


def test_a_subject_that_is_no_game_name_is_never_echoed(mailer: Mailer, svc: Service) -> None:
    """Backscatter: a forged sender must not get a spammer's text back."""
    mailer.send("victim@elsewhere.test", "[Buy cheap pills at evil.example] hi", "Status\n")
    assert not [o for o in outbox(svc) if "pills" in o.body]


def test_a_game_named_in_another_case_is_that_game(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """German capitalises: `Spiel: Alpha` or `[ALPHA]` in the subject is the game alpha,
    and the orders count."""
    table = games.start("alpha")
    me = table.seats[0]
    pw = table.passwords[me]
    result = mailer.send(me, "Züge", f"Spiel: Alpha\nKennwort: {pw}\nIch passe\n")
    assert result.game == "alpha"
    (ack,) = replies_to(svc, mailer.last_id)
    assert ack.kind == "ack"
    result = mailer.send(me, "Re: [ALPHA] Bericht", f"Kennwort: {pw}\nIch passe\n")
    assert result.game == "alpha"


def test_a_player_who_names_no_game_of_theirs_is_shown_their_games(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """Not an invitation to sign up, with a bare '-' for the open games; in the language of
    the player's game, not in all three."""
    table = games.start("alpha")
    me = table.seats[0]
    mailer.send(me, "Züge", f"Spiel: alfa\nKennwort: {table.passwords[me]}\nIch passe\n")
    body = _answer(svc, mailer)
    assert "Es gibt kein Spiel namens 'alfa'." in body
    assert "Du spielst in: alpha." in body and "You play in: alpha." not in body
    assert "Der er intet spil" not in body
    assert "Anmeldung" not in body


def test_a_stranger_is_told_when_no_game_is_open(svc: Service, mailer: Mailer) -> None:
    mailer.send("neu@else.test", "Mitspielen?", "Hallo, wie kann ich mitspielen?\n")
    body = _answer(svc, mailer)
    assert "Gerade ist kein Spiel zur Anmeldung offen." in body
    assert ": -." not in body


def test_no_two_games_differ_only_in_case(svc: Service) -> None:
    new_game(svc, "insel")
    with pytest.raises(ServiceError, match="names are read in any case"):
        new_game(svc, "Insel")


def test_the_gms_commands_name_a_game_in_any_case(svc: Service, games: Games) -> None:
    """`pbm game show Insel` for the game insel, as the players' mails."""
    from sqlmodel import Session

    from pbm.service.games import get_game

    games.start("alpha")
    with Session(svc.engine) as session:
        assert get_game(session, "ALPHA").name == "alpha"
        assert get_game(session, "Alpha", lock=True).name == "alpha"
        with pytest.raises(ServiceError, match="no game named 'Alfa'"):
            get_game(session, "Alfa")


def test_the_gm_adding_a_player_to_an_ended_game_is_told_it_ended(
    svc: Service, games: Games
) -> None:
    games.start("alpha")
    admin.end_game(svc, "alpha")
    with pytest.raises(ServiceError, match="has ended"):
        admin.add_player(svc, "alpha", "late@players.test", "Spät")


def test_status_in_the_signup_says_how_many_have_joined(svc: Service, mailer: Mailer) -> None:
    """It said "Runde 0"."""
    from harness import signup

    new_game(svc, "alpha", players=4)
    signup(mailer, "alpha", 2)
    mailer.send("neu@else.test", "Status", "Spiel: alpha\nStatus\n")
    body = _answer(svc, mailer)
    assert "alpha: Anmeldung, 2 von 4 Spielern angemeldet" in body
    assert "Runde 0" not in body


def test_status_in_the_setup_says_whose_placement_it_is(svc: Service, mailer: Mailer) -> None:
    from databases import game_state
    from harness import signup

    from pbm.rules.setup import setup_player

    new_game(svc, "alpha", players=4)
    signup(mailer, "alpha", 4)
    _, st = game_state(svc, "alpha")
    on_turn = seated(svc, "alpha")[setup_player(st)]
    mailer.send("neu@else.test", "Status", "Spiel: alpha\nStatus\n")
    body = _answer(svc, mailer)
    assert f"jetzt stellt {on_turn.colour}" in body.replace("weiß", "weiss"), body
    assert "Runde 0" not in body


def test_a_mail_for_a_game_that_ended_names_the_game_in_the_subject(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """The answer's subject was the bare "pbm"."""
    table = games.start("alpha")
    admin.end_game(svc, "alpha", why="Schluss.")
    me = table.seats[0]
    mailer.send(me, "Züge", f"Kennwort: {table.passwords[me]}\nIch passe\n")
    answer = [o for o in outbox(svc, to=me) if o.in_reply_to == mailer.last_id]
    assert [o.subject for o in answer] == ["[alpha] Nicht angenommen"]
    assert "Das Spiel alpha ist zu Ende" in " ".join(answer[0].body.split())
