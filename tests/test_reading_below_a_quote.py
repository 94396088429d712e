"""Orders written under a quoted mail, below orders above it (an answer between and under
the quote, as mail veterans write): read, when the quote is marked with `>`. QA found
`Robber F3 steal white` and `Gold: ore` under a Gmail quote counted among "quotes" and
dropped without a word, the player's 7 left to the NMR rule. What stays as it was: a quote
not marked (Outlook's, which holds pbm's own report with its example lines) ends the reading,
and a line a mail client wrapped out of a `>` line is not read as the player's."""

from __future__ import annotations

import pytest

from pbm.notation import Context, parse_mail
from pbm.rules.layouts import generate_board

BOARD = generate_board("medium", 1)
COLOURS = ("rot", "blau", "gelb", "weiss")

#: By language: the quote header, an order above the quote, one under it (with its canonical
#: form's start), and an order line of pbm's own mail as it stands in a report.
CASES = {
    "en": (
        "On Mon, 7 Dec 2026 at 18:52, pbm game master <gm@pbm.test> wrote:",
        "Road 6B 5B",
        "Robber 9L",
        "Robber",
    ),
    "de": (
        "Am Mo., 7. Dez. 2026 um 18:52 Uhr schrieb pbm Spielleitung <gm@pbm.test>:",
        "Straße 6L 5L",
        "Räuber 9H",
        "Räuber",
    ),
    "da": (
        "Den man. 7. dec. 2026 kl. 18.52 skrev pbm spilleder <gm@pbm.test>:",
        "Vej 6L 5L",
        "Røver 9T",
        "Røver",
    ),
}
LANGS = sorted(CASES)


def _read(body: str, lang: str) -> list[tuple[str, str | None]]:
    parsed = parse_mail(body, Context(BOARD, lang, COLOURS, "round"))
    return [(r.text, r.error.key if r.error is not None else None) for r in parsed.lines]


@pytest.mark.parametrize("lang", LANGS)
def test_orders_under_a_marked_quote_are_read(lang: str) -> None:
    header, above, below, robber = CASES[lang]
    body = (
        f"Hi all, here are my orders\n{above}\n\n{header}\n"
        f"> Round 1, order: blue, yellow, white, red\n> {robber} 10B\n\n{below}\n"
    )
    texts = [text for text, error in _read(body, lang) if error is None]
    assert above in texts and below in texts, texts
    assert f"{robber} 10B" not in texts, "the quoted line is not read"


@pytest.mark.parametrize("lang", LANGS)
def test_a_quote_not_marked_ends_the_reading(lang: str) -> None:
    """Outlook's quote holds the report unmarked: its example lines are not the player's."""
    header, above, below, _ = CASES[lang]
    body = f"{above}\n\n{header}\nRound 1, order: blue, yellow, white, red\n\n{below}\n"
    texts = [text for text, _ in _read(body, lang)]
    assert texts == [above]


@pytest.mark.parametrize("lang", LANGS)
def test_a_line_wrapped_out_of_the_quote_is_not_read(lang: str) -> None:
    header, above, below, _ = CASES[lang]
    body = f"{above}\n\n{header}\n> the robber moved; write for example\n{below}\n"
    texts = [text for text, _ in _read(body, lang)]
    assert texts == [above], "directly under a `>` line: the quote's own line"


@pytest.mark.parametrize("lang", LANGS)
def test_the_reading_under_a_quote_ends_where_it_always_ends(lang: str) -> None:
    """The player's signature under the answer, and a second quote below it unmarked."""
    header, above, below, _ = CASES[lang]
    body = f"{above}\n\n{header}\n> quoted\n\n{below}\n-- \n{above}\n"
    assert [text for text, _ in _read(body, lang)] == [above, below]
    body = f"{above}\n\n{header}\n> quoted\n\n{below}\n\n{header}\nRound 1\n{above}\n"
    assert [text for text, _ in _read(body, lang)] == [above, below]


def test_a_quote_header_wrapped_over_two_lines_then_a_marked_quote() -> None:
    """Gmail's header wrapped: `On …, pbm <` + `gm@pbm.test> wrote:`."""
    body = (
        "Road 6B 5B\n\nOn Mon, 7 Dec 2026 at 18:52, pbm game master\n<gm@pbm.test> wrote:\n"
        "> Round 1\n\nRobber 9L\n"
    )
    assert [text for text, _ in _read(body, "en")] == ["Road 6B 5B", "Robber 9L"]
