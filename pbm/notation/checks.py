"""Checks at receipt: what can already be seen to fail for this player on this board now.

Hands change with the rolls, so cost is never checked here; the engine decides final legality
at resolution. What is checked is what no roll can change: a crossing taken, a road or
settlement touching nothing of the player's, a card the player does not hold, a robber sent to
sea or left where it stands, a trade that breaks the trading rules. A line that fails here gets
an `IllegalOrderError` and is left out of the orders.

A line is refused only when it fails in every outcome the player's own lines can produce
(docs/order-language.md, "Checks at receipt"). At resolution any build line may fail (the cards,
or another player who took the spot first), and of an `oder` line any option may be the one
built; the `Ersatzbau` lines run after any mix of main lines built and failed. So each line is
asked of every position the earlier lines can leave (`LegalMoves.after`, which never changes
the state it is given): it stays if it works in one of them. Beyond `MAX_POSITIONS` positions
(a mail of many builds) the later lines are refused only for what no line of the player's can
change (`FIXED`); so are the lines past `MAX_CHECKS` checks, which bounds the cost of any mail.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pbm.rules.building import settlement_site_rule
from pbm.rules.legal import AFTER_KINDS, LegalMoves
from pbm.rules.orders import (
    Alternatives,
    City,
    Knight,
    MaritimeTrade,
    Road,
    RobberOrder,
    Settlement,
    SetupPlacement,
    Ship,
)
from pbm.rules.reasons import Reason
from pbm.rules.setup import placement_rule, setup_player, setup_sequence
from pbm.rules.state import RULES, GameState, upgraded
from pbm.rules.trade import closed_harbour, harbour_rate

from .context import Context
from .errors import IllegalOrderError, NotationError
from .format import format_item
from .items import LaterPlacement
from .mail import ParsedMail
from .messages import receipt_text
from .results import _BUILD_TYPES, LineResult

#: The most positions followed; a mail of more builds than that is rarely written.
MAX_POSITIONS = 128
#: The most checks of a line in a position (and positions made) for one mail: beyond it, as
#: beyond `MAX_POSITIONS`, only `FIXED` reasons refuse. A mail of a few dozen builds stays
#: well under it; a hostile mail of hundreds of lines costs a bounded, small time.
MAX_CHECKS = 4000

#: Reasons no line of the player's can remove: the player's own builds only add pieces, so a
#: place taken, a neighbour built on, land, a card, a robber hex and the trade rules stay.
FIXED = frozenset(
    {
        Reason.NOT_LAND,
        Reason.OCCUPIED,
        Reason.DISTANCE_RULE,
        Reason.CARD_NOT_HELD,
        Reason.ROBBER_NOT_ON_NUMBER,
        Reason.ROBBER_MUST_MOVE,
        Reason.NO_GIFTS,
        Reason.LIKE_FOR_LIKE,
        Reason.TRADE_WITH_SELF,
        Reason.NO_SUCH_PLAYER,
        Reason.SAME_RESOURCE,
        Reason.NOT_SEA,
    }
)

#: Reasons that name a piece of the player's missing, which an earlier line of the same mail
#: may have built (the ship to move, the settlement to make a city).
BUILT_BY_EARLIER_LINES = frozenset(
    {Reason.NOT_OWN_SHIP, Reason.NOT_OWN_SETTLEMENT, Reason.NO_SHIPS}
)

#: Orders that put pieces on the board: the only ones whose outcome changes later checks (in
#: Kronlande a workshop, a Burg, a Residenz and a Hafenprivileg too: `Herstellen` needs the
#: workshop, a Residenz the Burg, a bank trade at 2:1 the privilege).
_PIECES = AFTER_KINDS


def _illegal(rule: Reason, lang: str = "en") -> IllegalOrderError:
    # The message is in the language the checks run in (`localized` gives any other): the
    # texts are the catalogue's, `messages.RECEIPT`.
    return IllegalOrderError(receipt_text(rule, lang), rule=rule)


def _key(view: LegalMoves) -> tuple[tuple[int, ...], ...]:
    s, p = view.state, view.seat
    key = (tuple(sorted(s.roads[p])), tuple(sorted(s.settlements[p])), tuple(sorted(s.cities[p])))
    if s.sea is not None:
        # Seafarers: the ships too, and whether this round's ship move is made.
        return (*key, tuple(sorted(s.sea.ships[p])), (s.sea.moved[p],))
    if s.kron is not None:
        # Kronlande: the workshops, what each city has become (Burg, Residenz), and the
        # round of a Hafenprivileg played.
        ranks = tuple(s.kron.castle[c] for c in sorted(s.cities[p]))
        return (*key, tuple(s.kron.workshops[p]), ranks, (s.kron.privilege[p],))
    return key


class _Outcomes:
    """The positions the player's own lines can leave so far, each once."""

    def __init__(self, views: list[LegalMoves]) -> None:
        self.views = views
        #: Too many to follow: only `FIXED` reasons refuse from here on.
        self.overflow = False
        #: The checks left before the overflow (`MAX_CHECKS`).
        self.budget = MAX_CHECKS
        #: Positions already made, by the position before and the order built.
        self._after: dict[tuple[tuple[tuple[int, ...], ...], object], LegalMoves] = {}

    def _spend(self, checks: int) -> bool:
        """Count `checks`; False (and from now on the overflow) once the budget is spent."""
        self.budget -= checks
        if self.budget < 0:
            self.overflow = True
        return not self.overflow

    def check(self, actions: Sequence[object]) -> Reason | None:
        """None when one of `actions` (the options of a line) works in some position; else
        the reason the first one fails in the first position, the one before the mail's
        lines. When that reason is a piece missing that an earlier line of the mail puts
        there (`BUILT_BY_EARLIER_LINES`), the reason in the last position, with the most of
        those lines built: "a ship built this round cannot move", not "no ship of yours
        there" under the line that builds it."""
        if self.overflow or not self._spend(len(self.views) * len(actions)):
            # The first position is the one before any line of the mail.
            rules = [self.views[0].certain_problem(a) for a in actions]
            return rules[0] if all(r in FIXED for r in rules) else None
        first: Reason | None = None
        last: Reason | None = None
        for view in self.views:
            said: Reason | None = None
            for a in actions:
                rule = view.certain_problem(a)
                if rule is None:
                    return None
                said = said or rule
            first, last = first or said, said
        return last if first in BUILT_BY_EARLIER_LINES else first

    def why(self, action: object) -> Reason | None:
        """Why one option fails in every position (as `check` says it of a line of one), None
        when it works in one. Past the budget, a reason the first position gives that no line
        of the player's changes (`FIXED`); for a line refused whole, the first position's."""
        return self.check((action,))

    def follow(self, actions: Sequence[object]) -> None:
        """Add the positions after each option that can be built: the line may be built by
        any of them, or fail."""
        if self.overflow or not any(isinstance(a, _PIECES) for a in actions):
            return
        if not self._spend(len(self.views) * len(actions)):
            return
        keys = [_key(v) for v in self.views]
        seen = set(keys)
        grown = list(self.views)
        for key, view in zip(keys, self.views, strict=True):
            for a in actions:
                if isinstance(a, _PIECES) and view.certain_problem(a) is None:
                    after = self._after.get((key, a))
                    if after is None:
                        after = self._after[(key, a)] = view.after(a)
                    new = _key(after)
                    if new not in seen:
                        seen.add(new)
                        grown.append(after)
        if len(grown) > MAX_POSITIONS:
            self.overflow = True
            return
        self.views = grown


