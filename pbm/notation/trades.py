"""Trade lines: an offer to another player (`Handel rot: gebe 2W gegen 1E`) and a trade
with the bank or a harbour (`Seehandel 4H gegen 1E`, `3:1-Hafen: 3W gegen 1G`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NoReturn

from pbm.rules.orders import MaritimeTrade, TradeOffer
from pbm.rules.resources import GOODS

from . import lexicon, vocab
from .context import Context, Text
from .counts import MAX_COUNT, _counted, _counts, _number, _split_count
from .errors import NotationError
from .items import Item
from .places import _seat
from .words import (
    _PATTERNS,
    _RATE,
    _SUBJECTS,
    _keyword_span,
    _letter_words,
    _split_or,
    _strip_words,
)

#: Words of politeness before an order's own words (`bitte gebe …`, `please give …`).
_POLITE = lexicon.word_set("words", "polite")

#: `my`/`mein`/`min` and `your`/`dein`/`din` in a half of `… for …`: whose cards it names.
_MINE = lexicon.word_set("words", "trade_mine")
_YOURS = lexicon.word_set("words", "trade_yours")
_GIVE = re.compile(rf"\b({lexicon.either('words', 'give')})\b\s*+:?+\s*+")
#: After `[,;]?\s*`, added by `_keyword_span` (see there).
_GET = re.compile(rf"\b({lexicon.either('words', 'get')})\b\s*+:?+\s*+")
#: The words of what one gets, and of what stands between two halves of a trade.
_WANT = re.compile(rf"\b({lexicon.either('words', 'want')})\b\s*+:?+\s*+")
_FOR = re.compile(rf"\b({lexicon.either('words', 'for')})\b\s*+:?+\s*+|->\s*+|=>\s*+")


#: `An der Bank: 4 Lehm gegen 1 Holz`, `With the bank: …`, `To the bank: …`.
_AT_THE_BANK = re.compile(
    rf"(?:{lexicon.either('words', 'bank_leads')}) "
    rf"(?:(?:{lexicon.either('words', 'bank_articles')}) )?+"
    rf"(?:{lexicon.either('words', 'bank')})\s*+:\s*+"
)
#: A line starting with one of these is a trade, whatever follows (`Handel …`, `Trade …`).
_TRADE_CERTAIN = re.compile(rf"({lexicon.either('words', 'trade_certain')})(?![a-z])")
#: Words after the trade word that are no partner (`Handel: gebe …`).
_NOT_A_PARTNER = lexicon.word_set("words", "trade_not_partner")


#: The bank named anywhere in a line: `4 Wolle gegen 1 Erz mit der Bank`, `Trade 4 wool with
#: the bank for 1 grain`, `Byt 4 uld for 1 malm med banken`.
_BANK_NAMED = re.compile(
    rf"(?:^|(?<=[\s,;]))(?:{lexicon.either('words', 'bank_leads')}) "
    rf"(?:(?:{lexicon.either('words', 'bank_articles')}) )?+"
    rf"(?:{lexicon.either('words', 'bank')})(?=$|[\s,;:.!])"
)
#: What may stand before the terms of a trade named with the bank: a trade word or a bank
#: trade's keyword (`Trade`, `Tausche`, `Byt`, `Seehandel`), and a colon.
_TRADE_LEAD = re.compile(
    rf"^(?:(?:{lexicon.either('words', 'trade')}|{lexicon.either('keywords', 'maritime')})"
    r"(?![a-z]))?+[\s:,]*+"
)


def _bank_named(t: Text, f: str, ctx: Context) -> MaritimeTrade | None:
    """A bank trade whose line names the bank after its terms or between them; None when the
    line names no bank that way."""
    m = _BANK_NAMED.search(f)
    if m is None or m.start() == 0:
        return None
    if any(w in vocab.COLOUR_WORDS for w in re.findall(r"[a-z]+", f)):
        return None  # a player named too (`Handel mit gelb: …, sonst mit der Bank`)
    lead = len(t.folded) - len(t.folded.lstrip())
    rest = t.rewritten([(lead + m.start(), lead + m.end(), "")])
    rf = rest.folded.strip()
    start = len(rest.folded) - len(rest.folded.lstrip())
    cut = _TRADE_LEAD.match(rf)
    if cut is not None:
        start += cut.end()
    try:
        return _maritime(rest.sub(start), ctx)
    except NotationError:
        return None  # not a bank trade's terms: the line is read as it would be without


def _trade_or_bank(t: Text, ctx: Context) -> Item | None:
    """A trade with a player (`Handel gelb: …`, `Handel mit gelb: 2 Holz gegen 1 Erz`, `Tausche
    mit weiß: …`, `Trade with yellow: …`) or with the bank (`Tausche mit der Bank …`, `Seehandel
    …`, `4 Wolle gegen 1 Erz mit der Bank`); None when the line is neither."""
    t = _without_subject(t)
    f = t.folded.strip()
    m = _AT_THE_BANK.match(f)
    if m:
        return _maritime(t.sub(len(t.folded) - len(t.folded.lstrip()) + m.end()), ctx)
    named = _bank_named(t, f, ctx)
    if named is not None:
        return named
    last = _partner_last(t, ctx)
    if last is not None:
        return last
    m = _PATTERNS["trade"].match(f)
    trade_word = _TRADE_CERTAIN.match(f)
    if m:
        partner = m.group("partner")
        if partner == "bank":
            return _maritime(t.sub(m.start("rest")), ctx)
        if partner in vocab.COLOUR_WORDS or (trade_word and partner not in _NOT_A_PARTNER):
            if not m.group("rest").strip() and not trade_word:
                return None
            return _trade(t, (m.start("partner"), m.end("partner")), t.sub(m.start("rest")), ctx)
    bank = _partnerless(t, ctx)
    if bank is not None:
        return bank
    first_word = f[:40].split(maxsplit=1)[:1]
    if trade_word or (first_word and first_word[0].rstrip(":") in _OFFER_WORDS):
        # `Biete 2 Holz für 1 Erz`: an offer to whom? The form names the partner.
        raise NotationError.make("trade_form", column=t.col(0))
    m = _PATTERNS["maritime"].match(f)
    if m:
        if len(_split_or(t)) > 1:
            # `Seehandel … oder Siedlung …`: options of one build step.
            return None
        return _maritime(t.sub(m.start("rest")), ctx)
    return None


def _without_subject(t: Text) -> Text:
    """`Ich tausche mit blau …`, `I offer blue …`, `Jeg bytter med blå …`: the line from its
    trade word on (the subject says nothing more)."""
    f = t.folded
    words = f[:40].split(maxsplit=2)
    if len(words) < 3 or words[0] not in _SUBJECTS or words[1].rstrip(":") not in _TRADE_WORDS:
        return t
    return t.sub(f.index(words[1], len(f) - len(f.lstrip()) + len(words[0])))


def _partnerless(t: Text, ctx: Context) -> MaritimeTrade | None:
    """A trade word and the bank's own terms, four for one, no partner (`Trade 4 wood for 1
    ore`, `Handel 4 Holz gegen 1 Erz`, `Byt 4 træ for 1 malm`): with the bank, as `Tausche 4
    Holz gegen 1 Erz` always was. None for any other line: other terms may be meant for the
    partner of the line above (`Handel 2H gegen 1E` stays refused), and an offer (`Biete …`,
    `Offer …`) is to the players."""
    f = t.folded
    lead = len(f) - len(f.lstrip())
    first = f[lead : lead + 40].split(maxsplit=1)
    word = first[0].rstrip(":") if first else ""
    if word not in _TRADE_WORDS or word in _OFFER_WORDS:
        return None
    try:
        bank = _maritime(t.sub(lead + len(first[0])), ctx)
    except NotationError:
        return None
    return bank if bank.give_count == 4 * bank.get_count else None


def _whose(half: str) -> str | None:
    """Whose cards a half of a trade names: "mine", "yours", or None (neither, or both)."""
    words = set(_letter_words(half[:200]))
    mine, yours = bool(words & _MINE), bool(words & _YOURS)
    return "mine" if mine and not yours else "yours" if yours and not mine else None


#: A trade's word (`Handel`, `Tausche`, `Trade`, `Byt`) and the words before its partner.
_TRADE_WORDS = lexicon.word_set("words", "trade")
_OFFER_WORDS = lexicon.word_set("words", "trade_offer")
_PARTNER_LEADS = lexicon.word_set("words", "trade_partner_leads")
_PARTNER_ARTICLES = lexicon.word_set("words", "trade_partner_articles")


def _partner_last(t: Text, ctx: Context) -> TradeOffer | None:
    """A trade whose partner comes after its first terms (`Tausche 2 Holz gegen 1 Erz mit
    blau`, `Tausche 2 Holz mit blau gegen 1 Erz`, `Trade 2 lumber for 1 ore with blue`, `Byt 2
    træ for 1 malm med blå`); None otherwise (one partner so named, after a term)."""
    f = t.folded
    first = f[:40].split(maxsplit=1)
    if len(f) > 400 or not first or first[0].rstrip(":") not in _TRADE_WORDS:
        return None
    words = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"\S+", f)]
    if len(words) < 5:
        return None
    named: list[tuple[int, int]] = []  # (the lead's word, the colour's word)
    for j in range(3, len(words)):
        if words[j][2].rstrip(".!,") not in vocab.COLOUR_WORDS:
            continue
        lead = j - 2 if words[j - 1][2] in _PARTNER_ARTICLES else j - 1
        if lead >= 2 and words[lead][2] in _PARTNER_LEADS:
            named.append((lead, j))
    if len(named) != 1:
        return None
    lead, j = named[0]
    partner = words[j][2].rstrip(".!,")
    start = words[1][0]
    terms = t.sub(start).rewritten([(words[lead][0] - start, words[j][1] - start, "")])
    at = words[j][0]
    return _trade(t, (at, at + len(partner)), terms, ctx)


def _trade(t: Text, partner_at: tuple[int, int], rest: Text, ctx: Context) -> TradeOffer:
    """`gebe …, bekomme …` in either order, or `… gegen …` (what one gives first)."""
    partner = _seat(t, *partner_at, ctx)
    f = rest.folded
    g = _keyword_span(_GIVE, f)
    r = _keyword_span(_WANT, f)
    first = min((k[0] for k in (g, r) if k), default=None)
    lead_words = [w for w in _letter_words(f[: first or 0]) if w not in _POLITE]
    if first is not None and (lead_words or re.search(r"\d", f[:first])):
        # Words between the partner and `gebe`/`bekomme` are never dropped: `Handel blau oder
        # weiß: gebe …` names two partners, and a trade has one.
        words = lead_words
        if any(w in vocab.COLOUR_WORDS for w in words):
            raise NotationError.make("trade_one_partner", column=rest.col(0))
        raise NotationError.make("trade_form", column=rest.col(0))
    if g and r:
        if g[0] < r[0]:
            give, get = (g[1], r[0]), (r[1], len(f))
        else:
            get, give = (r[1], g[0]), (g[1], len(f))
    elif g:
        s = _keyword_span(_FOR, f, g[1])
        if s is None:
            raise NotationError.make("trade_form", column=rest.col(0))
        give, get = (g[1], s[0]), (s[1], len(f))
    elif r:
        s = _keyword_span(_FOR, f, r[1])
        if s is None:
            raise NotationError.make("trade_form", column=rest.col(0))
        get, give = (r[1], s[0]), (s[1], len(f))
    else:
        s = _keyword_span(_FOR, f)
        if s is None or not f[: s[0]].strip():
            raise NotationError.make("trade_form", column=rest.col(0))
        give, get = (0, s[0]), (s[1], len(f))
        before, after = _whose(f[: s[0]]), _whose(f[s[1] :])
        if before == after and before is not None:
            # `my 1 ore for my 2 lumber`: which half is given is not said.
            raise NotationError.make("trade_form", column=rest.col(0))
        if before == "yours" or after == "mine":
            # `1 ore for my 2 lumber`, `your 1 ore for 2 lumber`: what is given comes second.
            give, get = get, give
    gives, gets = _counts(rest.sub(*give), ctx), _counts(rest.sub(*get), ctx)
    if any(a and b for a, b in zip(gives, gets, strict=True)):
        # `gebe 2W, bekomme 2W`: no trade at all, whatever the position.
        raise NotationError.make("trade_same_resource", column=rest.col(0))
    return TradeOffer(partner, gives, gets)


