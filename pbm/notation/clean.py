"""Cleaning a mail body before parsing: what players' mail clients add around their orders.

Ignored: quoted lines (`>`), blank lines, `#` comments, a greeting ("Hallo Spielleitung,") and a
heading that only announces the orders ("Meine Züge:"). The quote header above a quote ("Am …
schrieb …:", "On … wrote:", also wrapped over two lines, also K-9's "Anna <a@x.de> schrieb:") is
skipped when it stands above the player's text (a reply written below the quote), and ends the
player's text when it stands below it. Parsing stops at a signature separator (`-- `), at
`Ende`/`End`, at a closing ("Viele Grüße", "Cheers") or a phone's signature ("Von meinem iPhone
gesendet") after the orders, and at an unquoted forwarded or "Original Message" block or an
Outlook/GMX header block ("Von: …" / "Gesendet: …", in either order, with or without an
address), since all that follows is not the player's. Line numbers stay those of the body as
received, so errors point at the right line.

What a heading announces is read in `heading_kinds.py`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

from . import lexicon
from .heading_kinds import _words, heading_kind
from .limits import MAX_LINE_CHARS
from .text import simple

# What other modules and tests import from here (most of it from the modules imported above).
__all__ = ["clean_lines", "heading_kind", "iter_clean_lines"]


#: Mail programs write their lines in the reader's language, a language pbm may have no game in:
#: these are French, Spanish and Italian mail programs' (the game languages' are `[mail]` of
#: their files).
_ELSEWHERE_QUOTE_OPENINGS = ("le", "el", "il")
_ELSEWHERE_QUOTE_VERBS = ("a ecrit", "escribio", "ha scritto")
_ELSEWHERE_STOP_BLOCKS = ("message d'origine",)
_ELSEWHERE_DEVICE_SIGNATURES = ("envoye de", "enviado desde")


def _mail(key: str) -> tuple[str, ...]:
    return lexicon.words("mail", key)


#: The languages' openings and verbs of the one-line quote header ("Am …, Anna schrieb:").
_QUOTE_OPENINGS = tuple(f"{w} " for w in (*_mail("quote_openings"), *_ELSEWHERE_QUOTE_OPENINGS))
_QUOTE_VERBS = (*_mail("quote_verbs"), *_ELSEWHERE_QUOTE_VERBS)
#: Possessive quantifiers throughout: a failed match gives nothing back to try again, so every
#: pattern here runs in time linear in the line.
_STOP_BLOCK = re.compile(
    rf"^-{{2,}}+\s*+({lexicon.alternation((*_mail('stop_blocks'), *_ELSEWHERE_STOP_BLOCKS))})"
    r"\s*+-*+$"
)
#: Apple Mail's forwarded mail.
_FORWARDED = _mail("forwarded")
#: A `_STOP_BLOCK` that begins a forwarded mail (not a quoted original).
_FORWARD_WORDS = re.compile(lexicon.alternation(_mail("forward_words")))
_OUTLOOK_HEADER = re.compile(rf"^({lexicon.alternation(_mail('sender_fields'))}):\s.+")
#: One line of a header block that Outlook, GMX, web.de and phones put above a quoted mail:
#: `Von: Spielleitung`, `Gesendet: Montag, …`, `From: Game master`, `Sent: …`, `Datum: …`.
_HEADER_FIELD = re.compile(rf"^({lexicon.alternation(_mail('header_fields'))}):\s*+\S")
#: Outlook on the web draws a line of underscores above the quoted mail.
_RULE_LINE = re.compile(r"^_{10,}+$")
#: Gmail wraps a long quote header: "On …, Anna <a@x.de>" and "wrote:" on the next line, or
#: "… schrieb Anna <" and "a@x.de>:".
_QUOTE_HEAD_END = re.compile(rf"^({lexicon.alternation(_mail('quote_verbs'))})[^:]*+:$")
#: The opening of Gmail's wrapped quote header ("On …").
_QUOTE_WRAPPED_OPENINGS = tuple(f"{w} " for w in _mail("quote_wrapped_openings"))
#: A phone's or a mail program's signature line: the player's text ends above it.
_DEVICE_SIGNATURE = re.compile(
    "^("
    + lexicon.alternation(
        f"{w} " for w in (*_mail("device_signatures"), *_ELSEWHERE_DEVICE_SIGNATURES)
    )
    + ")"
)
_END = {form for w in _mail("end") for form in (w, f"{w}.")}
#: A signature's separator line: `-- ` (RFC 3676), often stripped of its space, or the dash a
#: phone's smart punctuation makes of a typed `--` (iOS: an em dash; some keyboards: an en dash).
_SIGNATURE_MARKS = ("--", "\u2014", "\u2013")

#: The words a greeting starts with ("Hallo Spielleitung,", "Hi GM!", "Liebe Mitspieler,").
_GREETING_WORDS = frozenset(_mail("greetings"))
#: The closings a mail ends with ("Viele Grüße, Anna", "LG", "Cheers,", "Thanks!"), each as
#: its words.
_CLOSINGS = frozenset(tuple(c.split()) for c in _mail("closings"))
#: Words before "Grüße" in a closing ("Viele Grüße", "Liebe Grüße").
_CLOSING_LEADS = frozenset(_mail("closing_leads"))

#: Characters a mail client or a copy from the web leaves in a line without showing them:
#: zero-width spaces and joiners, the word joiner, a byte-order mark, the soft hyphen.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)

#: The tags a text copied out of an HTML mail keeps (`<br>`, `<b>…</b>`): nothing a player
#: writes in an order; each at most 200 characters, so the search stays linear.
_HTML_TAG = re.compile(
    r"</?+(?:br|p|div|span|b|i|u|strong|em|font|li|ul|ol|tt|code)(?=[\s/>])[^<>]{0,200}>",
    re.IGNORECASE,
)


def _without_html(line: str) -> str:
    """`Straße 3H 9H&nbsp;<br>` → `Straße 3H 9H `: entities and tags left by a client that
    turned HTML into text badly."""
    if "<" in line:
        line = _HTML_TAG.sub(" ", line)
    if "&" in line and ";" in line:
        # Decoded, but never into a line break, a control character or an invisible one.
        decoded = html.unescape(line).replace("\u00a0", " ").translate(_INVISIBLE)
        line = "".join(" " if ch < " " or "\x7f" <= ch <= "\x9f" else ch for ch in decoded)
    return line


def _greeting(s: str) -> bool:
    """ "Hallo Spielleitung,", "Hi GM!", "Liebe Mitspieler," (also "…, hier meine Züge:"); not
    "Hey, ich passe diese Runde!", which says more than hello."""
    words = _words(s)
    if not words or words[0] not in _GREETING_WORDS or any(map(str.isdigit, s)):
        return False
    cut = min((i for i in (s.find(","), s.find("!"), s.find(":")) if i >= 0), default=len(s))
    if len(_words(s[:cut])) > 4:
        return False
    rest = s[cut + 1 :].strip()
    if not rest:
        return cut < len(s) or len(words) <= 2
    return heading_kind(rest) == "main"


#: How many greetings and wishes before an order on its line are left out.
_GREETINGS_IN_A_ROW = 3


def _after_greeting(s: str, line: str, depth: int = 1) -> str | None:
    """ "Hi, road 6B 5B", "Hallo zusammen, Straße 6L 5L", "Hej! Vej 6L 5L", "Sorry, ich passe
    diese Runde": the order (or the pass) after a greeting or a wish on its own line (the
    line's text from there on, as written); None where the line is not a greeting or wish of a
    few words, a comma or "!", then an order's first word or a pass."""
    words = _words(s)
    # Every line of a mail comes here: most are let go by their first words alone.
    if not words or words[0] not in _CHATTER_STARTS:
        return None
    greeting = words[0] in _GREETING_WORDS
    wish = greeting or bool(_wish_size(words))
    # A comma, "!" or a sentence's full stop ends the greeting or the wish; the first that
    # makes one (`Dear Mr. Smith, road …`: not the abbreviation's full stop).
    # After chatter not a wish's or a greeting's (`Sorry, was ill. Road 6B 5B`), but never
    # after an interjection (`oops, road 6B 5B`): the player saw a mistake, and the line may
    # correct one that it does not name; it is refused, and the player says it plainly.
    chatty = depth == 1 and words[0] not in _INTERJECTIONS
    for cut in _greeting_ends(line):
        order = _after_head(line, cut, greeting, depth) if wish else None
        if order is None and chatty:
            order = _after_chatter(line, cut)
        if order is not None:
            return order
    return None


