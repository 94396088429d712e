"""The robber and what a 7 asks: a robber or pirate order with its victims, a knight with
its timing, and a discard list (in order, `falls nötig` passed over)."""

from __future__ import annotations

import re

from pbm.i18n import translator
from pbm.rules.board import Terrain
from pbm.rules.orders import DiscardPreference, Knight, RobberOrder, Timing

from . import lexicon, vocab
from .context import Context, Text
from .counts import MAX_COUNT, _number, _resource_list
from .errors import NotationError
from .places import _hex, _named_hexes, _seat
from .words import (
    _BEFORE_THE_ROLL,
    _FILLERS,
    _PATTERNS,
    _REST,
    _SUBJECTS,
    _TIMING_WORDS,
    _keyword_span,
    _kw,
    _letter_words,
    _strip_words,
)

#: When a knight is played: `vor Wurf`, `vor dem Würfeln`, `vorm Würfeln`, `nach meinem Wurf`,
#: `before roll`, `after rolling`.
#: Danish: `før slag`, `efter slag`, `før mit slag`, `før kast`, `efter jeg har slået`. The
#: languages' fragments (`[patterns] knight_timing`).
_TIMING = f"(?P<timing>{_TIMING_WORDS})"
#: The verb after the card's word: `Ritter ausspielen vor dem Wurf`, `knight played after`.
_PLAYED = r"(?: (?:ausspielen|spielen|einsetzen|played|play|spilles|spille|spil)(?![a-z]))?+"
_KNIGHT = _kw(
    "knight",
    r"(?: ?karte| card| ?kortet| ?kort)?+"
    + _PLAYED
    + r"\s*+[:,(]?+\s*+"
    + _TIMING
    + r"?+\s*+\)?+"
    + _REST,
)

#: The word before the victims; `[,;]?\s*` before it is added by `_keyword_span`. "steal from"
#: before "steal", or "from" would be read as a colour.
_STEAL = re.compile(rf"\b({lexicon.either('words', 'steal')})\b\s*+")

#: Words between a robber's victims: `oder` too (a priority list: the first one that can be
#: robbed), and the prepositions of `klau bei blau`, `steal from blue`.
_VICTIM_FILLERS = _FILLERS | lexicon.word_set("words", "victim_fillers")


#: `Bei einer 7:`, `Falls ich eine 7 würfle:`, `If I roll a 7:`, `On a 7:` before a robber order
#: or a discard list (which are for a 7 anyway).
_FOR_A_SEVEN = re.compile(
    rf"(?:{lexicon.either('words', 'seven_leads')})\b[a-z ]{{0,30}}?\b"
    rf"(?:7|{lexicon.either('words', 'seven')})\b"
    r"[a-z ]{0,24}?[:,]\s*+"
)


#: Before the robber's hex: `Räuber auf 9H`, `Räuber: 9H`, `Räuber → 9H`, `Robber to 9L`.
_ROBBER_PLACE_WORDS = lexicon.words("words", "robber_place")
#: Verbs before the robber in a knight line (`Ritter vor Wurf: setze Räuber …`, `move robber
#: to …`).
_MOVE_WORDS = lexicon.words("words", "move")
#: A verb between the robber and its hex: `Robber moves to 9L`, `Räuber zieht nach 9H`,
#: `Røveren flyttes til 9T` (the place word after it is read as ever).
_ROBBER_VERBS = tuple(lexicon.longest_first(lexicon.words("words", "robber_verbs")))
_VICTIM_SEPARATORS = ",;/"
#: Characters between the robber's hex and its victims, never the end of a hex's name.
_PLACE_ENDS = ",;/:.->= "
#: `robber on 8 grain and steal from blue`: an `and` after the hex.
_JOINERS = tuple(f" {w}" for w in lexicon.words("words", "and"))
#: `Räuber auf die 9H`, `robber on the 8 grain`.
_HEX_ARTICLES = lexicon.words("words", "hex_articles")


