"""Sign-up by mail needs the address's own confirmation (red-team finding "a forged From takes a
seat"): `Anmeldung` only mails a code to the From address, and only a mail from that address
with `Bestätigen: CODE` takes a seat. The table fills with confirmed players only.

Each runs on SQLite and on PostgreSQL (the `svc` fixture).
"""

from __future__ import annotations

import pytest
from databases import game_row, outbox, replies_to, seated
from harness import (
    Games,
    Mailer,
    confirmation_code,
    join_by_mail,
    new_game,
    pass_deadline,
    send_orders,
    signup,
)
from sqlmodel import Session

from pbm.service import admin
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game, observers_of, pending_signups, players_of, recipients
from pbm.service.tick import tick
from pbm.store.models import Player

VICTIM = "victim@elsewhere.test"


def _mails_to(svc: Service, address: str) -> list[str]:
    return [o.kind for o in outbox(svc, to=address)]


def _joined(svc: Service, game: str) -> list[Player]:
    """The players who hold a seat (before the draw: who joined), in the order they came."""
    with Session(svc.engine) as s:
        return players_of(s, get_game(s, game))


def _pending(svc: Service, game: str) -> list[str]:
    with Session(svc.engine) as s:
        return [p.address for p in pending_signups(s, get_game(s, game))]


def _answer(svc: Service, mailer: Mailer) -> str:
    (row,) = replies_to(svc, mailer.last_id)
    return row.body


def test_a_forged_signup_never_seats_the_victim_who_gets_one_mail(
    svc: Service, clock: FakeClock, mailer: Mailer
) -> None:
    new_game(svc, "alpha", players=3)
    # Mallory writes "Anmeldung" with the victim's address in From.
    r = mailer.send(VICTIM, "Anmeldung", "Spiel: alpha\nName: Opfer\nFarben: rot\n")
    assert r.status == "done"
    assert _pending(svc, "alpha") == [VICTIM]
    assert _joined(svc, "alpha") == []
    # The one mail: what pbm is, which game, that someone maybe the victim asked, the code, and
    # that doing nothing is fine; nothing the forged mail said (its name) is repeated.
    (request,) = outbox(svc, to=VICTIM)
    assert request.kind == "signup_confirm"
    assert request.subject == "[alpha] Anmeldung bestätigen"
    body = request.body
    assert "Jemand, vielleicht du, hat von dieser Adresse aus um einen Platz" in body
    assert "im Spiel alpha gebeten" in body
    assert "pbm ist ein Spielleiter per E-Mail" in body
    assert f"  Bestätigen: {confirmation_code(svc, VICTIM)}\n" in body
    assert "Warst du es nicht, tu nichts" in body
    assert "Opfer" not in body and "Opfer" not in (request.html or "")
    assert max(len(line) for line in body.splitlines()) <= 72
    # Three real players fill the table; the game starts without the victim.
    signup(mailer, "alpha", 3)
    assert game_row(svc, "alpha").phase == "setup"
    assert VICTIM not in {p.address for p in seated(svc, "alpha").values()}
    with Session(svc.engine) as s:
        assert VICTIM not in recipients(s, get_game(s, "alpha"))
    # Setup and a round later, the victim still had that one mail and nothing else.
    while game_row(svc, "alpha").phase == "setup":
        pass_deadline(svc, clock, "alpha")
        tick(svc)
    send_orders(mailer, "alpha", range(3))
    assert game_row(svc, "alpha").round == 2
    assert _mails_to(svc, VICTIM) == ["signup_confirm"]