def _after_chatter(line: str, cut: int) -> str | None:
    """The order after a line's chatter (`_chatter`: thanks, a reason for the delay, an
    apology, greetings among them) ended by a comma, "!" or a full stop: `Sorry, was ill.
    Road 6B 5B`, `Thanks. Settlement 6E 4W 5H`, `Tak for hjælpen! Vej 6L 5L`. The chatter's
    own rules hold (no digit, colon or colour in it); the rest must start as an order does."""
    rest = line[cut + 1 :].strip()
    folded = simple(rest)
    if not (_ORDER_STARTS.match(folded) or _GREETING_ORDER_STARTS.match(folded)):
        return None
    return rest if _chatter(line[: cut + 1]) else None


def _greeting_ends(line: str) -> list[int]:
    """Where a greeting on `line` may end: its first three commas, "!" and full stops before a
    blank, in order."""
    ends: list[int] = []
    for mark in (",", "!", ". "):
        at = line.find(mark)
        while at >= 0 and len(ends) < 9:
            ends.append(at)
            at = line.find(mark, at + 1)
    return sorted(ends)[:3]


def _after_head(line: str, cut: int, greeting: bool, depth: int) -> str | None:
    """The order after the greeting or wish `line[:cut]`, None where it is not one."""
    head = line[:cut]
    head_words = _words(simple(head))
    if ":" in head or any(map(str.isdigit, head)) or len(head_words) > 4:
        return None
    if not (_plain_greeting(head) if greeting else _only_wishes(head_words)):
        return None
    # Imported here: these are read by the order readers, which read this module's words.
    from .game_words import every_game_words
    from .headings import _is_pass
    from .vocab import COLOUR_WORDS

    if any(w in COLOUR_WORDS for w in head_words):
        return None  # `Hallo gelb, Räuber 9H`: the colour greeted may be the victim meant
    rest = line[cut + 1 :].strip()
    if not rest:
        return None
    if _ORDER_STARTS.match(simple(rest)) or _GREETING_ORDER_STARTS.match(simple(rest)):
        return rest
    if depth < _GREETINGS_IN_A_ROW:
        # `Hi all. Sorry for the delay. Road 6B 5B`: a wish after the greeting.
        after = _after_greeting(simple(rest), rest, depth + 1)
        if after is not None:
            return after
    # A pass alone: `Sorry, ich passe, ich gebe auf` says more than the pass.
    alone = not any(ch in rest.rstrip(".!") for ch in ",.;?")
    return rest if alone and _is_pass(simple(rest), every_game_words()) else None


