"""A name that ends a sentence and ends with a full stop itself ("Clara K.") gets one full
stop, not two (QA: "Du bist angemeldet als Clara K.."), in the text and the HTML part, in
every language; the name's own stop stays where the name does not end the sentence."""

from __future__ import annotations

import pytest

from pbm.notation import vocab
from pbm.reports import notices
from pbm.reports.render import one_stop, render

LANGS = ("de", "de@modern", "en", "da")
#: The sentences, by language: joined, and the seat given to someone else.
JOINED = {
    "de": "Du bist angemeldet als Clara K.",
    "de@modern": "Du bist angemeldet als Clara K.",
    "en": "You have joined as Clara K.",
    "da": "Du er tilmeldt som Clara K.",
}
REPLACED = {
    "de": "Ab jetzt spielt Clara K. die Farbe gelb.",
    "de@modern": "Ab jetzt spielt Clara K. die Farbe gelb.",
    "en": "From now on yellow is played by Clara K.",
    "da": "Fra nu af spilles gul af Clara K.",
}


def test_one_stop_takes_out_the_second_stop_only() -> None:
    assert one_stop("You have joined as Clara K..") == "You have joined as Clara K."
    assert one_stop("You have joined as Anna.") == "You have joined as Anna."
    assert one_stop("Wait... and see.") == "Wait... and see."
    assert one_stop("As Clara K.. Then more.") == "As Clara K. Then more."
    from markupsafe import Markup

    marked = one_stop(Markup("as <b>Clara K.</b>."))
    assert marked == Markup("as <b>Clara K.</b>") and isinstance(marked, Markup)


@pytest.mark.parametrize("lang", LANGS)
def test_a_name_with_a_full_stop_ends_the_sentence_once(lang: str) -> None:
    joined = render("joined", "s", {**notices.joined(lang, "Clara K.", 2), "game": "alpha"})
    yellow = vocab.colour_name("gelb", lang)
    data = notices.gm_notice(lang, "replaced", colour=yellow, name="Clara K.")
    replaced = render("gm_notice", "s", {**data, "game": "alpha"})
    for rendered, said in ((joined, JOINED[lang]), (replaced, REPLACED[lang])):
        for part in (rendered.text, rendered.html):
            assert "K.." not in part and "K.</b>." not in part, part
        assert said in " ".join(rendered.text.split()), rendered.text
    assert JOINED[lang].replace("Clara K.", "<b>Clara K.</b>") in joined.html
