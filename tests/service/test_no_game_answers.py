"""Answers that belong to no game (a stranger's first mail, "which game?", a game that has
ended): their subject says what they are, in the answer's languages, and those languages come
in the order the reader most likely reads: the language the mail is written in, then the
game's (or the open games'); that language alone when both agree. A player in several games
whose mail names none is understood by its password (or its round), and when it is still not
clear, told that nothing was stored. QA found `pbm` as the subject, German first in a Danish
game's answers, and "which game?" to a mail whose password fitted one game only."""

from __future__ import annotations

import re

import pytest
from databases import game_row, order_sets, outbox, replies_to
from harness import Games, Mailer, Table, new_game, orders_text, prepared

from pbm.service import admin
from pbm.service.context import Service

LANGS = ["da", "de", "en"]
#: A mail's words and the answers' texts, by language.
SAYS = {
    "de": {
        "join": "Anmeldung",
        "name": "Name: Ole",
        "hello": "Hallo, wie kann ich mitspielen?",
        "password": "Kennwort",
        "round": "Runde",
        "ended": "Das Spiel fyn ist zu Ende",
        "open": "Offene Spiele zum Anmelden: ",
        "open_subject": "pbm: Offene Spiele zum Anmelden",
        "none_open_subject": "pbm: Kein Spiel zur Anmeldung offen",
        "which": "Welches Spiel?",
        "no_such_game": "Kein Spiel dieses Namens",
        "not_read": "Deine Mail wurde nicht gelesen",
        "bad_password": "Kennwort fehlt oder ist falsch",
    },
    "en": {
        "join": "Join",
        "name": "Name: Ole",
        "hello": "Hello, how can I take part?",
        "password": "Password",
        "round": "Round",
        "ended": "The game fyn has ended",
        "open": "Games open for signup: ",
        "open_subject": "pbm: Games open for signup",
        "none_open_subject": "pbm: No game open for signup",
        "which": "Which game?",
        "no_such_game": "No game of that name",
        "not_read": "Your mail was not read",
        "bad_password": "The password is missing or wrong",
    },
    "da": {
        "join": "Tilmelding",
        "name": "Navn: Ole",
        "hello": "Hej, hvordan kan jeg være med?",
        "password": "Adgangskode",
        "round": "Runde",
        "ended": "Spillet fyn er slut",
        "open": "Spil, der er åbne for tilmelding: ",
        "open_subject": "pbm: Spil, der er åbne for tilmelding",
        "none_open_subject": "pbm: Intet spil åbent for tilmelding",
        "which": "Hvilket spil?",
        "no_such_game": "Intet spil med det navn",
        "not_read": "Din mail blev ikke læst",
        "bad_password": "Adgangskoden mangler eller er forkert",
    },
}
STRANGER = "ole@elsewhere.test"


def svc_of(games: Games) -> Service:
    return games.mailer.svc


pytestmark = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # no database's part


def _answer(svc: Service, mailer: Mailer) -> tuple[str, str]:
    (row,) = replies_to(svc, mailer.last_id)
    return row.subject, " ".join(row.body.split())


def _order(body: str, *langs: str) -> list[str]:
    """Those of `langs` whose how-to-join text stands in `body`, in the order they stand."""
    found = sorted(
        (body.index(SAYS[lang]["open"]), lang) for lang in langs if SAYS[lang]["open"] in body
    )
    return [lang for _, lang in found]


# -- the stranger's first mail: the games open for signup --------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_stranger_writing_the_open_games_language_is_answered_in_it_alone(
    svc: Service, mailer: Mailer, lang: str
) -> None:
    """Every open game is in `lang` and the mail is too: the reader reads it."""
    new_game(svc, "skibe", lang=lang)
    new_game(svc, "krone", lang=lang)
    mailer.send(STRANGER, "?", SAYS[lang]["hello"] + "\n")
    subject, body = _answer(svc, mailer)
    assert subject == SAYS[lang]["open_subject"]
    assert body.startswith(SAYS[lang]["open"] + "skibe, krone.")
    for other in LANGS:
        if other != lang:
            assert SAYS[other]["open"] not in body


@pytest.mark.parametrize("lang", LANGS)
def test_a_stranger_of_unknown_language_reads_the_open_games_language_first(
    svc: Service, mailer: Mailer, lang: str
) -> None:
    """Nothing tells the stranger's language: every language, the open games' first (German
    came first though every open game was Danish)."""
    new_game(svc, "skibe", lang=lang)
    mailer.send(STRANGER, "?", "Hi :)\n")
    subject, body = _answer(svc, mailer)
    others = [o for o in ["de", "da", "en"] if o != lang]
    assert _order(body, lang, *others) == [lang, *others]
    assert subject.startswith(SAYS[lang]["open_subject"] + " / ")