#: A word of a line as written (its capital tells a name).
_WRITTEN_WORD = re.compile(r"[^\W\d_]++")


def _plain_greeting(head: str) -> bool:
    """Whether a greeting says nothing else: its greeting word, then only words of a greeting
    (`zusammen`, `all`, `Mr`) or names, written capitalized (`Hi Anna`). `Hi not this round`,
    `Hallo erst nächste Runde`, `Hej ikke denne runde` say more: the order after it is not
    read without them."""
    words = _WRITTEN_WORD.findall(head)
    return all(
        w[:1].isupper() or (f := simple(w)) in _GREETING_WORDS or f in _GREETING_FILLERS
        for w in words[1:]
    )


#: Words after a closing that make it more than a closing ("Danke, ich passe").
_NOT_A_NAME = frozenset(_mail("not_a_name"))
#: The starts of a line that only wishes well or apologises ("Schönen Abend noch!", "Good
#: luck everyone", "Undskyld forsinkelsen"), each as its words; and the only words that may
#: follow one (any other makes the line more than a wish: "Sorry, ich gebe auf").
_WISHES = frozenset(tuple(w.split()) for w in _mail("wishes"))
_WISH_WORDS_AFTER = frozenset(_mail("wish_words"))
#: The most words a wish runs to: a longer line says more.
_WISH_WORDS = 12


