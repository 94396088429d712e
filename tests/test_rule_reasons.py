"""One vocabulary of rule reasons: `pbm.rules.reasons.Reason`.

Every reason the rules give is a member; no module of `pbm/rules/` spells a reason as a bare
string or keeps a `RULE_…` constant; the stored values never change (games are stored with
them); events of simulated games carry members and load back as members; the receipt checks
refuse with members too.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from pbm.notation import Context, IllegalOrderError, parse_mail
from pbm.notation.checks import check_receipt
from pbm.rules.events import OrderFailed, SetupFailed, TradeFailed, event_from_json
from pbm.rules.reasons import Reason
from pbm.rules.sim import play_game
from pbm.rules.state import Settings

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "pbm" / "rules"

#: The values as stored in games' events (and keys of the reason texts): fixed for good.
STORED = {
    "not_land",
    "occupied",
    "distance_rule",
    "not_connected",
    "no_pieces_left",
    "cannot_afford",
    "not_own_settlement",
    "road_not_at_settlement",
    "road_occupied",
    "road_not_on_land",
    "robber_must_move",
    "robber_not_on_number",
    "newcomer_protection",
    "no_robber_order",
    "card_not_held",
    "card_bought_this_round",
    "one_card_per_round",
    "deck_empty",
    "bank_empty",
    "no_legal_road",
    "no_gifts",
    "like_for_like",
    "trade_with_self",
    "no_such_player",
    "not_confirmed_by_partner",
    "terms_differ",
    "cards_not_held",
    "below_harbour_rate",
    "pirate_on_harbour",
    "same_resource",
    "not_sea",
    "next_to_pirate",
    "no_pirate",
    "pirate_not_on_sea",
    "pirate_must_move",
    "not_own_ship",
    "ship_line_closed",
    "ship_built_this_round",
    "one_ship_move_per_round",
    "not_start_area",
    "ship_required",
    "unexplored",
    "other_start_island",
    "not_kronlande",
    "not_own_building",
    "workshop_on_building",
    "workshop_kind_held",
    "no_workshop",
    "not_a_good",
    "not_own_city",
    "not_own_castle",
    "robber_next_to_castle",
    "goods_not_with_bank",
    # Rules 3: the members that named two failures, split.
    "settlement_not_connected",
    "settlement_not_reached",
    "ship_not_at_settlement",
    "ship_side_occupied",
    "no_ships",
    "ship_not_connected",
    "ship_same_place",
    "ship_held_by_pirate",
}

#: Strings in pbm/rules that equal a reason's value but are something else.
NOT_REASONS = {("serial.py", "newcomer_protection")}  # the settings key of the stored state


def test_values_are_the_stored_strings_each_once() -> None:
    assert {r.value for r in Reason} == STORED
    assert len(Reason.__members__) == len(Reason) == len(STORED)  # no aliases
    for r in Reason:
        assert r.name == r.value.upper()
        assert r == r.value and hash(r) == hash(r.value) and str(r) == r.value
        assert json.dumps(r) == json.dumps(r.value)
        # Digests of simulated games are made from the repr of event values.
        assert repr(r) == repr(r.value)


def test_no_bare_reason_string_and_no_rule_constant_in_the_rules() -> None:
    values = {r.value for r in Reason}
    found = []
    for path in sorted(RULES.glob("*.py")):
        if path.name == "reasons.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value in values
                and (path.name, node.value) not in NOT_REASONS
            ):
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert not found, "use Reason members:\n" + "\n".join(found)
    constant = re.compile(r"^\s*RULE_\w+\s*[:=]", re.M)
    for path in sorted((ROOT / "pbm").rglob("*.py")):
        assert not constant.search(path.read_text()), path


def test_every_reason_is_given_by_some_rule() -> None:
    used = set()
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "Reason"
                and path.name != "reasons.py"
            ):
                used.add(node.attr)
    assert used == set(Reason.__members__)


@pytest.mark.slow  # whole simulated games
def test_events_of_simulated_games_carry_reason_members() -> None:
    seen: set[Reason] = set()
    count = 0
    for i in range(120):
        settings = Settings.for_players(3 + i % 4, newcomer_protection=i % 2 == 0)
        bot = "random" if i % 3 else "autopilot"
        for _, events in play_game(settings, 9000 + i, bot, max_rounds=60):
            for e in events:
                if isinstance(e, OrderFailed):
                    reason = e.rule
                elif isinstance(e, (TradeFailed, SetupFailed)):
                    reason = e.reason
                else:
                    continue
                assert type(reason) is Reason, e
                back = event_from_json(json.loads(json.dumps(e.to_json())))
                assert back == e and type(getattr(back, "rule", None) or back.reason) is Reason
                seen.add(reason)
                count += 1
    assert count > 1000
    # The bots write legal orders, which the earlier players' turns can make fail.
    assert {
        Reason.CANNOT_AFFORD,
        Reason.NOT_CONNECTED,
        Reason.NO_PIECES_LEFT,
        Reason.DISTANCE_RULE,
        Reason.ROBBER_MUST_MOVE,
        Reason.DECK_EMPTY,
    } <= seen


def test_a_stored_reason_the_enum_does_not_know_still_loads() -> None:
    data = {"kind": "order_failed", "player": 0, "line": "build 1", "rule": "gone", "reason": ""}
    e = event_from_json(data)
    assert isinstance(e, OrderFailed) and e.rule == "gone" and e.to_json() == data
    data["rule"] = "occupied"
    assert event_from_json(data).rule is Reason.OCCUPIED


def test_receipt_refusals_carry_reason_members() -> None:
    from pbm.rules.state import Phase, new_game

    s = new_game(Settings.for_players(4), 1)
    s.phase, s.round, s.setup_step = Phase.ROUNDS, 1, 8
    body = "Straße 6L 5L\nMonopol Erz\nHandel rot: gebe 1H, bekomme 1E\n"
    parsed = parse_mail(body, Context(s.board, "de", s.colours))
    check_receipt(parsed, s, 0)
    errors = [r.error for r in parsed.lines]
    assert all(isinstance(e, IllegalOrderError) for e in errors)
    assert [e.rule for e in errors if e] == [
        Reason.NOT_CONNECTED,  # a road; a settlement or a ship have reasons of their own
        Reason.CARD_NOT_HELD,
        Reason.TRADE_WITH_SELF,
    ]
    assert all(type(e.rule) is Reason for e in errors if e)


def test_every_reason_has_a_text_in_every_language() -> None:
    from pbm.i18n import languages
    from pbm.reports.describe import RULES, rule_text

    assert set(RULES) == set(Reason)
    for lang in languages():
        texts = [rule_text(r, lang) for r in Reason]
        assert all(t and "_" not in t for t in texts), (lang, texts)
    assert rule_text("trade_with_self", "de") == "Handel mit dir selbst"
    assert rule_text("made_up_by_a_newer_pbm", "de") == "made up by a newer pbm"


def test_no_rule_key_reaches_a_german_player() -> None:
    """Every reason reads in every language, in reports and in refusals at receipt, and a German
    text is no English key (`robber nicht ausgeführt`, `robber must move`)."""
    from pbm.i18n import languages
    from pbm.notation.messages import RECEIPT, receipt_text
    from pbm.reports.describe import line_text, rule_text

    assert set(RECEIPT) == {r.value for r in Reason}
    for lang in languages():
        for r in Reason:
            for text in (rule_text(r, lang), receipt_text(r, lang)):
                assert text and "_" not in text, (lang, r)
                if lang != "en":
                    assert text != r.value.replace("_", " "), (lang, r)
    for r in Reason:
        assert rule_text(r, "de") != rule_text(r, "en"), r
        assert receipt_text(r, "de") != receipt_text(r, "en"), r
    assert line_text("robber", "de") == "Räuberzug"
    for line in ("build 2", "substitute 1 option 2"):
        assert line_text(line, "de") != line_text(line, "en")
