"""Canonical text of every order kind, in the game's language: what acknowledgements echo.
The order words come from the message catalogue (`pbm.i18n`).

`parse_line(format_item(x)) == x` holds for every item (see the round-trip tests).
"""

from __future__ import annotations

import itertools
from functools import cache

from pbm.i18n import language, translator
from pbm.rules.kron import WORKSHOP_PIECES
from pbm.rules.orders import (
    Alternatives,
    BuildersHut,
    BuyCard,
    Castle,
    City,
    DiscardPreference,
    Feast,
    GoldPreference,
    HarbourPrivilege,
    Knight,
    Make,
    MaritimeTrade,
    Monopoly,
    MoveShip,
    Residence,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupOrders,
    SetupPlacement,
    Ship,
    Timing,
    TradeOffer,
    TurnOrders,
    Workshop,
    YearOfPlenty,
)
from pbm.rules.resources import Counts

from . import vocab
from .lines import (
    Away,
    Builds,
    ColourPreference,
    Command,
    Confirmation,
    Context,
    GameName,
    Heading,
    Item,
    LaterPlacement,
    OrElse,
    Pass,
    Password,
    PlacementHeading,
    PlayerName,
    Press,
    RoundGuard,
    SubstituteHeader,
    TimeZone,
)
from .names import crossing_text, hex_text, path_text, ship_path_text


@cache
def _words(lang: str) -> dict[str, str]:
    """The order words pbm writes in a game language (msgctxt "order word"). Each must be a word
    the parser reads in that language (`lines.py`, `vocab.py`): docs/translating.md."""
    tr = translator(lang)
    return {
        # Translators: every "order word" is written by pbm and read back by the parser.
        "settlement": tr.pgettext("order word", "Settlement"),
        "city": tr.pgettext("order word", "City"),
        "road": tr.pgettext("order word", "Road"),
        "buy": tr.pgettext("order word", "Buy card"),
        "knight": tr.pgettext("order word", "Knight"),
        "before": tr.pgettext("order word", "before roll"),
        "after": tr.pgettext("order word", "after roll"),
        "robber": tr.pgettext("order word", "Robber"),
        "pirate": tr.pgettext("order word", "Pirate"),
        "steal": tr.pgettext("order word", "steal"),
        "monopoly": tr.pgettext("order word", "Monopoly"),
        "plenty": tr.pgettext("order word", "Year of plenty"),
        "road_building": tr.pgettext("order word", "Road building"),
        "ship": tr.pgettext("order word", "Ship"),
        "move_ship": tr.pgettext("order word", "Move ship"),
        "to": tr.pgettext("order word", "to"),
        "gold": tr.pgettext("order word", "Gold:"),
        "discard": tr.pgettext("order word", "Discard"),
        "trade": tr.pgettext("order word", "Trade"),
        "give": tr.pgettext("order word", "give"),
        "get": tr.pgettext("order word", "get"),
        "maritime": tr.pgettext("order word", "Maritime"),
        "for": tr.pgettext("order word", "for"),
        "or": tr.pgettext("order word", "or"),
        "substitute": tr.pgettext("order word", "Substitute:"),
        # The setup: placements kept for the writer's second turn (`LaterPlacement`).
        "second_settlement": tr.pgettext("order word", "Second settlement"),
        "password": tr.pgettext("order word", "Password"),
        "game": tr.pgettext("order word", "Game"),
        "round": tr.pgettext("order word", "Round"),
        "name": tr.pgettext("order word", "Name"),
        "colours": tr.pgettext("order word", "Colours"),
        "join": tr.pgettext("order word", "Join"),
        "help": tr.pgettext("order word", "Help"),
        "status": tr.pgettext("order word", "Status"),
        "players": tr.pgettext("order word", "Players"),
        "history": tr.pgettext("order word", "History"),
        "message": tr.pgettext("order word", "Message to"),
        "anonymous": tr.pgettext("order word", "Anonymous"),
        "all": tr.pgettext("order word", "all"),
        "to_gm": tr.pgettext("order word", "To GM"),
        "away": tr.pgettext("order word", "Away until"),
        "timezone": tr.pgettext("order word", "Time zone"),
        "resign": tr.pgettext("order word", "Resign"),
        "back": tr.pgettext("order word", "I'm back"),
        "observe": tr.pgettext("order word", "Observe"),
        "unobserve": tr.pgettext("order word", "Stop observing"),
        "confirm": tr.pgettext("order word", "Confirm"),
        "pass": tr.pgettext("order word", "Pass"),
        # Kronlande (issue 19).
        "smithy": tr.pgettext("order word", "Smithy"),
        "weaving_mill": tr.pgettext("order word", "Weaving mill"),
        "bakery": tr.pgettext("order word", "Bakery"),
        "make": tr.pgettext("order word", "Make"),
        "castle": tr.pgettext("order word", "Castle"),
        "residence": tr.pgettext("order word", "Residence"),
        "builders_hut": tr.pgettext("order word", "Builders' hut"),
        "harbour_privilege": tr.pgettext("order word", "Harbour privilege"),
        "feast": tr.pgettext("order word", "Feast"),
    }