def _pirate_moved_by_knight(parsed: ParsedMail, state: GameState, seat: int) -> GameState:
    """The position the builds start from as far as the mail decides it: a knight the player
    holds that moves the pirate runs with the rolls, before every build line, wherever it is
    written, so the harbour he leaves trades again (`Knight after roll: pirate to H9`,
    `Maritime 3O for 1W`). Other players' sevens are not known at receipt."""
    sea = state.sea
    if sea is None:
        return state
    for result in parsed.lines:
        item = result.item
        if not (result.ok and isinstance(item, Knight) and item.robber.pirate):
            continue
        if LegalMoves(state, seat).certain_problem(item) is not None:
            return state
        moved = state.copy()
        assert moved.sea is not None
        moved.sea.pirate = item.robber.hex
        return moved
    return state


def _pirate_blocks(state: GameState, seat: int, resource: int) -> bool:
    """Whether the pirate stands on a harbour of the seat's that would trade `resource` at a
    better rate (Seafarers: that harbour does not trade while he is there)."""
    closed = closed_harbour(state)
    if closed is None or closed.resource not in (None, resource):
        return False
    harbours = state.board.crossing_harbor
    return any(harbours[c] is closed for c in (*state.settlements[seat], *state.cities[seat]))


#: The refusals of a piece with no road of the player's to it.
_UNCONNECTED = (
    Reason.SETTLEMENT_NOT_CONNECTED,
    Reason.SETTLEMENT_NOT_REACHED,
    Reason.NOT_CONNECTED,
    Reason.SHIP_NOT_CONNECTED,
)


