"""The HTML part of every answer declares the language it is written in (`<html lang=…>`):
a phone's mail program offers to translate, and a screen reader picks its voice, by that
declaration. Answers made from plain text (the status, a stranger's answer) declared German
whatever their language; an answer in several languages declares its first."""

from __future__ import annotations

import re

import pytest
from databases import outbox
from harness import Games, Mailer

from pbm.service.context import Service

LANGS = ["da", "de", "en"]
#: A stranger's question, in each language.
HELLO = {
    "de": "Hallo, wie kann ich mitspielen?",
    "en": "Hello, how can I take part?",
    "da": "Hej, hvordan kan jeg være med?",
}


def _declared(html: str) -> str:
    found = re.findall(r'<html lang="([^"]*)"', html)
    assert len(found) == 1, html[:200]
    return found[0]


@pytest.mark.parametrize("lang", LANGS)
def test_a_status_answer_declares_the_games_language(
    svc: Service, mailer: Mailer, games: Games, lang: str
) -> None:
    table = games.start("alpha", lang=lang)
    before = len(outbox(svc))
    mailer.send(table.addresses[0], "Status", "Status\n")
    (answer,) = outbox(svc)[before:]
    assert _declared(answer.html) == lang


@pytest.mark.parametrize("lang", LANGS)
def test_a_strangers_answer_declares_the_language_it_starts_in(
    svc: Service, mailer: Mailer, lang: str
) -> None:
    mailer.send("ole@example.org", "?", HELLO[lang] + "\n")
    (answer,) = outbox(svc)
    # Written in every language, the mail's own first.
    assert _declared(answer.html) == lang
    assert answer.body.startswith(
        {"de": "Gerade ist", "en": "No game is", "da": "Lige nu"}[lang]
    ), answer.body


def test_every_html_part_of_an_english_game_declares_english(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """Everything the players of an English game get (sign-up answers, welcome, preview,
    setup mails, reports) declares English."""
    table = games.start("alpha", lang="en")
    rows = [r for r in outbox(svc) if set(r.recipients.split(",")) & set(table.addresses)]
    assert rows and {_declared(row.html) for row in rows} == {"en"}