def _wish(s: str) -> bool:
    """ "Have a good evening!", "Viel Glück allen!", "God aften!", "Sorry for the late
    orders": a line that wishes well or apologises and says nothing of the game: a wish's
    words, then only words of `wish_words`, at most a dozen, no digit and no colon (`Sorry,
    gestrichen:` heads the lines below it). Any other line is read as it always was."""
    if ":" in s or any(map(str.isdigit, s)):
        return False
    return _only_wishes(_words(s))


def _wish_size(words: list[str]) -> int:
    """How many of the first words make a wish's start (`viel glueck` 2), 0 for none."""
    return next((n for n in (3, 2, 1) if tuple(words[:n]) in _WISHES), 0)


def _only_wishes(words: list[str]) -> bool:
    """Words of a wish's start, then only `wish_words`, at most a dozen in all."""
    size = _wish_size(words)
    return (
        size > 0 and len(words) <= _WISH_WORDS and all(w in _WISH_WORDS_AFTER for w in words[size:])
    )


#: Chatter that stands on a line of its own (`_chatter`): interjections (`oops`, `lol`), the
#: phrases of thanks and what a thanks may name (`thanks for the answer about …`), reasons
#: given for a late mail (`was travelling`, `war krank`, `var syg`), each as its words, and the
#: line that only says the orders follow (`here are my orders`).
_INTERJECTIONS = frozenset(_mail("interjections"))
_THANKS = frozenset(tuple(p.split()) for p in _mail("thanks"))
_THANKED = frozenset(_mail("thanked"))
_TOPIC_LEADS = frozenset(_mail("topic_leads"))
_REASONS = frozenset(tuple(p.split()) for p in _mail("reasons"))
_ANNOUNCEMENTS = frozenset(tuple(p.split()) for p in _mail("announcements"))
_ANNOUNCEMENT_FILLERS = frozenset(_mail("announcement_fillers"))
#: Words that make a topic of thanks more than one (`thanks for the answer, not the road`).
_NOT_A_TOPIC = lexicon.word_set("remarks", "trouble") | lexicon.word_set("remarks", "clause_stop")
#: The most words a thanked topic runs to (`about the pirate`), and a line of chatter.
_TOPIC_WORDS = 5
_CHATTER_WORDS = 24
#: The longest phrase of `_THANKS`, `_REASONS`, `_ANNOUNCEMENTS`, `_WISHES`.
_LONGEST_PHRASE = max(len(p) for p in (*_THANKS, *_REASONS, *_ANNOUNCEMENTS, *_WISHES))
#: The words those phrases start with: a word that is none starts no phrase, looked up once
#: (every line of a mail is looked at: a hostile one of many lines costs a set lookup a word).
_PHRASE_STARTS = frozenset(p[0] for p in (*_THANKS, *_REASONS, *_ANNOUNCEMENTS, *_WISHES))
#: Emoticons written in letters and marks (`:(`, `;-)`, `:D`, `xD`, `<3`, `^^`), between blanks:
#: nothing of an order (pictographs are blanks already, `text.simple`).
_EMOTICON = re.compile(
    r"(?<!\S)(?:[:;=]['\u2019]?-?[()\[\]DPpOo/\\|*3]{1,3}+|[xX]D++|<3++|\^_?\^|-_-|T_T)"
    r"(?=[\s.,!?]|$)"
)
#: The words a line of chatter can start with (`_chatter_part` of its first part).
_CHATTER_STARTS = _GREETING_WORDS | _PHRASE_STARTS | _INTERJECTIONS | _WISH_WORDS_AFTER


#: Where a line of chatter divides into its parts.
_CHATTER_CUTS = re.compile(r"[,;!?]++|\.++(?=\s|$)|\s-\s")


