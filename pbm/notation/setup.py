"""Setup placements: a settlement with its road or ship (`Siedlung 6L 5L 4G, Straße nach
…`), one or two on a line."""

from __future__ import annotations

import difflib
import re
from contextvars import ContextVar

from pbm.rules.orders import SetupPlacement

from . import lexicon
from .context import Context, Text
from .errors import AmbiguousError, NotationError, OrderError, choices_refused
from .heading_kinds import heading_kind, names_a_condition
from .items import LaterPlacement, PlacementHeading
from .names import crossing_text, named_hexes, path_text, ship_path_text, tokenize_hexes
from .places import _crossing, _path
from .refusals import _NEAR, _own_near, setup_form_key, swapped
from .remarks import _REMARK_TROUBLE, _without_verb
from .words import _KW, _letter_words, _split_or, _strip_words

_SETUP_HEAD = re.compile(rf"^ ?{_KW['settlement']}(?![a-z]) ?:? ?")


def _placement_label(ordinal: str, digit: str) -> re.Pattern[str]:
    """A label naming one of the writer's placements: `Zweite Siedlung …`, `Second settlement:
    …`, `Für meine zweite Runde: …`, `Andet hus …` (the settlement's word is left to be read),
    or its turn by number (`Runde 2: …`, `Round 1: …`: the setup's two rounds)."""
    placement = lexicon.either("headings", "placement")
    # `Danach Siedlung …`, `Then I'll take …`, `Later:`: the writer's next placement after
    # this one, the second.
    later = (
        rf"(?:(?:und|and|og) )?+(?:{lexicon.either('headings', 'later')})(?![a-z]) ?,? ?:? ?|"
        if digit == "2"
        else ""
    )
    return re.compile(
        rf"^ ?(?:{later}(?:{placement}) ?(?:nr\.? ?)?{digit}\.?(?![0-9]) ?:? ?|"
        r"(?:(?:fuer|for|til|als|as|som) )?+"
        r"(?:(?:meine|meinen|mein|my|min|mit|die|the|den|det) )?+"
        rf"(?:{lexicon.either('headings', ordinal)})(?![a-z0-9]) ?"
        rf"(?:(?:{placement})(?![a-z]) ?:? ?"
        rf"|(?={_KW['settlement']}(?![a-z]))))"
    )


_SECOND_LABEL = _placement_label("second", "2")
_FIRST_LABEL = _placement_label("first", "1")


#: Words for a placement or a turn (`Runde`, `turn`): a label naming one, other than the
#: second, is about another placement than a `Zweite Siedlung:` heading's.
_PLACEMENT_WORDS = lexicon.word_set("headings", "placement")


def later_labelled(f: str) -> bool:
    """Whether a setup line (folded) starts with a label for the writer's second placement."""
    return _SECOND_LABEL.match(f) is not None


def first_labelled(line: str) -> bool:
    """Whether a setup line starts with a label naming the writer's first placement (`Erste
    Siedlung: …`) or another turn (`Diese Runde: …`): it ends the reach of a `Zweite
    Siedlung:` heading above it. A choice's label (`Erste Wahl:`) does not."""
    f = Text(line).folded.lstrip()
    if _SECOND_LABEL.match(f) is not None:
        return False
    if _FIRST_LABEL.match(f) is not None:
        return True
    colon = f.find(":", 0, 61)
    return colon > 0 and any(w in _PLACEMENT_WORDS for w in _letter_words(f[:colon]))


def placement_heading(f: str) -> PlacementHeading | None:
    """`Zweite Siedlung:`, `Erste Siedlung:`, `Second settlement:` as a heading on its own
    line (folded, stripped): which of the writer's placements the lines below are."""
    if not f.endswith(":"):
        return None
    for second, label in ((True, _SECOND_LABEL), (False, _FIRST_LABEL)):
        m = label.match(f)
        if m is None:
            continue
        rest = f[m.end() :].strip()
        if rest == ":" or not rest or _SETUP_HEAD.fullmatch(rest):
            return PlacementHeading(second)
    return None


