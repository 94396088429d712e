"""What the mails say, beyond the golden files: examples that make sense for their reader, and
no card type given away by a failed order."""

from __future__ import annotations

import re

import pytest

from pbm.notation import vocab
from pbm.reports import codebook
from pbm.reports.render import render
from pbm.reports.report_data import report_data
from pbm.reports.welcome import welcome_data
from pbm.rules import events as ev
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Settings

from . import scenes


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_welcome_robber_example_never_robs_the_reader(lang: str) -> None:
    """The example robber order in a player's welcome mail must not tell them to rob
    themselves ("Räuber B2 (6L), raube blau, gelb" in blau's welcome)."""
    st = scenes.fresh_state()
    wrong = []
    for seat, colour in enumerate(st.colours):
        name = vocab.colour_name(colour, lang)
        data = welcome_data(st, "alpha", name, seat, "pw", scenes.SECRETS[seat], lang)
        robber = [line for line in data["examples"] if line.startswith(("Räuber", "Robber"))]
        for line in robber:
            victims = re.split(r", (?:raube|steal) ", line, maxsplit=1)[-1].split(", ")
            if name in victims:
                wrong.append(f"{name}: {line}")
    assert not wrong, wrong


def _knight_failure() -> tuple[GameState, list[ev.Event]]:
    for seed in range(1, 60):
        for st, events in play_game(Settings.for_players(4), seed):
            if any(isinstance(e, ev.OrderFailed) and e.line.startswith("knight") for e in events):
                return st, events
    pytest.skip("no failed knight in the first games")


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_a_failed_card_play_does_not_name_the_card_in_the_public_report(lang: str) -> None:
    """A knight that could not be played stays hidden in the hand: the public report must
    not say that it is a knight (nor use the internal word "knight" in a German report)."""
    st, events = _knight_failure()
    text = render("report", "r", report_data(st, events, lang, "g", scenes.SECRETS)).text
    names = [*codebook.CARD_NAMES[lang].values(), *codebook.CARD_NAMES["de"]]
    played = {e.player for e in events if isinstance(e, ev.CardPlayed)}
    bad = []
    for e in events:
        if isinstance(e, ev.OrderFailed) and e.line.startswith("knight"):
            who = vocab.colour_name(st.colours[e.player], lang)
            for line in text.splitlines():
                if (
                    line.startswith(f"{who}:")
                    and any(re.search(rf"\b{re.escape(n)}\b", line, re.I) for n in names)
                    and e.player not in played
                ):
                    bad.append(line)
    assert not bad, bad


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_round_report_names_the_next_rounds_build_order(lang: str) -> None:
    """Issue 6: the round report gives "the next round's deadline and build order"."""
    _, after, _ = scenes.midgame()
    _, rendered = scenes.round_report(lang)
    order = ", ".join(vocab.colour_name(after.colours[p], lang) for p in after.build_order())
    after_log = rendered.text.split("\n\n", 1)[1]  # the log's first line is this round's order
    assert order in after_log, (order, scenes.next_line(lang, after.round))