def _moved(t: Text) -> Text:
    """A knight's or a robber line's rest without the verb that moves the robber and its
    article (`move the robber to 9G …`, `versetze den Räuber auf 9E …`): the keyword itself
    is read by the caller (`Ritter vor Wurf: …`), or here after `Räuber:` (`Robber: move the
    robber to 9G`)."""
    moved = _strip_words(t, _MOVE_WORDS)
    if moved is t:
        return t
    return _strip_words(moved, _HEX_ARTICLES)


def _robber(t: Text, ctx: Context) -> RobberOrder:
    """`Räuber 9H, raube blau, rot`, also `Räuber: 9H / blau`, `Räuber auf 9H, klau bei blau`,
    `Räuber 3W, blau, gelb`, `Räuber 9H blau`: the hex, then the victims in priority order."""
    f = t.folded
    pos = 0
    while pos < len(f) and f[pos] in " :->,":
        pos += 1
    t = t.sub(pos)
    moved = _moved(t)
    if moved is not t:
        # `Robber: move the robber to 9G`: the keyword again after its verb.
        rm = _PATTERNS["robber"].match(moved.folded.strip())
        lead = len(moved.folded) - len(moved.folded.lstrip())
        t = moved.sub(lead + rm.start("rest")) if rm else moved
    t = _strip_words(t, _ROBBER_VERBS)
    f = t.folded
    m = _keyword_span(_STEAL, f)
    seps = [i for i in (f.find(c) for c in _VICTIM_SEPARATORS) if i >= 0]
    if m is not None and not (seps and min(seps) < m[0]):
        place_end, victims_at = m
    elif seps:
        # `Räuber 9H, raube blau`, also `Räuber auf die 9H, bei rot klauen`: the hex ends at
        # the first separator, the victims follow with their verb anywhere.
        place_end = min(seps)
        victims_at = place_end + 1
    else:
        place_end = victims_at = _colours_at_end(f)
    place = _strip_words(_strip_words(t.sub(0, place_end), _ROBBER_PLACE_WORDS), _HEX_ARTICLES)
    place_f = place.folded.rstrip()
    for joiner in _JOINERS:
        # `robber on 8 grain and steal from blue`
        if place_f.endswith(joiner):
            place = place.sub(0, len(place_f) - len(joiner))
            break
    # `Räuber 11G. Blau`, `Robber 11G: steal from blue`, `Räuber 11G -> blau`: what ends the
    # place before its victims.
    place_f = place.folded.strip().rstrip(_PLACE_ENDS)
    if not place_f:
        raise NotationError.make("robber_hex_expected", column=t.col(0))
    shown = place.sub(0, len(place.folded.rstrip().rstrip(_PLACE_ENDS).rstrip()))
    hexes = ctx.board.hexes
    named = _named_hexes(shown, ctx)
    if named and all(hexes[x].terrain == Terrain.SEA for x in named):
        # `Räuber Meer`: the robber never goes to sea (docs/rules-decisions.md); in Seafarers
        # the pirate does. Said before the name's many sea hexes would be listed to choose.
        if ctx.board.has_areas:
            raise NotationError.make(
                "robber_at_sea_pirate", example=pirate_example(ctx), column=place.col(0)
            )
        raise NotationError.make("robber_at_sea", column=place.col(0))
    if named and all(hexes[x].number is None for x in named):
        # The desert (a scenario has several): never a place for the robber either.
        raise NotationError.make(
            "robber_no_number", name=shown.original.strip(), column=place.col(0)
        )
    h = _hex(shown, ctx)
    if hexes[h].number is None:
        raise NotationError.make(
            "robber_no_number", name=shown.original.strip(), column=place.col(0)
        )
    victims: list[int] = []
    # Each victim with its place among the words, and the numbers written among them.
    tokens: list[tuple[str, int, int]] = []  # ("seat" or "number", value, column)
    for w in re.finditer(r"[a-z]+|[0-9]+", f[victims_at:]):
        word = w.group(0)
        if word.isdigit():
            rank = _number(word)  # bounded digits; a longer number ranks last
            rank = rank if rank is not None else MAX_COUNT + 1
            tokens.append(("number", rank, t.col(victims_at + w.start())))
            continue
        if word in _VICTIM_FILLERS or _STEAL.fullmatch(word):
            continue
        seat = _seat(t, victims_at + w.start(), victims_at + w.end(), ctx)
        tokens.append(("seat", seat, 0))
        if seat not in victims:
            victims.append(seat)
    if any(kind == "number" for kind, _, _ in tokens):
        victims = _ranked(tokens)
    return RobberOrder(h, tuple(victims))