def _chatter(line: str) -> bool:
    """ "Hi, sorry I missed the first one :(", "oops", "thanks for the answer about the
    pirate!!", "hi all, so sorry, was travelling! here are my orders", "Hi, sorry, war
    krank!", "Tak for hjælpen :)": a line of chatter alone, passed over as a greeting or a wish
    is. Each of its parts (between commas, "!", "?", a sentence's full stop) is a greeting
    (`_plain_greeting`, no order word in it) or made of phrases of chatter: a wish's start and
    `wish_words`, an interjection, thanks (with what is thanked for and, after a word such as
    `about`, its topic, a few words without a negation or a choice), a reason for the delay
    (`reasons`, as phrases: `was away`, never `away` alone, which may ask for an absence), the
    orders announced (`here are my orders`); at least one part is more than `wish_words`. No
    digit (a hex, a count), no colon (a heading), no colour (the victim or partner meant),
    emoticons aside; any other line is read as it always was."""
    text = _EMOTICON.sub(" ", line)
    s = simple(text)
    words = _words(s)
    if not words:
        # Emoticons and marks alone (`:-(`, `xD`): nothing to read. A line of marks that are no
        # emoticon (`--`, `?`) is read as before.
        return text != line and not any(ch.isalnum() for ch in s)
    if words[0] not in _CHATTER_STARTS:
        return False  # its first part can be no chatter: the usual line, looked at no further
    # A colon only at its end (`sorry, new try:`): what it heads is read as ever, and a
    # heading that is more than chatter (`Sorry, gestrichen:`) is none.
    if (
        len(words) > _CHATTER_WORDS
        or ":" in s.rstrip().removesuffix(":")
        or any(map(str.isdigit, s))
    ):
        return False
    # Imported here: these are read by the order readers, which read this module's words.
    from .vocab import COLOUR_WORDS

    if any(w in COLOUR_WORDS for w in words):
        return False
    headed = False
    for part in _CHATTER_CUTS.split(text):
        part_words = _words(simple(part))
        if not part_words:
            continue
        kind = _chatter_part(part, part_words)
        if kind is None:
            return False
        headed = headed or kind
    return headed


def _chatter_part(part: str, words: list[str]) -> bool | None:
    """Whether a part of a line of chatter is a greeting or holds a phrase of chatter (True),
    is only `wish_words` (`was`, `so`, `late`: False), or is not chatter (None)."""
    if words[0] in _GREETING_WORDS and len(words) <= 4 and _plain_greeting(part):
        from .game_words import every_game_words

        game = every_game_words()
        if not any(w in game.build_starts or w in game.keyword_starts for w in words):
            return True
    headed = thanks = announced = False
    i = 0
    while i < len(words):
        size = _phrase_at(words, i, (_THANKS,))
        if size:
            headed = thanks = True
            i += size
            continue
        if thanks and words[i] in _TOPIC_LEADS:
            # `thanks for the answer about the pirate`: what the answer was about, the rest of
            # the part.
            topic = words[i + 1 :]
            if 0 < len(topic) <= _TOPIC_WORDS and not any(w in _NOT_A_TOPIC for w in topic):
                return True
            return None
        size = _phrase_at(words, i, (_ANNOUNCEMENTS,))
        if size:
            headed = announced = True
            i += size
            continue
        size = _phrase_at(words, i, (_WISHES, _REASONS))
        if size:
            headed = True
            i += size
            continue
        w = words[i]
        if w in _INTERJECTIONS:
            headed = True
        elif not (
            w in _WISH_WORDS_AFTER
            or (thanks and w in _THANKED)
            or (announced and w in _ANNOUNCEMENT_FILLERS)
        ):
            return None
        i += 1
    return headed


def _phrase_at(
    words: list[str], i: int, phrase_sets: tuple[frozenset[tuple[str, ...]], ...]
) -> int:
    """How many words from `words[i]` make a phrase of one of `phrase_sets`, the longest; 0
    for none."""
    if words[i] not in _PHRASE_STARTS:
        return 0
    for n in range(min(_LONGEST_PHRASE, len(words) - i), 0, -1):
        here = tuple(words[i : i + n])
        if any(here in phrases for phrases in phrase_sets):
            return n
    return 0


def _closing(s: str) -> bool:
    """ "Viele Grüße", "LG, Anna", "Cheers,", "Thanks!", "Mit freundlichen Grüßen": a closing,
    perhaps with a name after it."""
    if any(map(str.isdigit, s)):
        return False
    words = _words(s)
    while words and words[0] in _CLOSING_LEADS:
        words = words[1:]
    for size in (3, 2, 1):
        if tuple(words[:size]) in _CLOSINGS:
            rest = words[size:]
            return len(rest) <= 2 and not any(w in _NOT_A_NAME for w in rest)
    return False


