"""Events as lines of plain text, in the game's language (its message catalogue). Public events
only: a card bought shows as its number (the codebook code comes with the reports of issue 6),
never its type."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

from pbm.i18n import N_, translator
from pbm.notation import Context, vocab
from pbm.notation.format import format_item
from pbm.notation.names import (
    crossing_text,
    hex_short_name,
    hex_text,
    path_text,
)
from pbm.rules import events as ev
from pbm.rules import orders as o
from pbm.rules.board import Board
from pbm.rules.layouts import KNIGHT
from pbm.rules.reasons import Reason, specific
from pbm.rules.resources import KRON_WIDTH, N_RESOURCES, Counts
from pbm.rules.state import GameState

#: Why an order failed, as the reports say it: one text for every rule reason
#: (tests/test_rule_reasons.py checks that none is missing).
RULES: dict[Reason, str] = {
    Reason.CANNOT_AFFORD: N_("not enough cards"),
    Reason.OCCUPIED: N_("the place is taken"),
    Reason.DISTANCE_RULE: N_("distance rule"),
    Reason.NOT_CONNECTED: N_("no road or building of yours at either end"),
    Reason.SETTLEMENT_NOT_CONNECTED: N_("no road of yours leads to that crossing"),
    Reason.SETTLEMENT_NOT_REACHED: N_("no road or ship of yours reaches that crossing"),
    Reason.NO_PIECES_LEFT: N_("no pieces left"),
    Reason.NOT_OWN_SETTLEMENT: N_("no settlement of yours"),
    Reason.NOT_LAND: N_("not on land"),
    Reason.ROAD_NOT_AT_SETTLEMENT: N_("the road does not start at the settlement"),
    Reason.ROAD_OCCUPIED: N_("the road's place is taken"),
    Reason.ROAD_NOT_ON_LAND: N_("the road is not on land"),
    Reason.SHIP_NOT_AT_SETTLEMENT: N_("the ship does not start at the settlement"),
    Reason.SHIP_SIDE_OCCUPIED: N_("the ship's side is taken"),
    Reason.CARD_NOT_HELD: N_("card not held"),
    Reason.CARD_BOUGHT_THIS_ROUND: N_("card bought this round"),
    Reason.ONE_CARD_PER_ROUND: N_("one card per round"),
    Reason.DECK_EMPTY: N_("no cards left"),
    Reason.BANK_EMPTY: N_("the bank has none left"),
    Reason.NO_LEGAL_ROAD: N_("its first piece cannot be placed"),
    Reason.BELOW_HARBOUR_RATE: N_("below the harbour rate"),
    Reason.PIRATE_ON_HARBOUR: N_("the pirate blocks the harbour"),
    Reason.CARDS_NOT_HELD: N_("cards not held"),
    Reason.SAME_RESOURCE: N_("same resource"),
    # A knight after the player's own 7 that names the hex the 7 moved him to reads this.
    Reason.ROBBER_MUST_MOVE: N_("the robber stands there already and must move to another hex"),
    Reason.ROBBER_NOT_ON_NUMBER: N_("the robber goes onto a land hex with a number"),
    Reason.NEWCOMER_PROTECTION: N_("newcomer protection"),
    Reason.NO_ROBBER_ORDER: N_("no robber order"),
    Reason.NOT_CONFIRMED_BY_PARTNER: N_("not confirmed by the partner"),
    Reason.TERMS_DIFFER: N_("the partner offered other terms"),
    Reason.NO_GIFTS: N_("a gift"),
    Reason.LIKE_FOR_LIKE: N_("like for like"),
    Reason.TRADE_WITH_SELF: N_("a trade with yourself"),
    Reason.NO_SUCH_PLAYER: N_("no such player"),
    Reason.NOT_SEA: N_("not on the sea"),
    Reason.NO_SHIPS: N_("ships only in Seafarers scenarios"),
    Reason.SHIP_NOT_CONNECTED: N_(
        "a ship needs a building or ship of yours at one end (a road does not count)"
    ),
    Reason.SHIP_SAME_PLACE: N_("the ship stands there already"),
    Reason.SHIP_HELD_BY_PIRATE: N_("the pirate next to the ship holds it"),
    Reason.UNEXPLORED: N_("in the fog, not discovered yet"),
    Reason.NEXT_TO_PIRATE: N_("that side is next to the pirate"),
    Reason.NO_PIRATE: N_("no pirate in this game"),
    Reason.PIRATE_NOT_ON_SEA: N_("not a sea hex"),
    Reason.PIRATE_MUST_MOVE: N_("the pirate must move"),
    Reason.NOT_OWN_SHIP: N_("no ship of yours"),
    Reason.SHIP_LINE_CLOSED: N_("not the front ship of an open line"),
    Reason.SHIP_BUILT_THIS_ROUND: N_("ship built or moved this round"),
    Reason.ONE_SHIP_MOVE_PER_ROUND: N_("one ship move per round"),
    Reason.NOT_START_AREA: N_("not on a start island"),
    Reason.SHIP_REQUIRED: N_("a ship, not a road, at this coast"),
    Reason.OTHER_START_ISLAND: N_("not on the island of the first start settlement"),
    Reason.NOT_KRONLANDE: N_("only in a Kronlande game"),
    Reason.NOT_OWN_BUILDING: N_("no building of yours"),
    Reason.WORKSHOP_ON_BUILDING: N_("a workshop stands there already"),
    Reason.WORKSHOP_KIND_HELD: N_("you have this workshop already"),
    Reason.NO_WORKSHOP: N_("no workshop for it"),
    Reason.NOT_A_GOOD: N_("not a good"),
    Reason.NOT_OWN_CITY: N_("no city of yours"),
    Reason.NOT_OWN_CASTLE: N_("no castle of yours"),
    Reason.ROBBER_NEXT_TO_CASTLE: N_("next to a castle or residence"),
    Reason.GOODS_NOT_WITH_BANK: N_("goods only between players"),
}

#: Rules only a card play can break; with the "knight"/"monopoly" lines they name a card.
_CARD_RULES = frozenset(
    {
        "card_not_held",
        "card_bought_this_round",
        "one_card_per_round",
        "no_legal_road",
        "bank_empty",
        "robber_must_move",
        "robber_not_on_number",
        "newcomer_protection",
    }
)

#: Rules of the robber's hex: a failed knight says which hex it named.
_ROBBER_RULES = frozenset(
    {
        "robber_must_move",
        "robber_not_on_number",
        "newcomer_protection",
        "pirate_must_move",
        "pirate_not_on_sea",
    }
)

#: `OrderFailed.line` of a build line: "build 2", "substitute 1 option 2".
_BUILD_LINE = re.compile(r"(build|substitute) (\d+)(?: option (\d+))?")


def _card_play(e: ev.OrderFailed) -> bool:
    return e.line in ("knight", "monopoly") or (e.line != "robber" and e.rule in _CARD_RULES)


def player_label(colour: str, name: str) -> str:
    """A player as reports name them: "gelb (Carol)", or the colour alone without a name."""
    return f"{colour} ({name})" if name else colour


def rule_text(rule: str, lang: str) -> str:
    try:
        text = RULES[Reason(rule)]
    except (ValueError, KeyError):  # a reason stored by a newer or older pbm
        return rule.replace("_", " ")
    return translator(lang).gettext(text)


def title_name(title: str, lang: str) -> str:
    """The name of a title ("longest_road", "largest_army") in a game language."""
    tr = translator(lang)
    names = {
        "longest_road": tr.pgettext("title", "Longest road"),
        "largest_army": tr.pgettext("title", "Largest army"),
        # Kronlande: the most Burgen and Residenzen.
        "builder": tr.pgettext("title", "Master builder"),
    }
    return names.get(title, title)


def line_text(line: str, lang: str) -> str:
    """Where in a player's orders an order failed (`OrderFailed.line`), in a game language."""
    tr = translator(lang)
    m = _BUILD_LINE.fullmatch(line)
    if m is None:
        # A card's line ("knight", "monopoly") is never shown: see `_card_play`.
        # Translators: the player's robber order, in "{player}: {line} not carried out".
        return tr.pgettext("order line", "robber") if line == "robber" else line
    block, n, option = m.groups()
    if block == "build":
        if option is None:
            return tr.gettext("build {n}").format(n=n)
        return tr.gettext("build {n} option {option}").format(n=n, option=option)
    if option is None:
        return tr.gettext("substitute {n}").format(n=n)
    return tr.gettext("substitute {n} option {option}").format(n=n, option=option)


