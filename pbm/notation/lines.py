"""One line of a mail → one typed item: an order, a preference, a header or a command.

Keywords are matched on folded text (case, umlauts, dashes forgiven), German and English alike;
resource letters are the game language's. Places are resolved against the board (`names.py`).
Errors carry the column in the line as the player wrote it.

A line is read the way a game master reads it: list markers (`- `, `1.`), markup (`*fett*`) and
a remark after `#` or ` -- ` or in closing brackets (`(wichtig!)`) are passed over; verbs and
fillers (`Baue eine Siedlung an …`, `Play knight before roll`) are words around the order; counts
may be words (`zwei Wolle`, `2x W`). What could mean two things is refused with the form to write
instead (docs/order-language.md).

This module reads what a line is and hands it to the reader of that kind (`parse_line`,
`scan_line`, `_order`); the readers are modules of their own, by what they read: `headers`
(password, round, commands), `headings` (headings, passing, `oder …`), `builds` (with `cuts`,
`upgrades`, `refusals`), `trades`, `robber` (and discards), `cards`, `setup`; below them
`places`, `counts`, `remarks` (what is around an order) and `words`, the shared keywords. Each
imports only those listed after it; `items` and `context` hold the types. The items,
`Context` and `Text` are imported from here by the rest of pbm.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pbm.rules.orders import DiscardPreference, Knight, MaritimeTrade, RobberOrder
from pbm.rules.resources import GOODS, KRON_LETTERS, N_KRON_RESOURCES

from . import lexicon, vocab
from .builds import MAX_CARDS_A_LINE, _build_line, _one_build
from .cards import _monopoly
from .context import Context, Text
from .counts import MAX_COUNT, _gold
from .errors import NotationError, OrderError
from .game_words import BASE_WORDS, GameWords
from .headers import MAX_TOKEN, MAX_ZONE, _board_free, _command
from .heading_kinds import heading_kind, piece_named
from .headings import _headed, _is_pass, _or_prefix
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
from .limits import MAX_LINE_CHARS
from .remarks import _tidy, _without_condition, _without_leading_condition, _without_verb
from .robber import (
    _FOR_A_SEVEN,
    _HEX_ARTICLES,
    _IF_DISCARDING,
    _KNIGHT,
    _discard,
    _knight,
    _pirate,
    _robber,
)
from .setup import _setup_line, later_labelled, placement_heading
from .text import fold
from .trades import _trade_or_bank
from .words import (
    _BEFORE_THE_ROLL,
    _KW,
    _PATTERNS,
    _TIMING_WORDS,
    _kw,
    _letter_words,
    _starts_with_keyword,
    _strip_words,
)

# What other modules and tests import from here (most of it from the modules imported above).
__all__ = [
    "MAX_CARDS_A_LINE",
    "MAX_COUNT",
    "MAX_TOKEN",
    "MAX_ZONE",
    "Away",
    "Builds",
    "ColourPreference",
    "Command",
    "Confirmation",
    "Context",
    "GameName",
    "Heading",
    "Item",
    "Knight",
    "LaterPlacement",
    "OrElse",
    "Pass",
    "Password",
    "PlacementHeading",
    "PlayerName",
    "Press",
    "RobberOrder",
    "RoundGuard",
    "SubstituteHeader",
    "Text",
    "TimeZone",
    "parse_line",
    "scan_line",
    "starts_a_message",
]


#: How a message line starts, whoever it is to: the rest of such a mail is never orders.
_MESSAGE_START = re.compile(
    rf"^(?:(?:{lexicon.either('words', 'message_anonymous')}) )?+"
    rf"(?:{lexicon.either('words', 'message')})\s++(?:{lexicon.either('words', 'message_to')})"
    r"(?![a-z])"
    rf"|^(?:{lexicon.either('words', 'gm_leads')})\s++"
    rf"(?:(?:{lexicon.either('words', 'gm_articles')}) )?+(?:{lexicon.either('words', 'gm')})"
    r"(?![a-z])"
)


def starts_a_message(line: str) -> bool:
    """Whether a (cleaned) line begins a message (`Nachricht an …`, `To GM …`), even one whose
    recipient is not understood: what follows it is the message, never orders."""
    try:
        folded = _tidy(Text(line[:MAX_LINE_CHARS])).folded
    except NotationError:
        folded = Text(line[:MAX_LINE_CHARS]).folded  # a remark refused: read the line as is
    return _MESSAGE_START.match(folded.strip()) is not None


#: The first words of a question (`Wieso …`, `Why …`, `Hvorfor …`).
_QUESTION_WORDS = lexicon.word_set("mail", "question_words")
#: A question mark with more of the sentence after it (`…ungültig?? Es stand doch …`); not a
#: doubt in brackets (`Straße 6L 5L (?)`).
_ASKED_THEN_MORE = re.compile(r"\?[?!]*+\s++[a-z]")


def asks_a_question(line: str) -> bool:
    """Whether a line (refused: the caller asks of those) asks something: it ends on a
    question mark, starts with a question word (`Wieso war mein Zug ungültig`), or goes on
    after a question mark (`Wieso …?? Es stand doch nirgends …`) without starting as an order
    does (`Straße 6L 5L? oder 6L 4L`: a doubt beside an order, the remarks' business)."""
    if line.rstrip().endswith("?"):
        return True
    folded = Text(line[:MAX_LINE_CHARS]).folded
    words = _letter_words(folded[:40])
    if not words:
        return False
    if words[0] in _QUESTION_WORDS:
        return True
    from .game_words import every_game_words

    game = every_game_words()
    order = words[0] in game.keyword_starts or words[0] in game.build_starts
    return not order and _ASKED_THEN_MORE.search(folded) is not None


_SUBSTITUTE = _kw("substitute", r"\s*+:?+\s*+(?P<rest>)")


def scan_line(text: str) -> Item | None:
    """What a line says that needs no board: a header (`Spiel:`, `Name:`, `Farben:`), a
    password, a message, absence or time-zone line, a confirmation, a round line or a command;
    None for anything else (an order, a heading, a line not understood). Read as `parse_line`
    reads it, at a fraction of the cost: a mail is scanned so before its sender is known to be
    a player (`scan_mail`), and only a mail with a right password is read in full. Raises the
    errors of those lines, as `parse_line` does, but for a `Farben:` line with words that are
    not colours: its colours are kept, and those words (`ColourPreference.unknown`), for the
    signup's answer to name."""
    _, f, item = _board_free(text, BASE_WORDS, lenient=True)
    if item is not None:
        return item
    if _FOR_A_SEVEN.match(f):
        return None
    kind = heading_kind(f)
    if kind in ("substitute", "main") or _SUBSTITUTE.match(f):
        return None
    if kind == "plain" and not _names_an_order(f, BASE_WORDS):
        return None
    colon = f.find(":")
    if colon > 0 and f[colon + 1 :].strip() and heading_kind(f[: colon + 1]) == "substitute":
        return None  # `Ersatzbau: …` (`_headed`): an order
    return _command(f)


def parse_line(text: str, ctx: Context) -> Item:
    """The item a (cleaned) line stands for; raises an OrderError subclass otherwise.

    A line refused for a good's letters where the bank or a card takes resources only
    (`Seehandel 4 St gegen 1H`: Stoff, a good; Stein is `S`), or for a letter of two with a
    blank after its count (`gebe 4 St`: Stoff or Stein?), is refused with a question back
    that names the line to copy for each card it may mean (`_asked_back`)."""
    try:
        return _parse_line(text, ctx)
    except NotationError as e:
        if not ctx.kron or ctx.read_as or e.key not in _ASKED_BACK:
            raise
        asked = _asked_back(text, ctx, e)
        if asked is None:
            raise
        raise asked from None


#: The refusals that may be asked back with the lines to copy, by what refused the line.
_ASKED_BACK = {
    "goods_not_with_bank": "bank",
    "monopoly_no_goods": "monopoly",
    "letters_with_count": "letters",
    "letters_by_name": "letters",
}


def _twins(lang: str) -> dict[str, int]:
    """A good's letters that begin a resource's name in the game's language, with that
    resource: German `St` (Stoff) and Stein, English `Br` (bread) and brick."""
    letters = vocab.letters(lang, True)
    out = {}
    for g in GOODS:
        low = letters[g].lower()
        for r in range(N_KRON_RESOURCES):
            if len(low) > 1 and fold(vocab.resource_name(r, lang))[0].startswith(low):
                out[low] = r
    return out


#: Kronlande's letters of two (every language's), folded.
_LETTERS_OF_TWO = sorted({x.lower() for kron in KRON_LETTERS.values() for x in kron if len(x) == 2})
#: Those letters as a word of a line (folded): not inside a word, no full stop after (`St.`
#: is Stück).
_CARD_LETTERS = {w: re.compile(rf"(?<![a-z]){w}(?![\w.])") for w in _LETTERS_OF_TWO}


def _card_letters(folded: str, w: str, blank: bool) -> tuple[int, int] | None:
    """Where the letters `w` stand as a card's in a folded line, with their count before them
    (`4St`, `4 St`), or None. `blank`: only with a count and a blank (`4 St`)."""
    for m in _CARD_LETTERS[w].finditer(folded):
        start = m.start()
        spaced = start >= 2 and folded[start - 1] == " " and folded[start - 2].isdecimal()
        if blank and not spaced:
            continue
        start -= 1 if spaced else 0
        while start > 0 and folded[start - 1].isdecimal():
            start -= 1
        return start, m.end()
    return None


def _asked_back(text: str, ctx: Context, error: NotationError) -> NotationError | None:
    """The question back for a line `error` refused (`parse_line`), or None when the line
    reads no better with its letters taken as a card."""
    from .format import format_item

    kind = _ASKED_BACK[error.key or ""]
    folded, index = fold(text)
    letters = [x.lower() for x in vocab.letters(ctx.lang, True)]
    twins = _twins(ctx.lang)
    if kind == "letters":
        # A letter of two after its count and a blank (`4 St`): alone, or with a full stop
        # (`2 St. Holz`, two pieces of wood), it may be an ordinary word, and the refusal says
        # how to write a card instead.
        candidates = [w for w in letters if len(w) > 1]
        blank = True
    else:
        # A good's letters where the bank or a monopoly takes resources only, however spaced.
        candidates, blank = list(twins), False
    found = [(w, at) for w in candidates if (at := _card_letters(folded, w, blank)) is not None]
    if not found:
        return None
    shown, (start, end) = found[0]
    shown_text = text[index[start] : index[end - 1] + 1]
    readings = [(shown, letters.index(shown))] if kind == "letters" else []
    readings += [(shown, twins[shown])] if shown in twins else []
    lines: list[tuple[int, str]] = []
    for w, r in readings:
        try:
            item = _parse_line(text, replace(ctx, read_as=((w, r),)))
        except OrderError:
            continue
        if isinstance(item, MaritimeTrade) and item.give == item.get:
            continue  # `Seehandel 4St gegen 1S`: no trade either way
        lines.append((r, format_item(item, ctx)))
    if not lines:
        return None
    name = vocab.resource_name
    if kind == "letters" and len(lines) == 2:
        (first, first_line), (second, second_line) = lines
        return NotationError.make(
            "letters_ask_two",
            shown=shown_text,
            first=name(first, ctx.lang),
            first_line=first_line,
            second=name(second, ctx.lang),
            second_line=second_line,
            column=error.column,
        )
    (card, line), *_ = lines
    if kind == "letters":
        return NotationError.make(
            "letters_ask_one",
            shown=shown_text,
            name=name(card, ctx.lang),
            line=line,
            column=error.column,
        )
    good, resource = name(letters.index(shown), ctx.lang), name(card, ctx.lang)
    if kind == "monopoly":
        return NotationError.make(
            "good_in_monopoly_ask",
            shown=shown_text,
            good=good,
            resource=resource,
            line=line,
            column=error.column,
        )
    return NotationError.make(
        "good_at_bank_ask",
        shown=shown_text,
        good=good,
        resource=resource,
        line=line,
        column=error.column,
    )


def _parse_line(text: str, ctx: Context) -> Item:
    t, f, item = _board_free(text, ctx.words)
    if isinstance(item, RoundGuard) and ctx.phase == "setup":
        # `Runde 2:` over placements: the setup's second round, the writer's second placement.
        placement = placement_heading(f.strip())
        if placement is not None:
            return placement
    if item is not None:
        return item
    m = _FOR_A_SEVEN.match(f) or _seven_then_keyword(f)
    if m:
        return _for_a_seven(t.sub(m.end()), ctx)
    kind = heading_kind(f)
    if ctx.phase == "setup" and kind is not None:
        # `Zweite Siedlung:` over the placements for the writer's second turn.
        placement = placement_heading(f.strip())
        if placement is not None:
            return placement
    if kind == "substitute" or _SUBSTITUTE.match(f):
        return SubstituteHeader(names=piece_named(f))
    if kind == "main" or (kind == "plain" and not _names_an_order(f, ctx.words)):
        return Heading()
    headed = _headed(t, ctx)
    if headed is not None:
        return headed
    command = _command(f)
    if command is not None:
        return command
    if _is_pass(f, ctx.words):
        return Pass()
    rest = _or_prefix(t)
    if rest is not None:
        if ctx.phase == "setup":
            return _setup_line(rest, ctx)
        return OrElse(_one_build(rest, ctx))
    if kind == "unknown" and not _starts_with_keyword(f, ctx.words):
        raise NotationError.make("unknown_heading", shown=text.strip(), column=t.col(0))
    timed = _timing_first(t, ctx)
    if timed is not None:
        return timed
    if ctx.phase == "setup" and later_labelled(t.folded):
        # `Danach Siedlung …`, `Then I'll take …`: the lead word says which placement, read
        # before the lead words are passed over.
        return _setup_line(t, ctx)
    return _order(_without_verb(_without_leading_condition(t, ctx.words)), ctx)


#: A line that starts with when its card is played (`Vor dem Würfeln spiele ich einen Ritter:
#: …`, `Before rolling, play a knight: …`, `Nach dem Wurf: Monopol Erz`).
_TIMING_FIRST = re.compile(rf"(?P<timing>{_TIMING_WORDS})(?![a-z])\s*+[:,]?+\s*+")
_KNIGHT_WORD = re.compile(rf"(?:{_KW['knight']})(?![a-z])\s*+[:,]?+\s*+")


def _timing_first(t: Text, ctx: Context) -> Item | None:
    """The order of a line that starts with its card's timing: a knight read as `Ritter vor
    Wurf: …` (the timing where the knight's line has it), a monopoly, year of plenty or road
    building as without it (they are played after the roll anyway; before it is refused).
    None for a line that does not start so."""
    f = t.folded
    lead = len(f) - len(f.lstrip())
    m = _TIMING_FIRST.match(f, lead)
    if m is None:
        return None
    rest = _without_verb(t.sub(m.end()))
    rf = rest.folded
    at = len(rf) - len(rf.lstrip())
    knight = _KNIGHT_WORD.match(rf, at)
    if knight is not None:
        word = rest.sub(at, at + len(rf[at : knight.end()].rstrip(" :,"))).original
        timing = t.sub(m.start("timing"), m.end("timing")).original
        line = f"{word} {timing}: {rest.sub(knight.end()).original}"
        return _order(Text(line, t.offset), ctx)
    before = m.group("timing").startswith(_BEFORE_THE_ROLL)
    item = _order(rest, ctx)
    if before:
        raise NotationError.make("card_after_the_roll", column=t.col(m.start("timing")))
    return item


#: `Bei einer 7 werfe ich …`, `On a 7 discard …`: the lead of `_FOR_A_SEVEN` without its
#: colon or comma, where an order's keyword follows at once.
_SEVEN_BARE = re.compile(
    rf"(?:{lexicon.either('words', 'seven_leads')})\b[a-z ]{{0,30}}?\b"
    rf"(?:7|{lexicon.either('words', 'seven')})\b\s*+"
)
_SEVEN_KEYWORDS = lexicon.word_set("keywords", "discard") | lexicon.word_set("keywords", "robber")


def _seven_then_keyword(f: str) -> re.Match[str] | None:
    m = _SEVEN_BARE.match(f)
    if m is None:
        return None
    words = _letter_words(f[m.end() : m.end() + 40])
    return m if words and words[0] in _SEVEN_KEYWORDS else None


def _for_a_seven(rest: Text, ctx: Context) -> Item:
    item = _order(_strip_words(_without_verb(rest), _HEX_ARTICLES), ctx)
    if not isinstance(item, (RobberOrder, DiscardPreference)):
        raise NotationError.make("seven_only_robber", column=rest.col(0))
    return item


#: Besides the order keywords and build words, what makes a line ending in `:` an order,
#: never a heading to pass over (`Buy a card:`).
_ORDER_NOUNS = lexicon.word_set("places", "order_nouns")


def _names_an_order(f: str, game: GameWords) -> bool:
    """`Spiele Ritter vor dem Wurf:`, `Kaufe Entwicklungskarte:`, `Build a city:`: a line in
    heading form that names an order (read as one, and refused if it is not complete)."""
    starts, keywords = game.build_starts, game.keyword_starts
    return _starts_with_keyword(f, game) or any(
        w in starts or w in keywords or w in _ORDER_NOUNS for w in _letter_words(f)
    )


#: `Karte …` / `card …` (also `die Karte`, `the card`) before the card played.
_CARD_LEAD = re.compile(
    rf"(?:(?:{lexicon.either('places', 'card_lead_articles')}) )?+"
    rf"(?:{lexicon.either('places', 'card_lead')})(?:\s*+:\s*+|\s++)"
)
#: The cards a line plays (knight, monopoly, year of plenty, road building, Kronlande's project
#: cards): after `Karte`/`card` they are that card, never a card bought.
_PLAYED_CARDS = (
    "monopoly",
    "plenty",
    "road_building",
    "builders_hut",
    "harbour_privilege",
    "feast",
)


def _without_card_word(t: Text) -> Text:
    """`Karte Hafenprivileg spielen`, `Play card Feast: bread`, `Spiele Karte Erfindung: Holz,
    Erz`: the word `Karte`/`card` before a card that is played names that card (its verb is
    gone already), so it is passed over, never read as a card purchase. `Karte kaufen, …`,
    `Karte, Erfindung …` keep it: a purchase, then the card."""
    f = t.folded
    lead = len(f) - len(f.lstrip())
    m = _CARD_LEAD.match(f, lead)
    if m is None:
        return t
    rest = f[m.end() :]
    if _KNIGHT.match(rest) or any(_PATTERNS[k].match(rest) for k in _PLAYED_CARDS):
        return t.sub(m.end())
    return t


def _order(t: Text, ctx: Context) -> Item:
    """An order line without its header words: knight, robber, discard, trade, monopoly, or
    build lines (setup placements in the setup)."""
    t = _without_card_word(_without_condition(t, ctx.words))
    f = t.folded.strip()
    m = _KNIGHT.match(f)
    if m:
        return _knight(t, m, ctx)
    m = _PATTERNS["robber"].match(f)
    if m:
        return _robber(t.sub(m.start("rest")), ctx)
    m = _PATTERNS["pirate"].match(f)
    if m:
        return _pirate(t.sub(m.start("rest")), ctx)
    m = _PATTERNS["discard"].match(f) or _IF_DISCARDING.match(f)
    if m:
        return _discard(t.sub(m.start("rest")), ctx)
    trade = _trade_or_bank(t, ctx)
    if trade is not None:
        return trade
    m = _PATTERNS["monopoly"].match(f)
    if m:
        return _monopoly(t.sub(m.start("rest")), ctx)
    m = _PATTERNS["gold"].match(f)
    if m and ctx.phase != "setup":
        return _gold(t, m, ctx)
    if ctx.phase == "setup":
        return _setup_line(t, ctx)
    return _build_line(t, ctx)
