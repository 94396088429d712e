"""A mail that asks several questions (`Status`, `Mitspieler`, `Verlauf`, `Hilfe`) and carries no
orders: every question is answered, each in a mail of its own, as beside orders; a line the
mail refuses (a time zone that is none) is answered too, never dropped. QA found only the
first question of such a Danish mail answered, and the refused time zone never mentioned.
Through the in-memory mail seam, as players write."""

from __future__ import annotations

import pytest
from databases import order_sets, replies_to, seated
from harness import Games, Mailer, orders_text, set_service

from pbm.service import admin
from pbm.service.context import Service

#: The words a player writes, by game language.
WORDS = {
    "de": {
        "password": "Kennwort",
        "zone": "Zeitzone",
        "country": "Dänemark",
        "help": "Hilfe",
        "status": "Status",
        "players": "Mitspieler",
        "history": "Verlauf",
        "away": "Urlaub bis 20.1.",
        "back": "Ich bin zurück",
    },
    "en": {
        "password": "Password",
        "zone": "Time zone",
        "country": "Denmark",
        "help": "Help",
        "status": "Status",
        "players": "Players",
        "history": "History",
        "away": "Away until 20.1.",
        "back": "I'm back",
    },
    "da": {
        "password": "Adgangskode",
        "zone": "Tidszone",
        "country": "Danmark",
        "help": "Hjælp",
        "status": "Status",
        "players": "Medspillere",
        "history": "Historik",
        "away": "Ferie til 20.1.",
        "back": "Jeg er tilbage",
    },
}
LANGS = sorted(WORDS)

pytestmark = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # no database's part


def _mail(mailer: Mailer, games: Games, lang: str, *lines: str) -> tuple[Service, str]:
    """A seated player's mail in a game of `lang`: the right password, then `lines`."""
    table = games.start("fyn", lang=lang)
    me = table.seats[0]
    w = WORDS[lang]
    mailer.send(me, "fyn", f"{w['password']}: {table.passwords[me]}\n" + "\n".join(lines) + "\n")
    return mailer.svc, me


def _kinds(svc: Service, mailer: Mailer) -> list[str]:
    return [row.kind for row in replies_to(svc, mailer.last_id)]


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_time_zone_and_two_questions_are_all_answered(
    mailer: Mailer, games: Games, lang: str
) -> None:
    """`Tidszone: Danmark` + `Historik` + `Medspillere` got the history alone."""
    w = WORDS[lang]
    svc, me = _mail(mailer, games, lang, f"{w['zone']}: {w['country']}", w["history"], w["players"])
    answers = replies_to(svc, mailer.last_id)
    # The refused line first (what the mail did), then each question in the order asked.
    assert [row.kind for row in answers] == ["error", "history", "players"]
    assert {row.recipients for row in answers} == {me}
    refusal = answers[0].body
    assert f"{w['zone']}: {w['country']}" in refusal
    assert "Europe/" in refusal, "the refusal says what a time zone looks like"
    assert seated(svc, "fyn")[0].timezone in (None, "")
    assert order_sets(svc, "fyn") == [], "no order was stored"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("asked", "kinds"),
    [
        (["players", "status"], ["players", "status"]),
        (["status", "players", "help"], ["status", "players", "help"]),
        (["history", "help", "status", "players"], ["history", "help", "status", "players"]),
    ],
)
def test_every_question_of_a_mail_without_orders_is_answered(
    mailer: Mailer, games: Games, lang: str, asked: list[str], kinds: list[str]
) -> None:
    w = WORDS[lang]
    svc, me = _mail(mailer, games, lang, *(w[a] for a in asked))
    assert _kinds(svc, mailer) == kinds
    # With the right password each answer is the seat's: the status names its own orders.
    status = [row.body for row in replies_to(svc, mailer.last_id, "status")]
    assert all(me in row.recipients for row in replies_to(svc, mailer.last_id))
    if status:
        assert {"de": "Deine Züge", "en": "Your orders", "da": "Dine ordrer"}[lang] in status[0]


@pytest.mark.parametrize("lang", LANGS)
def test_a_chapter_of_the_help_beside_other_questions_is_that_chapter(
    mailer: Mailer, games: Games, lang: str
) -> None:
    """`Status` + `Medspillere` + `Hjælp handel` got the status alone."""
    w = WORDS[lang]
    topic = {"de": "Handel", "en": "trade", "da": "handel"}[lang]
    svc, _ = _mail(mailer, games, lang, w["status"], w["players"], f"{w['help']} {topic}")
    assert _kinds(svc, mailer) == ["status", "players", "help"]
    (help_,) = replies_to(svc, mailer.last_id, "help")
    assert help_.body.lstrip().startswith("### "), "the chapter, not the overview"


