"""Events as lines of plain text, in the game's language (its message catalogue). Public events
only: a card bought shows as its number (the codebook code comes with the reports of issue 6),
never its type."""

from __future__ import annotations

import re
from collections.abc import Mapping

from pbm.i18n import N_, translator
from pbm.notation import Context, vocab
from pbm.notation.format import format_item
from pbm.notation.names import (
    crossing_text,
    hex_short_name,
    hex_text,
    path_text,
    ship_path_text,
)
from pbm.rules import events as ev
from pbm.rules import orders as o
from pbm.rules.board import Board, Terrain
from pbm.rules.kron_events import FeastGiven, FishPaid, GoodsMade, GoodsTaken
from pbm.rules.layouts import KNIGHT
from pbm.rules.reasons import Reason, specific
from pbm.rules.resources import FISCH, KRON_WIDTH, LETTERS_DE, Counts
from pbm.rules.scenarios.data import DESERT, GOLD
from pbm.rules.sea_events import (
    HexDiscovered,
    HomeIslands,
    PirateMoved,
    ShipMoved,
    SpecialVP,
    TradeLineGained,
    TradeLineLost,
)
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
    Reason.CARDS_NOT_HELD: N_("cards not held"),
    Reason.SAME_RESOURCE: N_("same resource"),
    Reason.ROBBER_MUST_MOVE: N_("the robber must move"),
    Reason.ROBBER_NOT_ON_NUMBER: N_("the robber goes onto a land hex with a number"),
    Reason.NEWCOMER_PROTECTION: N_("newcomer protection"),
    Reason.NO_ROBBER_ORDER: N_("no robber order"),
    Reason.NOT_CONFIRMED_BY_PARTNER: N_("not confirmed by the partner"),
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