def _press_text(item: Press, lang: str) -> str:
    """The line that starts a message; the message itself is not repeated."""
    if item.to == "gm":
        return word("to_gm", lang)
    to = word("all", lang) if item.to == "all" else vocab.colour_name(item.to, lang)
    lead = word("message", lang)
    if item.anonymous:
        lead = f"{word('anonymous', lang)} {lead[:1].lower()}{lead[1:]}"
    return f"{lead} {to}"


def word(key: str, lang: str) -> str:
    return _words(language(lang))[key]


def counts_text(c: Counts, lang: str) -> str:
    """`2H 1E`: the cards of counts of any width (Kronlande's goods too), or `-`."""
    return " ".join(f"{n}{vocab.letter(r, lang)}" for r, n in enumerate(c) if n) or "-"


def discard_text(resources: tuple[int, ...], lang: str) -> str:
    """Cards in the order given (a discard list, a year of plenty's two), each run of one card
    counted as the reports and trades count cards (`3W 2H`, `2W 1H 1W`: the order stays; a
    card alone `1W`, never a bare letter beside a counted one)."""
    runs = [(r, len(list(group))) for r, group in itertools.groupby(resources)]
    return " ".join(f"{n}{vocab.letter(r, lang)}" for r, n in runs)


def robber_text(o: RobberOrder, ctx: Context) -> str:
    if o.pirate:
        return f"{word('pirate', ctx.lang)} {hex_text(ctx.board, o.hex, ctx.lang)}"
    text = f"{word('robber', ctx.lang)} {hex_text(ctx.board, o.hex, ctx.lang)}"
    if o.victims:
        names = ", ".join(vocab.colour_name(ctx.colours[v], ctx.lang) for v in o.victims)
        text += f", {word('steal', ctx.lang)} {names}"
    return text


