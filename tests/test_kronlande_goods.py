"""Goods are cards (spec kronlande.md, "Table"): they count in the hand limit and are discarded,
stolen and traded between players, never with the bank or a harbour; no card takes them from
the bank (Year of Plenty) or from the players (Monopoly). Goods given up go to the supply."""

from __future__ import annotations

from kron_fixtures import cards, free_crossing, kron_game, play, set_hand, settle_at
from rules_fixtures import give_card, of

from pbm.rules.events import Discarded, MaritimeTraded, OrderFailed, Stole, TradeDone, TradeFailed
from pbm.rules.layouts import MONOPOLY, YEAR_OF_PLENTY
from pbm.rules.legal import LegalMoves
from pbm.rules.orders import (
    DiscardPreference,
    MaritimeTrade,
    Monopoly,
    RobberOrder,
    TradeOffer,
    TurnOrders,
    YearOfPlenty,
)
from pbm.rules.reasons import Reason
from pbm.rules.resources import BROT, FISCH, GETREIDE, STEIN, STOFF, WERKZEUG, WOLLE


def _counts(**named: int) -> tuple[int, ...]:
    from pbm.rules.resources import KRON_NAMES_DE

    out = [0] * 10
    for k, v in named.items():
        out[KRON_NAMES_DE.index(k)] = v
    return tuple(out)


def test_goods_count_in_the_limit_are_discarded_and_only_resources_go_to_the_bank() -> None:
    s = kron_game()
    set_hand(s, 1, Wolle=1, Werkzeug=4, Brot=3)  # 8 cards
    assert s.bank is not None
    bank = s.bank[:]
    prefs = DiscardPreference((BROT, BROT, WOLLE, WERKZEUG))
    after, events = play(s, 7, s1=TurnOrders(discard=prefs))
    (d,) = [e for e in of(events, Discarded) if e.player == 1]
    assert d.cards == _counts(Wolle=1, Werkzeug=1, Brot=2) and d.at_random == 0
    assert cards(after, 1) == {"Werkzeug": 3, "Brot": 1}
    assert after.bank is not None and after.bank[WOLLE] >= bank[WOLLE] + 1
    assert len(after.bank) == 7  # goods never reach the bank


def test_the_robber_steals_goods_like_any_card() -> None:
    s = kron_game()
    h = s.board.robber_hexes[0]
    settle_at(s, 1, free_crossing(s, h))
    set_hand(s, 1, Stoff=1)
    robber = RobberOrder(h, (1,))
    after, events = play(s, 7, s0=TurnOrders(robber=robber))
    assert Stole(0, 1, STOFF) in of(events, Stole)
    assert after.hands[0][STOFF] == 1 and after.hands[1][STOFF] == 0


def test_goods_are_traded_between_players() -> None:
    s = kron_game()
    set_hand(s, 0, Brot=2)
    set_hand(s, 1, Stein=1, Werkzeug=1)
    mine = TradeOffer(1, _counts(Brot=2), _counts(Stein=1, Werkzeug=1))
    theirs = TradeOffer(0, _counts(Stein=1, Werkzeug=1), _counts(Brot=2))
    after, events = play(s, s0=TurnOrders(trades=(mine,)), s1=TurnOrders(trades=(theirs,)))
    assert of(events, TradeDone) == [TradeDone(0, 1, mine.give, mine.get)]
    assert cards(after, 0) == {"Stein": 1, "Werkzeug": 1} and cards(after, 1) == {"Brot": 2}


def test_fisch_never_pays_for_getreide_in_a_trade_between_players() -> None:
    """A trade gives the very cards it names: Fisch stands in for Getreide in a cost only."""
    s = kron_game()
    set_hand(s, 0, Fisch=2)
    set_hand(s, 1, Erz=1)
    mine = TradeOffer(1, _counts(Getreide=2), _counts(Erz=1))
    theirs = TradeOffer(0, _counts(Erz=1), _counts(Getreide=2))
    after, events = play(s, s0=TurnOrders(trades=(mine,)), s1=TurnOrders(trades=(theirs,)))
    assert not of(events, TradeDone)
    assert {e.reason for e in of(events, TradeFailed)} == {Reason.CARDS_NOT_HELD}
    assert cards(after, 0) == {"Fisch": 2} and cards(after, 1) == {"Erz": 1}


def test_a_short_count_means_zeros_for_the_goods() -> None:
    s = kron_game()
    set_hand(s, 0, Holz=1)
    set_hand(s, 1, Brot=1)
    mine = TradeOffer(1, (1, 0, 0, 0, 0), _counts(Brot=1))
    theirs = TradeOffer(0, _counts(Brot=1), _counts(Holz=1))
    _, events = play(s, s0=TurnOrders(trades=(mine,)), s1=TurnOrders(trades=(theirs,)))
    assert of(events, TradeDone) == [TradeDone(0, 1, _counts(Holz=1), _counts(Brot=1))]
    assert not of(events, TradeFailed)


def test_goods_are_never_traded_with_the_bank() -> None:
    s = kron_game()
    set_hand(s, 0, Brot=4, Stein=4)
    legal = LegalMoves(s, 0)
    for t in (MaritimeTrade(BROT, 4, STEIN), MaritimeTrade(STEIN, 4, WERKZEUG)):
        assert legal.problem(t) == legal.certain_problem(t) == Reason.GOODS_NOT_WITH_BANK
        assert t not in legal.bank_trades()
    assert {t.give for t in legal.bank_trades()} == set(range(7))
    after, events = play(s, s0=TurnOrders(builds=(MaritimeTrade(BROT, 4, STEIN),)))
    assert after.hands[0] == s.hands[0]
    assert [e.rule for e in of(events, OrderFailed)] == [Reason.GOODS_NOT_WITH_BANK]
    # Stein and Fisch are resources: the bank takes and gives them.
    _, events = play(s, s0=TurnOrders(builds=(MaritimeTrade(STEIN, 4, FISCH),)))
    assert of(events, MaritimeTraded) == [MaritimeTraded(0, STEIN, 4, FISCH, 1)]


def test_no_card_takes_goods() -> None:
    s = kron_game()
    give_card(s, 0, YEAR_OF_PLENTY)
    give_card(s, 1, MONOPOLY)
    set_hand(s, 2, Brot=2)
    legal0, legal1 = LegalMoves(s, 0), LegalMoves(s, 1)
    assert legal0.certain_problem(YearOfPlenty(BROT, STEIN)) == Reason.GOODS_NOT_WITH_BANK
    assert legal1.certain_problem(Monopoly(BROT)) == Reason.GOODS_NOT_WITH_BANK
    assert legal0.problem(YearOfPlenty(STEIN, FISCH)) is None
    assert legal1.problem(Monopoly(GETREIDE)) is None
    after, events = play(s, s1=TurnOrders(monopoly=Monopoly(BROT)))
    assert [e.rule for e in of(events, OrderFailed)] == [Reason.GOODS_NOT_WITH_BANK]
    assert after.hands[2][BROT] == 2
    after, events = play(s, s0=TurnOrders(builds=(YearOfPlenty(STEIN, FISCH),)))
    assert cards(after, 0) == {"Stein": 1, "Fisch": 1}