def _quote_header(s: str) -> bool:
    r"""Whether a folded line is "Am …, Anna schrieb:" / "On …, Anna wrote:" (or the French,
    Spanish, Italian form): an opening, at least three characters, a verb, then anything up to
    the one colon that ends the line.

    That was the pattern `^(am |on |…).{3,}(schrieb|wrote|…)[^:]*:\s*$`, whose `.{3,}` tried
    every place for the verb and scanned to the end from each: quadratic in the line. Here: the
    verb must start after the last colon before the final one, so one search for each verb does.
    K-9 writes the header without an opening ("Anna <a@x.de> schrieb:"): with an address, the
    verb may stand anywhere.
    """
    if not s.endswith(":"):
        return False
    end = len(s) - 1  # `s` is folded and stripped: the colon is its last character
    if not s.startswith(_QUOTE_OPENINGS):
        return "@" in s and any(s.find(verb, 0, end) >= 0 for verb in _QUOTE_VERBS)
    start = max(len("am ") + 3, s.rfind(":", 0, end) + 1)
    return any(s.find(verb, start, end) >= 0 for verb in _QUOTE_VERBS)


def _quote_head_start(s: str) -> bool:
    """The first line of Gmail's wrapped quote header: "On …" (was `^(am |on ).{3,}`)."""
    return s.startswith(_QUOTE_WRAPPED_OPENINGS) and len(s) >= len("am ") + 3


def _wrapped_quote_header(s: str, following: str) -> bool:
    """Gmail's quote header wrapped over two lines (both folded and stripped):
    "On …, Anna <a@x.de>" + "wrote:", or "Am …, schrieb Anna <" + "a@x.de>:"."""
    if not _quote_head_start(s) or not following.endswith(":"):
        return False
    if "@" in s and _QUOTE_HEAD_END.match(following):
        return True
    verb_before = any(s.find(verb) >= 0 for verb in _QUOTE_VERBS)
    verb_after = any(following.find(verb) >= 0 for verb in _QUOTE_VERBS)
    return "@" in following and (verb_before or verb_after) and len(following) <= 200


def clean_lines(body: str) -> list[tuple[int, str]]:
    """The lines to parse: (1-based line number in the body, text without trailing space)."""
    return list(iter_clean_lines(body))


#: The first words of order lines: after a closing (`Danke blau!`) they mean the mail goes on.
_ORDER_STARTS = re.compile(
    r"^(?:[-*\u2022]\s*|\d{1,2}[.)]\s*)?"
    rf"(?:{lexicon.alternation(_mail('order_starts'))})(?![a-z])"
)
#: The first words of orders read after a greeting only (`Sorry, buy a card`): after a
#: closing, `Build it and they will come` or `Bank: Sparkasse Köln` is no order.
_GREETING_ORDER_STARTS = re.compile(
    rf"^(?:{lexicon.alternation(_mail('greeting_order_starts'))})(?![a-z])"
)
#: What a greeting may hold besides its greeting word and names (`[mail] greeting_fillers`).
_GREETING_FILLERS = frozenset(_mail("greeting_fillers"))
#: How far past a closing to look for orders.
_LOOK_PAST_CLOSING = 20


def _orders_follow(lines: list[str], number: int) -> bool:
    """Whether an order line follows line `number` before the quoted mail or a signature:
    then a closing in the middle (`Danke blau!`) does not end the player's text. The look
    ends wherever the reading would end: a quote, a signature mark, the header of a quoted or
    forwarded mail (quoted with `>` or not: the report below an Outlook reply holds lines
    that start like orders), an end word."""
    for at in range(number, min(len(lines), number + _LOOK_PAST_CLOSING)):
        later = lines[at]
        if len(later) > MAX_LINE_CHARS:
            continue
        raw = later.replace("\u00a0", " ").translate(_INVISIBLE)
        if raw.rstrip() in _SIGNATURE_MARKS:
            return False  # where the reading stops: the signature
        s = simple(raw.strip())
        if _ends_the_text(s, _next_text(lines, at + 1)):
            return False
        if _ORDER_STARTS.match(s):
            return True
    return False