def test_the_real_player_confirms_and_is_seated(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha")
    me = "anna@players.test"
    mailer.send(me, "Anmeldung", "Spiel: alpha\nName: Anna\nFarben: blau, rot\n")
    code = confirmation_code(svc, me)
    # A reply as a mail program writes it: the subject of the request, the code, no game line.
    r = mailer.send(me, "Re: [alpha] Anmeldung bestätigen", f"Bestätigen: {code}\n")
    assert r.status == "done"
    (player,) = _joined(svc, "alpha")
    assert (player.address, player.name, player.preferences) == (me, "Anna", "blau,rot")
    assert player.status == "active" and player.confirm_token == ""
    assert _pending(svc, "alpha") == []
    (joined,) = replies_to(svc, mailer.last_id)
    assert joined.kind == "joined" and "angemeldet als Anna" in joined.body
    assert "Es fehlen noch 3 Spieler" in joined.body
    # Without `Spiel:` and from a plain subject the pending request finds its game too.
    other = "bernd@players.test"
    mailer.send(other, "Anmeldung", "Spiel: alpha\nName: Bernd\n")
    mailer.send(other, "Re", f"Bestätigen: {confirmation_code(svc, other)}\n")
    assert [p.address for p in _joined(svc, "alpha")] == [me, other]


def test_an_english_game_asks_in_english(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "beta", lang="en")
    mailer.send("ann@players.test", "Join", "Game: beta\nName: Ann\n")
    (request,) = outbox(svc, "signup_confirm")
    assert request.subject == "[beta] Confirm your signup"
    assert "Someone, maybe you, wrote from this address" in request.body
    assert "If you did not ask, do nothing" in request.body
    code = confirmation_code(svc, "ann@players.test")
    assert f"  Confirm: {code}\n" in request.body
    mailer.send("ann@players.test", "Re: [beta] Confirm your signup", f"Confirm: {code}\n")
    assert [p.name for p in _joined(svc, "beta")] == ["Ann"]


def test_the_table_fills_only_with_confirmed_players(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha", players=3)
    asked = [f"p{i}@players.test" for i in range(5)]
    for a in asked:
        mailer.send(a, "Anmeldung", f"Spiel: alpha\nName: {a[:2]}\n")
    # Five requests for three seats: nobody sits, the signup stays open.
    assert _joined(svc, "alpha") == [] and game_row(svc, "alpha").phase == "signup"
    for a in (asked[4], asked[1]):
        mailer.send(a, "Re", f"Spiel: alpha\nBestätigen: {confirmation_code(svc, a)}\n")
    assert game_row(svc, "alpha").phase == "signup"
    assert len(_joined(svc, "alpha")) == 2
    # The third confirmation fills the table: the draw starts with the three who confirmed.
    mailer.send(asked[2], "Re", f"Spiel: alpha\nBestätigen: {confirmation_code(svc, asked[2])}\n")
    assert game_row(svc, "alpha").phase == "setup"
    assert {p.address for p in seated(svc, "alpha").values()} == {asked[4], asked[1], asked[2]}
    assert sorted(_pending(svc, "alpha")) == [asked[0], asked[3]]
    # Welcome mails went to the three seated, none to the two who never confirmed.
    assert sorted(a for o in outbox(svc, "welcome") for a in o.recipients.split(",")) == sorted(
        [asked[4], asked[1], asked[2]]
    )
    for a in (asked[0], asked[3]):
        assert _mails_to(svc, a) == ["signup_confirm"]


def test_a_confirmation_after_the_table_filled_is_told_the_game_is_full(
    svc: Service, mailer: Mailer
) -> None:
    new_game(svc, "alpha", players=3)
    late = "late@players.test"
    mailer.send(late, "Anmeldung", "Spiel: alpha\nName: Spät\n")
    code = confirmation_code(svc, late)
    signup(mailer, "alpha", 3)
    assert game_row(svc, "alpha").phase == "setup"
    mailer.send(late, "Re: [alpha] Anmeldung bestätigen", f"Bestätigen: {code}\n")
    answer = " ".join(_answer(svc, mailer).split())
    assert "Das Spiel alpha ist voll und hat begonnen." in answer
    # The mail is written in the game's language: the answer is in it alone.
    assert "The game alpha is full and has started." not in answer
    assert late not in {p.address for p in seated(svc, "alpha").values()}
    # The request is over: the same code again matches nothing.
    assert _pending(svc, "alpha") == []
    mailer.send(late, "Re: [alpha] Anmeldung bestätigen", f"Bestätigen: {code}\n")
    assert "passt zu keiner Anfrage dieser Adresse im Spiel alpha" in _answer(svc, mailer)


def test_a_wrong_code_changes_nothing(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha")
    me = "anna@players.test"
    mailer.send(me, "Anmeldung", "Spiel: alpha\nName: Anna\n")
    mailer.send(me, "Re", "Spiel: alpha\nBestätigen: 000000000000\n")
    answer = _answer(svc, mailer)
    assert "Dieser Code passt zu keiner Anfrage dieser Adresse im Spiel alpha" in answer
    assert "Nichts wurde geändert." in answer
    assert _joined(svc, "alpha") == [] and _pending(svc, "alpha") == [me]
    # The right code still works afterwards.
    join = mailer.send(me, "Re", f"Spiel: alpha\nBestätigen: {confirmation_code(svc, me)}\n")
    assert join.status == "done" and len(_joined(svc, "alpha")) == 1


def test_the_code_from_another_address_confirms_nothing(svc: Service, mailer: Mailer) -> None:
    """Mallory learns a code (say the victim forwarded the mail) and sends it from her own
    address: it belongs to the victim's request, not to hers."""
    new_game(svc, "alpha")
    mailer.send(VICTIM, "Anmeldung", "Spiel: alpha\nName: Opfer\n")
    code = confirmation_code(svc, VICTIM)
    mallory = "mallory@evil.test"
    mailer.send(mallory, "Re", f"Spiel: alpha\nBestätigen: {code}\n")
    assert "passt zu keiner Anfrage" in _answer(svc, mailer)
    # With a request of her own, the victim's code still does not confirm it.
    mailer.send(mallory, "Anmeldung", "Spiel: alpha\nName: Mallory\n")
    mailer.send(mallory, "Re", f"Spiel: alpha\nBestätigen: {code}\n")
    assert "passt zu keiner Anfrage" in _answer(svc, mailer)
    assert _joined(svc, "alpha") == []
    assert sorted(_pending(svc, "alpha")) == sorted([VICTIM, mallory])


def test_a_code_is_used_once_and_for_its_own_game(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha")
    new_game(svc, "beta")
    me = "anna@players.test"
    mailer.send(me, "Anmeldung", "Spiel: alpha\nName: Anna\n")
    code = confirmation_code(svc, me)
    # Another game's request of the same address is not confirmed by alpha's code.
    mailer.send(me, "Anmeldung", "Spiel: beta\nName: Anna\n")
    mailer.send(me, "Re", f"Spiel: beta\nBestätigen: {code}\n")
    assert "passt zu keiner Anfrage dieser Adresse im Spiel beta" in _answer(svc, mailer)
    assert _joined(svc, "beta") == []
    mailer.send(me, "Re", f"Spiel: alpha\nBestätigen: {code}\n")
    assert len(_joined(svc, "alpha")) == 1
    joined = len(outbox(svc, "joined"))
    # The same confirmation again (a replay, or the player's second click): nothing happens.
    mailer.send(me, "Re", f"Spiel: alpha\nBestätigen: {code}\n")
    assert "passt zu keiner Anfrage" in _answer(svc, mailer)
    assert len(_joined(svc, "alpha")) == 1 and len(outbox(svc, "joined")) == joined


def test_asking_again_sends_the_same_code_within_the_hourly_limit(
    svc: Service, clock: FakeClock, mailer: Mailer
) -> None:
    new_game(svc, "alpha")
    me = "anna@players.test"
    mailer.send(me, "Anmeldung", "Spiel: alpha\nName: Anna\nFarben: rot\n")
    code = confirmation_code(svc, me)
    # Asked again (without `Spiel:`: the pending request names the game), with another name:
    # the same code comes again, and the newest name and colours are kept.
    mailer.send(me, "Anmeldung", "Name: Anna B.\nFarben: gelb\n")
    assert _mails_to(svc, me) == ["signup_confirm"] * 2
    assert confirmation_code(svc, me) == code
    assert _pending(svc, "alpha") == [me]
    # The answers stop at the hourly limit, and come again an hour later.
    limit = svc.config.service.rate_limit_per_hour
    for _ in range(limit):
        mailer.send(me, "Anmeldung", "Spiel: alpha\n")
    assert _mails_to(svc, me) == ["signup_confirm"] * limit
    clock.advance(hours=1, minutes=1)
    mailer.send(me, "Anmeldung", "Spiel: alpha\n")
    assert _mails_to(svc, me) == ["signup_confirm"] * (limit + 1)
    assert confirmation_code(svc, me) == code
    mailer.send(me, "Re", f"Spiel: alpha\nBestätigen: {code}\n")
    (player,) = _joined(svc, "alpha")
    # Requests without a name or colours left those of the one before them.
    assert (player.name, player.preferences) == ("Anna B.", "gelb")


def test_the_confirming_mail_may_set_name_and_colours(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha")
    me = "anna@players.test"
    mailer.send(me, "Anmeldung", "Spiel: alpha\nName: Forged Name\nFarben: gelb\n")
    code = confirmation_code(svc, me)
    mailer.send(me, "Re", f"Spiel: alpha\nBestätigen: {code}\nName: Anna\nFarben: blau, rot\n")
    (player,) = _joined(svc, "alpha")
    assert (player.name, player.preferences) == ("Anna", "blau,rot")


def test_a_seated_player_asking_again_is_told_so(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha")
    me = "anna@players.test"
    join_by_mail(mailer, me, "alpha", "Name: Anna\n")
    mailer.send(me, "Anmeldung", "Spiel: alpha\nName: Anna\n")
    assert f"{me} ist schon angemeldet." in " ".join(_answer(svc, mailer).split())
    # Written in English to the German game: in every language, English first.
    mailer.send(me, "Join", "Game: alpha\nName: Anna\n")
    answer = " ".join(_answer(svc, mailer).split())
    assert answer.index(f"{me} has joined already.") < answer.index(f"{me} ist schon angemeldet.")
    assert _mails_to(svc, me).count("signup_confirm") == 1


def test_one_confirm_serves_a_signup_and_an_observation(svc: Service, mailer: Mailer) -> None:
    """An address may wait for both in one game: each code completes its own request."""
    new_game(svc, "alpha")
    me = "anna@players.test"
    mailer.send(me, "Beobachten", "Spiel: alpha\nBeobachten\n")
    watch = confirmation_code(svc, me)
    mailer.send(me, "Anmeldung", "Spiel: alpha\nName: Anna\n")
    seat = confirmation_code(svc, me)
    assert watch != seat
    mailer.send(me, "Re", f"Spiel: alpha\nBestätigen: {watch}\n")
    with Session(svc.engine) as s:
        assert [(o.address, o.status) for o in observers_of(s, get_game(s, "alpha"))] == [
            (me, "observer")
        ]
    assert _joined(svc, "alpha") == [] and _pending(svc, "alpha") == [me]
    mailer.send(me, "Re", f"Spiel: alpha\nBestätigen: {seat}\n")
    assert [p.address for p in _joined(svc, "alpha")] == [me]


def test_a_pending_request_does_not_draw_the_addresses_other_mail(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """A forged request in an open game must not make a player's mails ambiguous: orders that
    name no game still go to the one game the player sits in."""
    table = games.start("alpha")
    new_game(svc, "beta")
    player = table.seats[0]
    mailer.send(player, "Anmeldung", "Spiel: beta\nName: Forged\n")
    assert _pending(svc, "beta") == [player]
    r = send_orders(mailer, "alpha", [0], resolve=False)[0]
    assert r.status == "done" and r.game == "alpha"
    assert [o.kind for o in replies_to(svc, mailer.last_id)] == ["ack"]


def test_the_gm_adds_a_player_without_a_mail_confirmation(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha", players=3)
    row = admin.add_player(svc, "alpha", "Dora@Players.test", "Dora", "weiß, blau")
    assert (row["address"], row["name"], row["status"]) == ("dora@players.test", "Dora", "active")
    assert _mails_to(svc, "dora@players.test") == ["joined"]
    assert _joined(svc, "alpha")[0].preferences == "weiss,blau"
    # A pending sign-up is confirmed by the GM, keeping its name and wishes.
    mailer.send("emil@players.test", "Anmeldung", "Spiel: alpha\nName: Emil\nFarben: gelb\n")
    row = admin.add_player(svc, "alpha", "emil@players.test")
    assert (row["name"], row["status"]) == ("Emil", "active")
    assert _pending(svc, "alpha") == []
    listed = admin.list_players(svc, "alpha")
    assert [(r["address"], r["status"]) for r in listed] == [
        ("dora@players.test", "active"),
        ("emil@players.test", "active"),
    ]
    # The listing shows who still has to confirm.
    mailer.send("fritz@players.test", "Anmeldung", "Spiel: alpha\nName: Fritz\n")
    assert admin.list_players(svc, "alpha")[-1]["status"] == "signup_pending"
    # Refusals: a seated address, a colour nobody knows, a game past its signup.
    for address, colours, why in (
        ("dora@players.test", "", "has joined already"),
        ("gustav@players.test", "lila", "not a colour"),
    ):
        try:
            admin.add_player(svc, "alpha", address, "", colours)
        except admin.ServiceError as e:
            assert why in str(e)
            # The GM's command line speaks English: one sentence, not every language's.
            assert " / " not in str(e) and "angemeldet" not in str(e)
        else:
            raise AssertionError(address)
    admin.add_player(svc, "alpha", "gustav@players.test", "Gustav")
    assert game_row(svc, "alpha").phase == "setup"
    seats = {p.address: p.colour for p in seated(svc, "alpha").values()}
    # Dora's wishes were read as a player writes them (weiß is not at a table of three).
    assert seats["dora@players.test"] == "blau" and seats["emil@players.test"] == "gelb"
    assert "fritz@players.test" not in seats
    with Session(svc.engine) as s:
        assert "fritz@players.test" not in recipients(s, get_game(s, "alpha"))
    try:
        admin.add_player(svc, "alpha", "hanna@players.test")
    except admin.ServiceError as e:
        assert "full and has started" in str(e)
    else:
        raise AssertionError("added past the signup")


def test_the_gm_starts_early_with_the_confirmed_players_only(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha", players=5)
    signup(mailer, "alpha", 3)
    mailer.send(VICTIM, "Anmeldung", "Spiel: alpha\n")
    admin.start_game(svc, "alpha")
    assert game_row(svc, "alpha").phase == "setup"
    assert len(seated(svc, "alpha")) == 3
    assert VICTIM not in {p.address for p in seated(svc, "alpha").values()}


def test_a_reply_quoting_the_request_is_told_the_line_to_write(
    svc: Service, mailer: Mailer
) -> None:
    """ "Ja, gerne!" above the quoted request, with no `Bestätigen:` line: answered with the
    line to write (its code), not silence; not taken, since an auto-reply quotes the code too
    (and a forged request would then seat the address)."""
    new_game(svc, "alpha", players=3)
    me = "anna@players.test"
    mailer.send(me, "Anmeldung", "Spiel: alpha\nAnmeldung\nName: Anna\n")
    (request,) = outbox(svc, to=me)
    code = confirmation_code(svc, me)
    quoted = "\n".join(f"> {line}" for line in request.body.splitlines())
    mailer.send(me, f"Re: {request.subject}", f"Ja, gerne!\n\nAnna\n\n{quoted}\n")
    assert _joined(svc, "alpha") == []
    assert "antworte mit dieser Zeile" in (said := _answer(svc, mailer))
    assert f"\n\nBestätigen: {code}\n" in said
    # Written as told: the seat is taken.
    mailer.send(me, f"Re: {request.subject}", f"Bestätigen: {code}\n")
    assert [p.address for p in _joined(svc, "alpha")] == [me]


def test_the_code_written_by_the_player_confirms(svc: Service, mailer: Mailer) -> None:
    """The code alone on a line, or in a sentence of the player's own: only the address it
    went to can know it."""
    new_game(svc, "alpha", players=3)
    me = "carla@players.test"
    mailer.send(me, "Anmeldung", "Spiel: alpha\nAnmeldung\nName: Carla\n")
    code = confirmation_code(svc, me)
    mailer.send(me, "Re: [alpha] Anmeldung bestätigen", f"{code}\n")
    assert [p.address for p in _joined(svc, "alpha")] == [me]


def test_a_forged_reply_without_the_code_confirms_nothing(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha", players=3)
    mailer.send(VICTIM, "Anmeldung", "Spiel: alpha\nAnmeldung\nName: Opfer\n")
    mailer.send(VICTIM, "Re: [alpha] Anmeldung bestätigen", "Ja, gerne!\n> 0123456789ab\n")
    assert _joined(svc, "alpha") == []
    assert _pending(svc, "alpha") == [VICTIM]


def test_a_refusal_that_names_the_code_confirms_nothing(svc: Service, mailer: Mailer) -> None:
    """The victim of a forged request, asking what the code is, is not seated by asking."""
    new_game(svc, "alpha", players=3)
    mailer.send(VICTIM, "Anmeldung", "Spiel: alpha\nAnmeldung\nName: Opfer\n")
    code = confirmation_code(svc, VICTIM)
    for said in (
        f"Das war ich nicht! Was soll der Code {code}?",
        f"Please remove me, I never asked for this (code {code}).",
    ):
        mailer.send(VICTIM, "Re: [alpha] Anmeldung bestätigen", f"{said}\n")
    assert _joined(svc, "alpha") == []
    assert _pending(svc, "alpha") == [VICTIM]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    ("subject", "body"),
    [
        ("[golf] Anmeldung", "Name: Klaus\nFarben: grün\n"),  # the guides' `[name]`, no `Re:`
        ("[golf] Join", "Name: Klaus\n"),
        ("Anmeldung golf", "Name: Klaus\n"),  # the game after the command
        ("Anmeldung", "Anmeldung für Golf\nName: Klaus\n"),
        ("Join game golf", "Name: Klaus\n"),
        ("Tilmelding golf", "Navn: Klaus\n"),
        ("Tilmeldning", "Spil: golf\nNavn: Klaus\n"),  # the common misspelling
    ],
)
def test_a_signup_names_its_game_in_the_subject_tag_or_after_the_command(
    svc: Service, mailer: Mailer, subject: str, body: str
) -> None:
    """`[golf] Anmeldung` was taken for a reply in pbm's own thread and got no answer at all;
    `Anmeldung golf` was asked "which game?" with two games open."""
    new_game(svc, "alpha")
    new_game(svc, "golf")
    me = "klaus@players.test"
    assert mailer.send(me, subject, body).status == "done"
    assert _pending(svc, "golf") == [me]
    assert _pending(svc, "alpha") == []
    (request,) = outbox(svc, to=me)
    assert request.kind == "signup_confirm"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_a_reply_in_pbms_signup_thread_is_still_no_new_signup(svc: Service, mailer: Mailer) -> None:
    """Only a tag with `Re:`/`AW:`/`SV:` before it is pbm's own thread answered."""
    new_game(svc, "alpha")
    new_game(svc, "golf")
    me = "klaus@players.test"
    mailer.send(me, "Re: [golf] Anmeldung erhalten", "Danke!\n")
    assert _pending(svc, "golf") == []
    # `Anmeldung rot` names no game: with two open, the answer asks which.
    mailer.send(me, "Anmeldung rot", "Name: Klaus\n")
    assert _pending(svc, "golf") == [] and _pending(svc, "alpha") == []
    assert [o.kind for o in outbox(svc, to=me)][-1] != "signup_confirm"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_an_auto_reply_pasting_the_request_unquoted_seats_nobody(
    svc: Service, mailer: Mailer
) -> None:
    """A forged sign-up; the victim's responder marks nothing and pastes the request below an
    unknown separator, its `Bestätigen:` line with it. That seated the victim."""
    new_game(svc, "alpha")
    mailer.send(VICTIM, "Anmeldung", "Spiel: alpha\nName: Opfer\n")
    (request,) = outbox(svc, to=VICTIM)
    pasted = "Ich bin bis Montag nicht erreichbar.\n\n----- Ihre Nachricht -----\n" + request.body
    mailer.send(VICTIM, "Re: [alpha] Anmeldung bestätigen", pasted)
    assert _pending(svc, "alpha") == [VICTIM]
    assert _joined(svc, "alpha") == []
    # The answer asks for the line, written alone.
    assert "Bestätigen:" in _answer(svc, mailer)
    # The player who writes the line above the pasted request is asked the same, and the line
    # alone then seats them.
    code = confirmation_code(svc, VICTIM)
    mailer.send(VICTIM, "Re: [alpha] Anmeldung bestätigen", f"Bestätigen: {code}\n\n{pasted}")
    assert _joined(svc, "alpha") == []
    mailer.send(VICTIM, "Re: [alpha] Anmeldung bestätigen", f"Bestätigen: {code}\n")
    assert [p.address for p in _joined(svc, "alpha")] == [VICTIM]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    ("lang", "join", "line", "refused", "kept", "hint"),
    [
        (
            "en",
            "Join",
            "Colours: gren, red",
            "'gren' is not a colour at this table (red, blue, yellow, white).",
            "Your colour wishes: red.",
            "To change your wishes, write a line 'Colours: …' beside the 'Confirm:' line.",
        ),
        (
            "de",
            "Anmeldung",
            "Farben: rott, blau",
            "'rott' ist keine Farbe an diesem Tisch (rot, blau, gelb, weiß).",
            "Deine Farbwünsche: blau.",
            "Um deine Wünsche zu ändern, schreib eine Zeile 'Farben: …' zur Zeile "
            "'Bestätigen:' dazu.",
        ),
        (
            "da",
            "Tilmelding",
            "Farver: lilla, hvid",
            "'lilla' er ikke en farve ved dette bord (rød, blå, gul, hvid).",
            "Dine farveønsker: hvid.",
            "For at ændre dine ønsker skriver du en linje 'Farver: …' ved siden af linjen "
            "'Bekræft:'.",
        ),
    ],
)
def test_a_word_that_is_no_colour_keeps_the_other_wishes_and_is_named(
    svc: Service,
    mailer: Mailer,
    lang: str,
    join: str,
    line: str,
    refused: str,
    kept: str,
    hint: str,
) -> None:
    """QA: `Colours: gren, red` was stored as no wishes at all, and no answer said so. The
    colours are kept; the signup's answer names the word, the table's colours and how to
    change the wishes."""
    new_game(svc, "alpha", lang=lang)
    me = "anna@players.test"
    mailer.send(me, join, f"Spiel: alpha\nName: Anna\n{line}\n")
    answer = " ".join(_answer(svc, mailer).split())
    assert refused in answer and kept in answer and hint in answer
    code = confirmation_code(svc, me)
    mailer.send(me, "Re", f"Spiel: alpha\nBestätigen: {code}\n")
    (player,) = _joined(svc, "alpha")
    assert player.preferences == {"en": "rot", "de": "blau", "da": "weiss"}[lang]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_colours_line_of_no_colour_at_all_says_so_and_keeps_no_wish(
    svc: Service, mailer: Mailer
) -> None:
    """`Colours: purple`, and a colour the table does not play (green at four): named, and
    the player learns that the draw gives a free colour."""
    new_game(svc, "alpha", lang="en")
    me = "anna@players.test"
    mailer.send(me, "Join", "Game: alpha\nName: Anna\nColours: purple, green\n")
    answer = " ".join(_answer(svc, mailer).split())
    assert "'purple', 'green' are not colours at this table (red, blue, yellow, white)." in answer
    assert "You have no colour wish: the draw gives you a free colour." in answer
    # A word that is not a word is not repeated to the address (the request may be forged).
    mailer.send(me, "Join", "Game: alpha\nColours: www.spam.example\n")
    answer = " ".join(_answer(svc, mailer).split())
    assert "spam" not in answer
    assert (
        "Your 'Colours:' line names something that is not a colour at this table "
        "(red, blue, yellow, white)." in answer
    )
    # The confirming mail's own colours line is answered in the "Signup received" mail.
    code = confirmation_code(svc, me)
    mailer.send(me, "Re", f"Game: alpha\nConfirm: {code}\nColours: yelow, blue\n")
    (row,) = replies_to(svc, mailer.last_id)
    assert row.kind == "joined"
    answer = " ".join(row.body.split())
    assert "'yelow' is not a colour at this table (red, blue, yellow, white)." in answer
    assert "Your colour wishes: blue." in answer
    assert "To change" not in answer  # too late: the seat is taken
    (player,) = _joined(svc, "alpha")
    assert player.preferences == "blau"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_signup_whose_colours_are_all_the_tables_says_nothing_of_them(
    svc: Service, mailer: Mailer
) -> None:
    new_game(svc, "alpha", lang="en")
    me = "anna@players.test"
    mailer.send(me, "Join", "Game: alpha\nColours: white, red\n")
    assert "not a colour" not in _answer(svc, mailer)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    ("lang", "join", "said", "told", "line"),
    [
        (
            "en",
            "Join",
            "sorry, typo. Confirm: {code}",
            "Your mail names the code among other words; only the line 'Confirm: …' alone "
            "on a line of its own counts",
            "Confirm",
        ),
        (
            "de",
            "Anmeldung",
            "Sorry, Tippfehler. Bestätigen: {code}",
            "Deine Mail nennt den Code zwischen anderen Wörtern; es zählt nur die Zeile "
            "'Bestätigen: …' allein auf einer eigenen Zeile",
            "Bestätigen",
        ),
        (
            "da",
            "Tilmelding",
            "Undskyld, tastefejl. Bekræft: {code}",
            "Din mail nævner koden blandt andre ord; kun linjen 'Bekræft: …' alene på sin "
            "egen linje tæller",
            "Bekræft",
        ),
    ],
)
def test_a_code_in_a_sentence_of_the_players_own_is_told_the_true_reason(
    svc: Service, mailer: Mailer, lang: str, join: str, said: str, told: str, line: str
) -> None:
    """QA: `sorry, typo. Confirm: a3c51a307f70`, nothing quoted, was answered "the code only
    in the quoted mail is not enough". A code among other words is not taken (a victim of a
    forged request asking about it writes it so too), and the answer says that, not a quote."""
    new_game(svc, "alpha", players=3, lang=lang)
    me = "anna@players.test"
    mailer.send(me, join, "Spiel: alpha\nName: Anna\n")
    code = confirmation_code(svc, me)
    mailer.send(me, "Re: [alpha]", said.format(code=code) + "\n")
    assert _joined(svc, "alpha") == []
    answer = _answer(svc, mailer)
    assert told in " ".join(answer.split()) and f"\n\n{line}: {code}\n" in answer
    assert "quote" not in answer and "zitiert" not in answer and "citere" not in answer
    # Only in the quoted request: the reason is the quote, as before.
    mailer.send(me, "Re: [alpha]", f"Yes!\n\n> {line}: {code}\n")
    assert _joined(svc, "alpha") == []
    assert told not in " ".join(_answer(svc, mailer).split())
    # The line alone, as told: the seat is taken.
    mailer.send(me, "Re: [alpha]", f"{line}: {code}\n")
    assert [p.address for p in _joined(svc, "alpha")] == [me]