def _ranked(tokens: list[tuple[str, int, int]]) -> list[int]:
    """The victims in the order their numbers give (`blau (2), gelb (1)`, `1. gelb, 2. blau`,
    `steal blue 2, yellow 1`): each colour with a number of its own, all before or all after
    their colour, no number twice. Anything else is refused: a number the order would drop
    could be the player's first choice."""
    kinds = "".join("n" if kind == "number" else "s" for kind, _, _ in tokens)
    pairs = len(kinds) // 2
    ranked: list[tuple[int, int]] = []
    if len(kinds) % 2 == 0 and kinds in ("ns" * pairs, "sn" * pairs):
        first = 0 if kinds.startswith("n") else 1
        ranked = [(tokens[i + first][1], tokens[i + 1 - first][1]) for i in range(0, len(kinds), 2)]
    numbers = [n for n, _ in ranked]
    seats = [s for _, s in ranked]
    if not ranked or len(set(numbers)) != len(numbers) or len(set(seats)) != len(seats):
        column = next(col for kind, _, col in tokens if kind == "number")
        raise NotationError.make("victims_numbered", column=column)
    return [seat for _, seat in sorted(ranked)]


def _colours_at_end(f: str) -> int:
    """Where colour words at the end of a robber line start (`Räuber 9H blau gelb`), or the
    end of the line."""
    end = len(f.rstrip())
    start = end
    for m in reversed(list(re.finditer(r"\S+", f[:end]))):
        word = m.group(0).strip(",;")
        if word in vocab.COLOUR_WORDS or word in _VICTIM_FILLERS:
            start = m.start()
            continue
        break
    return start


def _knight(t: Text, m: re.Match[str], ctx: Context) -> Knight:
    timing = m.group("timing")
    if not timing:
        raise NotationError.make("knight_timing", column=t.col(m.end(1)))
    rest = t.sub(m.start("rest"))
    skip = 0
    while skip < len(rest.folded) and rest.folded[skip] in " ,;:->=":
        skip += 1  # `Ritter nach Wurf, Räuber 6L`, `Ritter nach dem Wurf -> Räuber 6L`
    rest = _moved(rest.sub(skip))
    before = _BEFORE_THE_ROLL
    when = Timing.BEFORE_ROLL if timing.startswith(before) else Timing.AFTER_ROLL
    pm = _PATTERNS["pirate"].match(rest.folded.strip())
    if pm:
        lead = len(rest.folded) - len(rest.folded.lstrip())
        return Knight(when, _pirate(rest.sub(lead + pm.start("rest")), ctx))
    rm = _PATTERNS["robber"].match(rest.folded.strip())
    if rm:
        lead = len(rest.folded) - len(rest.folded.lstrip())
        rest = rest.sub(lead + rm.start("rest"))
    return Knight(when, _robber(rest, ctx))


def pirate_example(ctx: Context) -> str:
    """A pirate order on this board to copy: the first sea hex by label that borders land
    (`Pirat D5` was written into every refusal, a land hex on many boards)."""
    board = ctx.board
    hexes = board.hexes
    sea = [h for h in hexes if h.terrain == Terrain.SEA]
    coast = [
        h
        for h in sea
        if any(
            hexes[x].terrain != Terrain.SEA
            for c in board.hex_crossings[h.id]
            for x in board.crossing_hexes[c]
        )
    ]
    word = translator(ctx.lang).pgettext("order word", "Pirate")
    chosen = min(coast or sea, key=lambda h: h.label, default=None)
    return f"{word} {chosen.label}" if chosen is not None else word