_MARITIME_SEPARATORS = (*lexicon.words("words", "maritime_separators"), "->", "=>", ">", "-")


def _is_letter(c: str) -> bool:
    return "a" <= c <= "z"  # `[a-z]`: the folded keyword and resource letters


# What `\s`, `\d` and `[a-z]` match, for the hand-written matching below.
_BLANK, _DIGIT, _LETTER = str.isspace, str.isdecimal, _is_letter


def _skip(f: str, pos: int, test: Callable[[str], bool]) -> int:
    """The end of the run of characters passing `test` that starts at `pos`."""
    while pos < len(f) and test(f[pos]):
        pos += 1
    return pos


def _skip_back(f: str, end: int, test: Callable[[str], bool]) -> int:
    """The start of the run of characters passing `test` that ends at `end`."""
    while end > 0 and test(f[end - 1]):
        end -= 1
    return end


def _maritime_split(f: str) -> tuple[int, int] | None:
    r"""Where a (folded, stripped) bank trade splits into `<give> <separator> <get>`: the end of
    the give part and the start of the get part, each `\d*\s*[a-z]+`.

    The split the regex `^(?P<give>\d*\s*[a-z]+)\s*(gegen|…|in|…|-)\s*(?P<get>\d*\s*[a-z]+)$`
    chose (the longest give part first, the separators in that order), found without it: that
    regex tried every end of the give letters and scanned the rest of the line from each —
    quadratic on `ininin…`. Whether a get part can start at a position is known at once from
    the end of the line: anywhere from the digits before the last letters on.
    """
    # The give part: digits, blanks, then at least one letter.
    letters_start = _skip(f, _skip(f, 0, _DIGIT), _BLANK)
    letters_end = _skip(f, letters_start, _LETTER)
    # The get part: it may start anywhere from `get_from` to the last letter.
    last_letters = _skip_back(f, len(f), _LETTER)
    if last_letters == len(f):
        return None
    get_from = _skip_back(f, _skip_back(f, last_letters, _BLANK), _DIGIT)
    for give_end in range(letters_end, letters_start, -1):
        # Before a letter, `\s*` matches nothing; after the last one, all the blanks.
        sep_at = _skip(f, give_end, _BLANK) if give_end == letters_end else give_end
        for sep in _MARITIME_SEPARATORS:
            if f.startswith(sep, sep_at):
                get_start = _skip(f, sep_at + len(sep), _BLANK)
                if get_from <= get_start < len(f):
                    return give_end, get_start
    return None