def _hex(board: Board, h: int, lang: str) -> str:
    """Label and token, always (a report names, it does not have to resolve)."""
    short = hex_short_name(board, h, lang)
    label = board.hexes[h].label
    return label if short == label else f"{label} ({short})"


def _counts(c: Counts, lang: str) -> str:
    """`2H 1E`, of any width (a Kronlande event's counts have ten entries)."""
    return " ".join(f"{n}{vocab.letter(r, lang)}" for r, n in enumerate(c) if n) or "-"


class Teller:
    """What every event's line needs: the state, the language and the players' names, with
    the ways a line names a player, cards, a hex. `who`: the colour alone (the mechanical
    lines: rolls, production, titles); `actor`: "gelb (Carol)" for the players who act."""

    __slots__ = ("_", "board", "lang", "names", "ngettext", "state")

    def __init__(self, state: GameState, lang: str, names: Mapping[int, str] | None) -> None:
        tr = translator(lang)
        self._ = tr.gettext
        self.ngettext = tr.ngettext
        self.state = state
        self.board = state.board
        self.lang = lang
        self.names = names

    def who(self, p: int) -> str:
        # A seat the game does not have (a trade with no such player, `no_such_player`) is
        # nobody, as no seat is: never an error that would stop the report.
        state = self.state
        if 0 <= p < len(state.colours):
            return vocab.colour_name(state.colours[p], self.lang)
        return self._("nobody")

    def actor(self, p: int) -> str:
        names = self.names
        return player_label(self.who(p), names.get(p, "")) if names and p >= 0 else self.who(p)

    def res(self, n: int, r: int) -> str:
        return f"{n}{vocab.letter(r, self.lang)}"

    def hex(self, h: int) -> str:
        return _hex(self.board, h, self.lang)

    def counts(self, c: Counts) -> str:
        return _counts(c, self.lang)


