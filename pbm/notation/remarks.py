"""What is around an order on its line: list markers and markup (`_tidy`), a remark after
`#`, ` -- ` or in closing brackets (kept when it may change the order), verbs and fillers
before it (`Baue eine Siedlung an …`), and a clause on whether the player can pay."""

from __future__ import annotations

import re

from . import lexicon, vocab
from .clean import _CLOSINGS, _closing
from .context import Text
from .errors import NotationError
from .game_words import GameWords, every_game_words
from .words import _PATTERNS, _SUBJECTS, _letter_words


def _remark_words(key: str) -> frozenset[str]:
    """One list of `[remarks]` of every language."""
    return lexicon.word_set("remarks", key)


#: The words of a harbour, the settlement, the city, resources, politeness and the subject
#: where a remark or the words before an order name them.
_HARBOUR = _remark_words("harbour")
_HARBOUR_FILLERS = _remark_words("harbour_fillers")
#: A three-for-one harbour's rate at the start of a bracket (`(3:1 Hafen)`).
_RATE = re.compile(r"3\s*+:\s*+1(?![0-9])")
_SETTLEMENT = _remark_words("settlement")
_CITY = _remark_words("city")
_RESOURCES = _remark_words("resources")
_PLEASE = _remark_words("please")
#: How a round line starts (`Runde 7 (gelb)`): a colour in its brackets is the writer's.
_ROUND_LINE = lexicon.words("remarks", "round_line")

#: Where a condition clause may start: `…, falls noch was übrig ist`, `… if I've got the
#: lumber for it`.
_CONDITION_CLAUSE = re.compile(
    rf"(?:,\s*+|(?<![\s,])\s++)(?:{lexicon.either('remarks', 'condition_clause')})(?![a-z])"
)
#: A clause that only says what every build order says anyway (`if I can afford it`):
#: none of these words may stand in it.
_CLAUSE_STOP = _remark_words("clause_stop")


def _without_condition(t: Text, game: GameWords) -> Text:
    """A trailing clause on whether the player can pay (`, falls dann noch was übrig ist`, `if
    I've got the lumber for it`) is dropped: every build runs only when it can be paid. A
    clause naming a number, a colour, an order word or another choice is kept (and the line
    then refused), since it may change the order."""
    f = t.folded
    m = _CONDITION_CLAUSE.search(f)
    if m is None or m.start() == 0:
        return t
    comma = f.find(",", m.end())
    # `…, wenn das Holz reicht, eine Siedlung …`: a clause between commas; else to the end.
    end = len(f) if comma < 0 else comma
    clause = f[m.start() : end]
    if any(ch.isdigit() or ch in ":()" for ch in clause):
        return t
    if not _only_pays(_letter_words(clause), game):
        return t
    if comma < 0:
        return t.sub(0, m.start())
    return t.rewritten([(m.start(), comma, "")])


def _only_pays(words: list[str], game: GameWords) -> bool:
    """Whether a condition's words only say what every build waits on anyway: that the place
    is free (`falls noch frei`, `if free`), or that it can be paid (`falls es reicht`, `if I
    can afford it`), with no colour, order word or other choice in it and nothing but the
    words of such a condition (`pay_clause_words`, resources): `if I can win with it`,
    `falls es net reicht` say more, and are kept (the line refused)."""
    if _is_if_free(words):
        return True
    starts, keywords = game.build_starts, game.keyword_starts
    # A letter alone is what an apostrophe leaves (`there's`), never a short keyword there.
    if not _is_can_pay(words, game) or any(
        w in vocab.COLOUR_WORDS
        or (len(w) > 1 and (w in starts or w in keywords))
        or w in _CLAUSE_STOP
        for w in words
    ):
        return False
    for i, w in enumerate(words):
        if w in _PAY_CLAUSE_WORDS or _is_resource_word(w, game):
            continue
        after = words[i + 1] if i + 1 < len(words) else ""
        before = words[i - 1] if i else ""
        # An article before a resource (`wenn das Holz reicht`) or Danish `til det` ("for
        # it"); alone it points back at the order above (`Falls das klappt: …`).
        if w in _PAY_CLAUSE_ARTICLES and (
            _is_resource_word(after, game) or after in _RESOURCES or before in _FOR_IT
        ):
            continue
        return False
    return True