def format_item(item: Item | SetupOrders, ctx: Context) -> str:
    lang, board = ctx.lang, ctx.board

    def w(key: str) -> str:
        return word(key, lang)

    if isinstance(item, Settlement):
        return f"{w('settlement')} {crossing_text(board, item.crossing, lang)}"
    if isinstance(item, City):
        return f"{w('city')} {crossing_text(board, item.crossing, lang)}"
    if isinstance(item, Road):
        return f"{w('road')} {path_text(board, item.path, lang)}"
    if isinstance(item, BuyCard):
        return w("buy")
    if isinstance(item, MaritimeTrade):
        letters = vocab.letters(lang, True)
        return (
            f"{w('maritime')} {item.give_count}{letters[item.give]} {w('for')} "
            f"{item.get_count}{letters[item.get]}"
        )
    if isinstance(item, YearOfPlenty):
        return f"{w('plenty')} {discard_text((item.first, item.second), lang)}"
    if isinstance(item, Ship):
        return f"{w('ship')} {ship_path_text(board, item.path, lang)}"
    if isinstance(item, MoveShip):
        return (
            f"{w('move_ship')} {ship_path_text(board, item.source, lang)} {w('to')} "
            f"{ship_path_text(board, item.target, lang)}"
        )
    if isinstance(item, RoadBuilding):
        if item.first_ship or item.second_ship:
            # Seafarers: every piece named by its kind.
            pieces = [(item.first, item.first_ship)]
            if item.second is not None:
                pieces.append((item.second, item.second_ship))
            named = [
                f"{w('ship')} {ship_path_text(board, e, lang)}"
                if ship
                else f"{w('road')} {path_text(board, e, lang)}"
                for e, ship in pieces
            ]
            return f"{w('road_building')}: {', '.join(named)}"
        paths = [path_text(board, item.first, lang)]
        if item.second is not None:
            paths.append(path_text(board, item.second, lang))
        return f"{w('road_building')}: {', '.join(paths)}"
    if isinstance(item, Workshop):
        kind = WORKSHOP_PIECES[item.kind]
        return f"{w(kind)} {crossing_text(board, item.crossing, lang)}"
    if isinstance(item, Castle):
        return f"{w('castle')} {crossing_text(board, item.crossing, lang)}"
    if isinstance(item, Residence):
        return f"{w('residence')} {crossing_text(board, item.crossing, lang)}"
    if isinstance(item, Make):
        return f"{w('make')} {item.count} {vocab.resource_name(item.good, lang)}"
    if isinstance(item, BuildersHut):
        return w("builders_hut")
    if isinstance(item, HarbourPrivilege):
        return w("harbour_privilege")
    if isinstance(item, Feast):
        return f"{w('feast')} {vocab.resource_name(item.item, lang)}"
    if isinstance(item, GoldPreference):
        names = ", ".join(vocab.resource_name(r, lang) for r in item.resources)
        return f"{w('gold')} {names}"
    if isinstance(item, Alternatives):
        return f" {w('or')} ".join(format_item(o, ctx) for o in item.options)
    if isinstance(item, SetupPlacement) and item.ship:
        return (
            f"{w('settlement')} {crossing_text(board, item.crossing, lang)} "
            f"{w('ship')} {ship_path_text(board, item.path, lang)}"
        )
    if isinstance(item, SetupPlacement):
        return (
            f"{w('settlement')} {crossing_text(board, item.crossing, lang)} "
            f"{w('road')} {path_text(board, item.path, lang)}"
        )
    if isinstance(item, SetupOrders):
        return f" {w('or')} ".join(format_item(p, ctx) for p in item.placements)
    if isinstance(item, tuple):
        return f" {w('or')} ".join(format_item(p, ctx) for p in item)
    if isinstance(item, LaterPlacement):
        # `Zweite Siedlung C3 C4 D4 … Straße …`: read back as the same label.
        shown = f" {w('or')} ".join(format_item(p, ctx) for p in item.placements)
        return w("second_settlement") + shown[len(w("settlement")) :]
    if isinstance(item, RobberOrder):
        return robber_text(item, ctx)
    if isinstance(item, Knight):
        timing = w("before") if item.timing == Timing.BEFORE_ROLL else w("after")
        return f"{w('knight')} {timing}: {robber_text(item.robber, ctx)}"
    if isinstance(item, Monopoly):
        return f"{w('monopoly')} {vocab.resource_name(item.resource, lang)}"
    if isinstance(item, DiscardPreference):
        return f"{w('discard')}: {discard_text(item.resources, lang)}"
    if isinstance(item, TradeOffer):
        partner = vocab.colour_name(ctx.colours[item.partner], lang)
        return (
            f"{w('trade')} {partner}: {w('give')} {counts_text(item.give, lang)}, "
            f"{w('get')} {counts_text(item.get, lang)}"
        )
    if isinstance(item, Password):
        return f"{w('password')}: ****"
    if isinstance(item, Press):
        return _press_text(item, lang)
    if isinstance(item, Away):
        if not item.year_given:
            return f"{w('away')} {item.until.day:02d}.{item.until.month:02d}."
        return f"{w('away')} {item.until.isoformat()}"
    if isinstance(item, TimeZone):
        return f"{w('timezone')}: {item.name}"
    if isinstance(item, Confirmation):
        return f"{w('confirm')}: {item.token}"
    if isinstance(item, GameName):
        return f"{w('game')}: {item.name}"
    if isinstance(item, RoundGuard):
        return f"{w('round')}: {item.round}"
    if isinstance(item, PlayerName):
        return f"{w('name')}: {item.name}"
    if isinstance(item, ColourPreference):
        return f"{w('colours')}: " + ", ".join(vocab.colour_name(c, lang) for c in item.colours)
    if isinstance(item, SubstituteHeader):
        if item.build is not None:
            return f"{w('substitute')} {format_item(item.build, ctx)}"
        return w("substitute")
    if isinstance(item, Builds):
        return "; ".join(format_item(a, ctx) for a in item.actions)
    if isinstance(item, OrElse):
        return f"{w('or')} {format_item(item.option, ctx)}"
    if isinstance(item, Pass):
        return w("pass")
    if isinstance(item, (Heading, PlacementHeading)):
        return ""
    if isinstance(item, Command):
        return f"{w(item.name)} {item.topic}" if item.topic else w(item.name)
    raise TypeError(f"no canonical form for {item!r}")


def format_turn_orders(orders: TurnOrders, ctx: Context) -> list[str]:
    """A whole round's orders as mail lines, in the order the parser reads them back."""
    lines: list[str] = []
    if orders.robber is not None:
        lines.append(format_item(orders.robber, ctx))
    if orders.robber_else is not None:
        lines.append(format_item(orders.robber_else, ctx))
    if orders.discard is not None and orders.discard.resources:
        lines.append(format_item(orders.discard, ctx))
    if orders.gold:
        lines.append(format_item(GoldPreference(orders.gold), ctx))
    if orders.knight is not None:
        lines.append(format_item(orders.knight, ctx))
    if orders.monopoly is not None:
        lines.append(format_item(orders.monopoly, ctx))
    lines.extend(format_item(t, ctx) for t in orders.trades)
    lines.extend(format_item(b, ctx) for b in orders.builds)
    if orders.substitutes.lines:
        lines.append(word("substitute", ctx.lang))
        lines.extend(format_item(b, ctx) for b in orders.substitutes.lines)
    return lines


def format_setup_orders(orders: SetupOrders, ctx: Context) -> list[str]:
    return [format_item(orders, ctx)] if orders.placements else []
