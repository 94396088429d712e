"""NMR in words: a player who never read the guide learns from the mail itself what "NMR" means
(no orders received) and what the rule did instead (production only; the robber's hex rolled,
the victim drawn by lot), in German, English and Danish alike."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import Dice, game, hand, settle
from rules_fixtures import QUIET, idle

from pbm.notation import Context
from pbm.notation.mail import parse_mail
from pbm.reports import notices
from pbm.reports.describe import describe_all
from pbm.reports.render import render
from pbm.rules import resolve_round
from pbm.rules.events import NmrRobberRoll
from pbm.rules.orders import RobberOrder, TurnOrders

from . import scenes

SEVEN, EIGHT = (3, 4), (4, 4)

#: What the lines of an NMR round say, by language: the seat without orders, the 7 without a
#: robber order (or with one that cannot be carried out), the dice of the robber's hex (each
#: roll rolled again with why), where they put the robber.
WORDS: dict[str, dict[str, Any]] = {
    "de": {
        "none": "rot: keine Züge erhalten (NMR) — nur Erträge, kein Handel, kein Bau",
        "missing": "rot (Anna): kein gültiger Räuberzug — das Räuberfeld wird ausgewürfelt, "
        "das Opfer ausgelost (NMR-Räuberregel)",
        "invalid": "; stattdessen wird das Räuberfeld ausgewürfelt und das Opfer ausgelost "
        "(NMR-Räuberregel)",
        "roll": [
            "  Wurf für das Räuberfeld: 7 — neu gewürfelt: kein Feld hat die Zahl 7",
            "  Wurf für das Räuberfeld: 2 — neu gewürfelt: an F3 (2G) liegt kein Gebäude",
            "  Wurf für das Räuberfeld: 8",
        ],
        "moved": "  die Würfel setzen den Räuber für rot (Anna) nach D2 (8H)",
    },
    "en": {
        "none": "red: no orders received (NMR) — production only, no trade or building",
        "missing": "red (Anna): no valid robber order — the robber's hex is rolled, the victim "
        "drawn by lot (NMR robber rule)",
        "invalid": "; instead the robber's hex is rolled and the victim drawn by lot "
        "(NMR robber rule)",
        "roll": [
            "  roll for the robber's hex: 7 — rolled again: no hex has a 7",
            "  roll for the robber's hex: 2 — rolled again: no building touches F3 (2G)",
            "  roll for the robber's hex: 8",
        ],
        "moved": "  the dice put the robber on D2 (8L) for red (Anna)",
    },
    "da": {
        "none": "rød: ingen ordrer modtaget (NMR) — kun udbytte, ingen handel eller byggeri",
        "missing": "rød (Anna): ingen gyldig røverordre — røverens felt slås med terninger, "
        "offeret trækkes ved lod (NMR-røverreglen)",
        "invalid": "; i stedet slås røverens felt med terninger, og offeret trækkes ved lod "
        "(NMR-røverreglen)",
        "roll": [
            "  slag for røverens felt: 7 — slået igen: intet felt har tallet 7",
            "  slag for røverens felt: 2 — slået igen: der ligger ingen bygning ved F3 (2K)",
            "  slag for røverens felt: 8",
        ],
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
    rolls = [line for line in lines if line in words["roll"]]
    assert rolls == words["roll"], lines
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


#: The NMR robber's rolls rolled again, and why, by language: 8 where the robber stands (and
#: the other 8 without a building), 12 on a hex of red's alone while blue's hexes can take it.
REROLLED = {
    "de": [
        "  Wurf für das Räuberfeld: 8 — neu gewürfelt: der Räuber steht schon auf D2 (8H); "
        "an D6 (8W) liegt kein Gebäude",
        "  Wurf für das Räuberfeld: 12 — neu gewürfelt: an B3 (12E) liegen nur Gebäude von "
        "rot selbst",
        "  Wurf für das Räuberfeld: 4",
    ],
    "de@modern": [
        "  Wurf für das Banditenfeld: 8 — neu gewürfelt: der Bandit steht schon auf D2 (8H); "
        "an D6 (8W) liegt kein Gebäude",
        "  Wurf für das Banditenfeld: 12 — neu gewürfelt: an B3 (12E) liegen nur Gebäude von "
        "rot selbst",
        "  Wurf für das Banditenfeld: 4",
    ],
    "en": [
        "  roll for the robber's hex: 8 — rolled again: the robber stands on D2 (8L) already; "
        "no building touches D6 (8W)",
        "  roll for the robber's hex: 12 — rolled again: only red's own buildings touch B3 (12O)",
        "  roll for the robber's hex: 4",
    ],
    "da": [
        "  slag for røverens felt: 8 — slået igen: røveren står allerede på D2 (8T); der "
        "ligger ingen bygning ved D6 (8U)",
        "  slag for røverens felt: 12 — slået igen: ved B3 (12M) ligger kun røds egne bygninger",
        "  slag for røverens felt: 4",
    ],
}


@pytest.mark.parametrize("lang", sorted(REROLLED))
def test_a_roll_for_the_robbers_hex_rolled_again_says_why(lang: str) -> None:
    """QA: "roll for the robber's hex: 5", then "…: 9", and nothing said why 5 was rolled
    again. Each roll rolled again says what keeps the robber off the hexes with its number:
    it stands there, no building touches it, only the roller's own buildings do."""
    s = game()
    settle(s, 1, "C1 C2 D2")
    settle(s, 0, "A2 A3 B3")
    hand(s, 1, "2L")
    s.robber = s.board.hex_by_label("D2").id
    dice = Dice([SEVEN, QUIET, QUIET, QUIET, EIGHT, (6, 6), (2, 2)])
    new, events = resolve_round(s, idle(s0=None), rng=dice)
    lines = describe_all(events, new, lang, {0: "Anna"})
    assert [line for line in lines if line.startswith("  ") and ": " in line][:3] == (
        REROLLED[lang]
    ), lines
    # A game of older rules replays without the reasons: its stored events stay as they were.
    s.rules = 3
    _, old = resolve_round(
        s, idle(s0=None), rng=Dice([SEVEN, QUIET, QUIET, QUIET, EIGHT, (6, 6), (2, 2)])
    )
    rolls = [e.to_json() for e in old if isinstance(e, NmrRobberRoll)]
    assert len(rolls) == 3 and all("why" not in r for r in rolls)
    assert [(e.player, e.die1, e.die2) for e in old if isinstance(e, NmrRobberRoll)] == [
        (e.player, e.die1, e.die2) for e in events if isinstance(e, NmrRobberRoll)
    ]


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
