"""A settlement upgraded to a city, however written: `Stadt 6L 5L 4G`, `Siedlung bei …
zur Stadt ausbauen`, `Upgrade my settlement at … to a city`."""

from __future__ import annotations

import re

from pbm import languages
from pbm.rules.orders import Castle, City, Residence

from . import lexicon, vocab
from .context import Context, Text
from .errors import NotationError
from .places import _crossing

#: A city written as the upgrade it is: `Siedlung 6L 5L 11G zur Stadt ausbauen`, `Ausbau zur
#: Stadt: 3E 11G Wüste`, `Upgrade 5B 4L 11O to a city`, `Turn settlement … into a city`.
_CITY_NOUNS = lexicon.word_set("upgrades", "city_nouns")
_UPGRADE_VERBS = lexicon.word_set("upgrades", "verbs")
#: The verbs that say "to a city" by themselves where only a settlement is ever upgraded (not
#: in Kronlande, where a city becomes a Burg and a Burg a Residenz).
_UPGRADE_ALONE = lexicon.word_set("upgrades", "verbs_alone")
#: Before the city word: `zur Stadt`, `zu einer Stadt`, `in eine Stadt`, `to a city`, `→ Stadt`.
_TO_CITY = lexicon.word_set("upgrades", "to_city") | {"-", "->", "=>", ">"}
#: Between `zu`/`to` and the city word: `zu einer Stadt`, `to a city`.
_CITY_ARTICLES = lexicon.word_set("upgrades", "city_articles")
#: Words that join two builds: a line with one is no single upgrade (`Siedlung … und zur Stadt
#: ausbauen` builds twice).
_NOT_ONE_UPGRADE = lexicon.word_set("upgrades", "joining") | {"&", "+"}
#: Around the place of an upgrade: `meine Siedlung bei …`, `my settlement at …`.
_UPGRADE_FILL = lexicon.word_set("upgrades", "fill")
#: The build words an upgrade line may hold (`Siedlung … zur Stadt`): any other is no upgrade.
_UPGRADE_NOUNS = _CITY_NOUNS | lexicon.word_set("upgrades", "settlement_nouns")
#: Kronlande: what a city and a Burg become (`Stadt … zur Burg ausbauen`, `Upgrade … to a
#: castle`, `Opgrader … til borg`).
_CASTLE_NOUNS = lexicon.word_set("keywords", "castle")
_RESIDENCE_NOUNS = lexicon.word_set("keywords", "residence")
_KRON_NOUNS = _CASTLE_NOUNS | _RESIDENCE_NOUNS


#: The settlement's words (`Upgrade settlement …`, `Ausbau Siedlung …`, `Opgrader hus …`).
_SETTLEMENT_NOUNS = lexicon.word_set("upgrades", "settlement_nouns")
#: Kronlande's resources' and goods' names (`bread`, `Brot`, `broed`), as a `Make` line names
#: them after its verb.
_GOOD_WORDS = frozenset(languages.merged("kron_resources"))


def makes_goods(words: list[tuple[int, int, str]], at: int) -> bool:
    """Whether the verb at `at` makes goods (`Make 1 bread and castle …`: a count or a good
    follows it), not a city of a settlement (`Make … a city`)."""
    nxt = words[at + 1][2] if at + 1 < len(words) else ""
    return nxt.isdecimal() or nxt in vocab.NUMBER_WORDS or nxt in _GOOD_WORDS


def _target(word: str) -> type[City] | type[Castle] | type[Residence]:
    if word in _CASTLE_NOUNS:
        return Castle
    return Residence if word in _RESIDENCE_NOUNS else City


