"""The autopilot's orders written as a mail read back as the same orders (the demo's bots and
the NMR autopilot both speak the order language)."""

from __future__ import annotations

import pytest

from pbm.notation import Context, parse_mail
from pbm.notation.format import format_setup_orders, format_turn_orders
from pbm.rules import Phase, Settings, autopilot
from pbm.rules.setup import setup_player
from pbm.rules.sim import play_game


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [3, 4, 6])
def test_autopilot_orders_round_trip_through_mail(lang: str, players: int) -> None:
    checked = 0
    for state, _ in play_game(Settings.for_players(players), 3, "autopilot", max_rounds=60):
        if state.phase == Phase.SETUP:
            ctx = Context(state.board, lang, state.colours, "setup")
            orders = autopilot.setup_orders(state, setup_player(state))
            body = "\n".join(format_setup_orders(orders, ctx))
            assert parse_mail(body, ctx).setup_orders() == orders
            checked += 1
        elif state.phase == Phase.ROUNDS:
            ctx = Context(state.board, lang, state.colours, "round")
            for p in range(players):
                orders = autopilot.turn_orders(state, p)
                body = "\n".join(format_turn_orders(orders, ctx))
                parsed = parse_mail(body, ctx)
                assert parsed.ok, [str(r.error) for r in parsed.lines if r.error]
                assert parsed.turn_orders() == orders
                checked += 1
    assert checked > 20