#: A condition written first, as a label (`Wenn noch was übrig ist: Karte kaufen`, `If I can
#: afford it: city …`, `Hvis jeg har råd, by …`), and the only words it may have: written
#: first, a condition the reader passes over would turn a fallback into a build of its own.
_PAY_CLAUSE_WORDS = _remark_words("pay_clause_words")
_PAY_CLAUSE_ARTICLES = _remark_words("pay_clause_articles")
#: Words after which such an article stands for "it" (Danish `til det`, "for it").
_FOR_IT = _remark_words("pay_clause_article_leads")
_LEADING_CONDITION = re.compile(rf"(?:{lexicon.either('remarks', 'condition_clause')})(?![a-z])")


def _without_leading_condition(t: Text, game: GameWords) -> Text:
    """A condition on paying (or on the place being free) written before the order, up to a
    colon or a comma, is dropped as the same condition after it is (`_without_condition`);
    any other condition first is kept (and the line then refused)."""
    f = t.folded
    lead = len(f) - len(f.lstrip())
    if _LEADING_CONDITION.match(f, lead) is None:
        return t
    cut = min((i for i in (f.find(":", lead), f.find(",", lead)) if i >= 0), default=-1)
    if cut < 0:
        return t
    clause = f[lead:cut]
    if any(ch.isdigit() or ch in "()" for ch in clause):
        return t
    if not _only_pays(_letter_words(clause), game):
        return t
    after = _letter_words(f[cut + 1 : cut + 40])
    if after and (after[0] in _CLAUSE_STOP or after[0] in _REMARK_TROUBLE):
        return t  # `Wenn ich genug habe, sonst …`: a choice follows, not the order
    return t.sub(cut + 1)


#: A smiley of characters, standing as a word of its own (the line is folded: `:d`, `:p`).
_SMILEY = re.compile(r"(?<!\S)(?:[:;=][-'^]?+[)(\]\[dpo/\\|*3]++|\^\^|<3|xd++)(?!\S)")
#: How far from the line's end a closing after the order is looked for.
_CLOSING_REACH = 60


def _closing_at(f: str, start: int, end: int) -> int | None:
    """Where a closing that ends the line after its order starts (at the `.`, `!`, `,` or
    `;` before it): `Road 6B 5B. Thanks!`, `Straße 6L 5L, Gruß Anna`, `Vej 6L 5L. Tak!`."""
    for m in _BREAK.finditer(f, max(start, end - _CLOSING_REACH), end):
        tail = f[m.end() : end].strip()
        if tail and _closing(tail):
            return m.start()
    return None


def _closing_word_at(f: str) -> int | None:
    """Where a closing of a word or two (no name after it) starts that ends an order's line
    without a stop before it: `Robber 9L, steal red thanks`, `Røver 9L, røv rød tak`. Order
    lines only (`_without_verb`): a message's text stays as written."""
    words = list(_WORD_AT.finditer(f, max(0, len(f) - _CLOSING_REACH)))
    for size in (2, 1):
        if len(words) > size and tuple(w.group(0).strip("!.") for w in words[-size:]) in _CLOSINGS:
            return words[-size].start()
    return None


#: A run of characters of a line that are no blank.
_WORD_AT = re.compile(r"\S++")


#: A break between two sentences or clauses of a line.
_BREAK = re.compile(r"[.!,;]\s")