def _road_below(
    parsed: ParsedMail, result: LineResult, state: GameState, item: object = None
) -> tuple[int, bool] | None:
    """The number of a later line of the same block with a road (or ship) that touches the
    crossing or path the refused line builds on (`item`, one option of it; by default the
    line's item), and whether it is a ship: the player wrote the build order upside down. None
    when there is no such line."""
    ends: set[int] = set()
    # What may reach it: a road a road, a ship a ship, a building either.
    reach: tuple[type[Road | Ship], ...] = (Road, Ship)
    for options in _lines_of(result.item if item is None else item):
        for option in options:
            if isinstance(option, (Settlement, City)):
                ends.add(option.crossing)
            elif isinstance(option, (Road, Ship)):
                ends.update(state.board.path_crossings[option.path])
                reach = (type(option),)
    for later in parsed.lines:
        if later.line <= result.line or not later.ok or later.substitute != result.substitute:
            continue
        for options in _lines_of(later.item):
            for option in options:
                if isinstance(option, reach) and ends & set(
                    state.board.path_crossings[option.path]
                ):
                    return later.line, isinstance(option, Ship)
    return None


def _beside_a_harbour(state: GameState, seat: int, give: int, rate: int) -> tuple[str, ...]:
    """A building of the seat on a harbour's hex but off its side, where a better harbour for
    `give` lies (its crossing, the harbour's sea hex and the land hex its side faces, as
    labels), or (): the echo of a crossing names the harbour's hex (`T-Havn`) whichever side
    it stands on, and a player took the harbour for theirs (QA)."""
    board = state.board
    for h, x in enumerate(board.hexes):
        harbour = x.harbor
        if harbour is None or harbour.rate >= rate or harbour.resource not in (None, give):
            continue
        for c in board.hex_crossings[h]:
            if state.owner[c] == seat and board.crossing_harbor[c] != harbour:
                land = board.hexes[harbour.faces].label
                return (board.crossing_label(c), x.label, land)
    return ()


def _lines_of(item: object) -> list[tuple[object, ...]]:
    """The build lines an item stands for, each as its options: one line, an `oder` line, or
    several builds written on one line (an item with `actions`)."""
    if isinstance(item, Alternatives):
        return [item.options]
    actions = getattr(item, "actions", None)
    if isinstance(actions, tuple):
        return [lines[0] for a in actions if (lines := _lines_of(a))]
    return [(item,)]


def _newest(state: GameState) -> GameState:
    """The state as the newest rules read it: a game an older pbm started resolves its next
    round by them (`service.rounds.resolve`), and the receipt gives their reasons (rules 3: a
    refusal of its own for a ship, a settlement and a road without a connection)."""
    return state if state.rules >= RULES else upgraded(state)