#: A refinement tells a base event the way an expansion needs (a gold river's production, a
#: setup ship, the robber a castle sends away); None leaves it to the base line. By event
#: class, tried in registration order before `event_line`.
Refinement = Callable[[Any, Teller], str | None]
_REFINEMENTS: dict[type[ev.Event], list[Refinement]] = {}

#: Pieces of `Built` and the line that tells each: (text, how the place is named). The
#: expansions add theirs (`describe_sea`: the ship; `describe_kron`: workshops and castles).
PIECE_LINES: dict[str, tuple[str, Callable[[Board, int, str], str]]] = {
    "road": (N_("{player} builds a road at {path}"), path_text),
    "settlement": (N_("{player} builds a settlement at {crossing}"), crossing_text),
    "city": (N_("{player} builds a city at {crossing}"), crossing_text),
}

#: Events the log tells right after the event that follows them (`in_log_order`).
TOLD_AFTER_NEXT: set[type[ev.Event]] = set()

#: The events that carry out a seat's own orders, by class: which seat gave the order (None
#: for an event of the class that no order made). A report marks the lines of those the
#: autopilot's orders made (`ordered_by`, `report_data.report_log`); the expansions add theirs.
ORDERED_BY: dict[type[ev.Event], Callable[[Any], int | None]] = {
    ev.Built: lambda e: e.player,
    ev.MaritimeTraded: lambda e: e.player,
    ev.CardBought: lambda e: e.player,
    ev.CardPlayed: lambda e: e.player,
    # A 7's robber order or a knight's; not the NMR rule's robber, nor one a castle sends away.
    ev.RobberMoved: lambda e: e.player if e.cause in ("seven", "knight") else None,
}