#: Kronlande's buildings (`Built.piece`): the line that tells each.
_KRON_PIECES = {
    "smithy": N_("{player} builds a smithy at {crossing}"),
    "weaving_mill": N_("{player} builds a weaving mill at {crossing}"),
    "bakery": N_("{player} builds a bakery at {crossing}"),
    "castle": N_("{player} builds a castle at {crossing}"),
    "residence": N_("{player} builds a residence at {crossing}"),
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


def describe(
    e: ev.Event, state: GameState, lang: str = "de", names: Mapping[int, str] | None = None
) -> str | None:
    """One line for an event, or None for events that need no line of their own. `names`
    (by seat, as the game shows them): the players who act (build, trade, move the robber,
    steal or are stolen from, play or buy a card, fail an order, win) are named "gelb (Carol)";
    the mechanical lines (rolls, production, titles) keep the colour alone, so that the
    report stays short."""
    _ = translator(lang).gettext
    b = state.board

    def who(p: int) -> str:
        # A seat the game does not have (a trade with no such player, `no_such_player`) is
        # nobody, as no seat is: never an error that would stop the report.
        return (
            vocab.colour_name(state.colours[p], lang)
            if 0 <= p < len(state.colours)
            else _("nobody")
        )

    def actor(p: int) -> str:
        return player_label(who(p), names.get(p, "")) if names and p >= 0 else who(p)

    def res(n: int, r: int) -> str:
        return f"{n}{vocab.letter(r, lang)}"

    if isinstance(e, ev.RoundStarted):
        order = ", ".join(who(p) for p in e.build_order)
        return _("Round {round}, order: {order}").format(round=e.round, order=order)
    if isinstance(e, ev.Rolled):
        return _("Roll for {player}: {die1}+{die2} = {total}").format(
            player=who(e.player), die1=e.die1, die2=e.die2, total=e.total
        )
    if isinstance(e, ev.Produced) and b.hexes[e.hex].terrain == Terrain.GOLD:
        # Seafarers: a gold river's cards are the owner's choice; the line says what they became.
        return _("  {player}: gold from {hex} becomes {cards} ({resource})").format(
            player=who(e.player),
            hex=_hex(b, e.hex, lang),
            cards=res(e.amount, e.resource),
            resource=vocab.resource_name(e.resource, lang),
        )
    if isinstance(e, ev.Produced):
        return _("  {player} gets {cards} from {hex}").format(
            player=who(e.player), cards=res(e.amount, e.resource), hex=_hex(b, e.hex, lang)
        )
    if isinstance(e, ev.ProductionBlocked):
        return _("  {hex} is held by the robber").format(hex=_hex(b, e.hex, lang))
    if isinstance(e, ev.BankShort):
        return _("  The bank has only {cards} for {owed}: {player} gets what is left").format(
            cards=res(e.available, e.resource), owed=e.owed, player=who(e.paid_to)
        )
    if isinstance(e, ev.Discarded):
        return _("  {player} discards {cards}").format(
            player=who(e.player), cards=_counts(e.cards, lang)
        )
    if isinstance(e, ev.RobberMoved) and e.cause == "castle":
        # Kronlande: a Burg built next to the robber's hex sends it to a desert without one, or
        # off the island (castles.castle_free_desert).
        if e.hex < 0:
            return _("  the robber leaves the island: it never stands next to a castle")
        return _("  the robber goes to {hex}: it never stands next to a castle").format(
            hex=_hex(b, e.hex, lang)
        )
    if isinstance(e, ev.RobberMoved):
        return _("  {player} moves the robber to {hex}").format(
            player=actor(e.player), hex=_hex(b, e.hex, lang)
        )
    if isinstance(e, ev.Stole):
        return _("  {thief} steals {card} from {victim}").format(
            thief=actor(e.thief), card=res(1, e.resource), victim=actor(e.victim)
        )
    if isinstance(e, ev.NothingToSteal):
        return _("  nothing to steal")
    if isinstance(e, ev.NmrRobberRoll):
        return _("  NMR robber roll: {total}").format(total=e.die1 + e.die2)
    if isinstance(e, ev.TradeDone):
        return _("Trade {first} ↔ {second}: {gives} for {gets}").format(
            first=actor(e.first),
            second=actor(e.second),
            gives=_counts(e.first_gives, lang),
            gets=_counts(e.second_gives, lang),
        )
    if isinstance(e, ev.TradeFailed):
        return _("Trade {player} → {partner} failed ({reason})").format(
            player=actor(e.player), partner=actor(e.partner), reason=rule_text(e.reason, lang)
        )
    if isinstance(e, ev.MaritimeTraded):
        return _("{player}: maritime {gives} for {gets}").format(
            player=actor(e.player),
            gives=res(e.give_count, e.give),
            gets=res(e.get_count, e.get),
        )
    if isinstance(e, ev.Built):
        if e.piece == "ship":
            text = _("{player} builds a ship at {path}")
            return text.format(player=actor(e.player), path=ship_path_text(b, e.where, lang))
        if e.piece == "road":
            text = _("{player} builds a road at {path}")
            return text.format(player=actor(e.player), path=path_text(b, e.where, lang))
        if e.piece in _KRON_PIECES:
            text = _(_KRON_PIECES[e.piece])
            return text.format(player=actor(e.player), crossing=crossing_text(b, e.where, lang))
        text = _("{player} builds a city at {crossing}")
        if e.piece == "settlement":
            text = _("{player} builds a settlement at {crossing}")
        return text.format(player=actor(e.player), crossing=crossing_text(b, e.where, lang))
    if isinstance(e, ev.OrderFailed) and (e.action or e.rule == Reason.NO_ROBBER_ORDER):
        return failure_text(e, state, lang, names)
    if isinstance(e, ev.OrderFailed) and _card_play(e):
        # Which card failed (and why) would reveal a hidden card: the public line says less.
        return _("{player}: a card could not be played").format(player=actor(e.player))
    if isinstance(e, ev.OrderFailed):
        return _("{player}: {line} not carried out ({reason})").format(
            player=actor(e.player), line=line_text(e.line, lang), reason=rule_text(e.rule, lang)
        )
    if isinstance(e, ev.CardBought):
        return _("{player}: card {number} bought").format(player=actor(e.player), number=e.number)
    if isinstance(e, ev.CardPlayed):
        return _("{player} plays {card}").format(
            player=actor(e.player), card=vocab.card_name(e.card, lang)
        )
    if isinstance(e, ev.MonopolyTaken):
        return _("  {victim} gives {cards}").format(
            victim=who(e.victim), cards=res(e.amount, e.resource)
        )
    if isinstance(e, ev.PlentyTaken):
        return _("  {player} takes {cards}").format(
            player=who(e.player), cards=_counts(e.cards, lang)
        )
    if isinstance(e, ev.TitleChanged):
        return f"{title_name(e.title, lang)}: {who(e.old)} → {who(e.new)}"
    if isinstance(e, ev.NoOrders):
        return _("{player}: no moves received (NMR)").format(player=who(e.player))
    if isinstance(e, ev.GameWon):
        return (
            translator(lang)
            .ngettext(
                "{player} wins with {vp} victory point!",
                "{player} wins with {vp} victory points!",
                e.vp,
            )
            .format(player=actor(e.player), vp=e.vp)
        )
    if isinstance(e, PirateMoved):
        return _("  {player} moves the pirate to {hex}").format(
            player=actor(e.player), hex=_hex(b, e.hex, lang)
        )
    if isinstance(e, ShipMoved):
        return _("{player} moves a ship from {source} to {target}").format(
            player=actor(e.player),
            source=ship_path_text(b, e.source, lang),
            target=ship_path_text(b, e.target, lang),
        )
    if isinstance(e, SpecialVP):
        text = translator(lang).ngettext(
            "  {player}: +{vp} VP for the first settlement there ({island}: {crossing})",
            "  {player}: +{vp} VP for the first settlement there ({island}: {crossing})",
            e.vp,
        )
        return text.format(
            player=who(e.player),
            vp=e.vp,
            island=_island(state, e.area, lang),
            crossing=crossing_text(b, e.crossing, lang),
        )
    if isinstance(e, TradeLineGained):
        return _(
            "  {player}: +1 VP for the trade line {start} – {end} ({own} of its {pieces} ships"
            " and roads)"
        ).format(
            player=who(e.player),
            # Labels only: the line is long enough without the hexes' contents.
            start=b.crossing_label(e.start),
            end=b.crossing_label(e.end),
            own=e.own,
            pieces=e.pieces,
        )
    if isinstance(e, TradeLineLost):
        return _("  {player}: -1 VP, the trade line {start} – {end} is lost").format(
            player=who(e.player), start=b.crossing_label(e.start), end=b.crossing_label(e.end)
        )
    if isinstance(e, HexDiscovered):
        return _("{player} discovers {hex}: {found}").format(
            player=actor(e.player), hex=b.hexes[e.hex].label, found=_found(e, lang)
        )
    if isinstance(e, HomeIslands):
        islands = ", ".join(_island(state, a, lang) for a in e.areas)
        return (
            translator(lang)
            .ngettext(
                "{player}: home island (by the start settlements): {islands}",
                "{player}: home islands (by the start settlements): {islands}",
                len(e.areas),
            )
            .format(player=who(e.player), islands=islands)
        )
    if isinstance(e, FishPaid):
        return _("  {player} pays {cards} for missing grain").format(
            player=who(e.player), cards=res(e.fish, FISCH)
        )
    if isinstance(e, GoodsMade):
        return _("{player} makes {cards}").format(
            player=actor(e.player), cards=res(e.count, e.good)
        )
    if isinstance(e, GoodsTaken):
        return _("  {player} takes {cards}").format(
            player=who(e.player), cards=_counts(e.cards, lang)
        )
    if isinstance(e, FeastGiven):
        return _("  {giver} gives {player} {card}").format(
            giver=who(e.giver), player=who(e.player), card=res(1, e.item)
        )
    if isinstance(e, ev.SetupFailed):
        # The answer to a player whose placements could not be used says why, each by rank.
        return _("{player}: placement {rank} not possible — {why}").format(
            player=actor(e.player), rank=e.rank + 1, why=rule_text(e.reason, lang)
        )
    if isinstance(e, ev.SetupPlaced) and state.sea is not None and state.sea.ship[e.path] >= 0:
        # Seafarers: the placement took a ship (as far as the state shows; a ship moved away
        # later reads as a road in a report written after the move).
        return _("{player} places a settlement at {crossing}, ship {path}").format(
            player=actor(e.player),
            crossing=crossing_text(b, e.crossing, lang),
            path=ship_path_text(b, e.path, lang),
        )
    if isinstance(e, ev.SetupPlaced):
        return _("{player} places a settlement at {crossing}, road {path}").format(
            player=actor(e.player),
            crossing=crossing_text(b, e.crossing, lang),
            path=path_text(b, e.path, lang),
        )
    return None


def _island(state: GameState, area: int, lang: str) -> str:
    """An island of the game's Seafarers board by its name (`identity.island_names`)."""
    from .identity import island_names

    return island_names(state, lang).get(area, str(area))


def _found(e: HexDiscovered, lang: str) -> str:
    """What a fog hex turned out to be, from the event alone: `9L (Lehm)`, `4Gold (a gold
    river)`, `sea`, `desert`."""
    _ = translator(lang).gettext
    if e.tile == GOLD:
        return _("{number}Gold (a gold river)").format(number=e.number)
    if e.tile == DESERT:
        return _("desert")
    if e.tile not in LETTERS_DE:
        return _("sea")
    r = LETTERS_DE.index(e.tile)
    return f"{e.number}{vocab.letters(lang)[r]} ({vocab.resource_name(r, lang)})"


def _why(e: ev.OrderFailed, lang: str, rule: str) -> str:
    """Why an order failed: the cards missing for it, else the text of `rule` (the event's,
    or what it means for the order: `order_rule`)."""
    if e.missing and any(e.missing) and len(e.missing) in (5, KRON_WIDTH):
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
        # A 7 without a robber order: the NMR robber rule moved the robber.
        return _("{player}: no robber order — the NMR robber rule moves the robber").format(
            player=player
        )
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
        text = _("{player}: pirate order {hex} not valid — {why}; the NMR rule applies")
        return text.format(player=player, hex=hex_text(state.board, order.hex, lang), why=why)
    if isinstance(order, o.RobberOrder):
        text = _("{player}: robber order {hex} not valid — {why}; the NMR rule applies")
        return text.format(player=player, hex=hex_text(state.board, order.hex, lang), why=why)
    if isinstance(
        order,
        (o.Monopoly, o.YearOfPlenty, o.RoadBuilding, o.BuildersHut, o.HarbourPrivilege, o.Feast),
    ):
        return _("{player}: a card could not be played").format(player=player)
    if isinstance(order, (o.Road, o.Settlement, o.City, o.Ship, o.Workshop, o.Castle, o.Residence)):
        text = _("{player}: {order} not built — {why}")
    elif isinstance(order, o.BuyCard):
        text = _("{player}: {order} not bought — {why}")
    else:
        text = _("{player}: {order} not carried out — {why}")
    return text.format(player=player, order=format_item(order, ctx), why=why)


def in_log_order(events: list[ev.Event]) -> list[ev.Event]:
    """The events in the order the log tells them: Kronlande's `FishPaid` comes right before
    the event of what it paid for, and is told right after it, indented under it (`rot baut
    Siedlung …` / `  rot zahlt 1F für fehlendes Getreide`)."""
    out = list(events)
    i = 0
    while i < len(out) - 1:
        if isinstance(out[i], FishPaid) and not isinstance(out[i + 1], FishPaid):
            out[i], out[i + 1] = out[i + 1], out[i]
            i += 1  # past the FishPaid, now after its event
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