def check_receipt(parsed: ParsedMail, state: GameState, seat: int, lang: str = "en") -> None:
    """Mark the lines of a parsed mail that fail in every outcome the player's own lines can
    produce (the mail's results change; the state does not). A game an older pbm stored is
    checked by the newest rules, which its next round is resolved by (`rounds.resolve`)."""
    state = _newest(state)
    for result in parsed.lines:
        robber = result.item.robber if isinstance(result.item, Knight) else result.item
        if result.ok and isinstance(robber, RobberOrder) and seat in robber.victims:
            # `Räuber 9H, raube rot` from red: nobody robs themselves, and the colours meant
            # may be others (a priority list with the writer in it is refused whole).
            result.error = NotationError.make("rob_self").at(result.line, result.text)
            result.item = None
    # The robber's and the knight's lines run with the rolls, from the position as it is; the
    # builds from the position the player's own knight leaves.
    start = _pirate_moved_by_knight(parsed, state, seat)
    outcomes = _Outcomes([LegalMoves(start, seat)])
    rolls = outcomes if start is state else _Outcomes([LegalMoves(state, seat)])
    # The main lines in the order written, then the `Ersatzbau` block, which runs after the
    # main lines whichever of them were built.
    for block in (False, True):
        for result in parsed.lines:
            item = result.item
            if not result.ok or item is None or result.substitute != block:
                continue
            lines = _lines_of(item)
            checker = rolls if isinstance(item, (Knight, RobberOrder)) else outcomes
            rules = [checker.check(options) for options in lines]
            if all(rules):
                rule = rules[0]
                assert rule is not None
                error = _illegal(rule, lang)
                later = _road_below(parsed, result, state) if rule in _UNCONNECTED else None
                if isinstance(item, Alternatives):
                    # `Siedlung … oder Schiff …`: why each option fails, by name (it gave the
                    # first one's reason alone), with the road below that would reach it.
                    _each_option(error, result, item, checker, parsed, state, lang)
                elif later is not None:
                    # Built in the order written: the road that would reach it comes after.
                    error.params["road_below"], error.params["ship_below"] = later
                    error.message = error.localized(lang)
                elif rule == Reason.NOT_OWN_SETTLEMENT and _own_city_at(item, state, seat):
                    # `By E3 E4 F3` on the player's own city: "no settlement of yours there"
                    # is true, and reads as if nothing of theirs stood there.
                    error.params["city_there"] = True
                    error.message = error.localized(lang)
                elif rule == Reason.BELOW_HARBOUR_RATE and isinstance(item, MaritimeTrade):
                    # The rate the player has for that resource after the lines above (a
                    # Hafenprivileg played, a Residenz built: the best the positions allow),
                    # and the line it asks for.
                    rate = min(harbour_rate(v.state, seat, item.give) for v in outcomes.views)
                    fixed = replace(item, give_count=rate * max(1, item.get_count))
                    ctx = Context(state.board, lang, state.colours)
                    error.params["bank_rate"] = (
                        rate,
                        format_item(fixed, ctx),
                        all(_pirate_blocks(v.state, seat, item.give) for v in outcomes.views),
                        _beside_a_harbour(state, seat, item.give, rate),
                    )
                    error.message = error.localized(lang)
                elif len(lines) > 1:
                    # Several builds on the line (`Straßen A und B`): why each fails, by name.
                    ctx = Context(state.board, lang, state.colours)
                    error.params["each"] = [
                        (format_item(options[0], ctx), str(why))  # type: ignore[arg-type]
                        for options, why in zip(lines, rules, strict=True)
                    ]
                    error.message = error.localized(lang)
                result.error = error.at(result.line, result.text)
                # A main build that can never be built has failed: the substitutes run.
                result.refused_build = not block and isinstance(item, _BUILD_TYPES)
                result.item = None
                continue
            if isinstance(item, Alternatives):
                _never_built(result, item, checker, state, lang)
            for options, rule in zip(lines, rules, strict=True):
                if rule is None:
                    outcomes.follow(options)
    _no_hint_to_a_refused_line(parsed, lang)


def _no_hint_to_a_refused_line(parsed: ParsedMail, lang: str) -> None:
    """A refusal's hint that a later line's road or ship would reach the piece (`road_below`,
    `each_below`) is dropped when that line is refused too: it touches nothing of the
    player's either, and moved above it would fail all the same."""
    refused = {r.line for r in parsed.lines if not r.ok}
    for result in parsed.lines:
        error = result.error
        if not isinstance(error, IllegalOrderError):
            continue
        params = error.params
        changed = False
        if params.get("road_below") in refused:
            del params["road_below"]
            params.pop("ship_below", None)
            changed = True
        below = params.get("each_below")
        if isinstance(below, list):
            kept = [b for b in below if b[1] not in refused]
            if len(kept) != len(below):
                changed = True
                if kept:
                    params["each_below"] = kept
                else:
                    del params["each_below"]
        if changed:
            error.message = error.localized(lang)


def _each_option(
    error: IllegalOrderError,
    result: LineResult,
    item: Alternatives,
    checker: _Outcomes,
    parsed: ParsedMail,
    state: GameState,
    lang: str,
) -> None:
    """Why each option of a refused line of choices fails (`each`), and for an option touching
    nothing of the player's the later line whose road would reach it (`each_below`: the
    option's index, that line, whether it is a ship)."""
    ctx = Context(state.board, lang, state.colours)
    each: list[tuple[str, str]] = []
    below: list[tuple[int, int, bool]] = []
    for i, option in enumerate(item.options):
        why = checker.why(option) or checker.views[0].certain_problem(option)
        each.append((format_item(option, ctx), str(why)))
        later = _road_below(parsed, result, state, option) if why in _UNCONNECTED else None
        if later is not None:
            below.append((i, *later))
    error.params["each"] = each
    if below:
        error.params["each_below"] = below
    error.message = error.localized(lang)