@pytest.mark.parametrize("lang", LANGS)
def test_a_question_asked_twice_is_answered_once(mailer: Mailer, games: Games, lang: str) -> None:
    w = WORDS[lang]
    svc, _ = _mail(mailer, games, lang, w["status"], w["players"], w["status"], w["players"])
    assert _kinds(svc, mailer) == ["status", "players"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_time_zone_set_beside_a_question_is_confirmed(
    mailer: Mailer, games: Games, lang: str
) -> None:
    """The zone was set, but its confirmation was dropped for the status."""
    w = WORDS[lang]
    svc, _ = _mail(mailer, games, lang, f"{w['zone']}: Europe/Copenhagen", w["status"])
    assert _kinds(svc, mailer) == ["ack", "status"]
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    assert "Europe/Copenhagen" in ack.body
    assert seated(svc, "fyn")[0].timezone == "Europe/Copenhagen"
    (status,) = replies_to(svc, mailer.last_id, "status")
    assert "Europe/Copenhagen" in status.body, "the status is answered after the zone is set"


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_time_zone_beside_an_absence_is_refused_not_dropped(
    mailer: Mailer, games: Games, lang: str
) -> None:
    """An absence recorded has its own confirmation; the line refused beside it was lost."""
    w = WORDS[lang]
    svc, _ = _mail(mailer, games, lang, w["away"], f"{w['zone']}: {w['country']}")
    kinds = _kinds(svc, mailer)
    assert "error" in kinds, kinds
    (refusal,) = replies_to(svc, mailer.last_id, "error")
    assert f"{w['zone']}: {w['country']}" in refusal.body
    assert seated(svc, "fyn")[0].away_until is not None, "the absence stands"


@pytest.mark.parametrize("lang", LANGS)
def test_a_question_beside_a_return_with_orders_is_answered(
    mailer: Mailer, games: Games, lang: str
) -> None:
    """`Ich bin zurück` took the orders and the question under them was dropped."""
    from databases import game_state

    table = games.start("fyn", lang=lang)
    me = table.seats[1]
    admin.set_autopilot(mailer.svc, "fyn", seated(mailer.svc, "fyn")[1].colour or "", True)
    _, state = game_state(mailer.svc, "fyn")
    w = WORDS[lang]
    body = orders_text(state, 1, table.passwords[me], lang=lang) + f"{w['back']}\n{w['status']}\n"
    mailer.send(me, "fyn", body)
    assert _kinds(mailer.svc, mailer) == ["ack", "status"]
    assert not seated(mailer.svc, "fyn")[1].autopilot


def test_a_stranger_asking_several_questions_is_answered_within_the_hourly_limit(
    mailer: Mailer, games: Games
) -> None:
    """Without a password every question that needs none is answered; each answer counts
    toward the address's hourly answers, so a forged From costs its owner no more."""
    games.start("fyn", lang="da")
    svc = mailer.svc
    stranger = "nosy@elsewhere.test"
    mailer.send(stranger, "fyn", "Spil: fyn\nHjælp\nStatus\nMedspillere\n")
    assert _kinds(svc, mailer) == ["help", "status", "players"]
    (players,) = replies_to(svc, mailer.last_id, "players")
    assert "@players.test" not in players.body, "no addresses without the password"
    set_service(svc, rate_limit_per_hour=4)
    mailer.send(stranger, "fyn", "Spil: fyn\nHjælp\nStatus\nMedspillere\n")
    assert _kinds(svc, mailer) == ["help"], "the fourth answer of the hour is the last"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("password", ["wrong", "none"])
def test_the_help_is_answered_and_what_needed_the_password_is_refused(
    mailer: Mailer, games: Games, lang: str, password: str
) -> None:
    """The help needs no password; the status beside a password, or the history, did, and
    was dropped unsaid: the player is told the password is wrong or missing."""
    table = games.start("fyn", lang=lang)
    me = table.seats[0]
    w = WORDS[lang]
    if password == "wrong":
        body = f"{w['password']}: blau-kadu-mepi-rosa-tule-wibo\n{w['help']}\n{w['status']}\n"
    else:
        body = f"{w['help']}\n{w['history']}\n"
    mailer.send(me, "fyn", body)
    assert _kinds(mailer.svc, mailer) == ["help", "error"]
    (refusal,) = replies_to(mailer.svc, mailer.last_id, "error")
    said = {"de": "Kennwort fehlt", "en": "password is missing", "da": "Adgangskoden mangler"}
    assert said[lang] in refusal.body


@pytest.mark.parametrize("lang", LANGS)
def test_questions_that_need_no_password_get_their_answers_alone(
    mailer: Mailer, games: Games, lang: str
) -> None:
    """Without a password the help and the public status are answered, and nothing else."""
    table = games.start("fyn", lang=lang)
    me = table.seats[0]
    w = WORDS[lang]
    mailer.send(me, "fyn", f"{w['help']}\n{w['status']}\n")
    assert _kinds(mailer.svc, mailer) == ["help", "status"]
    (status,) = replies_to(mailer.svc, mailer.last_id, "status")
    assert {"de": "Deine Züge", "en": "Your orders", "da": "Dine ordrer"}[lang] not in status.body
