"""Where a line of several builds is cut into its builds (`Straße … und Siedlung …`), and
where an `und` is no cut (`Siedlung zwischen Wald und Hügel`)."""

from __future__ import annotations

import re

from . import lexicon, vocab
from .context import Text
from .game_words import BASE_WORDS, GameWords
from .upgrades import (
    _CITY_ARTICLES,
    _CITY_NOUNS,
    _KRON_NOUNS,
    _TO_CITY,
    _UPGRADE_ALONE,
    _UPGRADE_FILL,
    _UPGRADE_VERBS,
)
from .upgrades import makes_goods as _makes_goods
from .words import _OR, _OR_ELSE_WORDS, _PATTERNS, _SUBJECTS


def _cut_words(key: str) -> frozenset[str]:
    return lexicon.word_set("cuts", key)


#: Words before a build word that make it part of the same build (`Stadt bei Siedlung`).
_NOT_A_CUT = _cut_words("not_a_cut")
#: Words that join two builds (`Straße … und Siedlung …`, `…, dann Straße …`).
#: A dash standing alone between two builds (`Straße 6L 5L - Siedlung …`, a phone's `–`) joins
#: them as a comma would. (An em dash stays what a phone makes of `--`: a remark follows.)
_JOINERS = _cut_words("joiners") | {"&", "+", "-", "\u2013"}


#: Articles a build may start with in a sentence (`… und danach eine Siedlung …`).
_CUT_ARTICLES = _cut_words("articles")


#: Seafarers: the pieces of road building are named by kind (`Straßenbau: Straße A, Schiff B`).
_PIECE_WORDS = _cut_words("pieces")
#: `Move ship …`, `Versetze das Schiff …`: the ship word is part of the order, no second build.
_MOVE_LEADS = _cut_words("move_leads")
_SHIP_WORDS = _cut_words("ships")
#: `Karte kaufen`, `… Karte`: a card purchase's word that starts a build by itself.
_CARD_WORDS = _cut_words("cards")
_BUY_AFTER = _cut_words("buy_after") | {""}
#: What a counted card purchase's word starts with (`2 Entwicklungskarten`, `2 dev cards`).
_COUNTED_CARDS = lexicon.words("cuts", "counted_cards")
_BUY_BEFORE = _cut_words("buy_before")
_CARD_ADJECTIVES = _cut_words("card_adjectives")
#: A verb before a build word (`… und baue eine Siedlung …`, `…, play year of plenty: …`).
_BUILD_VERBS = _cut_words("build_verbs")
#: A city's verb that starts an upgrade mid-line (`…, then upgrade 4G 8W 3W to a city`).
_UPGRADE_LEADS = _cut_words("upgrade_leads")
#: The settlement's words, which after an upgrade's verb are the settlement upgraded.
_SETTLEMENT_NOUNS = lexicon.word_set("upgrades", "settlement_nouns")
#: The words between a build's verb and its build word, or before the verb (`and then I build
#: a …`, `og så bygger jeg et …`, `und baue dann eine …`), all part of the cut.
_VERB_LEADS = (
    _BUILD_VERBS | _JOINERS | _CUT_ARTICLES | lexicon.word_set("remarks", "articles") | _SUBJECTS
)


#: Characters from a build's first word in which its keyword and the blanks after it stand.
_KEYWORD_WINDOW = 200


#: How many words after a settlement's word an upgrade's city may stand (`Make settlement
#: 4G 8W 3W into a city`): a window, so that the line stays linear.
_UPGRADE_WINDOW = 12