#: The road keyword inside a placement: the first one after the crossing.
_SETUP_ROAD = re.compile(rf"[ ,;]{_KW['road']}(?![a-z0-9])(?: ?:)? ?")
#: Seafarers: the ship keyword inside a placement (a ship instead of the road).
_SETUP_SHIP = re.compile(rf"[ ,;]{_KW['ship']}(?![a-z0-9])(?: ?:)? ?")
#: Words between a placement's crossing and its road: `mit Straße`, `with road`, `und`.
_SETUP_JOINERS = lexicon.words("places", "setup_joiners")
#: Words before the crossing, as on a round's build line: `Siedlung bei …`, `Settlement at
#: …`, `Hus ved …`, and an article after them (`auf dem …`).
_PLACE_WORDS = lexicon.words("words", "place")
_PLACE_ARTICLES = lexicon.words("words", "place_articles")
#: A verb before the place word (`Meine erste Siedlung kommt auf …`, `… goes on …`, `… skal
#: ligge på …`), the longest first.
_PLACE_VERBS = tuple(lexicon.longest_first(lexicon.words("words", "place_verbs")))


def _setup_line(
    t: Text, ctx: Context
) -> SetupPlacement | tuple[SetupPlacement, ...] | LaterPlacement:
    """A placement, or ranked placements joined by `oder`; labelled as the writer's second
    (`Zweite Siedlung: …`), kept for that turn (`LaterPlacement`). An option that names no
    place on this board is left out when another one is good (a game master places the good
    one); an ambiguous option refuses the line, since the player's first choice is not known."""
    second = _SECOND_LABEL.match(t.folded)
    if second is not None:
        read = _ranked(t.sub(second.end()), ctx)
        return LaterPlacement(read if isinstance(read, tuple) else (read,))
    first = _FIRST_LABEL.match(t.folded)
    return _ranked(t.sub(first.end()) if first is not None else t, ctx)


def _ranked(t: Text, ctx: Context) -> SetupPlacement | tuple[SetupPlacement, ...]:
    t = _without_setup_label(t)
    m = _SETUP_VERB.match(t.folded)
    if m is not None:
        t = t.sub(m.end())  # `Ich nehme 6L 5L 11G mit Straße …`: the settlement's place
    parts = _split_or(_fallback_as_or(_without_verb(t)))
    if len(parts) == 1:
        return _setup(parts[0], ctx)
    good: list[SetupPlacement] = []
    failed: list[tuple[int, str, OrderError]] = []
    for i, p in enumerate(parts):
        try:
            good.append(_setup(_without_verb(p), ctx))
            continue
        except AmbiguousError:
            raise
        except OrderError as e:
            error = e
        # `… Straße 5L 11G oder 6L 5L`: another road for the first option's settlement.
        completed = _same_settlement(parts[0], p) if i and good else None
        if completed is not None:
            try:
                good.append(_setup(_without_verb(completed), ctx))
                continue
            except AmbiguousError:
                raise
            except OrderError:
                pass
        failed.append((i + 1, p.original.strip(), error))
    if not good:
        raise choices_refused(failed, len(parts))
    left_out = LEFT_OUT.get()
    if left_out is not None:
        # The answer names them beside the line it accepts, each said of its option
        # (`option 2 of 2 ('Siedlung A2 B1 B2 …'): …`).
        left_out.extend(e.in_option(n, len(parts), text) for n, text, e in failed)
    return tuple(good) if len(good) > 1 else good[0]


def _same_settlement(first: Text, option: Text) -> Text | None:
    """An option that names only another road for the first option's settlement (`Siedlung
    6L 5L 11G Straße 5L 11G oder 6L 5L`, `… Straße Richtung 4G oder Richtung 12E`, `… Straße
    12L Meer oder Schiff 12L Meer`): that settlement with this road (the columns of an error
    then count in the option as completed); None when the option names its own settlement."""
    f, o = first.folded, option.folded
    if _SETTLEMENT_LATER.search(" " + o) is not None:
        return None
    road = _SETUP_ROAD.search(f) or _SETUP_SHIP.search(f)
    if road is None:
        return None
    settlement = first.sub(0, road.start()).original
    if _ROAD_FIRST.match(o) is not None:
        return Text(f"{settlement} {option.original.strip()}", option.offset)
    word = first.sub(road.start(), road.end()).original.strip(" ,;:")
    return Text(f"{settlement} {word} {option.original.strip()}", option.offset)


