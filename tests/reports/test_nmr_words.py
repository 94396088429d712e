"""NMR in words: a player who never read the guide learns from the mail itself what "NMR" means
(no orders received) and what the rule did instead (production only; the robber's hex rolled,
the victim drawn by lot), in German, English and Danish alike."""

from __future__ import annotations

import pytest
from helpers import Dice, game, hand, settle
from rules_fixtures import QUIET, idle

from pbm.notation import Context
from pbm.notation.mail import parse_mail
from pbm.reports import notices
from pbm.reports.describe import describe_all
from pbm.reports.render import render
from pbm.rules import resolve_round
from pbm.rules.orders import RobberOrder, TurnOrders

from . import scenes

SEVEN, EIGHT = (3, 4), (4, 4)

#: What the lines of an NMR round say, by language: the seat without orders, the 7 without a
#: robber order (or with one that cannot be carried out), the dice of the robber's hex, where
#: they put the robber.
WORDS = {
    "de": {
        "none": "rot: keine Züge erhalten (NMR) — nur Erträge, kein Handel, kein Bau",
        "missing": "rot (Anna): kein Räuberzug — das Räuberfeld wird ausgewürfelt, das Opfer "
        "ausgelost (NMR-Räuberregel)",
        "invalid": "; stattdessen wird das Räuberfeld ausgewürfelt und das Opfer ausgelost "
        "(NMR-Räuberregel)",
        "roll": "  Wurf für das Räuberfeld: 7",
        "moved": "  die Würfel setzen den Räuber für rot (Anna) nach D2 (8H)",
    },
    "en": {
        "none": "red: no orders received (NMR) — production only, no trade or building",
        "missing": "red (Anna): no robber order — the robber's hex is rolled, the victim drawn "
        "by lot (NMR robber rule)",
        "invalid": "; instead the robber's hex is rolled and the victim drawn by lot "
        "(NMR robber rule)",
        "roll": "  roll for the robber's hex: 7",
        "moved": "  the dice put the robber on D2 (8L) for red (Anna)",
    },
    "da": {
        "none": "rød: ingen ordrer modtaget (NMR) — kun udbytte, ingen handel eller byggeri",
        "missing": "rød (Anna): ingen røverordre — røverens felt slås med terninger, offeret "
        "trækkes ved lod (NMR-røverreglen)",
        "invalid": "; i stedet slås røverens felt med terninger, og offeret trækkes ved lod "
        "(NMR-røverreglen)",
        "roll": "  slag for røverens felt: 7",
        "moved": "  terningerne sætter røveren på D2 (8T) for rød (Anna)",
    },
}


def _seven(robber: str, lang: str) -> list[str]:
    """Seat 0 rolls a 7 with no orders (`robber` "none"), orders without a robber order
    ("missing") or one to where the robber stands ("invalid"); the NMR robber rolls 7, 2
    (nobody there) and 8 (D2, blue's)."""
    s = game()
    settle(s, 1, "C1 C2 D2")
    hand(s, 1, "2L")
    orders = {
        "none": None,
        "missing": TurnOrders(),
        "invalid": TurnOrders(robber=RobberOrder(s.robber)),
    }[robber]
    dice = Dice([SEVEN, QUIET, QUIET, QUIET, SEVEN, (1, 1), EIGHT])
    new, events = resolve_round(s, idle(s0=orders), rng=dice)
    return describe_all(events, new, lang, {0: "Anna"})


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_no_orders_says_what_nmr_is_and_what_the_rule_did(lang: str) -> None:
    lines = _seven("none", lang)
    words = WORDS[lang]
    assert words["none"] in lines
    assert words["roll"] in lines
    assert words["moved"] in lines
    # No line names the rule by its letters alone.
    assert all("NMR" not in line or "(NMR" in line for line in lines), lines


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_a_seven_without_a_usable_robber_order_says_what_happens_instead(lang: str) -> None:
    words = WORDS[lang]
    assert words["missing"] in _seven("missing", lang)
    invalid = _seven("invalid", lang)
    assert any(line.endswith(words["invalid"]) for line in invalid), invalid
    assert words["moved"] in invalid


#: What the answer to an order mail and the reminder say of a round without orders.
MAILS = {
    "de": (
        "keine gültigen Züge (NMR: keine Züge erhalten)",
        "das Räuberfeld ausgewürfelt",
        "Ohne Züge bis dahin (NMR: keine Züge erhalten)",
    ),
    "en": (
        "no valid orders (NMR: no moves received)",
        "the robber's hex is rolled",
        "Without orders by then (NMR: no moves received)",
    ),
    "da": (
        "ingen gyldige ordrer (NMR: ingen ordrer modtaget)",
        "røverens felt slået med terninger",
        "Uden ordrer inden da (NMR: ingen ordrer modtaget)",
    ),
}


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_the_answer_and_the_reminder_say_nmr_in_words(lang: str) -> None:
    ack = " ".join(scenes.ack(lang)[1].text.split())
    reminder = " ".join(scenes.reminder(lang)[1].text.split())
    answer, robber, missing = MAILS[lang]
    assert answer in ack and robber in ack, ack
    assert missing in reminder, reminder
    assert "NMR-Regel" not in ack and "NMR rule" not in ack and "NMR-reglen" not in ack


#: A pass in each language, and what the answer says of it.
PASSED = {
    "de": ("Ich passe", "die Runde zählt nicht als Runde ohne Züge (NMR)"),
    "en": ("I pass", "the round does not count as one without orders (NMR)"),
    "da": ("pas", "runden tæller ikke som en runde uden ordrer (NMR)"),
}


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_the_answer_to_a_pass_says_it_is_no_round_without_orders(lang: str) -> None:
    word, says = PASSED[lang]
    _, after, _ = scenes.midgame()
    parsed = parse_mail(word + "\n", Context(after.board, lang, after.colours, "round"))
    data = notices.ack(parsed, word, lang, replaced=False, round_=after.round, deadline="x")
    text = " ".join(render("ack", "", {"game": scenes.GAME, **data}).text.split())
    assert says in text, text
    assert "(no NMR)" not in text and "(kein NMR)" not in text and "(ingen NMR)" not in text