def _split_builds(
    t: Text, sea: bool = False, game: GameWords = BASE_WORDS, own: frozenset[str] = frozenset()
) -> list[Text]:
    """A line of several builds, cut before each build word after the first (`Straße A und
    Siedlung B`, `Siedlung A Straße B`, `Stadt A, Karte kaufen`), joining words dropped.
    `sea`: a Seafarers board, where road building names its pieces' kinds; `game`: the
    game's words (Kronlande's build words cut in a Kronlande game); `own`: the build words of
    the game's language that are no build words in another's game (Danish `by`, city, which
    is English's `by`: `vocab.own_game_words`)."""
    starts = game.build_starts | own if own else game.build_starts
    f = t.folded
    words = [(m.start(), m.end(), m.group(0).strip(",;:.!")) for m in re.finditer(r"\S+", f)]
    words = [w for w in words if w[2]]  # a comma standing alone is no word
    # others[k]: how many of the first k words are neither a build word nor a joiner, so
    # "only such words from a to b" is one subtraction (the line stays linear).
    others = [0]
    # seps[k]: how many of the first k words end a path of a list (`C3 C4,`, `und`, `->`), to
    # tell a road building's second piece from a road after it.
    seps = [0]
    for w in words:
        others.append(others[-1] + (w[2] not in starts and w[2] not in _JOINERS))
        seps.append(seps[-1] + (w[2] in _JOINERS or f[w[1] - 1] in ",;" or ">" in w[2]))
    # Where an `oder` (or a fallback said inline, `falls das nicht geht`) ends: the build word
    # after it is an option of the same build, no build of its own.
    after_or = {m.end() for m in _OR.finditer(f)}
    cuts: list[tuple[int, int]] = []  # (end of the previous build, start of the next)
    build_start = 0  # the first word of the build being read
    building_at, building = -1, None  # whether the build at `building_at` is road building
    for i in range(1, len(words)):
        start, _, word = words[i]
        nxt = words[i + 1][2] if i + 1 < len(words) else ""
        if (
            word in _UPGRADE_LEADS
            and nxt
            and nxt not in _JOINERS
            and nxt not in _TO_CITY
            and others[i] - others[build_start] > 0
            # A place follows (`upgrade 4G 8W 3W`, `upgrade my settlement at …`), not a
            # remark on the build before (`City …, upgrade of my settlement`).
            and any(ch.isdigit() for w in words[i + 1 : i + 7] for ch in w[2])
        ):
            # `Road 6B 5B, then upgrade 4G 8W 3W to a city`, `… og opgrader mit hus …`: the
            # upgrade starts at its verb (not a verb that ends one: `… 3W upgrade to city`).
            k = i
            while k - 1 > build_start and k > i - 5 and words[k - 1][2] in _VERB_LEADS:
                k -= 1
            while k < i and (words[k][2] in _JOINERS or words[k][2] in _SUBJECTS):
                k += 1  # `… and then I upgrade …`: the piece starts at the verb
            build_start = k
            _cut_before(words, k, cuts, _JOINERS | _SUBJECTS)
            continue
        is_card = word in _CARD_WORDS and nxt in _BUY_AFTER
        is_count = (word.isdecimal() or word in vocab.NUMBER_WORDS or word.endswith("x")) and (
            nxt.startswith(_COUNTED_CARDS)
        )
        if not (word in starts or is_card or is_count or (word, nxt) in game.build_pairs):
            continue
        before = words[i - 1][2]
        if word in _SHIP_WORDS and before in _MOVE_LEADS:
            continue
        if (word in _CITY_NOUNS or word in _KRON_NOUNS) and (
            before in _TO_CITY
            or (before in _CITY_ARTICLES and words[i - 2][2] in _TO_CITY)
            or (words[build_start][2] in _UPGRADE_VERBS and not _makes_goods(words, build_start))
        ):
            # `Siedlung … zur Stadt ausbauen`, `Make … a city`, `Stadt … zur Burg`: one build
            continue
        if (
            word in _SETTLEMENT_NOUNS
            and (
                words[build_start][2] in _UPGRADE_ALONE
                or (
                    # `Make settlement … a city`, `Mache Siedlung … zur Stadt`, `Lav hus … til
                    # by`: a verb that says "to a city" with the city named after.
                    words[build_start][2] in _UPGRADE_VERBS
                    and not _makes_goods(words, build_start)
                    and any(
                        w[2] in _CITY_NOUNS or w[2] in _KRON_NOUNS
                        for w in words[i + 1 : i + 1 + _UPGRADE_WINDOW]
                    )
                )
            )
            and all(words[m][2] in _UPGRADE_FILL for m in range(build_start + 1, i))
        ):
            # `Upgrade settlement at …`, `Ausbau Siedlung …`, `Opgrader hus …`: the settlement
            # upgraded, one build
            continue
        if building_at != build_start:
            # Once a build: its keyword within a window (the pattern's `.*$` would scan the
            # whole rest of the line at every build word, quadratic in a long line).
            building_at = build_start
            at = words[build_start][0]
            building = _PATTERNS["road_building"].match(f[at : at + _KEYWORD_WINDOW])
        if building is not None and (
            (sea and word in _PIECE_WORDS)
            # `Straßenbau: Straße A, Straße B` without a sea: the card's first two pieces
            # named, no road paid for (a third is one).
            or (
                word in _PIECE_WORDS
                and word not in _SHIP_WORDS
                and seps[i] - seps[build_start] <= 1
            )
            # A piece word inside the card's own name (Danish `Bygning af vej`).
            or start < words[build_start][0] + building.start("rest")
        ):
            continue
        verb = i - 2 if before in _CUT_ARTICLES else i - 1
        if (
            verb > build_start
            and words[verb][2] in _BUY_BEFORE
            and (word in _CARD_WORDS or word.startswith(_COUNTED_CARDS) or is_count)
            and others[verb] - others[build_start] > 0
        ):
            # `Vej … og så købe et udviklingskort`, `… und dann kaufe eine Karte`: the
            # purchase starts at its verb.
            build_start = verb
            _cut_before(words, verb, cuts)
            continue
        lead = _verb_lead(words, build_start, i)
        if lead is not None and others[lead] - others[build_start] > 0:
            # `Straße 6L 5L und baue eine Siedlung …`, `Buy card and play year of plenty: …`:
            # the build starts at its verb (the piece drops the verb, `_without_verb`).
            build_start = lead
            _cut_before(words, lead, cuts)
            continue
        if (
            before in _CUT_ARTICLES
            and i - 2 > build_start
            and words[i - 2][2] not in _NOT_A_CUT
            and others[i - 1] - others[build_start] > 0
        ):
            # `… und danach eine Siedlung …`, `…, then a settlement …`: the build starts at
            # its article.
            build_start = i - 1
            _cut_before(words, i - 1, cuts)
            continue
        if (
            before in _NOT_A_CUT
            or before in _OR_ELSE_WORDS
            or start in after_or
            or _is_count_word(before)
            or (is_count and before in _BUY_BEFORE)
            # Danish `to udviklingskort`: two cards (`to` is a count only before a card).
            or (before in vocab.COUNTED_NUMBER_WORDS and word in vocab.COUNTED_CARDS)
        ):
            continue
        if word in _CARD_ADJECTIVES and words[i - 1][2] in starts:
            continue
        if others[i] - others[build_start] == 0:
            # `Siedlung Straße 6L`: no build before the word, so no second build either.
            continue
        build_start = i
        _cut_before(words, i, cuts)
    if not cuts:
        return [t]
    parts, start = [], 0
    for end, nxt_start in cuts:
        piece = t.sub(start, end)
        parts.append(_trim_joiner(piece))
        start = nxt_start
    parts.append(t.sub(start))
    return parts


