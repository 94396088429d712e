"""The text part of every golden mail, in every language and the modern edition: no line over 76
columns, no word of the other language, no time with seconds, every count agreeing with its
noun (tests/mail_text.py). Lines a player copies back are within the width by construction,
never wrapped: the order form of every game kind, the password line, the codebook's rows, the
text map (72 columns)."""

from __future__ import annotations

import pytest
from mail_text import foreign_words, long_lines, times_with_seconds, wrong_counts

from pbm.reports import codebook
from pbm.reports.order_form import GameKind, form_lines
from pbm.reports.wrap import WIDTH, wrap_line, wrap_text
from pbm.rules.rng import seal_check

from . import scenes

MODERN = "de@modern"
LANGS = (*scenes.LANGS, MODERN)
#: The players' names of the scenes (any word a player chose may stand in a mail).
NAMES = ("Anna", "Bernd", "Carol", "Dieter")
#: What the scenes' players and GM wrote in their own words, quoted back as they wrote it.
OWN_WORDS = ("Wegen der Feiertage", "Frohes Fest", "Einverstanden", "quarantined by an error")


def _ours(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not any(w in line for w in OWN_WORDS))


def _texts(lang: str) -> list[tuple[str, str]]:
    out = []
    for name in sorted(scenes.SCENES):
        _, rendered = scenes.SCENES[name](lang)
        out.append((name, rendered.text))
    return out


@pytest.fixture(scope="module", params=LANGS)
def golden(request: pytest.FixtureRequest) -> tuple[str, list[tuple[str, str]]]:
    return request.param, _texts(request.param)


def test_no_line_is_longer_than_76_columns(golden: tuple[str, list[tuple[str, str]]]) -> None:
    lang, texts = golden
    long = {name: long_lines(text) for name, text in texts if long_lines(text)}
    assert not long, (lang, long)


def test_no_word_of_the_other_language(golden: tuple[str, list[tuple[str, str]]]) -> None:
    lang, texts = golden
    found = {name: foreign_words(_ours(text), lang, NAMES) for name, text in texts}
    found = {name: lines for name, lines in found.items() if lines}
    assert not found, (lang, found)


def test_no_time_with_seconds(golden: tuple[str, list[tuple[str, str]]]) -> None:
    lang, texts = golden
    found = {name: times_with_seconds(text) for name, text in texts if times_with_seconds(text)}
    assert not found, (lang, found)


def test_every_count_agrees_with_its_noun(golden: tuple[str, list[tuple[str, str]]]) -> None:
    lang, texts = golden
    found = {name: wrong_counts(text, lang) for name, text in texts if wrong_counts(text, lang)}
    assert not found, (lang, found)


#: Every game kind: the base game, Seafarers with and without the pirate and gold, Kronlande.
KINDS = (
    GameKind(),
    GameKind("new_shores", pirate=True, gold=True),
    GameKind("four_islands", pirate=False),
    GameKind(kronlande=True),
)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS, ids=str)
def test_the_order_form_is_never_wrapped(kind: GameKind, lang: str) -> None:
    """A form's line is copied back as it stands: "# " before it, within the width."""
    for line in form_lines(kind, lang):
        assert len(f"# {line}") <= WIDTH, (kind, lang, line)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kron", [False, True])
def test_codebook_rows_fit_and_keep_each_code_with_its_card(lang: str, kron: bool) -> None:
    rows = codebook.table(scenes.SECRETS[0], 25, lang, kron)
    assert all(len(row) <= WIDTH for row in rows)
    text = "\n".join(rows)
    for k in range(1, 26):
        for code, card in codebook.row(scenes.SECRETS[0], k, kron).items():
            assert f"{code}={codebook.CARD_NAMES[lang][card]}" in text


def test_the_wrap_keeps_an_echo_readable() -> None:
    echo = "    2  " + " oder ".join(["Siedlung D4 D5 E4 (11G 6G 5W) Straße D4 E4 (11G 5W)"] * 3)
    lines = wrap_line(echo)
    assert len(lines) == 3 and all(len(line) <= WIDTH for line in lines)
    assert lines[0].startswith("    2  Siedlung")
    # The next lines go on two columns right of the text, so the number stands alone in its
    # column and a refused line's reason (at the text's column) is not read as the echo's
    # last words; a place's labels and hexes stay together.
    assert all(line.startswith(" " * 9) and line[9] != " " for line in lines[1:])
    assert all("(11G 6G 5W)" in line or "(11G" not in line for line in lines)


def test_the_wrap_leaves_what_fits_and_keeps_times_whole() -> None:
    fits = "x" * WIDTH + "\n" + "  " + "y" * (WIDTH - 2)
    assert wrap_text(fits) == fits
    line = "Du übernimmst ein laufendes Spiel: Runde 13 ist offen, Frist 2026-01-03 12:00 UTC."
    assert wrap_line(line)[-1] == "2026-01-03 12:00 UTC."
    quoted = "> " + "wort " * 30
    assert all(piece.startswith("> ") for piece in wrap_line(quoted))
    # A word longer than the line (a link) stays whole.
    link = "  https://example.test/" + "a" * 90
    assert wrap_line(link) == [link]


def test_the_dice_seals_check_stays_one_line_to_copy() -> None:
    """The game's end says "run the last line in a terminal": a 128-bit seed and its nonce
    make the command longer than the width, and broken it ran only `| sha256sum`."""
    command = "  " + seal_check(2**127 + 12345, "d372480c8b180d931fe5f5dc1ed2f1bd")
    assert len(command) > WIDTH
    assert wrap_line(command) == [command]
    text = f"Kør den sidste linje i en terminal (Linux, macOS):\n{command}\n"
    assert command in wrap_text(text).splitlines()