#: While a line is read (`mail.parse_mail` sets it): the options of a ranked setup line left
#: out because they name no place, the others being good. Per thread and task, as a context.
LEFT_OUT: ContextVar[list[OrderError] | None] = ContextVar("pbm_left_out", default=None)


_SETTLEMENT_WORD = re.compile(rf"(?<![a-z]){_KW['settlement']}(?![a-z])")


#: A choice's label with its number: `Alternativ 2`, `Option 1`, `Wahl Nr. 2`, `Valg 2`.
_NUMBERED_CHOICE = re.compile(
    rf"(?:{lexicon.either('headings', 'numbered_choice')}) ?(?:nr\.? ?|no\.? ?|#)?"
    r"(?P<n>\d{1,2})\.?"
)


def choice_number(line: str) -> int | None:
    """The number a setup line's label gives its choice (`Alternativ 2: …` → 2), or None."""
    f = Text(line).folded.lstrip()
    colon = f.find(":", 0, 61)
    m = _NUMBERED_CHOICE.fullmatch(f[:colon].strip()) if colon > 0 else None
    return int(m.group("n")) if m is not None else None


def withholds(label: str) -> bool:
    """Whether a setup label or heading (folded, without its colon) withdraws the placements
    it stands over or makes them conditional (`Nicht`, `Falls blau dort baut`, `Scratch
    that`): they are refused, never made anyway."""
    words = _letter_words(label)
    return any(w in _REMARK_TROUBLE for w in words) or (
        heading_kind(label + ":") == "unknown" and names_a_condition(words)
    )


def _without_setup_label(t: Text) -> Text:
    """`Erste Wahl: Siedlung …`, `First choice: settlement …` (the label dropped) and `Meine
    zweite Siedlung: 8E 10G 4E, Straße …` (read from the keyword on)."""
    f = t.folded
    colon = f.find(":")
    label = f[:colon]
    if 0 < colon <= 60 and _NUMBERED_CHOICE.fullmatch(label.strip()):
        return t.sub(colon + 1)  # `Alternativ 2: Siedlung …`: ranked by its number (`rank`)
    if colon <= 0 or colon > 60 or any(ch.isdigit() for ch in label) or _SETUP_HEAD.match(f):
        return t
    if withholds(label):
        # `Nicht: …`, `Falls blau dort baut: …`, `Scratch that: …`: dropped, the label would
        # turn a placement the player withdrew or made conditional into one made anyway.
        raise NotationError.make("setup_label_unclear", shown=t.sub(0, colon + 1).original.strip())
    inside = _SETTLEMENT_WORD.search(label)
    if inside is not None:
        return t.sub(inside.start())
    after = len(f) - len(f[colon + 1 :].lstrip())
    if _SETUP_HEAD.match(f[after:]):
        return t.sub(after)
    return t


#: A placement as a sentence without the settlement's word: `Ich nehme …`, `I'll take …`,
#: `Jeg tager …` (the words before the verb at most four).
_SETUP_VERB = re.compile(
    rf"^ ?(?:(?:{lexicon.either('places', 'setup_verb_leads')}) ){{0,4}}+"
    rf"(?:{lexicon.either('places', 'setup_verbs')})(?![a-z']) ?"
    # `Dann nehme ich …`, `Så tager jeg …`: the subject after its verb.
    rf"(?:(?:{lexicon.either('remarks', 'subjects')})(?![a-z']) ?)?+"
)
#: A fallback said inline before the next placement: `…, falls besetzt: Siedlung …`, `…; if
#: taken: settlement …` (a heading of substitutes, `heading_kind`, then the settlement's word).
_FALLBACK_CLAUSE = re.compile(
    rf"[,;] ?(?P<head>[a-z' ]{{1,40}}+):? (?={_KW['settlement']}(?![a-z]))"
)


def _fallback_as_or(t: Text) -> Text:
    """`…, falls besetzt: Siedlung …` read as `… oder Siedlung …`."""
    f = t.folded
    spans = [
        (m.start(), m.end(), " oder ")
        for m in _FALLBACK_CLAUSE.finditer(f)
        if m.end() - m.start() >= 6 and heading_kind(m.group("head").strip() + ":") == "substitute"
    ]
    return t.rewritten(spans) if spans else t