def ordered_by(e: ev.Event) -> int | None:
    """The seat whose orders made the event (a build, a trade with the bank, a card bought or
    played, the robber moved), or None: a roll, production, a title, a rule's doing."""
    seat = ORDERED_BY.get(type(e))
    return seat(e) if seat is not None else None


def refines(cls: type[ev.Event]) -> Callable[[Refinement], Refinement]:
    """Register a refinement of the base line of events of class `cls`."""

    def register(fn: Refinement) -> Refinement:
        _REFINEMENTS.setdefault(cls, []).append(fn)
        return fn

    return register


@functools.singledispatch
def event_line(e: ev.Event, t: Teller) -> str | None:
    """The line of one event; a module that adds events registers a line for each
    (`@event_line.register`). An event of no registered class needs no line of its own."""
    return None


def describe(
    e: ev.Event, state: GameState, lang: str = "de", names: Mapping[int, str] | None = None
) -> str | None:
    """One line for an event, or None for events that need no line of their own. `names`
    (by seat, as the game shows them): the players who act (build, trade, move the robber,
    steal or are stolen from, play or buy a card, fail an order, win) are named "gelb (Carol)";
    the mechanical lines (rolls, production, titles) keep the colour alone, so that the
    report stays short."""
    t = Teller(state, lang, names)
    for refine in _REFINEMENTS.get(type(e), ()):
        line = refine(e, t)
        if line is not None:
            return line
    return event_line(e, t)


@event_line.register
def _(e: ev.RoundStarted, t: Teller) -> str:
    order = ", ".join(t.who(p) for p in e.build_order)
    return t._("Round {round}, order: {order}").format(round=e.round, order=order)


@event_line.register
def _(e: ev.Rolled, t: Teller) -> str:
    return t._("Roll for {player}: {die1}+{die2} = {total}").format(
        player=t.who(e.player), die1=e.die1, die2=e.die2, total=e.total
    )


@event_line.register
def _(e: ev.Produced, t: Teller) -> str:
    return t._("  {player} gets {cards} from {hex}").format(
        player=t.who(e.player), cards=t.res(e.amount, e.resource), hex=t.hex(e.hex)
    )


@event_line.register
def _(e: ev.ProductionBlocked, t: Teller) -> str:
    return t._("  {hex} is held by the robber").format(hex=t.hex(e.hex))


@event_line.register
def _(e: ev.BankShort, t: Teller) -> str:
    cards, letter = t.res(e.available, e.resource), vocab.letter(e.resource, t.lang)
    if e.paid_to < 0:
        # Owed to several: the shortage rule pays none of them.
        return t._(
            "  The bank has only {cards} left, and several players are owed {owed} together: "
            "nobody gets any"
        ).format(cards=cards, owed=e.owed)
    if e.available == 0:
        return t._("  The bank has no {resource} left for {owed}: {player} gets none").format(
            resource=letter, owed=e.owed, player=t.who(e.paid_to)
        )
    return t._("  The bank has only {cards} for {owed}: {player} gets what is left").format(
        cards=cards, owed=e.owed, player=t.who(e.paid_to)
    )


@event_line.register
def _(e: ev.Discarded, t: Teller) -> str:
    return t._("  {player} discards {cards}").format(
        player=t.who(e.player), cards=t.counts(e.cards)
    )


@event_line.register
def _(e: ev.RobberMoved, t: Teller) -> str:
    if e.cause == "nmr":
        # Not the player's choice: the NMR robber rule's dice put it there.
        return t._("  the dice put the robber on {hex} for {player}").format(
            player=t.actor(e.player), hex=t.hex(e.hex)
        )
    return t._("  {player} moves the robber to {hex}").format(
        player=t.actor(e.player), hex=t.hex(e.hex)
    )