def _ends_the_text(s: str, following: str) -> bool:
    """Whether folded line `s` (`following` the next one) ends the player's text whatever
    came before it (`iter_clean_lines` stops there once the player has written)."""
    if s.startswith(">") or s in _END or s in _FORWARDED:
        return True
    if _STOP_BLOCK.match(s) or _RULE_LINE.match(s) or _quote_header(s):
        return True
    if "@" in s and _OUTLOOK_HEADER.match(s):
        return True
    if _HEADER_FIELD.match(s) and _HEADER_FIELD.match(following) and following[:3] != s[:3]:
        return True
    return _wrapped_quote_header(s, following)


#: How far below a quote header its `>` lines must start.
_QUOTE_GAP = 3


def _marked_quote_follows(lines: list[str], number: int) -> bool:
    """Whether the quote whose header is line `number` (1-based) is marked with `>`: its
    first line that is not blank, within `_QUOTE_GAP` lines, starts with `>`. Then the
    quoted mail's every line is marked and what follows it unmarked is the player's (an
    answer written under the quote); a quote not so marked (Outlook's) runs to the end."""
    for at in range(number, min(len(lines), number + _QUOTE_GAP)):
        text = lines[at].strip()
        if text:
            return text.startswith(">")
    return False


def _next_text(lines: list[str], number: int) -> str:
    """The folded next line of the body (after line `number`, 1-based), "" beyond the cap."""
    if number >= len(lines) or len(lines[number]) > MAX_LINE_CHARS:
        return ""
    return simple(lines[number].replace("\u00a0", " ").translate(_INVISIBLE).strip())


#: Bodies up to this many characters keep their clean lines (the last `KEPT_BODIES` of them):
#: one mail is cleaned by the scan, by the parse against the board and by its acknowledgement,
#: each time the same way. A longer body is cleaned line by line, as far as its reader reads.
KEPT_BODY_CHARS = 32 * 1024
KEPT_BODIES = 8
#: body → (its clean lines, whether the reading ended at a forwarded mail, the number of the
#: line it ended at).
_kept: dict[str, tuple[tuple[tuple[int, str], ...], bool, int]] = {}


#: The armor lines of an inline OpenPGP signed text.
_PGP_SIGNED = "-----BEGIN PGP SIGNED MESSAGE-----"
_PGP_SIGNATURE = "-----BEGIN PGP SIGNATURE-----"


def iter_clean_lines(body: str, stops: list[str] | None = None) -> Iterator[tuple[int, str]]:
    """`clean_lines` one line at a time, for a reader that stops early (see `_clean`)."""
    if len(body) > KEPT_BODY_CHARS:
        yield from _clean(body, stops)
        return
    lines, forwarded, _ = _kept_body(body)
    yield from lines
    if forwarded and stops is not None:
        stops.append("forwarded")


def _kept_body(body: str) -> tuple[tuple[tuple[int, str], ...], bool, int]:
    kept = _kept.get(body)
    if kept is None:
        found: list[str] = []
        ends: list[int] = []
        kept = (tuple(_clean(body, found, ends)), "forwarded" in found, ends[0])
        if len(_kept) >= KEPT_BODIES:
            _kept.clear()  # one step, safe beside another thread's reading
        _kept[body] = kept
    return kept


#: The most commented lines looked at (`commented_lines`): a form has about twenty.
MAX_COMMENTED = 30


def commented_lines(body: str) -> list[tuple[int, str]]:
    """The player's lines that start with `#` (number, the text after the `#`), above where
    the reading of `body` ends: the report's order form sends its lines so, to fill in and
    uncomment, and a line filled in with its `#` left is not read. At most `MAX_COMMENTED`;
    none for a body longer than `KEPT_BODY_CHARS` (read line by line, its end not known)."""
    if len(body) > KEPT_BODY_CHARS or "#" not in body:
        return []
    _, _, end = _kept_body(body)
    out: list[tuple[int, str]] = []
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, raw in enumerate(lines[: end - 1], 1):
        text = raw.strip()
        if text.startswith("#") and len(text) <= MAX_LINE_CHARS:
            out.append((number, text.lstrip("#").strip()))
            if len(out) == MAX_COMMENTED:
                break
    return out


