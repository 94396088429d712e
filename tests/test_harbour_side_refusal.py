"""A bank trade refused for its rate, from a player whose building stands on a harbour's hex
but off the harbour's side: the refusal says the building does not trade there. QA: a
Danish player's house was echoed `Hus F4 G4 G5 (8T T-Havn Hav)`, the `Søhandel 3T for 1U`
refused with "for you 4:1 holds now", and he asked the GM why, his house standing "at the
T harbour"."""

from __future__ import annotations

import pytest
from helpers import game, settle

from pbm.notation import Context, parse_mail
from pbm.notation.checks import check_receipt
from pbm.notation.format import format_item
from pbm.rules.orders import MaritimeTrade
from pbm.rules.state import GameState

SAID = {
    "de": "aber nicht an seine Seite zu",
    "en": "but not its side toward",
    "da": "men ikke dens side mod",
}


def _refusal(s: GameState, trade: MaritimeTrade, lang: str) -> str:
    ctx = Context(s.board, lang, s.colours, "round")
    parsed = parse_mail(format_item(trade, ctx) + "\n", ctx)
    check_receipt(parsed, s, 0, lang)
    (line,) = parsed.lines
    assert line.error is not None
    return " ".join(line.error.localized(lang).split())


def _off_side() -> tuple[GameState, int, int]:
    """Seat 0's settlement on a crossing of a 2:1 harbour's hex, off its side."""
    s = game()
    b = s.board
    for h, x in enumerate(b.hexes):
        if x.harbor is None or x.harbor.resource is None:
            continue
        for c in b.hex_crossings[h]:
            if b.crossing_harbor[c] is None:
                settle(s, 0, b.crossing_label(c))
                return s, h, x.harbor.resource
    raise AssertionError("no crossing off a harbour's side")


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_a_building_off_the_harbours_side_is_named_in_the_refusal(lang: str) -> None:
    s, h, resource = _off_side()
    said = _refusal(s, MaritimeTrade(resource, 2, (resource + 1) % 5, 1), lang)
    assert SAID[lang] in said
    assert s.board.hexes[h].label in said


def test_without_a_building_at_the_harbour_nothing_is_added() -> None:
    s = game()
    settle(s, 0, "C3 D3 D4")
    said = _refusal(s, MaritimeTrade(0, 2, 1, 1), "en")
    assert SAID["en"] not in said