@pytest.mark.parametrize(("lang", "written"), [("da", "en"), ("da", "de"), ("de", "da")])
def test_a_stranger_writing_another_language_reads_theirs_first_then_the_games(
    svc: Service, mailer: Mailer, lang: str, written: str
) -> None:
    new_game(svc, "skibe", lang=lang)
    mailer.send(STRANGER, "?", SAYS[written]["hello"] + "\n")
    subject, body = _answer(svc, mailer)
    rest = [o for o in ["de", "da", "en"] if o not in (lang, written)]
    assert _order(body, written, lang, *rest) == [written, lang, *rest]
    assert subject.startswith(SAYS[written]["open_subject"] + " / ")


@pytest.mark.parametrize("lang", LANGS)
def test_no_open_game_is_said_in_the_subject(svc: Service, mailer: Mailer, lang: str) -> None:
    mailer.send(STRANGER, "?", SAYS[lang]["hello"] + "\n")
    subject, _ = _answer(svc, mailer)
    assert subject.startswith(SAYS[lang]["none_open_subject"])


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_that_does_not_exist_is_said_in_the_subject(
    svc: Service, mailer: Mailer, lang: str
) -> None:
    new_game(svc, "skibe", lang=lang)
    w = SAYS[lang]
    mailer.send(STRANGER, f"{w['join']} [gibtsnicht]", w["name"] + "\n")
    subject, body = _answer(svc, mailer)
    assert subject == f"pbm: {w['no_such_game']}"
    assert w["open"] + "skibe." in body


# -- a sign-up for a game that has ended --------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_signup_for_an_ended_game_is_refused_in_the_games_language(
    svc: Service, mailer: Mailer, games: Games, lang: str
) -> None:
    """`Tilmelding [fyn]` to the ended Danish game was refused German first."""
    games.start("fyn", lang=lang)
    admin.end_game(svc, "fyn")
    mailer.send(STRANGER, f"{SAYS[lang]['join']} [fyn]", SAYS[lang]["name"] + "\n")
    _, body = _answer(svc, mailer)
    assert body.startswith(SAYS[lang]["ended"])
    for other in LANGS:
        if other != lang:
            assert SAYS[other]["ended"] not in body