def _clean(
    body: str, stops: list[str] | None = None, ends: list[int] | None = None
) -> Iterator[tuple[int, str]]:
    """The clean lines of `body`, one at a time.

    A line longer than `MAX_LINE_CHARS` is not looked at beyond its first character: a quote
    (`>`) or comment (`#`) is skipped as always, anything else is passed on for the parser to
    refuse. No pattern runs on it, and it never ends the mail.

    `stops`: given, "forwarded" is added to it when the reading ends at a forwarded mail's
    block, which is never read (it may be a report or another player's mail), so that the
    answer can say so. `ends`: given, the number of the line the reading ended at is added to
    it once every line is read (one more than the last line when it read to the end).
    """
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    skip_next = False
    #: Whether a line of the player's text came before (a quote header then ends it).
    seen = False
    #: Inside an inline OpenPGP signed text (RFC 4880, 7): its armor header lines are skipped,
    #: its lines that start with a dash are dash-escaped (`- --` is the signature mark), and
    #: the signature block ends the text.
    signed = False
    armor_header = False
    #: Inside a quoted mail marked with `>` below the player's text (its header said "On …
    #: wrote:"): its lines are skipped; the first blank line after its `>` lines ends it, and
    #: what the player wrote below it (an answer under the quote) is read again.
    quoting = False
    quoted = 0
    for number, raw in enumerate(lines, 1):
        if raw.startswith(_PGP_SIGNED):
            signed = armor_header = True
            continue
        if armor_header:
            armor_header = bool(raw.strip())  # `Hash: SHA256` up to the blank line
            continue
        if signed:
            if raw.startswith(_PGP_SIGNATURE):
                break
            if raw.startswith("- "):
                raw = raw[2:]
        text = _without_html(raw.replace("\u00a0", " ").translate(_INVISIBLE)).rstrip()
        if text in _SIGNATURE_MARKS:
            break  # signature separator (RFC 3676), often stripped of its space
        if skip_next:
            skip_next = False
            continue
        stripped = text.strip()
        if quoting:
            if stripped.startswith(">"):
                quoted += 1
            elif not stripped and quoted:
                quoting = False
            # An unquoted line right under a `>` line is the quote's own line that a mail
            # client wrapped without its `>`: not the player's.
            continue
        if not stripped or stripped.startswith(">") or stripped.startswith("#"):
            continue
        if len(stripped) > MAX_LINE_CHARS:
            seen = True
            yield number, stripped
            continue
        s = simple(stripped)
        if not s:
            continue  # pictographs alone (`👍`): nothing to read, as a blank line
        block = _STOP_BLOCK.match(s)
        if s in _END or block or _RULE_LINE.match(s) or s in _FORWARDED:
            if stops is not None and (s in _FORWARDED or (block and _FORWARD_WORDS.search(s))):
                stops.append("forwarded")
            break
        if _quote_header(s):
            if seen:
                if not _marked_quote_follows(lines, number):
                    break  # the quoted mail below the player's text, not marked with `>`
                quoting, quoted = True, 0
            continue
        if _wrapped_quote_header(s, _next_text(lines, number)):
            if seen:
                if not _marked_quote_follows(lines, number + 1):
                    break
                quoting, quoted = True, 0
            skip_next = True
            continue
        if _OUTLOOK_HEADER.match(s) and seen and "@" in s:
            break  # an unquoted Outlook reply header: the quoted mail follows
        if _HEADER_FIELD.match(s):
            following = _next_text(lines, number)
            if _HEADER_FIELD.match(following) and following[:3] != s[:3]:
                break  # "Von: …" / "Gesendet: …": the header of the quoted mail
        if _DEVICE_SIGNATURE.match(s) or _closing(s):
            if seen and not _orders_follow(lines, number):
                break
            continue
        if _greeting(s) or _wish(s):
            continue
        if (order := _after_greeting(s, stripped)) is not None:
            seen = True
            yield number, order
            continue
        if _chatter(stripped):
            continue
        if heading_kind(s) == "main":
            # Passed on (it ends a substitute block), but no sign yet of the player's text.
            yield number, stripped
            continue
        seen = True
        yield number, stripped
    else:
        number = len(lines) + 1
    if ends is not None:
        ends.append(number)