def _tidy(t: Text) -> Text:
    """The line with list markers (`- `, `* `, `• `, `1.`, `1)`, `a)`) and markup (`*fett*`,
    `_kursiv_`) blanked, and a remark after ` #` or ` -- ` cut off (all in one pass; the
    columns stay those of the line)."""
    f = t.folded
    marks: list[int] = []
    lead = len(f) - len(f.lstrip())
    # A list marker: a bullet, or up to two digits (or one letter) and `.` or `)`, then a blank.
    end = lead
    if (
        f[lead : lead + 1] in ("-", "*", "\u2022", "\u00b7", "\u2023", "+")
        and f[lead + 1 : lead + 2].isspace()
    ):
        marks.append(lead)
        end = lead + 1
    else:
        digits = lead
        while digits < len(f) and digits - lead < 2 and f[digits].isdecimal():
            digits += 1
        if (
            digits > lead
            and f[digits : digits + 1] in (".", ")")
            and f[digits + 1 : digits + 2].isspace()
        ):
            marks.extend(range(lead, digits + 1))
            end = digits + 1
        elif (
            f[lead : lead + 1].isalpha()
            and f[lead + 1 : lead + 2] == ")"
            and f[lead + 2 : lead + 3].isspace()
        ):
            marks.extend((lead, lead + 1))  # `a) Straße …`, `b) Road …`
            end = lead + 2
    # Markup: a `*` or `_` at the edge of a word.
    for i in range(end, len(f)):
        ch = f[i]
        if ch not in "*_":
            continue
        before = f[i - 1] if i > 0 else " "
        after = f[i + 1] if i + 1 < len(f) else " "
        if before.isspace() or before in "*_" or after.isspace() or after in "*_:,.!;":
            marks.append(i)
    # A smiley written in characters (`:)`, `;-)`, `:D`, `^^`): blanked, as emoji are.
    if any(ch in f for ch in ":;=^<") or "xd" in f:
        for m in _SMILEY.finditer(f, end):
            marks.extend(range(m.start(), m.end()))
    # A remark: from ` #` or ` -- ` to the end.
    cut = len(f)
    hash_at = f.find(" #", end)
    if hash_at > end:
        cut = hash_at
    dashes = _dashes_at(t, end)
    if end < dashes < cut:
        cut = dashes
    closing = _closing_at(f, end, cut)
    if closing is not None:
        cut = closing  # `Road 6B 5B. Thanks!`, `Straße 6L 5L, Gruß Anna`
    if not marks and cut == len(f):
        return t
    remark = _letter_words(f[cut:])
    if any(w in _REMARK_TROUBLE for w in remark) or _hedged(remark):
        # `Siedlung A -- oder Stadt B`, `Burg … # vielleicht`: what follows the mark would
        # change the order (the brackets' refusal names brackets and sends the player to `#`).
        raise NotationError.make(
            "marked_remark_unclear", shown=t.sub(cut).original.strip(), column=t.col(cut + 1)
        )
    spans = [(i, i + 1, "") for i in marks if i < cut]
    return t.rewritten([*spans, (cut, len(f), "")])


#: A hex's token or label ahead (`5L`, `11G`, `C4`): after a dash, a dash between hexes.
_HEX_AHEAD = re.compile(r"\d|[a-z]{1,2}\d")


def _dashes_at(t: Text, end: int = 0) -> int:
    """Where a remark after dashes starts in the folded line (-1 for none): ` -- `, or an em
    dash between blanks (` — `: what a phone makes of ` -- `; it folds to ` - `, which between
    hexes is no remark)."""
    f = t.folded
    at = f.find(" -- ", end)
    if "\u2014" not in t.original:
        return at
    em = f.find(" - ", end)
    while em >= 0 and (at < 0 or em < at):
        # `6L — 5L`, `C3 — C4`: a hex after it, so a dash between hexes.
        if t.sub(em + 1, em + 2).original == "\u2014" and not _HEX_AHEAD.match(f, em + 3):
            return em
        em = f.find(" - ", em + 1)
    return at


