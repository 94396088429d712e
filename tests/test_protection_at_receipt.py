"""Newcomer protection at receipt: a robber order (or a knight's) for a hex where only a
protected newcomer could be robbed is refused when the mail comes in, with the rule, as the
robber's own hex is: visible points do not change before the round's rolls (but by a knight
played before a roll), and the player sees them. QA: `Bandit E6 (11H), raube grün` was
accepted, then replaced at the 7 by the NMR rule, which put the robber on the player's own
hex. A hex with an opponent who is not protected is kept."""

from __future__ import annotations

import pytest
from helpers import game, settle

from pbm.notation import Context, parse_mail
from pbm.notation.checks import check_receipt
from pbm.notation.format import format_item
from pbm.rules.orders import Knight, RobberOrder, Timing
from pbm.rules.state import GameState


def _hex(s: GameState, skip: set[int]) -> int:
    return next(
        h.id
        for h in s.board.hexes
        if h.is_land and h.number is not None and h.id != s.robber and h.id not in skip
    )


def _table() -> tuple[GameState, int, int]:
    """Seat 1 a newcomer (1 point) on one hex; seat 2 with 3 points on another."""
    s = game(newcomer_protection=True)
    newcomer = _hex(s, set())
    settle(s, 1, s.board.crossing_label(s.board.hex_crossings[newcomer][0]))
    other = next(
        h
        for h in range(len(s.board.hexes))
        if h != newcomer
        and s.board.hexes[h].number is not None
        and h != s.robber
        and not set(s.board.hex_crossings[h]) & set(s.board.hex_crossings[newcomer])
    )
    for c in s.board.hex_crossings[other][:1]:
        settle(s, 2, s.board.crossing_label(c), city=True)
    settle(s, 2, s.board.crossing_label(s.board.hex_crossings[other][3]))
    assert s.visible_vp(1) <= 2 < s.visible_vp(2)
    return s, newcomer, other


def _checked(s: GameState, line: str, lang: str) -> list[str | None]:
    """Each line's refusal at receipt, in the game's language (None: kept)."""
    parsed = parse_mail(line + "\n", Context(s.board, lang, s.colours, "round"))
    check_receipt(parsed, s, 0, lang)
    return [r.error.localized(lang) if r.error is not None else None for r in parsed.lines]


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_a_robber_order_on_a_newcomers_hex_is_refused_at_receipt(lang: str) -> None:
    s, newcomer, other = _table()
    ctx = Context(s.board, lang, s.colours, "round")
    (refused,) = _checked(s, format_item(RobberOrder(newcomer, ()), ctx), lang)
    assert refused is not None
    assert {"de": "Neuling", "en": "newcomer", "da": "nybegynder"}[lang] in refused
    assert _checked(s, format_item(RobberOrder(other, ()), ctx), lang) == [None]


def test_a_knights_robber_on_a_newcomers_hex_is_refused_too() -> None:
    s, newcomer, _ = _table()
    s.cards[0].append(("K", 0))
    ctx = Context(s.board, "en", s.colours, "round")
    knight = format_item(Knight(Timing.AFTER_ROLL, RobberOrder(newcomer, ())), ctx)
    assert _checked(s, knight, "en") != [None]