def _pirate(t: Text, ctx: Context) -> RobberOrder:
    """Seafarers: `Pirat D5`, `Pirat auf D5`, `Pirate to D5`: a sea hex and nothing else (the
    pirate robs every ship owner next to it, so no victims are named)."""
    if not ctx.board.has_areas:
        raise NotationError.make("pirate_seafarers", column=t.col(0))
    f = t.folded
    pos = 0
    while pos < len(f) and f[pos] in " :->,":
        pos += 1
    t = _strip_words(t.sub(pos), _ROBBER_VERBS)  # `Pirate moves to D5`
    f = t.folded
    seps = [i for i in (f.find(c) for c in _VICTIM_SEPARATORS) if i >= 0]
    end = min([*seps, _colours_at_end(f)])
    if _keyword_span(_STEAL, f) is not None or f[end:].strip(" ,;/"):
        raise NotationError.make(
            "pirate_no_victims", example=pirate_example(ctx), column=t.col(end)
        )
    place = _strip_words(_strip_words(t.sub(0, end), _ROBBER_PLACE_WORDS), _HEX_ARTICLES)
    if not place.folded.strip():
        raise NotationError.make(
            "pirate_hex_expected", example=pirate_example(ctx), column=t.col(0)
        )
    shown = place.sub(0, len(place.folded.rstrip()))
    named = _named_hexes(shown, ctx)
    if named and all(ctx.board.hexes[x].terrain != Terrain.SEA for x in named):
        # `Pirat Wüste` in a scenario with several deserts: no list of them to choose from.
        raise NotationError.make("pirate_on_sea", name=shown.original.strip(), column=place.col(0))
    h = _hex(shown, ctx)
    if ctx.board.hexes[h].terrain != Terrain.SEA:
        raise NotationError.make("pirate_on_sea", name=shown.original.strip(), column=place.col(0))
    return RobberOrder(h, (), True)


#: `Falls ich abwerfen muss: …`, `If I have to discard: …`: a discard list, led by its condition
#: (every discard list is for a 7 anyway).
_IF_DISCARDING = re.compile(
    rf"^(?:{lexicon.either('words', 'discard_if')})\s++"
    rf"(?:(?:{lexicon.either('words', 'discard_subjects')})\s++)?+"
    rf"(?:(?:{lexicon.either('words', 'discard_must_before')})\s++"
    rf"(?:(?:{lexicon.either('words', 'discard_must_to')})\s++)?+)?+"
    rf"(?:(?:{lexicon.either('words', 'discard_cards_before')})\s++)?+"
    rf"(?:{lexicon.either('words', 'discard_verbs')})"
    rf"(?:\s++(?:{lexicon.either('words', 'discard_cards_after')}))?+"
    rf"(?:\s++(?:{lexicon.either('words', 'discard_must_after')}))?+\s*+[:,]\s*+(?P<rest>.*)$"
)
#: Words of a discard list's condition that says no more than the list itself (`Abwerfen falls
#: nötig:`, `Discard if needed:`): a discard list is only ever used when cards must go.
_IF_NEEDED = lexicon.word_set("words", "if_needed")
_DISCARD_LABELS = lexicon.word_set("words", "discard_labels")
_IF_NEEDED_LEADS = lexicon.word_set("words", "if_needed_leads")
_NEED_WORDS = lexicon.word_set("words", "need")
#: Words of a priority written out (`zuerst Wolle, dann Holz, zuletzt Erz`, `wool first, then
#: lumber`): they must agree with the order written, which is what is read.
_FIRST_WORDS = lexicon.word_set("words", "first")
_LAST_WORDS = lexicon.word_set("words", "last")
_THEN_WORDS = lexicon.word_set("words", "then")
#: Arrows between the entries of a priority list (`W > G > H`, `W → G`; `→` folds to `-`).
_ARROW_CHARS = frozenset(">-=\u00bb")


def _without_subject(t: Text) -> Text:
    """A discard list without the subject after its verb (`werfe ich 2 Wolle … ab`)."""
    f = t.folded
    lead = len(f) - len(f.lstrip())
    word = f[lead : lead + 12].split(maxsplit=1)[:1]
    if not word or word[0] not in _SUBJECTS or lead + len(word[0]) >= len(f):
        return t
    return t.sub(lead + len(word[0]))


