"""Every mail of whole games by mail, in German and in English, read as a player reads them:
sign-ups with colour wishes taken by others, the setup by mail, rounds with missed orders (NMR
notices, the autopilot, the way back), `Hilfe`/`Help` and `Status`, a mail with wrong and
ignored lines, to the game's end. Each text part holds to tests/mail_text.py: lines within 76
columns, no word of the other language, no time with seconds, every count agreeing with its
noun; and the round-1 mail names where to write the orders."""

from __future__ import annotations

from pathlib import Path

import pytest
from databases import game_row, outbox, passwords, seated
from harness import (
    WORDS,
    Mailer,
    make_service,
    new_game,
    play_round,
    play_setup_by_mail,
    signup,
)
from mail_text import foreign_words, long_lines, times_with_seconds, wrong_counts

from pbm.service.clock import FakeClock
from pbm.store.models import Outbox

#: The players' names (`harness.signup`) and what they write of their own (colour wishes).
NAMES = ("Spieler",)


def _whole_game(tmp_path: Path, lang: str) -> list[Outbox]:
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    mailer = Mailer(svc)
    w = WORDS[lang]
    new_game(svc, "alpha", players=4, seed=7, vp_target=5, lang=lang)
    # Two wish the same colour first: one of them reads why another came.
    signup(mailer, "alpha", 4, ["rot, gelb", "rot", "blau", "weiss"])
    mailer.send("p0@players.test", "Hilfe", f"{w['game']}: alpha\n{w['help']}\n")
    play_setup_by_mail(mailer, "alpha", lang=lang)
    pw = passwords(svc)
    at = seated(svc, "alpha")
    first = at[0].address
    # Status, and a mail with a wrong line, a comment and a quote.
    mailer.send(first, "Status", f"{w['password']}: {pw[first]}\nStatus\n")
    mailer.send(
        first,
        "Re: orders",
        f"{w['password']}: {pw[first]}\nZ9 Z10 Z11\n# a comment\n> quoted\n",
    )
    played = 0
    while game_row(svc, "alpha").phase == "rounds":
        assert played < 60, "the game does not end"
        # Seat 1 sends nothing for three rounds: NMR notices, then the autopilot.
        play_round(mailer, clock, "alpha", skip=[1] if played < 3 else [], pw=pw)
        played += 1
    assert game_row(svc, "alpha").phase == "ended"
    return outbox(svc)


@pytest.fixture(scope="module", params=["de", "en"])
def mails(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    lang = request.param
    return lang, _whole_game(tmp_path_factory.mktemp(f"game-{lang}"), lang)


@pytest.mark.slow
def test_every_mail_of_a_whole_game_reads_right(mails: tuple[str, list[Outbox]]) -> None:
    lang, rows = mails
    kinds = {o.kind for o in rows}
    assert {"welcome", "setup", "ack", "nmr", "autopilot_on", "report", "end"} <= kinds, kinds
    problems: dict[str, list[str]] = {}
    for o in rows:
        found = (
            [f"long: {line}" for line in long_lines(o.body)]
            + [f"foreign: {line}" for line in foreign_words(o.body, lang, NAMES)]
            + [f"seconds: {line}" for line in times_with_seconds(o.body)]
            + [f"count: {line}" for line in wrong_counts(o.body, lang)]
        )
        if found:
            problems.setdefault(f"{o.kind} {o.subject}", []).extend(found)
    assert not problems, (lang, problems)


@pytest.mark.slow
def test_the_round_one_mail_names_where_to_write(mails: tuple[str, list[Outbox]]) -> None:
    lang, rows = mails
    (opened,) = [o for o in rows if o.kind == "round_open"]
    orders = "Orders round 1" if lang == "en" else "Züge Runde 1"
    assert "[alpha] " + orders in opened.body
    assert "gm@pbm.test" in opened.body
    assert "mailto:gm@pbm.test" in opened.html