def check_dashes_remark(t: Text, game: GameWords) -> None:
    """A remark after ` -- ` (or ` — `) that may change the order (`Räuber 9E -- raube gelb`,
    `Entwicklungskarte -- zweimal`) is refused, as one in brackets is: the victim or the count
    would be lost. (After ` #`, the guide's mark of a remark, only a choice or a negation is.)
    `t`: the line as written (before `_tidy` cut the remark)."""
    dashes = _dashes_at(t)
    if dashes <= 0:
        return
    f = t.folded
    hash_at = f.find(" #")
    if 0 < hash_at < dashes:
        return
    # Articles are no counts here (`-- a bit risky`, `-- then this one`).
    words = [w for w in _letter_words(f[dashes:]) if w not in _ARTICLES and w not in _NOT_COUNTS]
    if words and _may_change_the_order(words, f[:dashes], game):
        start = dashes + 1
        while start < len(f) and f[start] in "- ":
            start += 1
        raise NotationError.make(
            "dashes_remark_unclear", shown=t.sub(start).original.strip(), column=t.col(start)
        )


#: Number words that are articles or "one" as a pronoun (`-- my first one`): no counts.
_NOT_COUNTS = frozenset({"a", "an", "one", "ein", "eine", "einen", "einer", "en", "et"})


#: What a remark in brackets may not say: it would change the order ("(oder 8H 3E 4H)").
_REMARK_TROUBLE = _remark_words("trouble")
#: A remark that only doubts, postpones or moves the order, or says its pieces are ships
#: (`(maybe)`, `(später)`, `(flyttet)`, `(both ships)`): a hedge, and nothing but hedges and
#: their fillers. Passed over, the line's own word would build the piece now.
_HEDGES = _remark_words("hedges")
_HEDGE_FILLERS = _remark_words("hedge_fillers")


def _hedged(words: list[str]) -> bool:
    return any(w in _HEDGES for w in words) and all(
        w in _HEDGES or w in _HEDGE_FILLERS for w in words
    )


#: Words that name hexes: brackets of only these are the canonical echo, checked.
_HEX_WORDS = _remark_words("hex_words")


#: Words in a remark that may change what the order says: how often, on what condition, when.
_REMARK_CONDITIONS = _remark_words("conditions")
#: A condition only on whether the player can pay (`falls es reicht`, `if I can afford it`,
#: `if I've got the lumber for it`): every build runs only then anyway.
_PAY_WORDS = _remark_words("pay")
_HAVE_WORDS = _remark_words("have")
#: Words that turn a "can pay" clause into something else (`wenn ich zu viele Karten habe`).
_NOT_PAY = _remark_words("not_pay")


#: A condition only on whether the place is free: one of `free` with nothing but
#: `free_fillers` beside it (`falls noch frei`, `if still free`, `hvis ledig`). Alone, since
#: `(Rot, falls verfügbar)` or `(free with road building)` say more than that.
_FREE = _remark_words("free")
_FREE_FILLERS = _remark_words("free_fillers")


def _is_if_free(words: list[str]) -> bool:
    return any(w in _FREE for w in words) and all(w in _FREE or w in _FREE_FILLERS for w in words)


def _is_can_pay(words: list[str], game: GameWords) -> bool:
    if any(w in _NOT_PAY for w in words):
        return False
    return any(w in _PAY_WORDS for w in words) or (
        any(w in _HAVE_WORDS for w in words)
        and any(_is_resource_word(w, game) or w in _RESOURCES for w in words)
    )


