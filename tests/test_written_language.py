"""The language a mail is written in (`notation.written_in`), told from the words only one
language's file has, and the order of an answer's languages for a sender pbm does not know
(`service.texts.answer_languages`)."""

from __future__ import annotations

import pytest

from pbm.i18n import mail_languages
from pbm.notation.written import written_in
from pbm.service.texts import answer_languages


@pytest.mark.parametrize(
    ("subject", "body", "lang"),
    [
        ("Tilmelding [fyn]", "Navn: Ole\n", "da"),
        ("?", "Hej, hvordan kan jeg være med?\n", "da"),
        ("Anmeldung", "Spiel: alpha\nName: Anna\n", "de"),
        ("Mitspielen?", "Hallo, wie kann ich mitspielen?\n", "de"),
        ("Join", "Game: alpha\nName: Anna\n", "en"),
        ("?", "Hello, how can I take part?\n", "en"),
        ("Re: [fyn] Bekræft din tilmelding", "Bekræft: 0123456789ab\n", "da"),
        # Nothing only one language says: not told.
        ("Status", "Status\n", None),
        ("?", "Hi :)\n", None),
        ("", "", None),
    ],
)
def test_the_language_of_a_mail_is_told_from_its_own_words(
    subject: str, body: str, lang: str | None
) -> None:
    assert written_in(body, subject) == lang


def test_a_quoted_mail_does_not_tell_the_language() -> None:
    """The quote is pbm's own mail (or anyone's): the sender's words are above it."""
    quoted = "> Hvilket spil? Skriv 'Spil: <navn>'. Muligheder: fyn, skibe\n" * 5
    assert written_in("Hello, thanks!\n" + quoted) == "en"


def test_a_long_mail_costs_its_beginning_only() -> None:
    """A stranger's megabytes are not read: the first lines tell, or nothing does."""
    body = "Hallo, wie kann ich mitspielen?\n" + "hvordan kan jeg være med\n" * 10_000
    assert written_in(body) == "da"
    body = "x\n" * 100 + "Hej, hvordan kan jeg være med?\n"
    assert written_in(body) is None


@pytest.mark.parametrize("lang", ["da", "de", "en"])
def test_an_answer_is_in_the_language_alone_when_the_mail_and_the_games_agree(
    lang: str,
) -> None:
    assert answer_languages([lang, lang], lang) == (lang,)
    # The edition is the game's words, not another language.
    assert answer_languages([f"{lang}@modern"], lang) == (lang,)


def test_an_answer_in_every_language_puts_the_mails_first_then_the_games() -> None:
    assert answer_languages(["da"], None) == ("da", "de", "en")
    assert answer_languages(["da"], "en") == ("en", "da", "de")
    assert answer_languages(["da", "en"], None) == ("da", "en", "de")
    # Games of several languages: never one alone, whatever the mail is written in.
    assert answer_languages(["da", "de"], "da") == ("da", "de", "en")
    assert answer_languages([], "en") == ("en", "de", "da")
    assert answer_languages([], None) == mail_languages()
    # A language pbm writes no mails in tells nothing.
    assert answer_languages(["da"], "xx") == ("da", "de", "en")