def _never_built(
    result: LineResult, item: Alternatives, checker: _Outcomes, state: GameState, lang: str
) -> None:
    """The options of a line of choices kept that fail in every position the player's lines
    can leave, while another can be built (`Straße E2 E3 oder Straße D2 E3`, E2 E3 touching
    nothing of the player's): said beside the line, each with its reason, since the line was
    taken without a word of it. The line stays as written: at resolution such an option fails
    and the next is tried, as always."""
    ctx: Context | None = None
    for option in item.options:
        why = checker.why(option)
        if why is None:
            continue
        ctx = ctx or Context(state.board, lang, state.colours)
        result.never_built.append(
            {"option": format_item(option, ctx), "why": receipt_text(why, lang)}
        )


def _own_city_at(item: object, state: GameState, seat: int) -> bool:
    """Whether a city line names a crossing where the seat's own city stands."""
    c = item.crossing if isinstance(item, City) else None
    return c is not None and state.owner[c] == seat and state.level[c] == 2


def check_setup_receipt(parsed: ParsedMail, state: GameState, seat: int, lang: str = "en") -> None:
    """Mark the setup lines none of whose placements can ever be made (the mail's results
    change; the state does not). On the sender's turn every rule is checked; a list sent ahead
    of it is checked for what no later placement can change: a crossing taken or too close to a
    building, a road on a path already built. Pieces are only added in the setup, so what fails
    so now fails at the sender's turn too; the rest of the rules wait for that turn (the start
    island, say, depends on the placements before it)."""
    state = _newest(state)
    on_turn = setup_player(state) == seat
    sea = state.sea
    # Whether the writer's next placement is their second: then a placement labelled so is
    # for the turn now, and checked as one.
    own = [i for i, p in enumerate(setup_sequence(state.settings.players)) if p == seat]
    second_next = any(i < state.setup_step for i in own)

    def rule(pl: SetupPlacement, later: bool = False) -> Reason | None:
        if on_turn and not later:
            return placement_rule(state, pl)
        lasting = settlement_site_rule(state, pl.crossing)
        taken = state.road[pl.path] >= 0 or (sea is not None and sea.ship[pl.path] >= 0)
        if lasting is None and taken:
            return Reason.SHIP_SIDE_OCCUPIED if pl.ship else Reason.ROAD_OCCUPIED
        return lasting

    for result in parsed.lines:
        item = result.item
        if not result.ok or item is None:
            continue
        # A placement for the writer's second turn (`Zweite Siedlung: …`) is checked for what
        # lasts, as a list sent ahead is.
        later = isinstance(item, LaterPlacement)
        if isinstance(item, SetupPlacement):
            options: tuple[SetupPlacement, ...] = (item,)
        elif isinstance(item, tuple) and all(isinstance(o, SetupPlacement) for o in item):
            options = item
        elif isinstance(item, LaterPlacement):
            options = item.placements
        else:
            continue
        rules = [rule(o, later and not second_next) for o in options]
        first = rules[0]
        if first is not None and all(rules):
            error = _illegal(first, lang)
            if first == Reason.SHIP_REQUIRED:
                # The line to copy: the same settlement with a ship on each free sea side.
                error.candidates = _with_ship(state, options[0], lang)
            result.error = error.at(result.line, result.text)
            result.item = None


def _with_ship(state: GameState, placement: SetupPlacement, lang: str) -> list[str]:
    """The placement's settlement with a ship instead of its road, on each side that takes one,
    in canonical form: the lines a refusal at a coast offers to copy."""
    from pbm.rules.sea_setup import setup_pieces

    from .format import format_item
    from .lines import Context

    if state.sea is None:
        return []
    ctx = Context(state.board, lang, state.colours, "setup")
    return [
        format_item(SetupPlacement(placement.crossing, e, True), ctx)
        for e, ship in setup_pieces(state, state.sea, placement.crossing)
        if ship
    ]