@event_line.register
def _(e: ev.Stole, t: Teller) -> str:
    return t._("  {thief} steals {card} from {victim}").format(
        thief=t.actor(e.thief), card=t.res(1, e.resource), victim=t.actor(e.victim)
    )


@event_line.register
def _(e: ev.NothingToSteal, t: Teller) -> str:
    return t._("  nothing to steal")


@event_line.register
def _(e: ev.NmrRobberRoll, t: Teller) -> str:
    # The NMR robber rule rolls again on a 7 or a number no settled hex has.
    total = e.die1 + e.die2
    line = t._("  roll for the robber's hex: {total}").format(total=total)
    if not e.why:  # the roll that counts, or one of a game of older rules
        return line
    # Translators: an NMR robber roll that is rolled again, and why ("  roll for the
    # robber's hex: 5 — rolled again: the robber stands on C3 (5W) already").
    return t._("{line} — rolled again: {why}").format(line=line, why=_rerolled(e, t, total))


def _rerolled(e: ev.NmrRobberRoll, t: Teller, total: int) -> str:
    """Why an NMR robber roll is rolled again (`NmrRobberRoll.why`): what keeps the robber
    off the hexes with the number, the hexes of one reason together."""
    if e.why[0] in ("seven", "no_hex"):
        return t._("no hex has a {total}").format(total=total)
    board = t.board
    numbered = [h for h in board.producing_hexes if board.hexes[h].number == total]
    by_reason: dict[str, list[str]] = {}
    for h, why in zip(numbered, e.why, strict=False):
        by_reason.setdefault(why, []).append(t.hex(h))
    parts = []
    for why, names in by_reason.items():
        hexes = ", ".join(names)
        if why == "robber_must_move":
            parts.append(t._("the robber stands on {hex} already").format(hex=hexes))
        elif why == "unsettled":
            parts.append(t._("no building touches {hexes}").format(hexes=hexes))
        elif why == "own":
            text = t._("only {player}'s own buildings touch {hexes}")
            parts.append(text.format(player=t.who(e.player), hexes=hexes))
        else:
            parts.append(t._("{hexes}: {rule}").format(hexes=hexes, rule=rule_text(why, t.lang)))
    return "; ".join(parts)


@event_line.register
def _(e: ev.TradeDone, t: Teller) -> str:
    return t._("Trade {first} ↔ {second}: {gives} for {gets}").format(
        first=t.actor(e.first),
        second=t.actor(e.second),
        gives=t.counts(e.first_gives),
        gets=t.counts(e.second_gives),
    )


@event_line.register
def _(e: ev.TradeFailed, t: Teller) -> str:
    return t._("Trade {player} → {partner} failed ({reason})").format(
        player=t.actor(e.player), partner=t.actor(e.partner), reason=rule_text(e.reason, t.lang)
    )


@event_line.register
def _(e: ev.MaritimeTraded, t: Teller) -> str:
    return t._("{player}: maritime {gives} for {gets}").format(
        player=t.actor(e.player),
        gives=t.res(e.give_count, e.give),
        gets=t.res(e.get_count, e.get),
    )


@event_line.register
def _(e: ev.Built, t: Teller) -> str:
    # A piece no module registered reads as a city, as it always has.
    text, place = PIECE_LINES.get(e.piece, PIECE_LINES["city"])
    where = place(t.board, e.where, t.lang)
    return t._(text).format(player=t.actor(e.player), path=where, crossing=where)


