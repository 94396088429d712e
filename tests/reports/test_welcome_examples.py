"""The welcome mail's examples are real orders on the game's own board, and show what the
game adds: a ship in Seafarers, a workshop, a good and a Burg in Kronlande."""

from __future__ import annotations

import pytest

from pbm.notation import Context, parse_line
from pbm.reports.welcome import examples
from pbm.rules.kron import BAECKEREI
from pbm.rules.orders import BuyCard, Castle, Make, RobberOrder, Ship, Workshop
from pbm.rules.resources import BROT
from pbm.rules.state import Settings, new_game


def _read(settings: Settings, lang: str) -> list[type]:
    state = new_game(settings, 3)
    ctx = Context(state.board, lang, state.colours, "round")
    lines = examples(state, lang)
    return [type(parse_line(line, ctx)) for line in lines[1:]]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_base_examples(lang: str) -> None:
    assert _read(Settings.for_players(4), lang) == [RobberOrder, BuyCard]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_seafarers_examples_show_a_ship(lang: str) -> None:
    assert _read(Settings.for_scenario("wueste", 4), lang) == [RobberOrder, BuyCard, Ship]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", ["large", "huge"])
def test_kronlande_examples_show_a_workshop_a_good_and_a_castle(lang: str, size: str) -> None:
    state = new_game(Settings.for_kronlande(4, size), 3)
    ctx = Context(state.board, lang, state.colours, "round")
    workshop, make, castle = (parse_line(line, ctx) for line in examples(state, lang)[-3:])
    assert isinstance(workshop, Workshop) and workshop.kind == BAECKEREI
    assert make == Make(BROT, 1)
    assert castle == Castle(workshop.crossing)


@pytest.mark.parametrize("scenario", ["neue-welt", "neue-ufer", "vier-inseln", "wueste"])
def test_the_ship_example_is_never_beside_the_pirate(scenario: str) -> None:
    """New World's welcome showed `Schiff A1 B2`, refused when copied ("the pirate stands next
    to this side")."""
    for seed in range(1, 31):
        state = new_game(Settings.for_scenario(scenario, 4), seed)
        assert state.sea is not None
        ctx = Context(state.board, "de", state.colours, "round")
        ship = parse_line(examples(state, "de")[-1], ctx)
        assert isinstance(ship, Ship)
        assert state.sea.pirate not in state.board.path_hexes[ship.path], (scenario, seed)