def _without_if_needed(t: Text) -> Text:
    """A discard list without the condition before it: `falls nötig: …`, `(if needed) …`, `bei
    einer 7: …` (a condition that says what every discard list says)."""
    f = t.folded
    lead = len(f) - len(f.lstrip(" ,;"))
    m = _FOR_A_SEVEN.match(f, lead)
    if m is not None:
        return t.sub(m.end())
    ends = [i for i in (f.find(":", lead), f.find(",", lead)) if i >= 0]
    close = f.find(")", lead)
    if close >= 0:
        ends.append(close)
    if not ends:
        return t
    stop = min(ends)
    words = _letter_words(f[lead:stop])
    if words and f[stop] == ":" and all(w in _DISCARD_LABELS for w in words):
        return t.sub(stop + 1)  # `Discard priority: …`, `Abwurf Reihenfolge: …`
    if (
        words
        and words[0] in _IF_NEEDED_LEADS
        and all(w in _IF_NEEDED for w in words)
        and any(w in _NEED_WORDS for w in words)
    ):
        after = stop + 1
        if f[stop] == ")" and f[after : after + 1] == ":":
            after += 1
        return t.sub(after)
    return t


def _in_order(t: Text) -> Text:
    """A priority list as written, its arrows read as separators and its words of order
    (`zuerst`, `dann`, `zuletzt`, `first`, `then`) passed over once they agree with the order
    written: `zuerst Wolle, dann Holz`, `W > G > H`, `wool first, then lumber`. A word that does
    not (`Wolle, Holz zuletzt, Getreide`) is refused: the list is read in the order written."""
    f = t.folded
    back = f.find("<")
    if back >= 0:
        # `W < G < H`: the priority the other way round, or the arrow's head? Asked back.
        raise NotationError.make("list_order_words", shown="<", column=t.col(back))
    arrows = [(i, i + 1, ",") for i, ch in enumerate(f) if ch in _ARROW_CHARS]
    if arrows:
        t = t.rewritten(arrows)
        f = t.folded
    #: (segment, folded position, end, word) of each word of order; items per segment.
    marks: list[tuple[int, int, int, str]] = []
    items: list[int] = [0]
    blanks: list[tuple[int, int, str]] = []
    for m in re.finditer(r"[^\s,;]+|[,;]", f):
        word = m.group(0).strip(":.")
        if word in (",", ";") or word in _THEN_WORDS:
            if word in _THEN_WORDS and word not in _FILLERS:
                blanks.append((m.start(), m.end(), ""))
            items.append(0)
            continue
        if word in _FIRST_WORDS or word in _LAST_WORDS:
            marks.append((len(items) - 1, m.start(), m.end(), word))
            blanks.append((m.start(), m.end(), ""))
            continue
        if word and not word.isdecimal():
            items[-1] += 1
    # upto[k]: the items of the segments before segment k (one pass, however many marks).
    upto = [0]
    for n in items:
        upto.append(upto[-1] + n)
    for segment, start, end, word in marks:
        before, after = upto[segment], upto[-1] - upto[segment + 1]
        if (word in _FIRST_WORDS and before) or (word in _LAST_WORDS and after):
            raise NotationError.make(
                "list_order_words", shown=t.sub(start, end).original, column=t.col(start)
            )
    return t.rewritten(blanks) if blanks else t


def _discard(t: Text, ctx: Context) -> DiscardPreference:
    """`Abwurf: W W G`, also `Abwerfen falls nötig: zuerst Wolle, dann Holz`, `Discard: W > G >
    L`: the cards in the order they go."""
    rest = _without_subject(t)
    f = rest.folded
    counted = _DISCARD_COUNT.match(f, len(f) - len(f.lstrip()))
    if counted is not None:
        # `Discard 4: 2 wool 2 grain`: how many, then which. Read when the list has as many
        # cards; otherwise the count is read as a card, and refused, as before.
        cards = tuple(_resource_list(_in_order(rest.sub(counted.end())), ctx, max_total=MAX_COUNT))
        if len(cards) == int(counted.group(1)):
            return DiscardPreference(cards)
    rest = _in_order(_without_if_needed(rest))
    return DiscardPreference(tuple(_resource_list(rest, ctx, max_total=MAX_COUNT)))


#: A discard's count before its list (`Abwurf 4: …`, `Discard 4: …`, `Aflever 4: …`).
_DISCARD_COUNT = re.compile(r"([1-9][0-9]?+)\s*+:")
