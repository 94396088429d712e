"""A language is data (issue 29): the order words of every game language are the files
`pbm/languages/<lang>.toml`, and a new language is added with a file alone.

The toy language "xx" below has words of no real language. Its file is put in a temporary
directory named by `PBM_LANGUAGE_DIRS`, and a fresh process (the parser builds its tables when
it is imported) reads an order mail written in it — builds, a trade, a robber order — through
the real parser: it reads as the same mail in German does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pbm import languages
from pbm.notation import Context, parse_mail
from pbm.notation.lexicon import alternation, longest_first
from pbm.rules.layouts import generate_board
from pbm.rules.resources import KRON_LETTERS, LETTERS
from pbm.rules.state import DEFAULT_COLOURS

#: A toy language: the keys a language file needs for these orders, words of no language.
TOY = """
order = 10

[letters]
base = ["P", "Q", "R", "V", "X"]
kronlande = ["P", "Q", "R", "V", "X", "Sx", "Fx", "Ix", "Tx", "Px"]

[written]
harbour = "Haveno"
sea = "Maro"
desert = "Dezerto"
gold = "Oro"

[keywords]
settlement = ["domo"]
city = ["urbo"]
road = ["vojo"]
robber = ["rabisto"]

[words]
trade = ["komerco"]
trade_certain = ["komerco"]
trade_partner_leads = ["kun"]
give = ["donu"]
get = ["ricevu"]
want = ["ricevu"]
steal = ["sxtelu de", "sxtelu"]
fillers = ["kaj"]
keyword_starts = ["domo", "urbo", "vojo", "rabisto", "komerco"]
build_starts = ["domo", "urbo", "vojo"]

[resources]
ligno = "lumber"
briko = "brick"
lano = "wool"
greno = "grain"
erco = "ore"

