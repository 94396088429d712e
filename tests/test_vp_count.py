"""`GameState.vp` is the one place points are counted (the round asks it some 14 times a round,
so it counts the VP cards itself): in every kind of game it is what the pieces, titles, the
expansions' own points and the cards give, counted here apart, and `visible_vp` plus
`vp_cards`."""

from __future__ import annotations

import pytest

from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Settings


def _counted(state: GameState, p: int) -> int:
    """The points of seed 000 and the expansions, counted from the state's parts."""
    points = len(state.settlements[p]) + 2 * len(state.cities[p]) + state.vp_cards(p)
    points += 2 * (state.longest_road == p) + 2 * (state.largest_army == p)
    if state.sea is not None:
        points += state.sea.special_vp(p)
    if state.kron is not None:
        points += state.kron.extra_vp(p)
    return points


KINDS = [
    Settings.for_players(4),
    Settings.for_players(6, "huge"),
    Settings.for_scenario("neue-ufer", 4),
    Settings.for_scenario("ozeanien", 3),
    Settings.for_kronlande(4),
]


@pytest.mark.parametrize("settings", KINDS, ids=lambda s: s.scenario or s.size or "kron")
def test_vp_is_the_visible_points_and_the_cards(settings: Settings) -> None:
    cards = 0
    for seed in (1, 2):
        for state, _ in play_game(settings, seed, "random"):
            for p in range(settings.players):
                assert state.vp(p) == state.visible_vp(p) + state.vp_cards(p)
                assert state.vp(p) == _counted(state, p)
                cards += state.vp_cards(p)
    assert cards > 0  # VP cards were held on the way, so their count was checked
