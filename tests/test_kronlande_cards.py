"""Kronlande's project cards (spec kronlande.md, "Project cards"): 2 Bauhütte, 2 Hafenprivileg,
2 Festmahl added to the 34-card deck, played in the build step, one card a round; and the
Residenz market (3:1 for every resource, 2:1 Stein; the best of market and harbours)."""

from __future__ import annotations

from collections import Counter

from helpers import game
from kron_fixtures import cards, kron_game, play, set_hand, settle_at
from rules_fixtures import give_card, of

from pbm.rules import trade
from pbm.rules.events import CardPlayed, MaritimeTraded, OrderFailed
from pbm.rules.kron_events import FeastGiven, GoodsTaken
from pbm.rules.layouts import BUILDERS_HUT, DECK_5_6, FEAST, HARBOUR_PRIVILEGE, KNIGHT
from pbm.rules.legal import LegalMoves
from pbm.rules.orders import (
    BuildersHut,
    Feast,
    HarbourPrivilege,
    Knight,
    MaritimeTrade,
    RobberOrder,
    Timing,
    TurnOrders,
)
from pbm.rules.reasons import Reason
from pbm.rules.resources import BROT, ERZ, HOLZ, STEIN, WERKZEUG, WOLLE
from pbm.rules.state import Settings, new_game


def test_the_deck_is_the_34_cards_and_six_project_cards_for_every_table() -> None:
    for players in (3, 4, 5, 6):
        deck = Counter(new_game(Settings.for_kronlande(players, "huge"), players).deck)
        assert deck == Counter({**DECK_5_6, BUILDERS_HUT: 2, HARBOUR_PRIVILEGE: 2, FEAST: 2})


def test_bauhuette_gives_a_werkzeug_and_a_brot() -> None:
    s = kron_game()
    give_card(s, 0, BUILDERS_HUT)
    after, events = play(s, s0=TurnOrders(builds=(BuildersHut(),)))
    assert of(events, CardPlayed) == [CardPlayed(0, BUILDERS_HUT)]
    assert of(events, GoodsTaken) == [GoodsTaken(0, (0,) * 7 + (1, 0, 1))]
    assert cards(after, 0) == {"Werkzeug": 1, "Brot": 1} and after.cards[0] == []


def test_festmahl_takes_one_from_every_other_player_holding_it() -> None:
    s = kron_game()
    give_card(s, 0, FEAST)
    set_hand(s, 1, Brot=2)
    set_hand(s, 3, Brot=1, Holz=4)
    set_hand(s, 2, Holz=1)
    after, events = play(s, s0=TurnOrders(builds=(Feast(BROT),)))
    assert of(events, FeastGiven) == [FeastGiven(0, 1, BROT), FeastGiven(0, 3, BROT)]
    assert cards(after, 0) == {"Brot": 2} and cards(after, 1) == {"Brot": 1}
    assert cards(after, 3) == {"Holz": 4}
    give_card(s, 0, FEAST)
    after, events = play(s, s0=TurnOrders(builds=(Feast(HOLZ),)))
    assert [e.giver for e in of(events, FeastGiven)] == [2, 3] and after.hands[0][HOLZ] == 2


def test_hafenprivileg_makes_the_later_bank_trades_of_the_step_two_to_one() -> None:
    s = kron_game()
    give_card(s, 0, HARBOUR_PRIVILEGE)
    set_hand(s, 0, Wolle=6)
    early = MaritimeTrade(WOLLE, 4, STEIN)
    cheap = MaritimeTrade(WOLLE, 2, ERZ)
    legal = LegalMoves(s, 0)
    assert legal.problem(cheap) == Reason.BELOW_HARBOUR_RATE
    assert legal.certain_problem(cheap) == Reason.BELOW_HARBOUR_RATE
    # At receipt, the lines after a Hafenprivileg the player holds are read at 2:1.
    assert legal.after(HarbourPrivilege()).certain_problem(cheap) is None
    assert legal.after(HarbourPrivilege()).bank_rates() == [2] * 7
    lines = (early, HarbourPrivilege(), MaritimeTrade(WOLLE, 2, ERZ))
    after, events = play(s, s0=TurnOrders(builds=lines))
    assert of(events, MaritimeTraded) == [
        MaritimeTraded(0, WOLLE, 4, STEIN, 1),
        MaritimeTraded(0, WOLLE, 2, ERZ, 1),
    ]
    assert cards(after, 0) == {"Stein": 1, "Erz": 1}
    assert after.kron is not None and after.kron.privilege[0] == s.round
    assert trade.harbour_rate(after, 0, HOLZ) == 4  # the next round: over
    assert LegalMoves(after, 0).bank_rates() == [4] * 7


