"""Lines that lead or join the orders: headings before a block (`Ersatzbau: …`), passing
(`Ich passe`, `keine Züge`), and an alternative on its own line (`oder …`, `sonst …`)."""

from __future__ import annotations

import re

from pbm import languages

from . import lexicon, vocab
from .builds import _build_line
from .context import Context, Text
from .game_words import GameWords
from .heading_kinds import heading_kind
from .items import Item, SubstituteHeader
from .setup import _setup_line
from .words import _KW, _OR_ELSE_WORDS, _letter_words

#: A substitute's keyword and a blank, where a build follows without the colon.
_SUBSTITUTE_BARE = re.compile(rf"^\s*+(?:{_KW['substitute']})(?![a-z:])\s")
#: Two words that open an alternative (`falls nicht: …`), each pair as its words.
_OR_ELSE_PAIRS = frozenset(tuple(p.split()) for p in lexicon.words("words", "or_else_pairs"))


def _or_prefix(t: Text) -> Text | None:
    """The rest of a line that starts with `oder`, `sonst`, `alternativ`, `falls nicht:`, …"""
    f = t.folded
    words = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"[a-z']+", f[:40])]
    if not words or f[: words[0][0]].strip():
        return None
    n = 0
    if len(words) > 1 and (words[0][2], words[1][2]) in _OR_ELSE_PAIRS:
        n = 2
    elif words[0][2] in _OR_ELSE_WORDS:
        n = 1
    if not n:
        return None
    pos = words[n - 1][1]
    numbered = _CHOICE_NUMBER.match(f, pos)
    if numbered is not None:
        pos = numbered.end()  # `Alternativ 2: …`: the choice's number
    while pos < len(f) and f[pos] in " :,-":
        pos += 1
    if pos >= len(f):
        return None
    return t.sub(pos)


#: The number of a choice after its word and before its colon: `Alternativ 2:`, `Sonst 3.:`.
_CHOICE_NUMBER = re.compile(r" ?\d{1,2}\.? ?:")


def _headed(t: Text, ctx: Context) -> Item | None:
    """`Ersatzbau: Entwicklungskarte`: a substitute heading with a build on its own line; `Sonst:
    Straße …`, `Falls nicht: …`: an alternative to the line above (None: neither)."""
    f = t.folded
    colon = f.find(":")
    if colon <= 0 or not f[colon + 1 :].strip() or heading_kind(f[: colon + 1]) != "substitute":
        bare = _SUBSTITUTE_BARE.match(f)
        words = _letter_words(f[bare.end() : bare.end() + 40]) if bare else []
        if bare is None or not words or words[0] not in ctx.words.build_starts:
            return None
        # `Ersatzbau Straße 6L 5L`, `Substitute road …`: the colon left out.
        colon = bare.end() - 1
    rest = t.sub(colon + 1)
    if _or_prefix(t) is not None:
        return None  # `sonst: …`: read as an alternative by the caller
    if ctx.phase == "setup":
        return _setup_line(rest, ctx)
    build = _build_line(rest, ctx)
    if isinstance(build, SubstituteHeader):
        return build
    return SubstituteHeader(build)


#: Words around a pass (`Ich passe diese Runde.`, `Nothing this round, please`).
_PASS_FILLERS = lexicon.word_set("words", "pass_fillers")
#: A pass itself, each as its words (`passe`, `keine Züge`, `no orders`).
_PASS_CORES = frozenset(tuple(p.split()) for p in lexicon.words("words", "pass"))
#: A mail command's words in a pass's remark (`Ich passe, ich gebe auf`): the line says more
#: than the pass, and read as one the command was lost.
_COMMAND_IN_REMARK = re.compile(
    r"(?<![a-z])(?:"
    + lexicon.alternation(
        w for key in languages.keys("commands") for w in lexicon.words("commands", key) if w != "?"
    )
    + r")(?![a-z])"
)


def _is_pass(f: str, game: GameWords) -> bool:
    """`Ich passe`, `keine Züge diesmal`, also with a remark after a comma or a full stop
    (`No orders from me this round, I'm saving up.`) that names no order, colour or number."""
    if len(f) > 120 or any(ch.isdigit() for ch in f):
        return False
    cut = min((i for i in (f.find(c) for c in ",.;(!") if i > 0), default=len(f))
    core = tuple(w for w in _letter_words(f[:cut]) if w not in _PASS_FILLERS)
    if core not in _PASS_CORES:
        return False
    if _COMMAND_IN_REMARK.search(f, cut) is not None:
        return False
    remark = _letter_words(f[cut:])
    starts, keywords = game.build_starts, game.keyword_starts
    return not any(w in starts or w in keywords or w in vocab.COLOUR_WORDS for w in remark)
