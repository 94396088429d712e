"""Checks at receipt refuse only what fails in every outcome the player's own lines can produce
(issue 14): a line that needs the second option of an `oder` line, or a substitute that works
only when some main lines were built and others failed, is kept for the resolution; the robber's
own hex is refused at once, with the fix."""

from __future__ import annotations

import pytest
from helpers import game, road, settle

from pbm.notation import IllegalOrderError
from pbm.notation.checks import check_receipt
from pbm.notation.mail import LineResult, ParsedMail
from pbm.rules.layouts import KNIGHT
from pbm.rules.orders import Alternatives, Knight, Road, RobberOrder, Settlement, Timing
from pbm.rules.reasons import Reason
from pbm.rules.state import GameState


def _mail(*items: object, substitutes: tuple[object, ...] = ()) -> ParsedMail:
    lines = [LineResult(i + 1, f"line {i + 1}", item=it) for i, it in enumerate(items)]
    n = len(lines)
    lines += [
        LineResult(n + i + 1, f"sub {i + 1}", item=it, substitute=True)
        for i, it in enumerate(substitutes)
    ]
    return ParsedMail(lines=lines)  # type: ignore[arg-type]


def _refused(parsed: ParsedMail) -> list[Reason | None]:
    return [r.error.rule if isinstance(r.error, IllegalOrderError) else None for r in parsed.lines]


def _path(s: GameState, a: int, b: int) -> int:
    [e] = [e for e in s.board.crossing_paths[a] if b in s.board.path_crossings[e]]
    return e


def _chain(s: GameState, start: int, length: int, avoid: set[int]) -> list[int] | None:
    """Crossings start, c1, …: a walk over land paths, no crossing next to `avoid`."""
    b = s.board
    walk = [start]
    while len(walk) <= length:
        here = walk[-1]
        nxt = [
            c
            for c in b.crossing_neighbors[here]
            if c not in walk
            and b.path_land[_path(s, here, c)]
            and b.crossing_land[c]
            and not (set(b.crossing_neighbors[c]) & avoid)
            and c not in avoid
        ]
        if not nxt:
            return None
        walk.append(min(nxt))
    return walk


def test_a_line_that_needs_the_second_option_of_an_oder_line_is_kept() -> None:
    """`Straße A oder Straße B`, then a road that continues B: the first workable option is A,
    but B is built when A cannot be (say the cards run out for A's… or a player took A)."""
    s = game()
    c0 = s.board.crossing_by_labels(["C3", "C4", "D4"])
    settle(s, 0, "C3 C4 D4")
    out = [c for c in s.board.crossing_neighbors[c0] if s.board.path_land[_path(s, c0, c)]]
    a, b = out[0], out[1]
    beyond = next(
        c for c in s.board.crossing_neighbors[b] if c != c0 and s.board.path_land[_path(s, b, c)]
    )
    parsed = _mail(
        Alternatives((Road(_path(s, c0, a)), Road(_path(s, c0, b)))),
        Road(_path(s, b, beyond)),
    )
    check_receipt(parsed, s, 0)
    assert _refused(parsed) == [None, None]
    # A road touching nothing the mail could build is refused, as before.
    far = _mail(Road(_path(s, *_far_pair(s, c0))))
    check_receipt(far, s, 0)
    assert _refused(far) == [Reason.NOT_CONNECTED]


def _far_pair(s: GameState, c0: int) -> tuple[int, int]:
    b = s.board
    for e, (u, v) in enumerate(b.path_crossings):
        if b.path_land[e] and min(abs(u - c0), abs(v - c0)) > 20:
            return u, v
    raise AssertionError


