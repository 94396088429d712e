"""The help mail's parts: the guide in chapters (their markers, keys and words in every
language), finding a chapter by what players write after `Hilfe`, and `Hilfe <chapter>` read
as a command in the body and in the subject, before and after the password is known."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbm.i18n import languages, translator
from pbm.notation import Context, parse_mail
from pbm.notation.mail import scan_mail
from pbm.notation.text import fold
from pbm.reports.guide_text import chapters, guide_for_mail, player_guide
from pbm.reports.help import ALL_WORDS, KIND_CHAPTERS, find_chapter, game_chapters, help_data
from pbm.reports.order_form import GameKind
from pbm.rules.layouts import generate_board

GUIDES = Path(__file__).resolve().parents[2] / "pbm" / "guides"
LANGS = ("de", "en", "de@modern")


#: Every guide's heading of its table of contents. Danish is a guide (and a catalogue) before it
#: is a game language (before its language file, `i18n.reads_order_words`): its chapters are
#: held to the same rules.
CONTENTS = {"de": "## Inhalt", "en": "## Contents", "da": "## Indhold"}


@pytest.mark.parametrize("lang", sorted(CONTENTS))
def test_every_section_of_the_guide_is_a_chapter(lang: str) -> None:
    """A heading of level 2 (and the two sections players ask for by name: trading, playing
    cards) follows a chapter marker, so a section added to the guide is never out of reach."""
    lines = (GUIDES / f"player-guide.{lang}.md").read_text(encoding="utf-8").splitlines()
    contents = lines.index(CONTENTS[lang])
    headings = [i for i, line in enumerate(lines) if line.startswith("## ") and i > contents]
    assert headings
    for i in headings:
        assert lines[i - 1].startswith("<!-- chapter "), lines[i]
    found = [c.title for c in chapters(lang)]
    assert [lines[i][3:] for i in headings] == [
        t for t in found if t in {lines[i][3:] for i in headings}
    ]


def test_the_guides_have_the_same_chapters() -> None:
    keys = {lang: [c.key for c in chapters(lang)] for lang in (*LANGS, "da")}
    assert keys["de"] == keys["en"] == keys["de@modern"] == keys["da"]
    assert len(set(keys["de"])) == len(keys["de"])
    assert set(KIND_CHAPTERS) <= set(keys["de"])


@pytest.mark.parametrize("lang", (*LANGS, "da"))
def test_the_chapters_are_the_whole_guide(lang: str) -> None:
    whole = player_guide(lang)
    pieces = [c.markdown for c in chapters(lang)]
    assert whole.endswith("".join(pieces))
    assert "<!--" not in "".join(pieces)


def test_every_word_finds_its_chapter_and_no_other() -> None:
    owner: dict[str, str] = {}
    for lang in LANGS:
        for c in chapters(lang):
            for w in c.words:
                key = fold(w)[0]
                assert owner.setdefault(key, c.key) == c.key, (w, c.key, owner[key])
                assert key not in ALL_WORDS
                for game_lang in LANGS:
                    found = find_chapter(key, game_lang)
                    assert found is not None and found.key == c.key, (w, game_lang)
                    # In the game's language and edition.
                    assert found in chapters(game_lang)


def test_the_danish_words_find_their_chapter_and_no_other() -> None:
    """The Danish guide's chapter words: each finds its chapter in the Danish guide, and none is
    another chapter's word in any guide (so that `Hjælp skibe` keeps meaning one chapter once
    Danish is a game language and every game reads it)."""
    owner = {fold(w)[0]: c.key for lang in LANGS for c in chapters(lang) for w in c.words}
    for c in chapters("da"):
        assert c.title and c.words, c.key
        for w in c.words:
            key = fold(w)[0]
            assert owner.get(key, c.key) == c.key, (w, c.key, owner[key])
            assert key not in ALL_WORDS
            found = find_chapter(key, "da")
            assert found is not None and found.key == c.key, w
    assert "Hjælp skibe" in (GUIDES / "player-guide.da.md").read_text(encoding="utf-8")


def test_a_beginning_finds_one_chapter_else_none() -> None:
    assert (find_chapter("schiff", "de") or chapters("de")[0]).key == "ships"
    assert (find_chapter("dead", "en") or chapters("en")[0]).key == "deadlines"
    assert find_chapter("drachen", "de") is None
    # Several fit: none is guessed.
    assert find_chapter("han", "de") is None and find_chapter("handel", "de") is not None


def test_all_is_every_languages_word() -> None:
    for lang in languages():
        assert fold(translator(lang).pgettext("help topic", "all"))[0] in ALL_WORDS
    data = help_data("de", "alles", GameKind(), [], "")
    assert data["mode"] == "all"
    assert data["guide"] == guide_for_mail(player_guide("de")).strip()


def test_the_chapters_of_a_kind() -> None:
    def keys(kind: GameKind) -> set[str]:
        return {c.key for c in game_chapters(kind, "de")}

    every = {c.key for c in chapters("de")} - set(KIND_CHAPTERS)
    assert keys(GameKind()) == every
    assert keys(GameKind(kronlande=True)) == every | {"kronlande"}
    assert keys(GameKind("neue-ufer", True, True)) == every | {"ships"}
    assert keys(GameKind("ozeanien", True, True)) == every | {"ships", "fog"}
    assert keys(GameKind("ueberfahrt", False, True)) == every | {"ships", "trade-lines"}


@pytest.mark.parametrize(
    ("line", "topic"),
    [
        ("Hilfe", ""),
        ("Hilfe Schiffe", "schiffe"),
        ("Hilfe: Handel", "handel"),
        ("Hilfe zur Überfahrt", "ueberfahrt"),
        ("Help on trade lines", "trade lines"),
        ("HELP ALL", "all"),
    ],
)
def test_help_with_a_topic_is_a_command(line: str, topic: str) -> None:
    ctx = Context(generate_board("medium", 1), "de")
    for parsed in (parse_mail(f"{line}\n", ctx), scan_mail(f"{line}\n")):
        assert parsed.commands == ["help"] and parsed.help_topic == topic
    # In the subject too, behind a reply's `Re:`.
    for parsed in (parse_mail("", ctx, f"Re: {line}"), scan_mail("", f"AW: {line}")):
        assert parsed.commands == ["help"] and parsed.help_topic == topic


@pytest.mark.parametrize(
    "line",
    [
        "Hilfe, ich verstehe das Spiel nicht und brauche Rat",
        "Hilfe Schiffe — Seefahrer: Schiffe, Gold und neue Inseln",
        "Help 42",
    ],
)
def test_a_sentence_that_starts_with_help_is_no_command(line: str) -> None:
    ctx = Context(generate_board("medium", 1), "de")
    assert parse_mail(f"{line}\n", ctx).commands == []
    assert scan_mail(f"{line}\n").commands == []


def test_the_overview_lists_each_chapter_with_its_word() -> None:
    data = help_data("en", "", GameKind("neue-ufer", True, True), [], "")
    assert ("Help ships", next(c.title for c in chapters("en") if c.key == "ships")) in data[
        "chapters"
    ]
    assert data["all"] == "Help all"
    assert re.fullmatch(r"Help \S.*", data["chapters"][0][0])


@pytest.mark.parametrize("lang", ["de", "en", "da", "de@modern"])
def test_the_help_lists_the_lines_at_the_table_in_words_the_game_reads(lang: str) -> None:
    """QA: the help listed the commands of the registry only, not a message, a message to
    the game master, a pass, an absence or a time zone. Each is listed, the line as the game
    reads it (placeholders filled in here), with whether it needs the password."""
    from pbm.notation import parse_line
    from pbm.notation.items import Away, Pass, Press, TimeZone
    from pbm.notation.vocab import colour_name
    from pbm.reports.help import table_lines

    tr = translator(lang)
    filled = {
        tr.pgettext("placeholder", "<colour>"): colour_name("gelb", lang),
        tr.pgettext("placeholder", "<date>"): "2026-12-24",
        tr.pgettext("placeholder", "<zone>"): "Europe/Berlin",
        "…": "Hallo",
    }
    ctx = Context(generate_board("medium", 1), lang, ("rot", "blau", "gelb", "weiss"), "round")
    read = []
    for line in table_lines(lang):
        text = line.word
        for placeholder, value in filled.items():
            text = text.replace(placeholder, value)
        assert "<" not in text, text
        item = parse_line(text, ctx)
        read.append((type(item), getattr(item, "to", None), line.needs_password))
    assert read == [
        (Press, "gelb", True),
        (Press, "gm", False),
        (Pass, None, True),
        (Away, None, True),
        (TimeZone, None, True),
    ]
    data = help_data(lang, "", GameKind(), [], "")
    assert [c.word for c in data["table"]] == [c.word for c in table_lines(lang)]