@event_line.register
def _(e: ev.OrderFailed, t: Teller) -> str:
    if e.action or e.rule == Reason.NO_ROBBER_ORDER:
        return failure_text(e, t.state, t.lang, t.names)
    if _card_play(e):
        # Which card failed (and why) would reveal a hidden card: the public line says less.
        return t._("{player}: a card could not be played").format(player=t.actor(e.player))
    return t._("{player}: {line} not carried out ({reason})").format(
        player=t.actor(e.player), line=line_text(e.line, t.lang), reason=rule_text(e.rule, t.lang)
    )


@event_line.register
def _(e: ev.CardBought, t: Teller) -> str:
    return t._("{player}: card {number} bought").format(player=t.actor(e.player), number=e.number)


@event_line.register
def _(e: ev.CardPlayed, t: Teller) -> str:
    return t._("{player} plays {card}").format(
        player=t.actor(e.player), card=vocab.card_name(e.card, t.lang)
    )


@event_line.register
def _(e: ev.MonopolyTaken, t: Teller) -> str:
    return t._("  {victim} gives {cards}").format(
        victim=t.who(e.victim), cards=t.res(e.amount, e.resource)
    )


@event_line.register
def _(e: ev.PlentyTaken, t: Teller) -> str:
    return t._("  {player} takes {cards}").format(player=t.who(e.player), cards=t.counts(e.cards))


@event_line.register
def _(e: ev.TitleChanged, t: Teller) -> str:
    return f"{title_name(e.title, t.lang)}: {t.who(e.old)} → {t.who(e.new)}"


@event_line.register
def _(e: ev.NoOrders, t: Teller) -> str:
    # The first word of the rule in a player's mail: say what NMR is and what it leaves.
    return t._("{player}: no orders received (NMR) — production only, no trade or building").format(
        player=t.who(e.player)
    )


@event_line.register
def _(e: ev.GameWon, t: Teller) -> str:
    return t.ngettext(
        "{player} wins with {vp} victory point!",
        "{player} wins with {vp} victory points!",
        e.vp,
    ).format(player=t.actor(e.player), vp=e.vp)


@event_line.register
def _(e: ev.SetupFailed, t: Teller) -> str:
    # The answer to a player whose placements could not be used says why, each by rank.
    return t._("{player}: placement {rank} not possible — {why}").format(
        player=t.actor(e.player), rank=e.rank + 1, why=rule_text(e.reason, t.lang)
    )


@event_line.register
def _(e: ev.SetupPlaced, t: Teller) -> str:
    return t._("{player} places a settlement at {crossing}, road {path}").format(
        player=t.actor(e.player),
        crossing=crossing_text(t.board, e.crossing, t.lang),
        path=path_text(t.board, e.path, t.lang),
    )


def _why(e: ev.OrderFailed, lang: str, rule: str) -> str:
    """Why an order failed: the cards missing for it, else the text of `rule` (the event's,
    or what it means for the order: `order_rule`)."""
    if e.missing and any(e.missing) and len(e.missing) in (N_RESOURCES, KRON_WIDTH):
        cards = _counts(tuple(e.missing), lang)
        return translator(lang).gettext("missing {cards}").format(cards=cards)
    return rule_text(rule, lang)


def order_rule(rule: str, order: object, state: GameState) -> str:
    """The rule as it reads for the order it refused: a game by rules 2 gave one reason for a
    road, a settlement and a ship without a connection alike (and a few more shared ones,
    `reasons.specific`); rules 3 give each its own, and an older event reads as they would."""
    if isinstance(order, o.MoveShip) and rule == Reason.OCCUPIED and order.source == order.target:
        return Reason.SHIP_SAME_PLACE
    piece = ""
    if isinstance(order, o.Settlement):
        piece = "settlement"
    elif isinstance(order, (o.Ship, o.MoveShip)) or (
        isinstance(order, o.RoadBuilding) and order.first_ship
    ):
        piece = "ship"
    elif isinstance(order, o.SetupPlacement):
        piece = "setup_ship" if order.ship else "setup"
    return specific(rule, piece, state.sea is not None)