#: Before a bank trade's terms: `Tausche mit der Bank …`, `Seehandel: …`, `with the bank`.
_BANK_WORDS = tuple(lexicon.longest_first(lexicon.words("words", "bank_words")))


def _rate_refused(rate: int, fixed: MaritimeTrade, column: int, ctx: Context) -> NoReturn:
    """A sea trade whose counts or resource do not fit the rate it names: refused with the
    line that does, at that rate, in the game's words."""
    from .format import format_item  # the echo's writer imports the readers

    raise NotationError.make(
        "maritime_rate", rate=f"{rate}:1", line=format_item(fixed, ctx), column=column
    )


def _maritime(t: Text, ctx: Context) -> MaritimeTrade:
    """`4H gegen 1E`, `4 Holz für 1 Erz`, `vier Holz gegen ein Erz`, and with the rate first:
    `4:1 Holz gegen Erz`, `3:1: 3W gegen 1G`, `2:1 H-Hafen: 2H gegen 1L`."""
    t = _strip_words(t, _BANK_WORDS)
    f0 = t.folded.strip()
    lead0 = len(t.folded) - len(t.folded.lstrip())
    rate: int | None = None
    harbour: str | None = None
    m = _RATE.match(f0)
    if m:
        rate = _number(m.group("rate"))
        harbour = m.group("kind") or m.group("mapkind")
        if m.group("kindname"):
            # `2:1 Wolle: 2W gegen 1E`: the harbour named by its resource, as its letter.
            named = vocab.RESOURCE_WORDS.get(m.group("kindname"))
            letters = vocab.letters(ctx.lang, ctx.kron)
            if named is not None and named < len(letters):
                harbour = letters[named].lower()
            elif m.group("kindname") in (x.lower() for x in letters):
                harbour = m.group("kindname")
            else:
                raise NotationError.make("maritime_form", column=t.col(lead0))
        t = t.sub(lead0 + m.start("rest"))
    t = _counted(t, vocab.counted_numbers(ctx.lang))
    f = t.folded.strip().rstrip(".")
    lead = len(t.folded) - len(t.folded.lstrip())
    split = _maritime_split(f)
    if split is None:
        raise NotationError.make("maritime_form", column=t.col(lead))

    def one(start: int, end: int) -> tuple[int, int | None]:
        written = f[start:end].strip()
        digits, word = _split_count("".join(written.split()))
        # A count beyond MAX_DIGITS digits is too many, like any above MAX_COUNT.
        n = _number(digits) if digits else None
        if digits and n is None:
            n = MAX_COUNT + 1
        # `4St` is counted, `4 St` not (Kronlande's letters of two: `vocab.resource`).
        counted = bool(digits) and not written[len(digits) : len(digits) + 1].isspace()
        shown = t.sub(lead + start, lead + end).original
        column = t.col(lead + start)
        card = vocab.resource(word, ctx.lang, column, ctx.kron, counted, shown, True, ctx.read_as)
        return card, n

    give, give_n = one(0, split[0])
    get, got_n = one(split[1], len(f))
    if give_n is not None and got_n is not None and give_n < got_n:
        # `Seehandel 1 Erz für 4 Holz`: the bank never gives more than it takes, so the
        # larger half is what is given (echoed `Seehandel 4H gegen 1E`).
        give, give_n, get, got_n = get, got_n, give, give_n
    elif give_n is None and rate is None and got_n is not None and got_n > 1:
        # `Seehandel Wolle gegen 2 Erz`: one card for two, or two for one the other way
        # round? Asked with the form to write.
        raise NotationError.make("maritime_form", column=t.col(lead))
    if give in GOODS or get in GOODS:
        # Kronlande: goods are traded between players only.
        raise NotationError.make("goods_not_with_bank", column=t.col(lead))
    get_n = 1 if got_n is None else got_n
    if rate is not None:
        letters = vocab.letters(ctx.lang, ctx.kron)
        if harbour is not None and harbour != letters[give].lower():
            # `2:1 Erz: 2 Wolle gegen 1 Getreide`: the harbour trades its own resource.
            own = next((r for r, letter in enumerate(letters) if letter.lower() == harbour), None)
            if own is None:
                # A letter this game does not write (`2:1W:` in a Danish game: `U` is its
                # wool): which harbour is meant is not known, so the form is asked for.
                raise NotationError.make("maritime_form", column=t.col(lead))
            _rate_refused(rate, MaritimeTrade(own, rate * get_n, get, get_n), t.col(lead), ctx)
        if give_n is None:
            give_n = rate * get_n
        elif give_n != rate * get_n:
            _rate_refused(rate, MaritimeTrade(give, rate * get_n, get, get_n), t.col(lead), ctx)
    if give_n is None:
        give_n = 1
    if max(give_n, get_n) > MAX_COUNT:
        raise NotationError.make("maritime_too_many", max=MAX_COUNT, column=t.col(lead))
    if give_n < 1 or get_n < 1:
        raise NotationError.make("maritime_at_least_one", column=t.col(lead))
    return MaritimeTrade(give, give_n, get, get_n)