def test_one_card_a_round_and_never_one_bought_this_round() -> None:
    s = kron_game()
    give_card(s, 0, KNIGHT)
    give_card(s, 0, BUILDERS_HUT)
    give_card(s, 1, FEAST, bought_round=s.round)
    h = s.board.robber_hexes[3]
    knight = Knight(Timing.BEFORE_ROLL, RobberOrder(h))
    _, events = play(s, s0=TurnOrders(knight=knight, builds=(BuildersHut(),)))
    assert [e.rule for e in of(events, OrderFailed)] == [Reason.ONE_CARD_PER_ROUND]
    legal = LegalMoves(s, 1)
    assert legal.problem(Feast(BROT)) == Reason.CARD_BOUGHT_THIS_ROUND
    assert legal.certain_problem(Feast(BROT)) == Reason.CARD_NOT_HELD
    assert LegalMoves(s, 0).playable_cards() == [BUILDERS_HUT, KNIGHT]


def test_project_cards_only_in_kronlande() -> None:
    s = game()
    legal = LegalMoves(s, 0)
    for order in (BuildersHut(), HarbourPrivilege(), Feast(0)):
        assert legal.problem(order) == legal.certain_problem(order) == Reason.NOT_KRONLANDE


def test_the_residenz_market_and_the_best_rate() -> None:
    s = kron_game()
    inland = next(
        c
        for c in range(len(s.owner))
        if s.board.crossing_land[c]
        and not any(s.board.hexes[h].terrain == "sea" for h in s.board.crossing_hexes[c])
    )
    c = settle_at(s, 0, inland, level=4)
    assert [trade.harbour_rate(s, 0, r) for r in range(7)] == [3, 3, 3, 3, 3, 2, 3]
    assert LegalMoves(s, 0).bank_rates() == [3, 3, 3, 3, 3, 2, 3]
    # A 2:1 harbour of Wolle is better for Wolle; the market stays for the rest.
    harbour = next(
        x
        for x in range(len(s.board.crossing_harbor))
        if (hb := s.board.crossing_harbor[x]) is not None and hb.resource == WOLLE
    )
    if s.owner[harbour] < 0 and c not in s.board.crossing_neighbors[harbour]:
        settle_at(s, 0, harbour)
        rates = [trade.harbour_rate(s, 0, r) for r in range(7)]
        assert rates == [3, 3, 2, 3, 3, 2, 3] == LegalMoves(s, 0).bank_rates()
    set_hand(s, 0, Stein=2, Holz=3)
    after, events = play(
        s, s0=TurnOrders(builds=(MaritimeTrade(STEIN, 2, WERKZEUG), MaritimeTrade(HOLZ, 3, ERZ)))
    )
    assert [e.rule for e in of(events, OrderFailed)] == [Reason.GOODS_NOT_WITH_BANK]
    assert of(events, MaritimeTraded) == [MaritimeTraded(0, HOLZ, 3, ERZ, 1)]
    assert cards(after, 0) == {"Stein": 2, "Erz": 1}


def test_a_bank_trade_refused_after_a_hafenprivileg_says_the_rate_it_gives() -> None:
    """The refusal under `Hafenprivileg` said 4:1 and `Seehandel 8H gegen 2E`: as if the card
    did nothing."""
    from pbm.notation import Context, parse_mail
    from pbm.notation.checks import check_receipt

    s = kron_game()
    give_card(s, 0, HARBOUR_PRIVILEGE)
    set_hand(s, 0, Holz=6)
    ctx = Context(s.board, "de", s.colours)
    parsed = parse_mail("Hafenprivileg\nSeehandel 3H gegen 2E\n", ctx)
    check_receipt(parsed, s, 0, "de")
    said = parsed.lines[1].error.localized("de")  # type: ignore[union-attr]
    assert "für dich gilt jetzt 2:1; schreibe 'Seehandel 4H gegen 2E'" in said, said