def failure_text(
    e: ev.OrderFailed, state: GameState, lang: str, names: Mapping[int, str] | None = None
) -> str:
    """What failed and why, from the order the event names (rules 2): `rot: Stadt C3 C4 D4 …
    nicht gebaut — es fehlen 1E`. A card play other than a knight stays unnamed (it would
    reveal a hidden card); a failed knight names the card, the reason and the hex."""
    _ = translator(lang).gettext
    player = player_label(
        vocab.colour_name(state.colours[e.player], lang), (names or {}).get(e.player, "")
    )
    if not e.action:
        # A 7 without a robber order that holds (none sent, or one refused when the mail came,
        # which its answer said): the NMR robber rule moved the robber.
        return _(
            "{player}: no valid robber order — the robber's hex is rolled, the victim drawn by "
            "lot (NMR robber rule)"
        ).format(player=player)
    try:
        order = o.action_from_code(e.action)
    except (ValueError, IndexError):  # an order code of a newer pbm
        return _("{player}: {line} not carried out ({reason})").format(
            player=player, line=line_text(e.line, lang), reason=rule_text(e.rule, lang)
        )
    ctx = Context(state.board, lang, state.colours, "round")
    why = _why(e, lang, order_rule(e.rule, order, state))
    if isinstance(order, o.Knight):
        if e.rule in _ROBBER_RULES:
            why = f"{why}: {hex_text(state.board, order.robber.hex, lang)}"
        return _("{player}: {card} not played — {why}").format(
            player=player, card=vocab.card_name(KNIGHT, lang), why=why
        )
    if isinstance(order, o.RobberOrder) and order.pirate:
        text = _(
            "{player}: pirate order {hex} not valid — {why}; instead the robber's hex is rolled "
            "and the victim drawn by lot (NMR robber rule)"
        )
        return text.format(player=player, hex=hex_text(state.board, order.hex, lang), why=why)
    if isinstance(order, o.RobberOrder):
        text = _(
            "{player}: robber order {hex} not valid — {why}; instead the robber's hex is rolled "
            "and the victim drawn by lot (NMR robber rule)"
        )
        return text.format(player=player, hex=hex_text(state.board, order.hex, lang), why=why)
    if isinstance(
        order,
        (o.Monopoly, o.YearOfPlenty, o.RoadBuilding, o.BuildersHut, o.HarbourPrivilege, o.Feast),
    ):
        return _("{player}: a card could not be played").format(player=player)
    if isinstance(order, (o.Road, o.Settlement, o.City, o.Ship, o.Workshop, o.Castle, o.Residence)):
        text = _("{player}: {order} not built — {why}")
    elif isinstance(order, o.BuyCard):
        return _("{player}: no development card bought — {why}").format(player=player, why=why)
    else:
        text = _("{player}: {order} not carried out — {why}")
    return text.format(player=player, order=format_item(order, ctx), why=why)


def in_log_order(events: list[ev.Event]) -> list[ev.Event]:
    """The events in the order the log tells them: an event of `TOLD_AFTER_NEXT` comes right
    before the event it belongs to and is told right after it, indented under it (Kronlande's
    `FishPaid`: `rot baut Siedlung …` / `  rot zahlt 1F für fehlendes Getreide`)."""
    out = list(events)
    i = 0
    while i < len(out) - 1:
        first, second = type(out[i]), type(out[i + 1])
        if first in TOLD_AFTER_NEXT and second is not first:
            out[i], out[i + 1] = out[i + 1], out[i]
            i += 1  # past the moved event, now after the one it belongs to
        i += 1
    return out


def describe_all(
    events: list[ev.Event],
    state: GameState,
    lang: str = "de",
    names: Mapping[int, str] | None = None,
) -> list[str]:
    return [
        line for e in in_log_order(events) if (line := describe(e, state, lang, names)) is not None
    ]


# The expansions' lines register themselves; importing them here, last, means whoever imports
# this module has every line (never a matter of what else was imported before).
from . import describe_kron, describe_sea  # noqa: E402, F401