def _cut_before(
    words: list[tuple[int, int, str]],
    at: int,
    cuts: list[tuple[int, int]],
    passed: frozenset[str] = _JOINERS,
) -> None:
    """A cut before `words[at]`: the build before it ends at its last word that is none of
    `passed` (the joiners, dropped with the cut)."""
    j = at
    while j > 1 and words[j - 1][2] in passed:
        j -= 1
    cuts.append((words[j - 1][1], words[at][0]))


def _verb_lead(words: list[tuple[int, int, str]], build_start: int, i: int) -> int | None:
    """Where the build whose word is `words[i]` starts if a build verb stands before it
    (`baue dann eine Siedlung`, `bygger jeg et hus`, `I build a settlement`): the first of the
    words before it that lead a build (joiners left to the cut), at most four back; None
    without a verb."""
    k = i
    while k - 1 > build_start and k > i - 5 and words[k - 1][2] in _VERB_LEADS:
        k -= 1
    while k < i and words[k][2] in _JOINERS:
        k += 1
    if any(words[m][2] in _BUILD_VERBS for m in range(k, i)):
        return k
    return None


def _is_count_word(word: str) -> bool:
    return (
        word.isdecimal()
        or word in vocab.NUMBER_WORDS
        or (word.endswith("x") and word[:-1].isdecimal())
    )


def _trim_joiner(t: Text) -> Text:
    f = t.folded.rstrip()
    # A full stop too: `Road 6B 5B. Settlement …` (no build ends in `.`, not even `Str.`).
    while f and f[-1] in ",;+&.!":
        f = f[:-1].rstrip()
    return t.sub(0, len(f))