[colours]
ruga = "rot"
blua = "blau"
flava = "gelb"
blanka = "weiss"
"""

TOY_MAIL = """\
Domo C2 D2 D3
Vojo: C2 D2
Komerco kun ruga: donu 2R, ricevu 1 erco
Rabisto 9Q, sxtelu de blua
"""
GERMAN_MAIL = """\
Siedlung C2 D2 D3
Straße C2 D2
Handel mit rot: gebe 2W, bekomme 1E
Räuber 9L, raube blau
"""

#: Run in a fresh process: the mail read in the toy language, each line's item and
#: canonical form, and whether the German words are still read there.
_READ = textwrap.dedent(
    """
    import json, sys
    from pbm import languages
    from pbm.notation import Context, parse_mail
    from pbm.rules.layouts import generate_board
    from pbm.rules.state import DEFAULT_COLOURS

    ctx = Context(generate_board("medium", 1, 1), "xx", DEFAULT_COLOURS[:4], "round")
    mail = parse_mail(sys.stdin.read(), ctx)
    german = parse_mail("Siedlung C2 D2 D3", ctx)
    # The toy's letters in a German game: asked back, with the text that names no language.
    de = Context(generate_board("medium", 1, 1), "de", DEFAULT_COLOURS[:4], "round")
    (asked,) = parse_mail("Seehandel 4R gegen 1X", de).lines
    print(json.dumps({
        "asked": [asked.error.key, asked.error.message],
        "languages": list(languages.names()),
        "items": [repr(r.item) for r in mail.lines],
        "errors": [r.error and r.error.message for r in mail.lines],
        "canonical": [r.canonical for r in mail.lines],
        "german": [repr(r.item) for r in german.lines],
    }))
    """
)


def _read_in_toy_language(tmp_path: Path, mail: str) -> dict[str, list[str]]:
    (tmp_path / "xx.toml").write_text(TOY, encoding="utf-8")
    env = {**os.environ, languages.ENV: str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", _READ],
        input=mail,
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    )
    out: dict[str, list[str]] = json.loads(done.stdout)
    return out


def test_a_language_is_added_from_data_alone(tmp_path: Path) -> None:
    read = _read_in_toy_language(tmp_path, TOY_MAIL)
    assert read["languages"] == ["de", "en", "da", "xx"]
    assert read["errors"] == [None] * 4, read
    german = parse_mail(
        GERMAN_MAIL, Context(generate_board("medium", 1, 1), "de", DEFAULT_COLOURS[:4], "round")
    )
    assert [r.error for r in german.lines] == [None] * 4
    # The same orders: a settlement, a road, a trade with red (2 wool for 1 ore), the robber
    # on the 9 of brick (`9Q`: the toy's letter for brick), stealing from blue.
    assert read["items"] == [repr(r.item) for r in german.lines]
    # The toy's letters are the ones written back (the texts come from the default catalogue:
    # the toy language has none).
    assert read["canonical"][0].endswith("(4P 8P 3X)"), read["canonical"]
    # Every language's words are read in every game, the toy's among them.
    assert read["german"] == [repr(german.lines[0].item)]
    # Its letters in a German game are asked back like any other language's, by a text that
    # names no language (it has none of its own): 4 wool for 1 ore in the game's letters.
    key, message = read["asked"]
    assert key == "other_letters", read["asked"]
    assert "(P Q R V X)" in message and "'Seehandel 4W gegen 1E'" in message, message


def test_the_toy_language_is_not_read_without_its_file() -> None:
    assert "xx" not in languages.names()
    ctx = Context(generate_board("medium", 1, 1), "de", DEFAULT_COLOURS[:4], "round")
    assert parse_mail("Domo C2 D2 D3", ctx).lines[0].item is None


def test_the_letters_are_the_language_files() -> None:
    assert LETTERS == {
        "de": ("H", "L", "W", "G", "E"),
        "en": ("L", "B", "W", "G", "O"),
        "da": ("T", "L", "U", "K", "M"),
    }
    assert KRON_LETTERS["da"] == ("T", "L", "U", "K", "M", "S", "F", "Vk", "St", "Br")


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_every_language_file_has_the_keys_of_german(lang: str) -> None:
    """A language's file names its letters, written hex words and the keys German's has
    (a list may be empty where the language has no such word)."""
    assert len(languages.word_list(lang, "letters", "base")) == 5
    assert len(languages.word_list(lang, "letters", "kronlande")) == 10
    assert set(languages.mapping(lang, "written")) == {"harbour", "sea", "desert", "gold"}
    for section in ("keywords", "resources", "numbers", "colours"):
        assert languages.mapping(lang, section), (lang, section)


def test_an_alternation_reads_the_longest_word_first() -> None:
    assert longest_first(["bank", "maritime", "bank trade", "bank"]) == [
        "bank trade",
        "bank",
        "maritime",
    ]
    assert alternation(["str.", "str", "s"]) == r"str\.|str|s"


def test_registered_directories_are_read(tmp_path: Path) -> None:
    (tmp_path / "xx.toml").write_text(TOY, encoding="utf-8")
    try:
        languages.register_directory(tmp_path)
        assert languages.names()[-1] == "xx"
        assert languages.word_list("xx", "keywords", "robber") == ("rabisto",)
    finally:
        languages._registered.clear()
        languages._languages.cache_clear()
    assert "xx" not in languages.names()


#: Sections whose values are not words players write (letters, written names, patterns).
_NOT_WORDS = ("letters", "written", "patterns")


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_every_word_is_folded(lang: str) -> None:
    """The parser matches folded lines (`text.fold`), so a word not folded (`Räuber`, `Stadt`)
    would never be read: every word of a file is as `fold` leaves it, and no two resources
    share a letter."""
    from pbm.notation.text import fold

    for section, table in languages.data(lang).items():
        if not isinstance(table, dict) or section in _NOT_WORDS:
            continue
        for key, value in table.items():
            for word in value if isinstance(value, list) else [key]:
                assert fold(word)[0] == word, (lang, section, key, word)
    for kind in ("base", "kronlande"):
        letters = languages.word_list(lang, "letters", kind)
        assert len({x.lower() for x in letters}) == len(letters), (lang, kind)


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("de", "Falls ich abwerfen sollte: H L"),
        ("de", "Wenn ich Karten abwerfen muss: H L"),
        ("en", "If I have to discard: L B"),
        ("da", "Hvis jeg skal smide kort: T L"),
    ],
)
def test_a_discard_list_led_by_its_condition(lang: str, line: str) -> None:
    """The condition's words are the language files' (`discard_if`, `discard_verbs`, …), each
    alternation longest first: `sollte` is read whole, where `soll` once cut it short."""
    ctx = Context(generate_board("medium", 1, 1), lang, DEFAULT_COLOURS[:4], "round")
    (read,) = parse_mail(line, ctx).lines
    assert read.error is None and type(read.item).__name__ == "DiscardPreference", read


def test_a_directory_never_replaces_a_shipped_language(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A `de.toml` in a directory of `PBM_LANGUAGE_DIRS` (a leftover in a shell or a unit
    file) must not change how every German game's orders are read: it is not read, and the
    log says so."""
    (tmp_path / "de.toml").write_text('order = 1\n[keywords]\nsettlement = ["haus"]\n', "utf-8")
    languages.register_directory(tmp_path)
    try:
        with caplog.at_level("WARNING", logger="pbm"):
            assert "haus" not in languages.word_list("de", "keywords", "settlement")
        assert "is a language pbm ships" in caplog.text
    finally:
        languages._registered.remove(tmp_path)
        languages._languages.cache_clear()
