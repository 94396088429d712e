"""A whole mail → line results and the orders they add up to.

One bad line never hides the others: every line gets its own result, and the orders are built
from the good lines only. Build lines after `Ersatzbau:` (or a heading of its family) form the
substitute block; build lines under a heading that is not understood are refused, never taken
as main builds. At most `MAX_MAIL_LINES` lines are read (see `limits.py`).

Each line is also read with the other language's resource letters: a line that fits only those
is refused with its reading in the game's letters to copy, and when a mail shows such letters,
a line that reads differently with them (`L`: Lehm or Lumber) is refused too.

The results are defined in `results.py` and put together into orders in `assemble.py`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from pbm import languages

from . import lexicon, vocab
from .assemble import _assemble, _take_command
from .clean import commented_lines, iter_clean_lines
from .context import Context
from .errors import NotationError, OrderError
from .format import format_item, word
from .items import (
    ColourPreference,
    Command,
    Confirmation,
    GameName,
    Item,
    Pass,
    Password,
    PlayerName,
    Press,
    RoundGuard,
)
from .limits import MAX_LINE_CHARS, MAX_MAIL_LINES
from .lines import parse_line, scan_line, starts_a_message
from .press import message_text
from .refusals import setup_form_key
from .results import _NOT_ORDERS, LineResult, ParsedMail, _Read
from .setup import LEFT_OUT
from .text import simple

# What other modules and tests import from here (most of it from the modules imported above).
__all__ = ["SCAN_CHARS", "LineResult", "ParsedMail", "parse_mail", "scan_mail"]


def _shown(text: str) -> str:
    """A line as its result shows it: an over-long one cut at the cap, so that the answer to a
    mail never repeats a huge line."""
    return text if len(text) <= MAX_LINE_CHARS else text[:MAX_LINE_CHARS] + "…"


#: The languages whose resource letters a line is read with besides the game's, in the order
#: tried: the languages' order (`pbm.languages`), German and English first (between them the
#: question was asked before Danish was a game language, and a German or English game asks it
#: as it did), then Danish.
_LETTER_LANGUAGES = languages.names()


def _other_contexts(ctx: Context) -> tuple[Context, ...]:
    """The game read with each other language's resource letters (H L W G E, L B W G O,
    T L U K M): the languages whose letters are not the game's."""
    mine = vocab.letters(ctx.lang, ctx.kron)
    return tuple(
        replace(ctx, lang=lang)
        for lang in _LETTER_LANGUAGES
        if vocab.letters(lang, ctx.kron) != mine
    )


def _read_other(
    line: str, item: Item | None, error: OrderError | None, others: tuple[Context, ...]
) -> tuple[Item, str] | None:
    """The line read with the first other language's letters that read it as another order
    than the game's: that order and the language."""
    if isinstance(item, (*_NOT_ORDERS, Pass)) or (
        error is not None and error.key == "line_too_long"
    ):
        return None
    for other in others:
        try:
            alt = parse_line(line, other)
        except OrderError:
            continue
        if alt != item and not isinstance(alt, (*_NOT_ORDERS, Pass)):
            return alt, other.lang
    return None


