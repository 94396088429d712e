"""Kronlande's project cards (spec kronlande.md, "Project cards"), played in the build step,
one card a round with the others (`cards.play_rule`):

- Bauhütte: the player takes 1 Werkzeug and 1 Brot from the supply;
- Hafenprivileg: the player's bank and harbour trades at 2:1 for the rest of the round's build
  step (`trade.harbour_rate`);
- Festmahl: the player names a resource or a good; every other player holding it gives one.
"""

from __future__ import annotations

from .cards import card_held_rule, play_rule, use_card
from .events import Event
from .kron_events import FeastGiven, GoodsTaken
from .layouts import BUILDERS_HUT, FEAST, HARBOUR_PRIVILEGE
from .orders import BuildersHut, Feast, HarbourPrivilege
from .reasons import Reason
from .resources import BROT, WERKZEUG
from .state import GameState

ProjectCard = BuildersHut | HarbourPrivilege | Feast

CARD_OF: dict[type, str] = {
    BuildersHut: BUILDERS_HUT,
    HarbourPrivilege: HARBOUR_PRIVILEGE,
    Feast: FEAST,
}


def project_rule(state: GameState, p: int, order: ProjectCard) -> Reason | None:
    """Why the card cannot be played now, or None."""
    if state.kron is None:
        return Reason.NOT_KRONLANDE
    if isinstance(order, Feast) and not 0 <= order.item < len(state.hands[p]):
        return Reason.NOT_A_GOOD
    return play_rule(state, p, CARD_OF[type(order)])


def project_held_rule(state: GameState, p: int, order: ProjectCard) -> Reason | None:
    """The check at receipt: a Kronlande game, and the card bought in an earlier round."""
    if state.kron is None:
        return Reason.NOT_KRONLANDE
    if isinstance(order, Feast) and not 0 <= order.item < len(state.hands[p]):
        return Reason.NOT_A_GOOD
    return card_held_rule(state, p, CARD_OF[type(order)])


def play_project(state: GameState, p: int, order: ProjectCard, events: list[Event]) -> None:
    use_card(state, p, CARD_OF[type(order)], events)
    kron = state.kron
    assert kron is not None
    hand = state.hands[p]
    if isinstance(order, BuildersHut):
        hand[WERKZEUG] += 1
        hand[BROT] += 1
        cards = [0] * len(hand)
        cards[WERKZEUG] = cards[BROT] = 1
        events.append(GoodsTaken(p, tuple(cards)))
    elif isinstance(order, HarbourPrivilege):
        kron.privilege[p] = state.round
    else:
        item = order.item
        for q in range(state.settings.players):
            if q != p and state.hands[q][item] > 0:
                state.hands[q][item] -= 1
                hand[item] += 1
                events.append(FeastGiven(p, q, item))
