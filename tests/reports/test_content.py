"""What the mails say, beyond the golden files: examples that make sense for their reader, no
card type given away by a failed order (but a failed knight, issue 14), failure lines that say
what failed."""

from __future__ import annotations

import re

import pytest

from pbm.notation import vocab
from pbm.reports import codebook
from pbm.reports.describe import rule_text
from pbm.reports.render import render
from pbm.reports.report_data import report_data
from pbm.reports.welcome import welcome_data
from pbm.rules import events as ev
from pbm.rules import resolve_round
from pbm.rules.orders import Monopoly, TurnOrders, YearOfPlenty
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Phase, Settings

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
def test_a_failed_knight_names_the_card_and_the_reason(lang: str) -> None:
    """Issue 14: a knight that could not be played says so, with the reason (its robber hex
    was the robber's, or a newcomer's): the player ordered it, and the robber is public."""
    st, events = _knight_failure()
    text = render("report", "r", report_data(st, events, lang, "g", scenes.SECRETS)).text
    knight = codebook.CARD_NAMES[lang]["knight"]
    for e in events:
        if isinstance(e, ev.OrderFailed) and e.line == "knight":
            who = vocab.colour_name(st.colours[e.player], lang)
            lines = text.splitlines()
            [at] = [i for i, x in enumerate(lines) if x.startswith(f"{who}: {knight}")]
            # The entry with its wrapped continuation (indented lines below it).
            entry = [lines[at]]
            entry += [x.strip() for x in lines[at + 1 : at + 3] if x.startswith("  ")]
            assert rule_text(e.rule, lang) in " ".join(entry), entry


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_a_failed_card_play_other_than_a_knight_stays_unnamed(lang: str) -> None:
    """A monopoly, a year of plenty or road building that could not be played stays hidden in
    the hand: the public report says only that a card could not be played."""
    s = scenes.fresh_state()
    s.phase, s.round, s.setup_step = Phase.ROUNDS, 2, 8
    s.cards[0] = [("monopoly", 2)]  # bought this round: not playable yet
    orders = {p: TurnOrders() for p in range(4)}
    orders[0] = TurnOrders(monopoly=Monopoly(0), builds=(YearOfPlenty(0, 1),))
    after, events = resolve_round(s, orders)
    log = report_data(after, events, lang, "g", scenes.SECRETS)["log"]
    who = vocab.colour_name(s.colours[0], lang)
    failed = [line for line in log if line.startswith(f"{who}:")]
    names = [*codebook.CARD_NAMES[lang].values(), *codebook.CARD_NAMES["de"]]
    assert len(failed) == 2, failed
    for line in failed:
        assert not any(re.search(rf"\b{re.escape(n)}\b", line, re.I) for n in names), line


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_round_report_names_the_next_rounds_build_order(lang: str) -> None:
    """Issue 6: the round report gives "the next round's deadline and build order"."""
    _, after, _ = scenes.midgame()
    _, rendered = scenes.round_report(lang)
    order = ", ".join(vocab.colour_name(after.colours[p], lang) for p in after.build_order())
    after_log = rendered.text.split("\n\n", 1)[1]  # the log's first line is this round's order
    assert order in after_log, (order, scenes.next_line(lang, after.round))