def _may_change_the_order(words: list[str], f: str, game: GameWords) -> bool:
    """Whether a remark in brackets may change the order: a choice, a negation, a condition
    other than paying, a count, a colour (except the writer's after `Runde 7`), an order word,
    a resource (except in a harbour's name)."""
    if any(w in _REMARK_TROUBLE for w in words) or _hedged(words):
        return True
    if _names_the_settlement(words, f):
        return False
    starts, keywords = game.build_starts, game.keyword_starts
    if (_is_can_pay(words, game) or _is_if_free(words)) and not any(
        w in starts or w in keywords or w in vocab.COLOUR_WORDS for w in words
    ):
        # `(falls es reicht)`; but `(wenn möglich vor der Straße)` names another build.
        return False
    harbour = any(w in _HARBOUR for w in words)
    round_line = f.lstrip().startswith(_ROUND_LINE)
    return any(
        w in _REMARK_CONDITIONS
        or (w in vocab.COLOUR_WORDS and not round_line)
        or w in vocab.NUMBER_WORDS
        or w in starts
        or w in keywords
        or (_is_resource_word(w, game) and not harbour)
        for w in words
    )


#: A remark on a city line that only says where it stands: `(bei meiner Siedlung)`, `(at my
#: settlement)`, `(Ausbau meiner Siedlung)`.
_SETTLEMENT_REMARK = _remark_words("settlement_remark")
#: Words before the order word of a line: verbs, articles, politeness.
_BEFORE_ORDER_WORD = _remark_words("before_order_word")


def _names_the_settlement(words: list[str], f: str) -> bool:
    """Whether a remark in brackets on a city line only names the settlement the city is built
    from (`Stadt 6L 5L 11G (bei meiner Siedlung)`): it cannot change the order."""
    if not any(w in _SETTLEMENT for w in words):
        return False
    if any(w not in _SETTLEMENT_REMARK and w not in _HEX_WORDS for w in words):
        return False
    for w in _letter_words(f[:60]):
        if w in _VERBS or w in _ARTICLES or w in _BEFORE_ORDER_WORD:
            continue
        return w in _CITY
    return False


def _is_resource_word(word: str, game: GameWords) -> bool:
    """A resource's full name in either language (`Holz`, `ore`); single letters are not. In a
    Kronlande game also Stein, Fisch and the goods (`Fisch`, `bread`); in any other game those
    words are nothing (`(Fisch!)` is a remark there, as it always was)."""
    if len(word) < 3:
        return False
    return word in game.resources


def _names_the_rate(inner: str) -> bool:
    """`3:1 Hafen`, `3:1 port`, `3:1 havn`: a bracket that says a sea trade goes through a
    three-for-one harbour, which the trade's own counts say already (the rules check that the
    player has one). A two-for-one harbour names a resource, which may not be the one the
    trade gives: that bracket is refused, as before."""
    inner = inner.strip()
    rate = _RATE.match(inner)
    # `(2:1 Wollhafen)` names a resource the trade may not give: refused.
    if rate is None or any(ch.isdigit() for ch in inner[rate.end() :]):
        return False
    words = _letter_words(inner[rate.end() :])
    # A rate alone (`(3:1)`) may be a count the trade's terms do not say: refused as before.
    return any(w in _HARBOUR for w in words) and all(
        w in _HARBOUR or w in _HARBOUR_FILLERS for w in words
    )


def _without_remark(t: Text, game: GameWords) -> Text:
    """The line without a remark in closing brackets (`(wichtig!)`, `(falls es reicht)`): no
    digit and a word that names no hex. A bracket that would change the order (`(oder …)`,
    `(nicht …)`) is refused; brackets naming places are the echo, checked later."""
    f = t.folded.rstrip()
    while f and f[-1] in ".!?":
        f = f[:-1].rstrip()
    if not f.endswith(")"):
        return t
    close = len(f) - 1
    start = f.find("(", f.rfind(")", 0, close) + 1, close)
    if start < 0:
        return t
    inner = f[start + 1 : close]
    if any(ch.isdigit() for ch in inner):
        return t.sub(0, start) if _names_the_rate(inner) else t
    words = _letter_words(inner)
    if not words or all(w in _HEX_WORDS for w in words):
        return t
    # A colour in brackets may name a victim or a partner; a count, a resource, a condition
    # or an order word may change the order: all refused, never dropped as a remark.
    if _may_change_the_order(words, f, game):
        raise NotationError.make(
            "remark_unclear", shown=t.sub(start, close + 1).original, column=t.col(start)
        )
    return t.sub(0, start)


