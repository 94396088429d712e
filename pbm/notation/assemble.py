"""The line results of a mail put together in order (`_assemble`): the main and substitute
build blocks, single orders (one robber, one discard list, … a mail), `oder …` lines added to
the build line above, a pass beside other orders refused, headers and commands taken."""

from __future__ import annotations

from typing import TypeGuard

from pbm.rules.orders import (
    BUILD_ACTIONS,
    Alternatives,
    BuildAction,
    DiscardPreference,
    GoldPreference,
    Knight,
    Monopoly,
    RobberOrder,
    SetupPlacement,
    TradeOffer,
    is_build_action,
)

from . import vocab
from .context import Context, Text
from .errors import NotationError
from .format import format_item, word
from .heading_kinds import not_orders_heading
from .headings import _or_prefix
from .items import (
    Away,
    Builds,
    ColourPreference,
    Command,
    Confirmation,
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
from .refusals import setup_form_key
from .results import _BUILD_TYPES, LineResult, ParsedMail, _Read
from .setup import choice_number, first_labelled, withholds
from .words import _letter_words

#: Orders a pass contradicts (a robber order or a discard list may stand beside it).
_ACTING = (*_BUILD_TYPES, TradeOffer, Knight, Monopoly)


#: Orders of a round: in the setup they would be read and then dropped (only placements are
#: stored for it), so they are refused there, with when to send them.
_ROUND_ONLY = (RobberOrder, DiscardPreference, GoldPreference, TradeOffer, Knight, Monopoly)

#: What a heading of lines that are no orders now refuses besides the builds.
_NOT_UNDER_QUOTES = (*_BUILD_TYPES, *_ROUND_ONLY, SetupPlacement, tuple, LaterPlacement)

#: One of each per mail; the key of the message refusing a second one.
_SINGLE: dict[object, str] = {
    RobberOrder: "second_robber",
    "pirate": "second_pirate",
    DiscardPreference: "second_discard",
    GoldPreference: "second_gold",
    Knight: "second_knight",
    Monopoly: "second_monopoly",
}


def _options(line: BuildAction | Alternatives) -> tuple[BuildAction, ...]:
    return line.options if isinstance(line, Alternatives) else (line,)


def _assemble(read: list[_Read], ctx: Context, out: ParsedMail) -> None:
    """The results in order: blocks, single orders, alternatives on their own line, passes."""
    in_substitutes = False
    #: The heading not understood that the following build lines stand under.
    unknown: LineResult | None = None
    #: Whether that heading announces lines that are no orders now (`Aus dem letzten Bericht:`,
    #: `Old orders (ignore):`) or, in the setup, withholds its placements (`Falls blau dort
    #: baut:`): then every order line under it is refused, not only the builds.
    withheld = False
    seen: set[object] = set()
    #: The build line an `oder …` line adds an option to.
    anchor: LineResult | None = None
    setup = ctx.phase == "setup"
    #: Under `Zweite Siedlung:` (setup): placements for the writer's second turn; whether the
    #: line before was one of them.
    later = last_later = False
    for r in read:
        result, item = r.result, r.item
        error = r.error
        # Robber, discard, trade and card lines keep their meaning wherever they stand.
        result.block = (
            "setup"
            if setup
            else (
                "substitute"
                if in_substitutes and (item is None or isinstance(item, _BUILD_TYPES))
                else "main"
            )
        )
        if error is not None:
            result.error = error.at(result.line, result.text)
            out.lines.append(result)
            if error.key == "unknown_heading":
                unknown, in_substitutes = result, False
                withheld = not_orders_heading(result.text) or (
                    # `Falls blau dort baut:` over a placement, as on its line.
                    setup and withholds(Text(result.text).folded.strip().rstrip(":"))
                )
                result.block = "main"
            elif not setup and not in_substitutes and unknown is None:
                # A main build not understood has failed: the substitutes run (`Ersatzbau`).
                result.refused_build = _starts_as_build(result.text, ctx)
            anchor = None
            continue
        assert item is not None
        if isinstance(item, PlacementHeading):
            # `Zweite Siedlung:`: the placements below are for the writer's second turn, until
            # `Erste Siedlung:` or another heading.
            later = item.second
            continue
        if isinstance(item, (SetupPlacement, tuple)):
            result.rank = choice_number(result.text)
            # `Erste Siedlung: …` ends the heading's reach; `oder …` below a second placement
            # is another choice for that one.
            if first_labelled(result.text):
                later = False
            elif later or (last_later and _or_prefix(Text(result.text)) is not None):
                item = LaterPlacement(item if isinstance(item, tuple) else (item,))
        if setup and not isinstance(item, (PlacementHeading, Heading)):
            last_later = isinstance(item, LaterPlacement)
        if isinstance(item, Heading):
            # Only announces what follows: not read. It ends a substitute block (`Hauptzüge:`
            # after `Ersatzbau:`) and the reach of a heading not understood.
            in_substitutes, unknown, anchor, later = False, None, None, False
            continue
        named = (
            _names_more(result, out, ctx)
            if isinstance(item, SubstituteHeader) and item.names and not setup
            else None
        )
        if named is not None:
            # Substitutes are built when any main line fails: over several, a heading that
            # names one build would widen its condition unseen. Refused, and the lines under it.
            result.error = named.at(result.line, result.text)
            out.lines.append(result)
            unknown, in_substitutes, withheld, anchor = result, False, False, None
            continue
        if isinstance(item, SubstituteHeader):
            in_substitutes, unknown = True, None
            result.block = "setup" if setup else "substitute"
            if item.build is not None:
                # `Ersatz: Entwicklungskarte`: the heading, and the first substitute build.
                item_built: Item = item.build
                out.lines.append(result)
                _accept(result, item_built, ctx, out, seen, substitute=not setup)
                if result.ok:
                    result.canonical = f"{word('substitute', ctx.lang)} {result.canonical}"
                anchor = result if result.ok else None
                continue
            out.lines.append(result)
            _accept(result, item, ctx, out, seen, substitute=False)
            anchor = None
            continue
        out.lines.append(result)
        is_build = isinstance(item, _BUILD_TYPES)
        if unknown and (
            (is_build and not setup) or (withheld and isinstance(item, _NOT_UNDER_QUOTES))
        ):
            result.error = NotationError.make(
                "under_unknown_heading", line=unknown.line, shown=unknown.text
            ).at(result.line, result.text)
            anchor = None
            continue
        if isinstance(item, OrElse):
            _or_else(result, item, anchor, ctx)
            continue
        _accept(result, item, ctx, out, seen, substitute=in_substitutes and is_build)
        anchor = result if result.ok and isinstance(item, (*_BUILD_TYPES,)) else None
        if isinstance(item, Builds):
            anchor = None
    _passes(out)


#: The main lines a refused substitute heading names, at most (then `…`).
_NAMED_LINES = 4


def _starts_as_build(text: str, ctx: Context) -> bool:
    """Whether a refused line starts with a build's word (`Stadt 9X 9Y 9Z`): a build meant."""
    words = _letter_words(Text(text).folded[:40])
    starts = ctx.words.build_starts | vocab.own_game_words(ctx.lang)  # Danish `by` too
    return bool(words) and words[0] in starts


def _names_more(result: LineResult, out: ParsedMail, ctx: Context) -> NotationError | None:
    """Why a substitute heading that names one build (`Falls die Stadt nicht klappt:`) is
    refused, or None where it stands for that build: over one main line of a single build.
    The substitutes run when any main line fails (`rules.round._build_step`): a bank trade, a
    card bought or played as well as a build, each build of a line of several, and a line of
    choices only when every choice fails."""
    lines: list[BuildAction | Alternatives] = []
    #: What the player wrote above it, as the engine would run it once every line is read: a
    #: refused line that starts as a build (`Stadt 9X 9Y 9Z`) is a build to come.
    named: list[str] = []
    for r in out.lines:
        if r.substitute or r.block != "main":
            continue
        if not r.ok:
            if _starts_as_build(r.text, ctx):
                named.append(repr(r.text.strip()))
            continue
        if isinstance(r.item, Builds):
            lines.extend(r.item.actions)
            named.extend(repr(format_item(one, ctx)) for one in r.item.actions)
        elif is_build_action(r.item) or isinstance(r.item, Alternatives):
            lines.append(r.item)
            named.append(repr(format_item(r.item, ctx)))
    shown = result.text.strip()
    if not lines:
        return NotationError.make("substitute_names_none", shown=shown)
    if len(named) == 1:
        if not isinstance(lines[0], Alternatives):
            return None
        return NotationError.make(
            "substitute_over_choices", shown=shown, line=format_item(lines[0], ctx)
        )
    count = len(named)
    if count > _NAMED_LINES:
        named[_NAMED_LINES:] = ["…"]
    return NotationError.make(
        "substitute_names_one", shown=shown, count=count, lines=", ".join(named)
    )


def _accept(
    result: LineResult,
    item: Item,
    ctx: Context,
    out: ParsedMail,
    seen: set[object],
    substitute: bool,
) -> None:
    # The robber's and the pirate's orders are one of each (Seafarers: in priority order).
    kind: object = "pirate" if isinstance(item, RobberOrder) and item.pirate else type(item)
    if kind in _SINGLE and kind in seen:
        result.error = NotationError.make(_SINGLE[kind]).at(result.line, result.text)
        return
    if ctx.phase == "setup" and isinstance(item, _ROUND_ONLY):
        result.error = NotationError.make(setup_form_key("setup_round_order", ctx)).at(
            result.line, result.text
        )
        return
    seen.add(kind)
    if isinstance(item, TradeOffer):
        # The same offer written again (a line copied twice): one offer, one answer from the
        # partner; the copies could only fail, each a line of the report.
        if item in seen:
            result.error = NotationError.make("same_trade_again").at(result.line, result.text)
            return
        seen.add(item)
    if ctx.phase == "setup" and isinstance(item, (*_BUILD_TYPES, Pass)):
        result.error = NotationError.make(setup_form_key("setup_placements_only", ctx)).at(
            result.line, result.text
        )
        return
    result.item = item
    result.substitute = substitute
    result.canonical = format_item(item, ctx)
    if isinstance(item, Password):
        out.password = item.secret
    elif isinstance(item, Confirmation):
        out.confirm = item.token
    elif isinstance(item, GameName):
        out.game = item.name
    elif isinstance(item, RoundGuard):
        out.round = item.round
    elif isinstance(item, Command):
        _take_command(item, out)
    elif isinstance(item, PlayerName):
        out.name = item.name
    elif isinstance(item, Press):
        out.press = item
    elif isinstance(item, Away):
        out.away = item
    elif isinstance(item, TimeZone):
        out.timezone = item.name
    elif isinstance(item, ColourPreference):
        out.colours = item.colours


def _or_else(result: LineResult, item: OrElse, anchor: LineResult | None, ctx: Context) -> None:
    """`oder …` on a line of its own: one more option of the build line just above (which then
    stands for all of them); refused without one."""
    if ctx.phase == "setup":
        result.error = NotationError.make(setup_form_key("setup_placements_only", ctx)).at(
            result.line, result.text
        )
        return
    target = anchor.item if anchor is not None else None
    if anchor is None or not _takes_or_else(target):
        result.error = NotationError.make("or_else_without_build").at(result.line, result.text)
        return
    anchor.item = Alternatives((*_options(target), *_options(item.option)))
    result.block = anchor.block
    result.canonical = format_item(item, ctx)


#: The single builds an `oder …` line may add an option to: every build-step order
#: (`orders.BUILD_ACTIONS`), a ship's too, as `Schiff … oder Schiff …` on one line is read.
OR_ELSE_ANCHORS: tuple[type, ...] = tuple(BUILD_ACTIONS)


def _takes_or_else(item: object) -> TypeGuard[BuildAction | Alternatives]:
    """Whether an `oder …` line may add an option to `item`, the build line above it."""
    return isinstance(item, (*OR_ELSE_ANCHORS, Alternatives))


def _passes(out: ParsedMail) -> None:
    """`Ich passe` beside builds, trades or a card: the player says two things; the pass is
    refused, with what to do (the other lines stand as written)."""
    acting = any(isinstance(r.item, _ACTING) for r in out.items())
    if not acting:
        return
    for r in out.lines:
        if r.ok and isinstance(r.item, Pass):
            r.error = NotationError.make("pass_with_orders").at(r.line, r.text)
            r.item = None
            r.canonical = None


def _take_command(item: Command, out: ParsedMail) -> None:
    out.commands.append(item.name)
    if item.name == "join":
        if item.topic and not out.join_words:
            out.join_words = tuple(w.strip(".,;:!?()[]'\"") for w in item.topic.split())
    elif item.topic and not out.help_topic:
        out.help_topic = item.topic