#: A place word before a setup road's path (`vej til B2 B3`, `Straße bei …`).
_PLACE_WORD = re.compile(
    rf"^\s*+(?:{lexicon.alternation((*_PLACE_WORDS, 'til', 'to', 'zu', 'nach'))})\s++"
)


#: A placement written road first: `Straße 6L 5L, Siedlung 6L 5L 11G`, `Road … and settlement
#: …` (the road's or ship's word at the start, the settlement's after it).
_ROAD_FIRST = re.compile(rf"^ ?(?:{_KW['road']}|{_KW['ship']})(?![a-z0-9])")
_SETTLEMENT_LATER = re.compile(rf"[ ,;]{_KW['settlement']}(?![a-z0-9])")


def _road_first(t: Text) -> Text | None:
    """`Straße 6L 5L, Siedlung 6L 5L 11G` as `Siedlung 6L 5L 11G Straße 6L 5L` (the columns of
    an error then count in the line as reordered); None for any other line."""
    f = t.folded
    first = _ROAD_FIRST.match(f)
    later = _SETTLEMENT_LATER.search(f, first.end()) if first is not None else None
    if first is None or later is None:
        return None
    road = f[: later.start()].rstrip(" ,;")
    for joiner in _SETUP_JOINERS:
        if road.endswith(" " + joiner):
            road = road[: -len(joiner) - 1].rstrip(" ,;")
    lead = len(f) - len(f.lstrip())
    road_text = t.sub(lead, len(road)).original
    return Text(f"{t.sub(later.start() + 1).original} {road_text}", t.offset)


def _setup(t: Text, ctx: Context) -> SetupPlacement:
    reordered = _road_first(t)
    if reordered is not None:
        t = reordered
    f = t.folded
    head = _SETUP_HEAD.match(f)
    start = head.end() if head else len(f) - len(f.lstrip())
    twice = _SETUP_HEAD.match(f[start:]) if head else None
    if twice is not None:
        # `Erste Siedlung: Siedlung C3 C4 D4 …`: the label's word, then the placement's.
        start += twice.end()
    road = _SETUP_ROAD.search(f, start)
    ship = _SETUP_SHIP.search(f, start) if ctx.board.has_areas else None
    if ship is not None and (road is None or ship.start() < road.start()):
        road = ship
    else:
        ship = None
    if head is None:
        _near_miss(t, ctx)
    if road is None or (head is None and not f[start : start + 1].isalnum()):
        lead = len(f) - len(f.lstrip())
        raise NotationError.make(setup_form_key("setup_form", ctx), column=t.col(lead))
    crossing = _strip_words(
        _strip_words(_strip_words(t.sub(start, road.start()), _PLACE_VERBS), _PLACE_WORDS),
        _PLACE_ARTICLES,
    )
    cf = crossing.folded.rstrip().rstrip(",;")
    # `… og en vej`, `… med min vej`: a joiner and an article before the road's word.
    trailing = (*_SETUP_JOINERS, *_PLACE_ARTICLES, "ein", "eine", "einen", "an")
    while cut := next((w for w in trailing if cf.endswith(" " + w)), None):
        cf = cf[: -len(cut) - 1].rstrip().rstrip(",;")
    c = _crossing(crossing.sub(0, len(cf)), ctx)
    road_text = t.sub(road.end())
    toward = _TOWARD.match(road_text.folded)
    placed = _PLACE_WORD.match(road_text.folded)
    if toward is not None:
        rest = road_text.sub(toward.end())
        try:
            e = _toward(c, rest, ctx, land_only=ship is None)
        except NotationError as toward_error:
            # `road to B2 B3`: the path itself after a word that also means "toward".
            try:
                e = _path(rest, ctx, land_only=ship is None)
            except NotationError:
                raise toward_error from None
    elif placed is not None:
        # `vej til B2 B3` (the path), `vej til 6L` (toward the hex): whichever it names.
        rest = road_text.sub(placed.end())
        try:
            e = _path_at(c, rest, ctx, land_only=ship is None)
        except NotationError:
            e = _toward(c, rest, ctx, land_only=ship is None)
    else:
        e = _path_at(c, road_text, ctx, land_only=ship is None)
    if c not in ctx.board.path_crossings[e]:
        # The board alone shows it: the road must start at the settlement.
        raise NotationError.make(
            "setup_road_apart",
            road=path_text(ctx.board, e, ctx.lang),
            settlement=crossing_text(ctx.board, c, ctx.lang),
            column=t.col(road.end()),
        )
    return SetupPlacement(c, e, ship is not None)


