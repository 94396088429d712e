"""`GameState.vp` counts the visible points and the VP cards itself (the round asks it some 14
times a round): it must always be `visible_vp` plus `vp_cards`, in every kind of game."""

from __future__ import annotations

import pytest

from pbm.rules.sim import play_game
from pbm.rules.state import Settings

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
                cards += state.vp_cards(p)
    assert cards > 0  # VP cards were held on the way, so their count was checked
