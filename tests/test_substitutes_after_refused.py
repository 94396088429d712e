"""A main build line refused when the mail comes in (not understood, or never buildable) has
failed: the `Ersatzbau` block below it runs whatever the other main lines do, and the answer
says so. QA: `Settlement B7 B8 C8` refused at receipt, the `Maritime 4G for 1W` under
`Substitute:` never ran, and nothing said why. What a refused line that is no build (a
greeting, a robber order) does: nothing, as before."""

from __future__ import annotations

import pytest
from databases import game_state, order_sets, replies_to
from harness import Games, Mailer

from pbm.notation import Context, parse_mail
from pbm.notation.format import format_item
from pbm.rules.layouts import generate_board
from pbm.rules.orders import City
from pbm.store import codec

BOARD = generate_board("medium", 1)
COLOURS = ("rot", "blau", "gelb", "weiss")
WORDS = {
    "de": ("Siedlung 6E 4W 5H", "Ersatzbau:", "Straße 6L 5L", "Räuber 99X", "Hallo zusammen"),
    "en": ("Settlement 6E 4W 5H", "Substitute:", "Road 6B 5B", "Robber 99X", "Hello all"),
    "da": ("Bosættelse 6E 4W 5H", "Erstatning:", "Vej 6L 5L", "Røver 99X", "Hej alle"),
}
LANGS = sorted(WORDS)


def _main_refused(body: str, lang: str) -> bool:
    parsed = parse_mail(body, Context(BOARD, lang, COLOURS, "round"))
    return parsed.turn_orders().substitutes.main_refused


@pytest.mark.parametrize("lang", LANGS)
def test_a_build_not_understood_lets_the_substitutes_run(lang: str) -> None:
    bad_build, heading, road, _, _ = WORDS[lang]
    assert _main_refused(f"{bad_build}\n{heading}\n{road}\n", lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_line_that_is_no_build_does_not(lang: str) -> None:
    _, heading, road, robber, greeting = WORDS[lang]
    assert not _main_refused(f"{robber}\n{greeting}\n{heading}\n{road}\n", lang)
    # Without substitutes there is nothing to run.
    bad_build = WORDS[lang][0]
    assert not _main_refused(f"{bad_build}\n", lang)
    # A refused substitute line is no failed main build.
    assert not _main_refused(f"{road}\n{heading}\n{bad_build}\n{road}\n", lang)


def test_builds_under_a_heading_not_understood_do_not() -> None:
    """A heading not understood may have meant the block itself: its lines are refused,
    and they are no failed main builds."""
    body = "Straße 6L 5L\nFalls was klappt bitte so:\nSiedlung 6E 4W 5H\nErsatzbau:\nStraße 6L 5L\n"
    parsed = parse_mail(body, Context(BOARD, "de", COLOURS, "round"))
    assert next(r.error.key for r in parsed.lines if r.error is not None) == "unknown_heading"
    assert not parsed.turn_orders().substitutes.main_refused


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("lang", LANGS)
def test_a_build_refused_at_receipt_lets_the_substitutes_run_and_the_answer_says_so(
    mailer: Mailer, games: Games, lang: str
) -> None:
    table = games.start("fyn", lang=lang)
    me = table.seats[1]
    _, state = game_state(mailer.svc, "fyn")
    ctx = Context(state.board, lang, state.colours, "round")
    # A city where the player has no settlement: refused at receipt, whatever happens.
    foreign = next(c for c, owner in enumerate(state.owner) if owner not in (-1, 1))
    city = format_item(City(foreign), ctx)
    _, heading, _, _, _ = WORDS[lang]
    buy = {"de": "Kaufe Karte", "en": "Buy card", "da": "Køb kort"}[lang]
    password = {"de": "Kennwort", "en": "Password", "da": "Adgangskode"}[lang]
    mailer.send(me, "fyn", f"{password}: {table.passwords[me]}\n{city}\n{heading}\n{buy}\n")
    (answer,) = replies_to(mailer.svc, mailer.last_id)
    words = " ".join(answer.body.split())
    said = {
        "de": "darum werden deine Ersatzbauten in dieser Runde versucht",
        "en": "so your substitute builds are tried this round",
        "da": "så dine erstatningsbyggerier forsøges i denne runde",
    }[lang]
    assert said in words and "(3)" not in words
    (stored,) = order_sets(mailer.svc, "fyn")
    assert codec.loads(stored.parsed).substitutes.main_refused