#: Verbs and articles before an order: `Baue eine Siedlung`, `Play knight`, `Ich spiele …`.
_VERBS = _remark_words("verbs")
_ARTICLES = _remark_words("articles")


#: Words before an order that only place it in the mail: `Zum Schluss noch …`, `Finally …`,
#: `Dann …`, `Diesmal …`.
_LEAD_FILLERS = _remark_words("lead_fillers")
#: Phrases before an order whose words alone would be other words in another language.
_LEAD_PHRASES = tuple(p.split() for p in lexicon.words("remarks", "lead_phrases"))


#: The first words of an order, after which an article before them is no remark of its own
#: (`eine Siedlung …`): a keyword's or a build's, Kronlande's too (refused in a base game by
#: their reader, with the reason).
_ORDER_STARTS = every_game_words().keyword_starts | every_game_words().build_starts
#: Order keywords that are verbs, after a subject (`I discard …`, `Ich werfe … ab`).
_KEYWORD_VERBS = lexicon.word_set("keywords", "discard")
#: An order whose keyword is a phrase with its own verb (`Schiff versetzen`, `Move ship`,
#: `Flyt skib`): no verb around it is taken off, it is the order's word.
_VERB_KEYWORD = _PATTERNS["move_ship"]


#: Between the subject and the verb: `Ich möchte gern bauen`, `I'd like to build`.
_WISH_WORDS = _remark_words("wish")
#: A purchase's verbs (`kaufe`, `buy`, `køb`): passed over only before a card bought.
_BUY_VERBS = lexicon.word_set("words", "buy_verbs")
#: What a card bought is called (the first words of `[words] card_phrases`), and counts.
_CARD_BOUGHT = frozenset(p.split()[0] for p in lexicon.words("words", "card_phrases"))


def _buys_a_card(after: list[tuple[int, int, str]]) -> bool:
    """Whether the words after a purchase's verb name a card bought (`a development card`,
    `eine Entwicklungskarte`, `2 Karten`), not a card played (`monopoly ore`)."""
    for _, _, w in after:
        if w in _ARTICLES or w.isdecimal() or w in vocab.NUMBER_WORDS:
            continue
        return w in _CARD_BOUGHT or w.rstrip("sn") in _CARD_BOUGHT
    return False


#: Verbs at the end of a German clause (`Siedlung 6L 5L 11G bauen`, `Räuber auf 9E setzen, gelb
#: berauben`): the verb comes last there, and says nothing the order does not.
_TRAILING_VERBS = _remark_words("trailing_verbs")
#: A word that ends a clause (before a comma, a colon, a full stop or the end of the line:
#: `Monopol spielen: Erz`); it starts only where a word starts, so a long run of letters is
#: read once.
_CLAUSE_END_WORD = re.compile(r"(?<![a-z])[a-z]++(?=\s*+(?:[,;:.!]|$))")
#: A "please" standing as a word of its own (`bitte`, `please`, `pls`).
_PLEASE_WORD = re.compile(rf"(?<![a-z])(?:{lexicon.either('remarks', 'please')})(?![a-z])")


