"""`Hilfe` / `Help` by mail: a short overview for the game's kind (commands, its order lines,
where the game stands, the chapters to ask for), `Hilfe <chapter>` a chapter of the player
guide in the game's language and edition, `Hilfe alles` the whole guide, and an unknown
chapter the overview with the list. Through the in-memory mailbox, as players write."""

from __future__ import annotations

import pytest
from databases import outbox
from harness import Games, Mailer

from pbm.reports.guide_text import chapters, guide_for_mail, player_guide
from pbm.service import admin
from pbm.service.context import Service

ASKER = "asker@players.test"


def _ask(svc: Service, mailer: Mailer, game: str, line: str, subject: str = "Hilfe") -> str:
    before = len(outbox(svc, "help", to=ASKER))
    mailer.send(ASKER, subject, f"Spiel: {game}\n{line}\n")
    answers = outbox(svc, "help", to=ASKER)
    assert len(answers) == before + 1, line
    return answers[-1].body


def _titles(lang: str) -> dict[str, str]:
    return {c.key: c.title for c in chapters(lang)}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_help_is_a_short_overview_of_this_games_kind(
    svc: Service, mailer: Mailer, lang: str
) -> None:
    admin.new_game(svc, "base", players=3, lang=lang)
    body = _ask(svc, mailer, "base", "Hilfe")
    lines = body.splitlines()
    # A screen or two on a phone, where the whole guide is well over a thousand lines (75:
    # the lines at the table, a message, a pass, an absence, a time zone, take seven).
    assert len(lines) <= 75 < len(guide_for_mail(player_guide(lang)).splitlines()) // 10
    de = lang == "de"
    # What game this is (`reports.identity`), and its name to write in orders.
    title = "Grundspiel auf der mittleren Insel – 3 Spieler, Ziel: 10 Siegpunkte"
    assert lines[0] == title if de else lines[0].startswith("Base game")
    assert ("Spiel: base" if de else "Game: base") in lines
    assert ("Die Anmeldung läuft." if de else "Signup is open.") in body
    for line in (
        ["Status:", "Seehandel 4<Rohstoff> gegen 1<Rohstoff>", "Handel <Farbe>: gebe"]
        if de
        else ["Status:", "Maritime 4<resource> for 1<resource>", "Trade <colour>: give"]
    ):
        assert line in body
    titles = _titles(lang)
    # Every chapter of every game, none of another kind's.
    for key in ("join", "orders", "trade", "deadlines", "dice"):
        assert f" — {titles[key]}\n" in body
    for key in ("ships", "trade-lines", "fog", "kronlande"):
        assert titles[key] not in body
    assert ("Hilfe alles — " if de else "Help all — ") in body
    # No chapter's text: the guide is asked for by chapter.
    assert "## " not in body


def _said(text: str) -> str:
    return " ".join(text.split())


def test_the_overview_names_the_chapters_of_the_scenario(svc: Service, mailer: Mailer) -> None:
    admin.new_game(svc, "ozean", scenario="ozeanien", players=3)
    admin.new_game(svc, "quer", scenario="ueberfahrt", players=4)
    titles = _titles("de")
    ozean, quer = _ask(svc, mailer, "ozean", "Hilfe"), _ask(svc, mailer, "quer", "Hilfe")
    assert f"Hilfe Nebel — {titles['fog']}" in ozean and titles["fog"] not in quer
    assert f"Hilfe Handelslinien — {titles['trade-lines']}" in quer
    assert titles["trade-lines"] not in ozean
    for body in (ozean, quer):
        assert f"Hilfe Schiffe — {titles['ships']}" in body and titles["kronlande"] not in body