def test_a_signup_written_in_another_language_is_refused_in_every_language_its_first(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    games.start("fyn", lang="da")
    admin.end_game(svc, "fyn")
    mailer.send(STRANGER, "Join [fyn]", "Name: Ole\n")
    _, body = _answer(svc, mailer)
    ended = [body.index(SAYS[lang]["ended"]) for lang in ("en", "da", "de")]
    assert ended == sorted(ended), body


# -- a player of several games ------------------------------------------------------------------


@pytest.fixture
def two_games(games: Games, request: pytest.FixtureRequest) -> dict[str, dict[str, str]]:
    """The same four players seated in fyn (round 1) and skibe (round 2), both in the test's
    `lang`; their passwords by game. skibe is set up and played by mail, every mail naming no
    game (its password tells it), so that no deadline of fyn passes meanwhile."""
    lang = request.getfixturevalue("lang")

    def start_both() -> tuple[Table, Table]:
        fyn = games.start("fyn", lang=lang)
        return fyn, games.start("skibe", lang=lang, round_=2, by_mail=True)

    # Both games remembered together (the second game starts on a database that is not empty).
    fyn, skibe = prepared(games.mailer, games.clock, ("two_games", lang), start_both)
    assert game_row(svc_of(games), "fyn").round == 1
    assert fyn.addresses == skibe.addresses
    return {"fyn": dict(fyn.passwords), "skibe": dict(skibe.passwords)}


@pytest.mark.parametrize("lang", LANGS)
def test_orders_naming_no_game_go_to_the_game_their_password_opens(
    svc: Service, mailer: Mailer, two_games: dict[str, dict[str, str]], lang: str
) -> None:
    from databases import game_state, seated

    for name in ("fyn", "skibe"):
        _, state = game_state(svc, name)
        seat, address = next((s, p.address) for s, p in seated(svc, name).items())
        before = len(order_sets(svc, name))
        body = orders_text(state, seat, two_games[name][address], lang=lang)
        mailer.send(address, "Ordrer", body, resolve=False)
        assert len(order_sets(svc, name)) == before + 1, name
        (ack,) = replies_to(svc, mailer.last_id)
        assert ack.kind == "ack" and ack.subject.startswith(f"[{name}]")


@pytest.mark.parametrize("lang", LANGS)
def test_a_wrong_password_with_the_round_of_one_game_is_answered_by_that_game(
    svc: Service, mailer: Mailer, two_games: dict[str, dict[str, str]], lang: str
) -> None:
    """`Runde: 2` is skibe's open round: the mail is for skibe, whose answer is that the
    password is wrong (not "which game?")."""
    me = next(iter(two_games["fyn"]))
    assert game_row(svc, "skibe").round == 2
    w = SAYS[lang]
    mailer.send(me, "Ordrer", f"{w['password']}: blau-kadu-mepi-rosa-tule-wibo\n{w['round']}: 2\n")
    subject, body = _answer(svc, mailer)
    assert subject.startswith("[skibe]")
    assert w["bad_password"] in body


@pytest.mark.parametrize("lang", LANGS)
def test_a_mail_of_a_player_in_several_games_that_tells_none_stores_nothing_and_says_so(
    svc: Service, mailer: Mailer, two_games: dict[str, dict[str, str]], lang: str
) -> None:
    """Neither password nor round tells the game: "which game?", with that nothing of the
    mail was stored and what to write, under a subject that says so."""
    me = next(iter(two_games["fyn"]))
    w = SAYS[lang]
    before = len(order_sets(svc))
    mailer.send(me, "Ordrer", f"{w['password']}: blau-kadu-mepi-rosa-tule-wibo\nJeg passer\n")
    subject, body = _answer(svc, mailer)
    assert subject == f"pbm: {w['which']}"
    assert body.startswith(w["which"]) and "fyn, skibe" in body
    assert w["not_read"] in body
    assert len(order_sets(svc)) == before
    kinds = [row.kind for row in outbox(svc, to=me) if row.in_reply_to == mailer.last_id]
    assert kinds == ["error"]


# -- a stranger's mail that reads like a signup but is none ------------------------------------

#: The QA's mail (`Hi, anmeldung für insel bitte` / `Name: Bernd` / `Farben: Rot, Grün`), in
#: each language, and what the answer says: why it was no signup, the lines to send.
ALMOST = {
    "de": (
        "Hi, anmeldung für insel bitte\nName: Bernd\nFarben: Rot, Grün\n",
        "Deine Mail wurde nicht als Anmeldung gelesen: Eine Anmeldung braucht eine Zeile, die "
        "mit dem Wort 'Anmeldung' beginnt (in einem Satz wird das Wort nicht als Anmeldung "
        "gelesen). Um bei insel mitzuspielen, schicke eine Mail mit diesen Zeilen:",
        ["  Spiel: insel", "  Anmeldung", "  Name: Bernd", "  Farben: rot, grün"],
    ),
    "en": (
        "Hi, join for insel please\nName: Bernd\nColours: red, green\n",
        "Your mail was not read as a signup: a signup needs a line that starts with the word "
        "'Join' (in a sentence, the word is not read as one). To join insel, send a mail with "
        "these lines:",
        ["  Game: insel", "  Join", "  Name: Bernd", "  Colours: red, green"],
    ),
    "da": (
        "Hej, tilmelding til insel tak\nNavn: Bernd\nFarver: rød, grøn\n",
        "Din mail blev ikke læst som en tilmelding: en tilmelding kræver en linje, der begynder "
        "med ordet 'Tilmelding' (i en sætning læses ordet ikke som en tilmelding). For at være "
        "med i insel skal du sende en mail med disse linjer:",
        ["  Spil: insel", "  Tilmelding", "  Navn: Bernd", "  Farver: rød, grøn"],
    ),
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_signup_in_a_sentence_is_told_why_it_was_none_and_the_lines_to_send(
    svc: Service, mailer: Mailer, lang: str
) -> None:
    """QA: the answer only listed the open games and the words of a signup; it did not say
    the mail was not read as one, nor why. Its lines, sent back, are a signup."""
    new_game(svc, "insel", players=5, lang=lang)
    mail, why, lines = ALMOST[lang]
    mailer.send(STRANGER, "mitspielen", mail)
    (row,) = replies_to(svc, mailer.last_id)
    assert row.subject == SAYS[lang]["open_subject"]
    assert " ".join(row.body.split()).startswith(why), row.body
    assert "\n".join(lines) in row.body
    # The HTML part: the prose in paragraphs (a phone wraps them), the lines in a block.
    html = row.html.split("<body>", 1)[1]
    pres = re.findall(r"<pre[^>]*>(.*?)</pre>", html, re.S)
    assert pres == ["\n".join(lines)], html
    assert all(len(line) <= 40 for line in pres[0].splitlines())
    # What the answer says to send is a signup.
    mailer.send(STRANGER, "Re: mitspielen", "\n".join(line.strip() for line in lines) + "\n")
    assert [r.kind for r in replies_to(svc, mailer.last_id)] == ["signup_confirm"]


def test_of_several_open_games_the_one_the_mail_names_is_filled_in(
    svc: Service, mailer: Mailer
) -> None:
    new_game(svc, "insel")
    new_game(svc, "meer")
    mailer.send(STRANGER, "Hallo", "Hallo, ich will bei meer mitspielen.\nName: Bernd\n")
    (row,) = replies_to(svc, mailer.last_id)
    assert "Um bei meer mitzuspielen" in row.body and "  Spiel: meer\n" in row.body
    assert "  Farben" not in row.body  # no wishes written, none to copy
    mailer.send(STRANGER, "Frage", "Hallo, anmelden?\nName: http://spam.test\n")
    (row,) = replies_to(svc, mailer.last_id)
    body = " ".join(row.body.split())
    assert "Offene Spiele zum Anmelden: insel, meer." in body and "hinter 'Spiel:'" in body
    assert "Spiel: <Name des Spiels>" in body and "Name: <dein Name>" in body
    assert "spam" not in body  # a name that is no name is not echoed