def test_a_substitute_that_works_only_after_some_main_lines_is_kept() -> None:
    """Main: road to x, road on to z, settlement z. Substitute: settlement x. With every main
    line built, x is next to z (distance rule); with none, no road reaches x. But if the roads
    are built and the settlement z fails (its cards), x can be built: the line stays."""
    s = game()
    for start in range(len(s.board.crossing_hexes)):
        walk = _chain(s, start, 3, set())
        if walk is not None:
            break
    assert walk is not None
    c0, c1, x, z = walk
    settle(s, 0, s.board.crossing_label(c0))
    road(s, 0, " ".join(h for h in _path_labels(s, c0, c1)))
    parsed = _mail(
        Road(_path(s, c1, x)),
        Road(_path(s, x, z)),
        Settlement(z),
        substitutes=(Settlement(x),),
    )
    check_receipt(parsed, s, 0)
    assert _refused(parsed) == [None, None, None, None]
    # Without the first road nothing leads to x: then the substitute is refused.
    alone = _mail(Settlement(z), substitutes=(Settlement(x),))
    check_receipt(alone, s, 0)
    assert _refused(alone) == [Reason.SETTLEMENT_NOT_CONNECTED, Reason.SETTLEMENT_NOT_CONNECTED]


def _path_labels(s: GameState, a: int, b: int) -> list[str]:
    e = _path(s, a, b)
    return [s.board.hexes[h].label for h in s.board.path_hexes[e]]


def test_the_robbers_own_hex_is_refused_at_receipt_with_the_fix() -> None:
    s = game()
    s.cards[0].append((KNIGHT, 0))
    here = s.robber
    parsed = _mail(RobberOrder(here), Knight(Timing.AFTER_ROLL, RobberOrder(here)))
    check_receipt(parsed, s, 0, "de")
    assert _refused(parsed) == [Reason.ROBBER_MUST_MOVE, Reason.ROBBER_MUST_MOVE]
    error = parsed.lines[0].error
    assert error is not None and "nenne ein anderes Feld" in error.localized("de")


def test_beyond_the_positions_followed_only_fixed_reasons_refuse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A mail of very many builds: past `MAX_POSITIONS` positions a line is refused only for
    what no line of the player's can change (a place taken), never for a missing road."""
    import pbm.notation.checks as checks

    assert checks.MAX_POSITIONS >= 64
    monkeypatch.setattr(checks, "MAX_POSITIONS", 4)
    s = game()
    settle(s, 0, "C3 C4 D4")
    settle(s, 1, "A1 B1 B2")
    c0 = s.board.crossing_by_labels(["C3", "C4", "D4"])
    roads = [Road(e) for e in s.board.crossing_paths[c0] if s.board.path_land[e]]
    assert len(roads) == 3  # 2, 4, 8 positions
    taken = s.board.crossing_by_labels(["A1", "B1", "B2"])
    far_road = _path(s, *_far_pair(s, c0))
    parsed = _mail(*roads, Settlement(taken), Road(far_road))
    check_receipt(parsed, s, 0)
    assert _refused(parsed) == [None, None, None, Reason.OCCUPIED, None]
    monkeypatch.undo()
    check_receipt(again := _mail(*roads, Settlement(taken), Road(far_road)), s, 0)
    assert _refused(again) == [None, None, None, Reason.OCCUPIED, Reason.NOT_CONNECTED]


def test_a_mail_of_hundreds_of_builds_costs_a_bounded_number_of_checks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past `MAX_CHECKS` line-by-position checks the rest of the mail is checked in the first
    position only (fixed reasons): 300 road lines cost about as much as a few dozen."""
    import pbm.notation.checks as checks
    from pbm.rules.legal import LegalMoves

    s = game()
    settle(s, 0, "C3 C4 D4")
    c0 = s.board.crossing_by_labels(["C3", "C4", "D4"])
    near = {e for c in s.board.crossing_neighbors[c0] for e in s.board.crossing_paths[c]}
    roads = [
        Road(e) for e in sorted(near | set(s.board.crossing_paths[c0])) if s.board.path_land[e]
    ]
    calls = 0
    real = LegalMoves.certain_problem

    def counted(self: LegalMoves, item: object) -> Reason | None:
        nonlocal calls
        calls += 1
        return real(self, item)

    monkeypatch.setattr(LegalMoves, "certain_problem", counted)
    parsed = _mail(*(roads * 40)[:300])
    check_receipt(parsed, s, 0)
    assert calls < 2 * checks.MAX_CHECKS + 2 * 300
    # Every road is kept from its second writing on: the first one built it somewhere.
    assert all(r.item is not None for r in parsed.lines[len(roads) :])