def parse_mail(body: str, ctx: Context, subject: str | None = None) -> ParsedMail:
    """Parse a mail body (and a subject that may hold a command) line by line.

    Never raises: every problem is a line result. Reads at most `MAX_MAIL_LINES` lines; when
    there are more, one further result refuses the rest, which is not looked at.
    """
    out = ParsedMail()
    if subject:
        _subject(subject, ctx, out)
    others = _other_contexts(ctx)
    read: list[_Read] = []
    stops: list[str] = []
    source = _Lines(iter_clean_lines(body, stops))
    split: list[list[str]] = []

    def body_lines() -> list[str]:
        """The body's lines, split once (a join past blank lines looks at them)."""
        if not split:
            split.append(body.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
        return split[0]

    count = 0
    while (taken := source.next()) is not None:
        number, line = taken
        text = _shown(line)
        result = LineResult(number, text)
        if count == MAX_MAIL_LINES:
            rest = NotationError.make("rest_not_read", max=MAX_MAIL_LINES)
            read.append(_Read(result, None, rest))
            break
        count += 1
        left_out: list[OrderError] = []
        token = LEFT_OUT.set(left_out)
        try:
            item, error = _parsed(line, ctx)
        finally:
            LEFT_OUT.reset(token)
        if item is not None and left_out:
            # A ranked setup line whose unreadable options were passed over: said beside it.
            result.left_out = [e.localized(ctx.lang) for e in left_out]
        if error is not None and _unfinished(line):
            joined = _joined(line, number, source, ctx, body_lines)
            if joined is not None:
                line, item, error = joined
                result = LineResult(number, _shown(line))
            elif not _followed(source, number):
                # Nothing follows it: the option after `oder` is missing (a next line that
                # does not read as one keeps the line's own refusal).
                error = _dangling_or(line, ctx) or error
        elif error is not None and error.key == setup_form_key("setup_form", ctx):
            below = _road_below(line, number, source, ctx)
            if below is not None:
                line, item, error = below
                result = LineResult(number, _shown(line))
        alt = _read_other(line, item, error, others) if error is not None else None
        read.append(_Read(result, item, error, alt, line))
        if isinstance(item, Press):
            # The rest of the mail is the message: not orders, not read as such.
            out.press_text = message_text(item.first, body, number)
            break
        if error is not None and starts_a_message(line):
            # A message to someone not understood (`Nachricht an Carol: …`): refused, and the
            # rest is still the message, never orders.
            break
    out.forwarded = "forwarded" in stops
    _other_letters(read, ctx, others)
    _assemble(read, ctx, out)
    out.commented = _commented_orders(body, ctx)
    return out


#: The order form's lines that are a whole order as they stand (`reports.order_form`).
_FORM_LINES_ALONE = ("buy", "builders_hut", "harbour_privilege")


def _commented_orders(body: str, ctx: Context) -> list[tuple[int, str]]:
    """The player's `#` lines that read as an order without their `#` (`# Räuber E3, raube
    gelb`: the order form's line filled in, its `#` left): (line, the order's canonical
    form). A form line not filled in (`# Straße <Pfad>`) reads as none."""
    out = []
    # The form's lines that hold no placeholder (`# Entwicklungskarte`, `# Buy card`): as the
    # form sends them, not filled in.
    unfilled = {word(key, ctx.lang).casefold() for key in _FORM_LINES_ALONE}
    for number, text in commented_lines(body):
        if not text or "<" in text or text.strip().casefold() in unfilled:
            continue
        try:
            item = parse_line(text, ctx)
        except OrderError:
            continue
        if not isinstance(item, _NOT_A_CONTINUATION):
            out.append((number, format_item(item, ctx)))
    return out


#: A line that ends on `oder` / `or` / `eller` (a phone's line broken after it): its
#: alternative is the next line.
_ENDS_ON_OR = re.compile(rf"(?:^|\s)(?:{lexicon.either('words', 'or_within')})$")
#: What a line that ends an order's alternative may not be: a line of its own kind, which is
#: never joined to the line above (a password, a command, a heading, a message, a pass, …).
_NOT_A_CONTINUATION = (*_NOT_ORDERS, Pass)


class _Lines:
    """The cleaned lines, with a look at the next ones and a way to give lines back."""

    def __init__(self, lines: Iterator[tuple[int, str]]) -> None:
        self._lines = lines
        self._back: list[tuple[int, str]] = []

    def next(self) -> tuple[int, str] | None:
        if self._back:
            return self._back.pop()
        return next(self._lines, None)

    def give_back(self, taken: list[tuple[int, str]]) -> None:
        self._back.extend(reversed(taken))


def _parsed(line: str, ctx: Context) -> tuple[Item | None, OrderError | None]:
    try:
        return parse_line(line, ctx), None
    except OrderError as e:
        return None, e


def _unfinished(line: str) -> bool:
    """Whether a line stops in the middle of its order: after `oder`, or inside a bracket (a
    remark after `#` and a message are never continued)."""
    if len(line) > MAX_LINE_CHARS or "#" in line or starts_a_message(line):
        return False
    return bool(_ENDS_ON_OR.search(simple(line))) or line.count("(") > line.count(")")


def _followed(source: _Lines, number: int) -> bool:
    """Whether a line of text comes right after line `number` (looked at, given back)."""
    following = source.next()
    if following is None:
        return False
    source.give_back([following])
    return following[0] == number + 1


def _joined(
    line: str, number: int, source: _Lines, ctx: Context, body_lines: Callable[[], list[str]]
) -> tuple[str, Item | None, OrderError | None] | None:
    """A line refused as it stands, read with the lines after it that finish it: after `oder`
    (`Stadt B2 B3 C3 oder` / `Stadt C4 C5 D5`), or inside a bracket (pbm's canonical form
    hard-wrapped by a mail client: `Stadt B2 B3 C3 (5E 8L` / `10H)`), over as many lines as
    the chain goes on, up to `_MAX_JOINED` joined to the first. Only lines that follow each
    other (after `oder` a blank line or two may stand between: a phone's Return pressed
    twice), none of a kind of its own (a
    password, a command, a heading, a message, a remark), and only if the whole reads right:
    else the lines are read apart, as they were written. (The joined line's result has the
    first line's number.)"""
    taken: list[tuple[int, str]] = []
    joined, last, used = line, number, 0
    while _unfinished(joined) and used < _MAX_JOINED:
        following = source.next()
        if following is None:
            break
        taken.append(following)
        n, text = following
        if n != last + 1 and not _blank_between(joined, body_lines, last, n):
            break
        if len(joined) + 1 + len(text) > MAX_LINE_CHARS or "#" in text:
            break
        alone, failed = _parsed(text, ctx)
        if failed is None and isinstance(alone, _NOT_A_CONTINUATION):
            break
        if starts_a_message(text):
            break
        joined, last, used = f"{joined} {text}", n, used + 1
    # The lines looked at but not joined go back to be read on their own.
    source.give_back(taken[used:])
    if used == 0:
        return None
    item, error = _parsed(joined, ctx)
    if error is not None:
        source.give_back(taken[:used])
        return None
    return joined, item, None


def _road_below(
    line: str, number: int, source: _Lines, ctx: Context
) -> tuple[str, Item | None, OrderError | None] | None:
    """A setup settlement with its road on the next line (`Siedlung 6L 5L 4G` / `Straße 6L
    5L`): read as one placement when the two read right together, else given back."""
    following = source.next()
    if following is None:
        return None
    n, text = following
    if n == number + 1 and len(line) + 1 + len(text) <= MAX_LINE_CHARS and "#" not in text:
        joined = f"{line} {text}"
        item, error = _parsed(joined, ctx)
        if error is None:
            return joined, item, None
    source.give_back([following])
    return None


#: Lines joined to one at most (a build with three `oder` options wrapped on a phone): each
#: line of a mail is tried as the start of a chain, so a chain's length bounds the work a mail
#: of `oder` lines costs (without a bound, 300 of them took seconds).
_MAX_JOINED = 4
#: Blank lines that may stand between a line ending on `oder` and its other option.
_MAX_BLANK_AFTER_OR = 2


def _blank_between(joined: str, body_lines: Callable[[], list[str]], last: int, n: int) -> bool:
    """Whether only blank lines stand between line `last`, which ends on `oder`, and line
    `n` (1-based numbers of the body's lines, as `iter_clean_lines` counts them)."""
    if not 0 < n - last - 1 <= _MAX_BLANK_AFTER_OR or not _ENDS_ON_OR.search(simple(joined)):
        return False
    lines = body_lines()
    return all(not lines[k].replace("\u00a0", " ").strip() for k in range(last, n - 1))


def _dangling_or(line: str, ctx: Context) -> OrderError | None:
    """The refusal of a line that ends on `oder` with no other option after it (`Stadt B2
    B3 C3 oder` and nothing more): what is wrong before the `oder`, else that the option
    after it is missing. None for a line that does not end so."""
    m = _ENDS_ON_OR.search(simple(line))
    if m is None:
        return None
    # The `oder` may be words (`… falls nicht`, `… if not`): all of them are cut off.
    parts = line.rstrip().rsplit(None, len(m.group(0).split()))
    if len(parts) < 2 or not parts[0].strip():
        return None
    _, error = _parsed(parts[0].rstrip(), ctx)
    return error or NotationError.make("ends_on_or", word=" ".join(parts[1:]))


def _german_english(game_lang: str, their_lang: str) -> bool:
    """Whether the game and the letters read are German's and English's: the refusals of the
    two languages that name both sets of letters in their text."""
    pair = {vocab.letters(game_lang), vocab.letters(their_lang)}
    return pair == {vocab.letters("de"), vocab.letters("en")}


#: The languages with refusals that name their letters ("the Danish resource letters"); a
#: language added from data alone has no text naming it and gets one that names no language.
_NAMED = ("de", "en", "da")


def _letters_of(lang: str) -> str:
    """The language among those with texts of their own whose letters `lang` uses ("" for
    none: a language added from data alone, with letters of its own)."""
    mine = vocab.letters(lang)
    return next((named for named in _NAMED if vocab.letters(named) == mine), "")


def _only_other_letters(
    game_lang: str, suggestion: str, kron: bool = False, their_lang: str | None = None
) -> NotationError:
    """A line that reads only with another language's resource letters (Kronlande's ten
    letters in a Kronlande game); `their_lang`: that language (the other of German and
    English when not given)."""
    english_game = vocab.letters(game_lang) == vocab.letters("en")
    if their_lang is not None and not _german_english(game_lang, their_lang):
        # Danish letters, or a Danish game: the texts name both sets of letters.
        theirs = " ".join(vocab.letters(their_lang, kron))
        ours = " ".join(vocab.letters(game_lang, kron))
        named = _letters_of(their_lang)
        if named == "da":
            return NotationError.make(
                "danish_letters", theirs=theirs, ours=ours, suggestion=suggestion
            )
        if named == "en":
            return NotationError.make(
                "english_letters_other", theirs=theirs, ours=ours, suggestion=suggestion
            )
        if named == "de":
            return NotationError.make(
                "german_letters_other", theirs=theirs, ours=ours, suggestion=suggestion
            )
        return NotationError.make("other_letters", theirs=theirs, ours=ours, suggestion=suggestion)
    if kron and english_game:
        return NotationError.make("german_letters_kron", suggestion=suggestion)
    if kron:
        return NotationError.make("english_letters_kron", suggestion=suggestion)
    if english_game:
        return NotationError.make("german_letters", suggestion=suggestion)
    return NotationError.make("english_letters", suggestion=suggestion)


def _other_letters_elsewhere(
    game_lang: str, mine: str, theirs: str, their_lang: str | None = None
) -> NotationError:
    """A line that reads differently with another language's letters, in a mail that uses
    them elsewhere."""
    if their_lang is not None and not _german_english(game_lang, their_lang):
        # Danish letters in an English game, English ones in a Danish game: `L` is brick in
        # Danish, lumber in English. (German and Danish letters never read differently: `L`
        # is brick in both, and Kronlande's `S F St Br` are the same cards.)
        named = _letters_of(their_lang)
        if named == "da":
            return NotationError.make("danish_letters_elsewhere", mine=mine, theirs=theirs)
        if named == "en":
            return NotationError.make("english_letters_other_elsewhere", mine=mine, theirs=theirs)
        return NotationError.make("other_letters_elsewhere", mine=mine, theirs=theirs)
    if vocab.letters(game_lang) == vocab.letters("en"):
        return NotationError.make("german_letters_elsewhere", mine=mine, theirs=theirs)
    return NotationError.make("english_letters_elsewhere", mine=mine, theirs=theirs)


#: Refusals of a line read in the game's letters, for what it says: never put down to the other
#: language's letters (`Seehandel 4St gegen 1W` in a German game names Stoff, which no bank
#: takes; with the English letters it would be another order, 4 Stein).
_READ_IN_THE_GAMES_LETTERS = frozenset(
    [
        "rest_not_read",
        "goods_not_with_bank",
        "monopoly_no_goods",
        "make_goods",
        # Asked back with the lines to copy already (`lines.parse_line`).
        "letters_ask_two",
        "letters_ask_one",
        "good_at_bank_ask",
        "good_in_monopoly_ask",
    ]
)


def _other_letters(read: list[_Read], ctx: Context, others: tuple[Context, ...]) -> None:
    """A line that fits only another language's letters is refused with its reading to copy;
    if the mail has such a line, a line that reads differently with those letters is refused
    too (the player may mean either). `others`: the game read with each other language's
    letters (`_other_contexts`)."""
    foreign: list[str] = []
    for r in read:
        if (
            r.error is not None
            and r.other is not None
            and r.error.key not in _READ_IN_THE_GAMES_LETTERS
        ):
            alt, lang = r.other
            suggestion = format_item(alt, ctx)
            r.error = _only_other_letters(ctx.lang, suggestion, ctx.kron, lang)
            if lang not in foreign:
                foreign.append(lang)
    if not foreign:
        return
    # Only the languages whose letters the mail used elsewhere.
    used = tuple(o for o in others if o.lang in foreign)
    for r in read:
        if r.error is None and r.item is not None:
            r.other = _read_other(r.line, r.item, None, used)
        if r.error is None and r.other is not None and r.item is not None:
            alt, lang = r.other
            r.error = _other_letters_elsewhere(
                ctx.lang, format_item(r.item, ctx), format_item(alt, ctx), lang
            )
            r.item = None


def _subject(subject: str, ctx: Context, out: ParsedMail) -> None:
    """A subject may be a command (`Anmeldung`, `Hilfe`) or `Spiel: name`; replies' `Re:`
    prefixes are dropped. Anything else in the subject is not an order and is ignored, and so
    is a subject longer than a line may be. A confirmation code is never taken from it: an
    auto-reply repeats the subject of the mail it answers."""
    text, tagged = _subject_text(subject)
    try:
        item = parse_line(text, ctx) if text else None
    except OrderError:
        return
    _subject_item(item, out, tagged)


#: What mail clients put before a subject they answer or forward, and the game's `[name]` tag
#: of pbm's own subjects: `Re:`, `AW:`, `Antw:`, `SV:` and `VS:` (Danish), `Fwd:`, `WG:`,
#: `TR:`, `RV:`, `RE :` (French spacing), `Re[2]:`, `Re^2:`, `[alpha]`, `[EXTERN]`, in any
#: order and number. (Bounded words and tags: linear on any subject.)
_SUBJECT_PREFIXES = re.compile(
    r"(?:(?:re|aw|antw|sv|vs|fwd?|wg|tr|rv|odp)\s?(?:\[\d{1,4}\]|\^\d{1,4}|\(\d{1,4}\))?\s?:"
    r"|\[(?P<tag>[^\[\]]{0,100})\])\s*",
    re.IGNORECASE,
)
#: A subject of one word, perhaps a polite one beside it (`Anmeldung`, `Join`, `Hilfe`,
#: `Anmeldung bitte`): what a player writes under a bare `[game]` tag.
_BARE_COMMAND = re.compile(
    r"(?:(?:bitte|please|venligst) )?[a-z]+(?: (?:bitte|please|tak|venligst))?[.!]?"
)
#: The commands a reply to one of pbm's own mails (its subject tagged `[game]`) asks again:
#: the answers. A reply in the thread of `[alpha] Anmeldung erhalten` is no new signup.
_ASKED_AGAIN = frozenset(("help", "status", "players", "history"))


def _subject_text(subject: str) -> tuple[str, bool]:
    """A subject without its reply prefixes and `[…]` tags (`_SUBJECT_PREFIXES`), and whether
    it answers one of pbm's own mails: a tag and a reply or forward prefix (`Re: [alpha] …`).
    A tag alone is a player naming the game in a new mail (`[alpha] Anmeldung`), as the
    guides offer. ("" when it is longer than a line may be.) The game a tag names is read by
    the service (`subject_tag`)."""
    text = subject.strip()
    if len(text) > MAX_LINE_CHARS:
        return "", False
    start, tag, replied = _prefixes(text)
    # pbm's own subjects say more than a command (`[alpha] Anmeldung erhalten`): an unmarked
    # responder that keeps one as it is answers pbm's thread, not a new request.
    bare = _BARE_COMMAND.fullmatch(simple(text[start:])) is not None
    return text[start:], tag is not None and (replied or not bare)


def subject_tag(subject: str) -> str:
    """The `[…]` tag nearest the subject's text among its leading prefixes and tags: pbm's
    `[game]` in a reply (`Re: [alpha] Hilfe`), also after a server's own tag (`[EXTERN] Re:
    [alpha] …`); "" for none."""
    return _prefixes(subject.strip()[:MAX_LINE_CHARS])[1] or ""


def _prefixes(text: str) -> tuple[int, str | None, bool]:
    """Where the text after the leading prefixes and tags starts, the last non-empty tag
    among them ("" for only empty ones, None for no tag), and whether a reply or forward
    prefix was among them. Cut at an index, not by splitting the rest again for each prefix:
    `Re: ` may repeat."""
    start, tag, replied = 0, None, False
    while match := _SUBJECT_PREFIXES.match(text, start):
        start = match.end()
        if (found := match.group("tag")) is not None:
            tag = found.strip() or tag or ""
        else:
            replied = True
    return start, tag, replied


def _subject_item(item: Item | None, out: ParsedMail, tagged: bool = False) -> None:
    if isinstance(item, Command):
        if tagged and item.name not in _ASKED_AGAIN:
            return  # the subject of pbm's own mail, answered: not asked again
        _take_command(item, out)
    elif isinstance(item, GameName):
        out.game = item.name


def scan_mail(body: str, subject: str | None = None) -> ParsedMail:
    """What a mail says that needs no board: its commands, password, confirmation code, game,
    round, name and colour wishes (`scan_line`), as `parse_mail` reads them, but no orders
    (`lines` stays empty). This is all that is read of a mail before its password is known to
    be right: a stranger's mail costs a scan, never a parse against a board."""
    out = ParsedMail()
    if subject:
        text, tagged = _subject_text(subject)
        with contextlib.suppress(OrderError):
            _subject_item(scan_line(text) if text else None, out, tagged)
    stops: list[str] = []
    for _, item in _scanned(iter_clean_lines(_short_lines(body), stops)):
        if isinstance(item, Press):
            break  # the rest of the mail is the message
        if item is not None:
            _take(item, out)
    out.forwarded = "forwarded" in stops
    return out


def _scanned(lines: Iterator[tuple[int, str]]) -> Iterator[tuple[int, Item | None]]:
    """Each clean line's number and what `scan_line` reads of it (None for an order or a line
    not understood), up to `MAX_MAIL_LINES`; ends at a line that starts a message to someone
    not understood (`Nachricht an Carol: …`): the rest is that message, never anything else."""
    for count, (number, line) in enumerate(lines):
        if count == MAX_MAIL_LINES:
            return
        try:
            item = scan_line(line)
        except OrderError:
            if starts_a_message(line):
                return
            continue
        yield number, item


def message_to_gm(body: str) -> str | None:
    """The message to the game master a mail holds (`An Spielleitung:` / `To GM:` and the lines
    below it, as `parse_mail` takes them); None when it holds none. Read only for a seated
    player's mail whose password was missing or wrong: a player who lost the password must
    still reach the game master (`service.authentication.bad_password`)."""
    for number, item in _scanned(iter_clean_lines(body)):
        if isinstance(item, Press):
            return message_text(item.first, body, number) if item.to == "gm" else None
    return None


#: What of a line `scan_line` reads: more than any line it looks for needs (a password, a
#: name of at most 40 characters, a game of at most 100, colour wishes, a command).
SCAN_CHARS = 160


def _short_lines(body: str) -> str:
    """The body with every line cut to its first `SCAN_CHARS` characters: cleaning a long line
    costs many times what a stranger's mail may cost, and nothing `scan_line` reads needs more
    of it. (A line cut so may read as what the whole line is not, `Hilfe` and blanks before
    junk; the scan may then answer what it should not have, never take a seat or an order:
    a password it finds is checked, and a mail with a right one is read in full.)"""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line if len(line) <= SCAN_CHARS else line[:SCAN_CHARS] for line in lines)


def _take(item: Item, out: ParsedMail) -> None:
    """A scanned line's item into the mail's fields, as `_accept` puts them."""
    if isinstance(item, Password):
        out.password = item.secret
    elif isinstance(item, Confirmation):
        out.confirm = item.token
    elif isinstance(item, GameName):
        out.game = out.game or item.name  # the first names the game the mail is for
    elif isinstance(item, RoundGuard):
        out.round = item.round
    elif isinstance(item, Command):
        _take_command(item, out)
    elif isinstance(item, PlayerName):
        out.name = item.name
    elif isinstance(item, ColourPreference):
        out.colours = item.colours
        out.colours_unknown = item.unknown