def _path_at(c: int, t: Text, ctx: Context, land_only: bool) -> int:
    """The setup road's path: of several the text may name (`skib 10L hav`), the one at the
    settlement, when it is one."""
    try:
        return _path(t, ctx, land_only=land_only)
    except AmbiguousError as e:
        board = ctx.board
        at = [board.path_by_labels(label.split()) for label in e.candidates or []]
        here = [p for p in at if c in board.path_crossings[p]]
        if len(here) == 1:
            return here[0]
        raise


#: The settlement's words, for "did you mean" on a placement that starts with a near miss.
_SETTLEMENT_NEAR = {w: k for w, k in _NEAR.items() if k == "settlement"}


def _near_miss(t: Text, ctx: Context) -> None:
    """A placement whose first word is a misspelt settlement (`Siedlugn 6L 5L 11G Straße …`,
    `Settlemnt …`): refused with the word meant, not as a hex that is not on the board."""
    f = t.folded.lstrip()
    first = re.match(r"[a-z]{3,30}(?![a-z0-9])", f)
    if first is None:
        return
    own = {w for w, k in _own_near(ctx.lang, "near_own").items() if k == "settlement"}
    words = [*_SETTLEMENT_NEAR, *own]
    near = swapped(first.group(), words)
    if len(first.group()) >= 4:
        near = near or difflib.get_close_matches(first.group(), words, n=1, cutoff=0.75)
    if near:
        from .format import word as order_word

        lead = len(t.folded) - len(f)
        raise NotationError.make(
            "did_you_mean",
            word=t.sub(lead, lead + first.end()).original,
            suggestion=order_word("settlement", ctx.lang).rstrip(":"),
            column=t.col(lead),
        )


#: A setup road named by its direction: `Straße Richtung 4G`, `road toward 4G`.
_TOWARD = re.compile(
    r"^ *+(?:in richtung|richtung|towards?|in the direction of|nach|zum|zur|zu|to|"
    r"(?:pointing|heading) (?:to|towards?)|mod|i retning af|retning mod)(?![a-z]) *+:?+ *+"
    # An article before the hex (`towards the 4G`, `Richtung der 4G`, `Richtung des Hafens`).
    r"(?:(?:the|der|des|dem|den|die|das) (?=\S))?+"
)


def _toward(c: int, t: Text, ctx: Context, land_only: bool) -> int:
    """The road from the settlement at `c` toward a hex: the one path leaving `c` whose other
    end is a corner of that hex (toward one of the settlement's own hexes two paths run along
    it). Not exactly one: refused, with the paths to copy back."""
    names = tokenize_hexes(t.original, t.offset)
    if len(names) != 1:
        raise NotationError.make("one_hex", count=len(names))
    board = ctx.board
    hexes = named_hexes(board, names[0], ctx.lang)
    paths = [e for e in board.crossing_paths[c] if not land_only or board.path_land[e]]
    fits = [
        e
        for e in paths
        if any(
            h in hexes for x in board.path_crossings[e] if x != c for h in board.crossing_hexes[x]
        )
    ]
    if len(fits) == 1:
        return fits[0]
    shown = t.original.strip()
    settlement = crossing_text(board, c, ctx.lang)
    name = path_text if land_only else ship_path_text
    if fits:
        raise NotationError.make(
            "road_toward_pick",
            count=len(fits),
            settlement=settlement,
            hex=shown,
            candidates=[name(board, e, ctx.lang) for e in fits],
            column=t.col(0),
        )
    raise NotationError.make(
        "road_toward_none",
        settlement=settlement,
        hex=shown,
        candidates=[name(board, e, ctx.lang) for e in paths],
        column=t.col(0),
    )
