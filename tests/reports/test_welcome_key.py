"""The key in the welcome mail (and the new-password mail) says what it is for in a player's
words, as the reports' sealed notices do ("for a program with your key"): players have no
`pbm`, so no mail to a player names `pbm decode --key` or "client tools"."""

from __future__ import annotations

import html

import pytest

from . import scenes

LANGS = ("de", "en", "da")

#: What the welcome mail says of the key (text and HTML part), by language.
KEY_WORDS = {
    "de": "für ein Programm mit deinem Schlüssel",
    "en": "for a program with your key",
    "da": "til et program med din nøgle",
}
#: That the key is not needed to play.
NOT_NEEDED = {
    "de": "zum Spielen brauchst du den Schlüssel nicht",
    "en": "you do not need the key to play",
    "da": "for at spille behøver du ikke nøglen",
}
#: Words a player cannot act on.
JARGON = ("pbm decode", "--key", "client tools", "Hilfsprogramm", "hjælpeprogram")


def _both_parts(name: str, lang: str) -> tuple[str, str]:
    _, rendered = scenes.SCENES[name](lang)
    text = " ".join(rendered.text.split())
    page = " ".join(html.unescape(rendered.html).split())
    return text, page


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["welcome", "welcome_replacement"])
def test_the_welcome_mail_says_what_the_key_is_for(name: str, lang: str) -> None:
    text, page = _both_parts(name, lang)
    for part in (text, page):
        assert KEY_WORDS[lang] in part, part
        assert NOT_NEEDED[lang] in part, part
        assert not [w for w in JARGON if w in part], part


@pytest.mark.parametrize("lang", LANGS)
def test_the_new_password_mail_names_no_client_tools(lang: str) -> None:
    for part in _both_parts("new_password", lang):
        assert not [w for w in JARGON if w in part], part
