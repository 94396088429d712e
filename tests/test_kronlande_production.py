"""Stein from quarries and Fisch from fishing grounds; Fisch for missing Getreide in every cost
(spec kronlande.md: "Fish may replace missing Getreide in any cost"), told by `FishPaid`."""

from __future__ import annotations

from kron_fixtures import cards, free_crossing, kron_game, play, set_hand, settle_at
from rules_fixtures import of

from pbm.rules.events import BankShort, Built, CardBought, OrderFailed, Produced
from pbm.rules.kron_events import FishPaid
from pbm.rules.orders import (
    BuyCard,
    City,
    Road,
    Settlement,
    SetupOrders,
    SetupPlacement,
    TurnOrders,
)
from pbm.rules.reasons import Reason
from pbm.rules.resources import FISCH, STEIN, missing, payment
from pbm.rules.setup import place_setup
from pbm.rules.state import Settings, new_game


def test_a_quarry_pays_stein_and_a_fishing_ground_fisch() -> None:
    s = kron_game()
    q = s.board.quarries[0]
    f = next(
        h for h in s.board.fishing_grounds if s.board.hexes[h].number != s.board.hexes[q].number
    )
    settle_at(s, 0, free_crossing(s, q), level=2)  # a city: 2
    settle_at(s, 1, free_crossing(s, f))
    after, events = play(s, s.board.hexes[q].number)
    assert Produced(0, q, STEIN, 2) in of(events, Produced)
    assert after.hands[0][STEIN] >= 2 and after.bank is not None
    after, events = play(s, s.board.hexes[f].number)
    assert Produced(1, f, FISCH, 1) in of(events, Produced)
    assert after.bank[FISCH] == s.bank[FISCH] - sum(  # type: ignore[index]
        e.amount for e in of(events, Produced) if e.resource == FISCH
    )


def test_the_bank_runs_short_of_stein_like_any_resource() -> None:
    s = kron_game()
    q = s.board.quarries[0]
    settle_at(s, 0, free_crossing(s, q))
    assert s.bank is not None
    s.bank[STEIN] = 0
    after, events = play(s, s.board.hexes[q].number)
    assert BankShort(STEIN, 1, 0, 0) in of(events, BankShort)
    assert after.hands[0][STEIN] == 0


def test_the_second_setup_settlement_pays_fisch_from_a_fishing_ground() -> None:
    s = new_game(Settings.for_kronlande(3, "large"), 5)
    f = s.board.fishing_grounds[0]
    c = next(c for c in s.board.hex_crossings[f] if s.board.crossing_land[c])
    e = next(e for e in s.board.crossing_paths[c] if s.board.path_land[e])
    s.setup_step = 3  # the first placement of the way back
    s2, events, placed = place_setup(s, SetupOrders((SetupPlacement(c, e),)))
    assert placed and Produced(2, f, FISCH, 1) in of(events, Produced)
    assert s2.hands[2][FISCH] == 1


def test_fisch_pays_for_missing_getreide_in_a_settlement_a_city_and_a_card() -> None:
    s = kron_game()
    c = settle_at(s, 0, free_crossing(s, s.board.robber_hexes[0]))
    e = next(e for e in s.board.crossing_paths[c] if s.board.path_land[e])
    far = next(x for x in s.board.path_crossings[e] if x != c)
    e2 = next(x for x in s.board.crossing_paths[far] if x != e and s.board.path_land[x])
    set_hand(s, 0, Holz=3, Lehm=3, Wolle=2, Getreide=1, Erz=4, Fisch=3)
    lines = (Road(e), Road(e2), City(c), BuyCard())
    after, events = play(s, s0=TurnOrders(builds=lines))
    assert not of(events, OrderFailed)
    # City: 2 Getreide asked, 1 held: 1 Fisch. Card: no Getreide left: 1 Fisch.
    assert of(events, FishPaid) == [FishPaid(0, 1), FishPaid(0, 1)]
    # Each right before what it paid for.
    kinds = [x.kind for x in events if x.kind in ("fish_paid", "built", "card_bought")]
    assert kinds == ["built", "built", "fish_paid", "built", "fish_paid", "card_bought"]
    assert cards(after, 0) == {"Holz": 1, "Lehm": 1, "Wolle": 1, "Fisch": 1}
    assert after.bank is not None and after.bank[FISCH] == s.bank[FISCH] + 2  # type: ignore[index]
    assert len(of(events, CardBought)) == 1 and len(of(events, Built)) == 3


def test_fisch_never_pays_for_anything_but_getreide() -> None:
    s = kron_game()
    c = settle_at(s, 0, free_crossing(s, s.board.robber_hexes[0]))
    set_hand(s, 0, Getreide=2, Erz=2, Fisch=5)
    after, events = play(s, s0=TurnOrders(builds=(City(c),)))
    (fail,) = of(events, OrderFailed)
    assert fail.rule == Reason.CANNOT_AFFORD
    assert fail.missing == (0, 0, 0, 0, 1, 0, 0, 0, 0, 0)
    assert after.hands[0] == s.hands[0]


def test_what_is_missing_counts_the_fisch() -> None:
    hand = [0, 0, 0, 1, 0, 0, 1, 0, 0, 0]
    assert missing(hand, (0, 0, 0, 3, 0)) == (0, 0, 0, 1, 0, 0, 0, 0, 0, 0)
    assert payment(hand, (0, 0, 0, 2, 0)) == (0, 0, 0, 1, 0, 0, 1, 0, 0, 0)
    bread = (0, 0, 0, 1, 0, 0, 1)
    assert payment([0, 0, 0, 0, 0, 0, 2, 0, 0, 0], bread)[FISCH] == 2
    assert missing([0, 0, 0, 0, 0, 0, 1, 0, 0, 0], bread) == (0, 0, 0, 1, 0, 0, 0, 0, 0, 0)
    # A base hand pays what the cost says.
    assert payment([1, 1, 1, 1, 1], (1, 1, 1, 1, 0)) == (1, 1, 1, 1, 0)


def test_a_settlement_with_fisch_for_getreide() -> None:
    s = kron_game()
    c = settle_at(s, 0, free_crossing(s, s.board.robber_hexes[0]))
    e = next(e for e in s.board.crossing_paths[c] if s.board.path_land[e])
    far = next(x for x in s.board.path_crossings[e] if x != c)
    e2 = next(x for x in s.board.crossing_paths[far] if x != e and s.board.path_land[x])
    end = next(x for x in s.board.path_crossings[e2] if x != far)
    set_hand(s, 0, Holz=3, Lehm=3, Wolle=1, Fisch=1)
    after, events = play(s, s0=TurnOrders(builds=(Road(e), Road(e2), Settlement(end))))
    assert not of(events, OrderFailed) and FishPaid(0, 1) in events
    assert after.hands[0] == [0] * 10