def _upgrade(t: Text, ctx: Context) -> City | Castle | Residence | None:
    """A city written as the upgrade it is, or None for any other line. The words of the
    upgrade are passed over and the rest must name the crossing; a line naming another build
    (`Straße …`) is none. Without the city named (`Ausbau 3E 11G Wüste`) it is a city where
    nothing else is upgraded, and asked back in Kronlande."""
    f = t.folded
    words = [(m.start(), m.end(), m.group(0).strip(":,;.!")) for m in re.finditer(r"[^\s,;]+", f)]
    words = [w for w in words if w[2]]
    # In Kronlande a city becomes a Burg and a Burg a Residenz: their words are upgrades' too.
    nouns = _CITY_NOUNS | _KRON_NOUNS if ctx.kron else _CITY_NOUNS
    if not words or not (
        words[0][2] in _UPGRADE_VERBS or words[0][2] in nouns or words[0][2] in _UPGRADE_FILL
    ):
        return None
    if not any(w in _UPGRADE_VERBS or w in _CITY_NOUNS for _, _, w in words) and not (
        ctx.kron and any(w in _TO_CITY for _, _, w in words)
    ):
        return None
    starts = ctx.words.build_starts
    # `Make my settlement … a city`: Kronlande's `make` makes goods only where a count or a
    # good follows it (`Make 2 bread`); here it is the upgrade's verb.
    first = 1 if words[0][2] in _UPGRADE_VERBS and not makes_goods(words, 0) else 0
    if any(w in starts and w not in _UPGRADE_NOUNS and w not in nouns for *_, w in words[first:]):
        return None
    verb = any(w in _UPGRADE_VERBS for _, _, w in words)
    spans: list[tuple[int, int, str]] = []
    #: A city word at all, and one the upgrade goes to (`zur Stadt`, `to a city`).
    named = target = False
    becomes: type[City] | type[Castle] | type[Residence] = City
    for i, (start, end, word) in enumerate(words):
        if word not in nouns:
            continue
        named = True
        spans.append((start, end, ""))
        j = i - 1
        if j >= 1 and words[j][2] in _CITY_ARTICLES and words[j - 1][2] in _TO_CITY:
            spans.append((words[j][0], words[j][1], ""))
            j -= 1
        if j >= 0 and words[j][2] in _TO_CITY:
            spans.append((words[j][0], words[j][1], ""))
            verb = target = True
            becomes = _target(word)
        elif (
            i == len(words) - 1
            and j == i - 1
            and j >= 1
            and words[j][2] in _CITY_ARTICLES
            and words[0][2] in _UPGRADE_VERBS
            and words[0][2] not in _UPGRADE_ALONE
        ):
            # `Make my settlement … a city`, `Lav mit hus … en by`: what it becomes, last,
            # after a verb that says "make it". (After `upgrade` the city may be what is
            # upgraded: `Upgrade …, the city` is no target.)
            spans.append((words[j][0], words[j][1], ""))
            target = True
            becomes = _target(word)
    if not verb:
        return None  # `Stadt 6L 5L 11G`, `Stadt bei Siedlung …`: the city line as it is
    if not named and not any(w in _UPGRADE_ALONE for _, _, w in words):
        return None
    if ctx.kron and not target and (named or not any(w in _SETTLEMENT_NOUNS for *_, w in words)):
        # `Ausbau …`, `Stadt … ausbauen`: in Kronlande a city becomes a Burg, a Burg a Residenz.
        # A settlement named as what is upgraded (`Upgrade settlement …`) becomes a city.
        raise NotationError.make("upgrade_to_what", column=t.col(len(f) - len(f.lstrip())))
    for start, end, word in words:
        if word in _NOT_ONE_UPGRADE:
            # `Siedlung … und zur Stadt ausbauen`: the settlement built, then upgraded?
            raise NotationError.make(
                "upgrade_form", shown=t.sub(start, end).original, column=t.col(start)
            )
    blanked = {s for s, _, _ in spans}
    for start, end, word in words:
        if start not in blanked and (
            word in _UPGRADE_VERBS or word in _UPGRADE_FILL or word in _SETTLEMENT_NOUNS
        ):
            spans.append((start, end, ""))
    place = t.rewritten(sorted(spans))
    # What stands between the words, a colon (`Ausbau zur Stadt: …`), goes too.
    colons = [(i, i + 1, "") for i, ch in enumerate(place.folded) if ch == ":"]
    try:
        return becomes(_crossing(place.rewritten(colons) if colons else place, ctx))
    except NotationError as e:
        if e.key != "hex_name_expected":
            raise
        # A word that is neither the upgrade's nor a hex (`… später zur Stadt ausbauen`,
        # `Upgrade … to a castle`): what it adds is not read.
        raise NotationError.make("upgrade_form", shown=e.params["word"], column=e.column) from None