def _without_verb(t: Text) -> Text:
    """The line without the verbs and words before its order (`Ich möchte gern eine …`,
    `I'd like to build …`) and without a verb or a "please" that ends a clause (`… bauen`,
    `… please`)."""
    t = _without_lead_verb(t)
    f = t.folded
    if _VERB_KEYWORD.match(f.lstrip()):
        return t  # `Schiff versetzen: …`: the verb is the order's own word
    spans = [
        (m.start(), m.end(), "")
        for m in _CLAUSE_END_WORD.finditer(f)
        if m.group(0) in _TRAILING_VERBS and m.start() > 0 and not f[: m.start()].isspace()
    ]
    lead = len(f) - len(f.lstrip())
    for m in _PLEASE_WORD.finditer(f, lead + 1):
        # `Räuber bitte auf 9H`, `Robber please on 9L`, `Monopol auf Wolle, bitte`: anywhere
        # after the line's first word; at its end with the comma before it.
        start = m.start()
        if not f[m.end() :].strip(" .!"):
            before = f[:start].rstrip(" ")
            if before.endswith((",", ";")):
                start = len(before) - 1
        spans.append((start, m.end(), ""))
    closing = _closing_word_at(f)
    if closing is not None and not any(b > closing for _, b, _ in spans):
        spans.append((closing, len(f), ""))
    spans.sort()
    return t.rewritten(spans) if spans else t


def _without_lead_verb(t: Text) -> Text:
    f = t.folded
    if _VERB_KEYWORD.match(f.lstrip()):
        return t  # `Move ship …`, `Versetze Schiff …`: the verb is the order's own word
    words = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"[^\s:,]+", f)]
    i = 0
    for phrase in _LEAD_PHRASES:
        if [w for _, _, w in words[: len(phrase)]] == phrase:
            i = len(phrase)  # `I denne tur …`, `Til sidst …`
            break
    phrased = i
    while i < len(words) and i < phrased + 4 and words[i][2] in _LEAD_FILLERS:
        i += 1  # `Zum Schluss noch eine Entwicklungskarte`, `Finally buy a card`
    polite = i > 0
    if i < len(words) and words[i][2] in _PLEASE:
        polite = True
        i += 1  # `Please buy a development card`, `Bitte Straße 6L 5L`
    # `Ich möchte gern …`, `I'd like to build …`, `I want to …`, and inverted after a lead
    # (`Diesmal möchte ich …`, `I denne tur vil jeg gerne …`): subject and wish words.
    wished = i
    while i < len(words) and i < 8 and (words[i][2] in _SUBJECTS or words[i][2] in _WISH_WORDS):
        i += 1
    run = [w for _, _, w in words[wished:i]]
    if not any(w in _SUBJECTS for w in run):
        i = wished  # wish words without a subject (`To all: …`, `Will you trade?`): no order's
    wish = any(w in _WISH_WORDS for w in run)
    if wish and i > wished and i < len(words) and words[i][2] not in _VERBS:
        # `I want to buy a card`, `Ich möchte gern eine Entwicklungskarte kaufen`
        if words[i][2] in _ARTICLES and i + 1 < len(words):
            i += 1
        return t.sub(words[i][0])
    if i < len(words) and words[i][2] in _VERBS:
        if _VERB_KEYWORD.match(f[words[i][0] :]):
            return t.sub(words[i][0])  # `I move my ship …`: the verb is the order's own word
        if words[i][2] in _BUY_VERBS and not _buys_a_card(words[i + 1 : i + 3]):
            # `Buy monopoly ore`, `Kaufe Ritter`: a card named after a purchase's verb is no
            # card played; the line stays as written (refused with the form to write).
            return t
        i += 1
        if i < len(words) and words[i][2] in _SUBJECTS:
            i += 1  # `Dann baue ich …`, `Denne gang bygger jeg …`: the subject after its verb
        while i < len(words) and i < 10 and words[i][2] in _LEAD_FILLERS:
            i += 1  # `Ich baue diesmal eine Straße …`
        if i < len(words) and words[i][2] in _ARTICLES:
            i += 1
    elif i + 1 < len(words) and words[i][2] in _ARTICLES and words[i + 1][2] in _ORDER_STARTS:
        i += 1  # `Dann eine Siedlung …`, `Then a settlement …`, `Og så et hus …`: no verb
    elif i > wished and i < len(words) and words[i][2] in _KEYWORD_VERBS:
        pass  # `I discard wool and grain`, `Ich werfe … ab`: the subject before the keyword
    elif not polite:
        return t
    if i >= len(words):
        return t
    return t.sub(words[i][0])