@pytest.mark.parametrize(
    ("lang", "line", "key"),
    [
        ("de", "Hilfe Schiffe", "ships"),
        ("de", "Hilfe: Handel", "trade"),
        ("de", "Hilfe zum Handel", "trade"),
        ("de", "Hilfe Überfahrt", "trade-lines"),
        ("de", "Hilfe Schiff", "ships"),
        ("de", "Hilfe ships", "ships"),
        ("en", "Help ships", "ships"),
        ("en", "Help trade", "trade"),
        ("en", "Help on deadlines", "deadlines"),
        ("en", "Help trade lines", "trade-lines"),
        ("en", "Help Nebel", "fog"),
    ],
)
def test_help_with_a_chapter_answers_with_that_chapter(
    svc: Service, mailer: Mailer, lang: str, line: str, key: str
) -> None:
    admin.new_game(svc, "sea", scenario="neue-ufer", players=3, lang=lang)
    body = _ask(svc, mailer, "sea", line)
    (chapter,) = [c for c in chapters(lang) if c.key == key]
    # As a reader reads it: the mail's lines are wrapped at 76 columns.
    assert _said(guide_for_mail(chapter.markdown)) in _said(body)
    others = [c.title for c in chapters(lang) if c.key != key and c.title not in chapter.title]
    assert not [t for t in others if f"# {t}\n" in body]
    assert ("Schreib „Hilfe“ für die Übersicht" if lang == "de" else 'Write "Help" for') in body


def test_the_chapter_may_stand_in_the_subject(svc: Service, mailer: Mailer) -> None:
    admin.new_game(svc, "base", players=3)
    body = _ask(svc, mailer, "base", "", subject="Hilfe Fristen")
    assert "## Fristen" in body and "## Anmelden" not in body


def test_an_unknown_chapter_answers_with_the_list(svc: Service, mailer: Mailer) -> None:
    admin.new_game(svc, "base", players=3)
    body = _ask(svc, mailer, "base", "Hilfe Drachen")
    assert body.startswith("Die Anleitung hat kein Kapitel „drachen“; ihre Kapitel stehen unten.")
    assert "Hilfe Fristen — Fristen" in body and "Hilfe alles — " in body
    assert "## " not in body


@pytest.mark.parametrize(("lang", "line"), [("de", "Hilfe alles"), ("en", "Help all")])
def test_help_all_is_the_whole_guide(svc: Service, mailer: Mailer, lang: str, line: str) -> None:
    admin.new_game(svc, "base", players=3, lang=lang)
    body = _ask(svc, mailer, "base", line)
    assert _said(guide_for_mail(player_guide(lang))) in _said(body)
    # Every chapter, of every game kind.
    for chapter in chapters(lang):
        assert f"# {chapter.title}\n" in body


def test_a_chapter_in_the_modern_editions_words(svc: Service, mailer: Mailer) -> None:
    admin.new_game(svc, "neu", players=3, edition="modern")
    cards = _ask(svc, mailer, "neu", "Hilfe Projektkarten")
    assert "## Projektkarten ausspielen" in cards and "Räuber" not in cards
    # The classic word finds it too.
    assert _ask(svc, mailer, "neu", "Hilfe Entwicklungskarten") == cards
    overview = _ask(svc, mailer, "neu", "Hilfe")
    assert "Bandit <Feld>" in overview and "Räuber" not in overview


def test_the_overview_says_where_the_game_stands(
    games: Games, svc: Service, mailer: Mailer
) -> None:
    table = games.start("alpha", players=3, round_=2)
    body = _ask(svc, mailer, "alpha", "Hilfe")
    assert "Runde 2, Frist: " in body and " UTC" in body
    # A player's own mail is answered the same (the help needs no password).
    mailer.send(table.seats[0], "Hilfe", "Hilfe Würfel\n")
    assert "## Faire Würfel" in outbox(svc, "help", to=table.seats[0])[-1].body


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize("subject", ["Re: [base] Hilfe", "SV: [base] Hilfe", "AW[2]: [base] Hilfe"])
def test_a_reply_to_the_help_mail_asks_for_the_help_again(
    svc: Service, mailer: Mailer, subject: str
) -> None:
    """A player who answers pbm's `[base] Hilfe` mail (the quote below, nothing written) gets
    the help again: the reply prefix and the game's tag are read past, the tag names the game."""
    admin.new_game(svc, "base", players=3)
    mailer.send(ASKER, subject, "\n\n> Grundspiel auf der mittleren Insel\n> Spiel: base\n")
    assert [a.subject for a in outbox(svc, "help", to=ASKER)] == ["[base] Hilfe"]
