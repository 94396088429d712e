"""Development cards: buying and playing (one a round, never one bought in the same round)."""

from __future__ import annotations

import random

from .building import pay, place_road, road_rule, update_largest_army
from .events import CardBought, CardPlayed, Event, MonopolyTaken, PlentyTaken
from .gold import GoldChoices
from .layouts import KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY
from .orders import Knight, Monopoly, RoadBuilding, YearOfPlenty
from .pirate import move_thief, thief_rule
from .reasons import SPLIT_RULES, Reason
from .resources import COST_CARD, can_pay
from .state import GameState
from .trade import bank_item_rule


def card_held_rule(state: GameState, p: int, card: str) -> Reason | None:
    """Whether p holds a card of this type bought before this round: what the checks at receipt
    can see (a card bought now waits a round; the card play of a round is decided in it)."""
    rnd = state.round
    for c, r in state.cards[p]:
        if c == card and r < rnd:
            return None
    return Reason.CARD_NOT_HELD


def play_rule(state: GameState, p: int, card: str) -> Reason | None:
    if state.last_card_round[p] == state.round:
        return Reason.ONE_CARD_PER_ROUND
    if card_held_rule(state, p, card) is None:
        return None
    if any(c == card for c, _ in state.cards[p]):
        return Reason.CARD_BOUGHT_THIS_ROUND
    return Reason.CARD_NOT_HELD


def use_card(state: GameState, p: int, card: str, events: list[Event]) -> None:
    """Take the oldest such card out of the hand and mark the round's play."""
    hand = state.cards[p]
    i = min((i for i, (c, _) in enumerate(hand) if c == card), key=lambda i: hand[i][1])
    hand.pop(i)
    state.last_card_round[p] = state.round
    events.append(CardPlayed(p, card))


def buy_rule(state: GameState, p: int, check_cost: bool = True) -> Reason | None:
    if not state.deck:
        return Reason.DECK_EMPTY
    if check_cost and not can_pay(state.hands[p], COST_CARD):
        return Reason.CANNOT_AFFORD
    return None


def buy_card(state: GameState, p: int, events: list[Event]) -> None:
    pay(state, p, COST_CARD, events)
    card = state.deck.pop()
    state.cards[p].append((card, state.round))
    state.cards_bought[p] += 1
    events.append(CardBought(p, card, state.cards_bought[p]))


def knight_rule(state: GameState, p: int, order: Knight) -> Reason | None:
    return play_rule(state, p, KNIGHT) or thief_rule(state, p, order.robber)


def play_knight(
    state: GameState, p: int, order: Knight, rng: random.Random, events: list[Event]
) -> None:
    use_card(state, p, KNIGHT, events)
    state.knights[p] += 1
    move_thief(state, p, order.robber, "knight", rng, events)
    update_largest_army(state, p, events)


def monopoly_rule(state: GameState, p: int, order: Monopoly) -> Reason | None:
    return play_rule(state, p, MONOPOLY) or bank_item_rule(state, order.resource)


def play_monopoly(state: GameState, p: int, order: Monopoly, events: list[Event]) -> None:
    use_card(state, p, MONOPOLY, events)
    r = order.resource
    for q in range(state.settings.players):
        n = state.hands[q][r]
        if q != p and n:
            state.hands[q][r] = 0
            state.hands[p][r] += n
            events.append(MonopolyTaken(p, q, r, n))


def plenty_rule(state: GameState, p: int, order: YearOfPlenty) -> Reason | None:
    rule = play_rule(state, p, YEAR_OF_PLENTY) or bank_item_rule(state, order.first, order.second)
    bank = state.bank
    # A classic bank gives only what it still has (seed 002); with nothing, the card waits.
    if rule is None and bank is not None and bank[order.first] == 0 == bank[order.second]:
        return Reason.BANK_EMPTY
    return rule


def play_plenty(state: GameState, p: int, order: YearOfPlenty, events: list[Event]) -> None:
    use_card(state, p, YEAR_OF_PLENTY, events)
    got = [0] * len(state.hands[p])
    for r in (order.first, order.second):
        if state.bank is None or state.bank[r] > 0:
            got[r] += 1
            state.hands[p][r] += 1
            if state.bank is not None:
                state.bank[r] -= 1
    events.append(PlentyTaken(p, tuple(got)))


def piece_rule(state: GameState, p: int, e: int, ship: bool) -> Reason | None:
    """A free road, or (Seafarers) a free ship, of road building on path e."""
    if not ship:
        return road_rule(state, p, e, check_cost=False)
    if state.sea is None:
        return Reason.NOT_SEA if state.rules < SPLIT_RULES else Reason.NO_SHIPS
    from .ships import ship_rule

    return ship_rule(state, state.sea, p, e, check_cost=False)


def place_piece(state: GameState, p: int, e: int, ship: bool, events: list[Event]) -> None:
    if ship:
        from .ships import place_ship

        assert state.sea is not None
        place_ship(state, state.sea, p, e, events, free=True)
    else:
        place_road(state, p, e, events, free=True)


def road_building_rule(state: GameState, p: int, order: RoadBuilding) -> Reason | None:
    rule = play_rule(state, p, ROAD_BUILDING)
    if rule is None and piece_rule(state, p, order.first, order.first_ship) is not None:
        # The second road may depend on the first, so only the first one is checked here.
        return Reason.NO_LEGAL_ROAD
    return rule


def play_road_building(
    state: GameState,
    p: int,
    order: RoadBuilding,
    events: list[Event],
    gold: GoldChoices | None = None,
) -> list[Reason]:
    """Builds the first road, then the second if it is legal; returns the second's failure.
    Each piece that reaches fog discovers it before the next is checked (Oceania, `fog.py`)."""
    from .fog import discover

    use_card(state, p, ROAD_BUILDING, events)
    place_piece(state, p, order.first, order.first_ship, events)
    discover(state, p, order.first, events, gold)
    if order.second is None:
        return []
    rule = piece_rule(state, p, order.second, order.second_ship)
    if rule is not None:
        return [rule]
    place_piece(state, p, order.second, order.second_ship, events)
    discover(state, p, order.second, events, gold)
    return []
