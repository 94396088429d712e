"""The end mail's "how the points add up": every seat's parts add up to its final points, in
the base game, Seafarers and Kronlande."""

from __future__ import annotations

import re

import pytest

from pbm.reports.report_data import scored
from pbm.rules import Settings
from pbm.rules.sim import play_game
from pbm.rules.state import GameState


def _final(settings: Settings, seed: int) -> GameState:
    *_, (state, _) = play_game(settings, seed, "autopilot")
    assert state.winner >= 0
    return state


@pytest.mark.parametrize(
    "settings",
    [
        Settings.for_players(4),
        Settings.for_scenario("neue-ufer", 4),
        Settings.for_players(4, kronlande=True, size="large"),  # type: ignore[arg-type]
    ],
    ids=["base", "seafarers", "kronlande"],
)
def test_the_parts_add_up_to_the_final_points(settings: Settings) -> None:
    state = _final(settings, 3)
    for p in range(len(state.colours)):
        said = scored(state, p, "en")
        # Each part's points: the figure in brackets, else a count (a card or a settlement
        # is one point each; "N for …" / "N more" are points).
        points = sum(int(b) for b in re.findall(r"\((\d+)\)", said))
        points += sum(
            int(n)
            for n in re.findall(r"(\d+) (?:settlements?|victory point cards?|for |more)", said)
        )
        assert points == state.vp(p), (said, state.vp(p))


@pytest.mark.parametrize("seed", [3, 13])
def test_a_kronlande_castle_is_no_city_in_the_breakdown(seed: int) -> None:
    """A Burg stands on a city: it was counted among the cities ("2 cities" for a city and a
    Burg), its own points hidden in "for castles, residences and titles"."""
    state = _final(Settings.for_players(4, kronlande=True, size="large"), seed)  # type: ignore[arg-type]
    kron = state.kron
    assert kron is not None
    assert any(kron.burgen) or any(kron.residenzen), "no castle in this game: pick a seed"
    for p in range(len(state.colours)):
        said = scored(state, p, "en")
        plain = len(state.cities[p]) - kron.burgen[p] - kron.residenzen[p]
        assert re.search(rf"\b{plain} cit(y|ies) \({2 * plain}\)", said), said
        if kron.burgen[p]:
            assert re.search(rf"\b{kron.burgen[p]} castles? \({3 * kron.burgen[p]}\)", said), said
        if kron.residenzen[p]:
            n = kron.residenzen[p]
            assert re.search(rf"\b{n} residences? \({5 * n}\)", said), said
        if kron.builder == p:
            assert "Master builder (2)" in said
