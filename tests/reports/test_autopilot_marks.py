"""The round report marks what the autopilot's orders did for a seat it played (`report_log`'s
`quiet` seats): each such line, and no other, ends in "(autopilot)", in every language, in the
base game and the expansions (`describe.ORDERED_BY`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pbm.reports.describe import ordered_by
from pbm.reports.report_data import report_log
from pbm.rules import events as ev
from pbm.rules.kron_events import GoodsMade
from pbm.rules.sea_events import PirateMoved, ShipMoved
from pbm.rules.state import GameState

from . import scenes

MARK = {"de": " (Autopilot)", "en": " (autopilot)", "da": " (autopilot)"}


def _mid() -> tuple[GameState, tuple[ev.Event, ...]]:
    _, after, events = scenes.midgame()
    return after, events


#: Rounds with builds, a bank trade, cards bought and played, the robber and the pirate moved,
#: Kronlande's goods made.
ROUNDS: dict[str, Callable[[], tuple[GameState, tuple[ev.Event, ...]]]] = {
    "base": _mid,
    "sea_pirate": scenes.sea_pirate_round,
    "kron": scenes.kron_round,
}


def _whole(lines: list[str]) -> list[str]:
    """Log entries as one line each (a long one is wrapped within its entry)."""
    return [" ".join(line.split()) for line in lines]


@pytest.mark.parametrize("lang", ["de", "en", "da"])
@pytest.mark.parametrize("name", sorted(ROUNDS))
def test_every_line_of_the_autopilot_s_orders_is_marked_and_no_other(name: str, lang: str) -> None:
    state, events = ROUNDS[name]()
    plain = _whole(report_log(list(events), state, lang, scenes.SECRETS))
    assert not any(line.endswith(MARK[lang]) for line in plain)
    for seat in range(len(state.colours)):
        log = _whole(report_log(list(events), state, lang, scenes.SECRETS, frozenset({seat})))
        marked = [line for line in log if line.endswith(MARK[lang])]
        acted = [e for e in events if ordered_by(e) == seat]
        assert len(marked) == len(acted), (seat, marked, acted)
        # The same lines as the player's own would read, the mark added.
        assert all(line.removesuffix(MARK[lang]) in plain for line in marked), marked


def test_the_rounds_show_what_they_are_meant_to() -> None:
    kinds = {type(e) for make in ROUNDS.values() for e in make()[1] if ordered_by(e) is not None}
    assert {ev.Built, ev.MaritimeTraded, ev.CardBought, ev.CardPlayed, ev.RobberMoved} <= kinds
    assert {PirateMoved, GoodsMade} <= kinds


def test_what_no_order_of_the_seat_did_is_not_the_autopilot_s() -> None:
    """The NMR rule's robber and the one a castle sends away are rules' doings; a ship moved is
    the seat's order (no scene round has one)."""
    assert ordered_by(ev.RobberMoved(1, 5, "nmr")) is None
    assert ordered_by(ev.RobberMoved(1, 5, "castle")) is None
    assert ordered_by(ev.RobberMoved(1, 5, "knight")) == 1
    assert ordered_by(PirateMoved(2, 5, "seven")) == 2
    assert ordered_by(ShipMoved(3, 10, 11)) == 3
    assert ordered_by(ev.Produced(1, 2, 3, 1)) is None
