"""Places on the board as a line names them: a crossing, a path (land or sea), a hex, a seat
by colour; with the player's echo of the place (`6L 5L (Wald/Hügel)`) checked against it."""

from __future__ import annotations

import re
from collections.abc import Callable

from . import lexicon, vocab
from .context import Context, Text
from .errors import AmbiguousError, NotationError, OrderError
from .names import crossing_from_names, hex_candidates, resolve_hex, resolve_path, tokenize_hexes
from .words import _OR_WORDS, _letter_words, _strip_words


def _without_echo(t: Text) -> Text:
    r"""Drop a bracketed second name (the canonical echo's token form) after checking it.

    The brackets end the text; the opening one is the first `(` after the last `)` before
    them — what `re.search(r"\((?P<inner>[^)]*)\)\s*$", …)` found, but that pattern scanned to
    the end from every `(` of the line (quadratic in a line of brackets).
    """
    f = t.folded.rstrip()
    if not f.endswith(")"):
        return t
    close = len(f) - 1
    start = f.find("(", f.rfind(")", 0, close) + 1, close)
    if start < 0:
        return t
    return t.sub(0, start)


def _unbracketed(t: Text) -> Text:
    """A place written whole in brackets (`Straße (6L 5L)`, `Siedlung [4G 8W 3W]`) without
    them: there is no main form beside it to check it against."""
    f = t.folded
    lead = len(f) - len(f.lstrip())
    end = len(f.rstrip()) - 1
    if end <= lead or (f[lead], f[end]) not in (("(", ")"), ("[", "]")):
        return t
    if any(ch in "()[]" for ch in f[lead + 1 : end]):
        return t
    return t.rewritten([(lead, lead + 1, ""), (end, end + 1, "")])


def _crossing(t: Text, ctx: Context) -> int:
    t = _unbracketed(t)
    main = _without_echo(t)
    try:
        names = tokenize_hexes(main.original, main.offset)
    except OrderError:
        # `4G-8W-3W`: three hexes joined by dashes, as a path's crossings are written.
        dashes = [(i, i + 1, " ") for i, ch in enumerate(main.folded) if ch == "-"]
        if len(dashes) != 2:
            raise
        try:
            names = tokenize_hexes(main.rewritten(dashes).original, main.offset)
        except OrderError:
            names = []
        if len(names) != 3:
            raise

    def resolve(x: Text) -> int:
        return crossing_from_names(ctx.board, tokenize_hexes(x.original, x.offset), ctx.lang)

    try:
        c = crossing_from_names(ctx.board, names, ctx.lang)
    except AmbiguousError as error:
        return _decided_by_echo(t, main, error, resolve, ctx.board.crossing_label)
    _check_echo(t, main, ctx, resolve, c)
    return c


#: Words before a path (`Straße zwischen 6L und 5L`, `Road at …`, `Straße von 5L nach 10G`).
_PATH_WORDS = lexicon.words("places", "path")
_PATH_TO = re.compile(rf" ({lexicon.either('places', 'path_to')}) ")


def _path(t: Text, ctx: Context, land_only: bool = True) -> int:
    t = _strip_words(t, _PATH_WORDS)
    to = _PATH_TO.search(t.folded)
    if to is not None and _PATH_TO.search(t.folded, to.end()) is None:
        # `von A nach B`: two hexes (the path between them) or two crossings.
        left, right = t.folded[: to.start()], t.folded[to.end() :]
        try:
            sides = len(tokenize_hexes(left)), len(tokenize_hexes(right))
        except OrderError:
            sides = (0, 0)
        if sides == (1, 1):
            t = t.replaced(to.start(), to.end(), " ")
        elif sides == (3, 3):
            t = t.replaced(to.start(), to.end(), " - ")
    t = _unbracketed(t)
    main = _without_echo(t)
    try:
        e = _resolve_path(main, ctx, land_only)
    except AmbiguousError as error:
        return _decided_by_echo(
            t, main, error, lambda x: _resolve_path(x, ctx, land_only), ctx.board.path_label
        )
    _check_echo(t, main, ctx, lambda x: _resolve_path(x, ctx, land_only), e)
    return e


def _resolve_path(t: Text, ctx: Context, land_only: bool = True) -> int:
    try:
        return resolve_path(ctx.board, t.original, ctx.lang, land_only)
    except OrderError as e:
        if e.column is not None:
            e.column += t.offset
        raise


def _echo_inner(t: Text, main: Text) -> tuple[Text, int]:
    """The bracketed form after the main one, and where it starts in `t`."""
    inner_start = len(main.folded) + t.folded[len(main.folded) :].index("(") + 1
    return t.sub(inner_start, len(t.folded.rstrip()) - 1), inner_start


def _decided_by_echo(
    t: Text,
    main: Text,
    error: AmbiguousError,
    resolve: Callable[[Text], int],
    label: Callable[[int], str],
) -> int:
    """`Røver 8K (C2)`, `Road 8G 3L (C2 C3)`: the main form fits several places, and the
    brackets name one of them (the canonical echo turned round, the label in brackets): the
    brackets decide. Anything else raises the ambiguity, with its candidates."""
    if main is not t and error.candidates:
        inner, _ = _echo_inner(t, main)
        try:
            other = resolve(inner)
        except OrderError:
            raise error from None
        if label(other) in error.candidates:
            return other
    raise error


def _check_echo(t: Text, main: Text, ctx: Context, resolve: object, expected: int) -> None:
    """A bracketed form must name the same place as the main form, else it is an error."""
    if main is t:
        return
    inner, inner_start = _echo_inner(t, main)
    assert callable(resolve)
    try:
        other = resolve(inner)
    except OrderError:
        other = None
    if other == expected:
        return
    if any(w in _OR_WORDS for w in _letter_words(inner.folded)):
        # `Siedlung A (or B if that's taken)`: an alternative in brackets, to be written with
        # `oder` on the line.
        shown = t.sub(inner_start - 1, len(t.folded.rstrip())).original
        raise NotationError.make("remark_unclear", shown=shown, column=t.col(inner_start - 1))
    raise NotationError.make("brackets_differ", column=t.col(inner_start))


def _hex(t: Text, ctx: Context) -> int:
    main = _without_echo(t)
    try:
        h = _resolve_hex(main, ctx)
    except AmbiguousError as error:
        return _decided_by_echo(
            t, main, error, lambda x: _resolve_hex(x, ctx), lambda x: ctx.board.hexes[x].label
        )
    # The brackets may name a token two hexes carry (`D3 (5H)`, a second 5H at D6: the echo's
    # form, `names.hex_text`): it names this hex too, so it agrees with the label.
    _check_echo(t, main, ctx, lambda x: h if h in _named_hexes(x, ctx) else _resolve_hex(x, ctx), h)
    return h


def _resolve_hex(t: Text, ctx: Context) -> int:
    try:
        return resolve_hex(ctx.board, t.original, ctx.lang)
    except OrderError as e:
        if e.column is not None:
            e.column += t.offset
        raise


def _named_hexes(t: Text, ctx: Context) -> frozenset[int]:
    """Every hex a one-hex name can mean (`Meer`, `Wüste`, `9H`), without its bracketed echo;
    empty when it is not one name of this board (`_hex` then says what is wrong)."""
    try:
        names = tokenize_hexes(_without_echo(t).original)
        if len(names) != 1:
            return frozenset()
        return hex_candidates(ctx.board, names[0].name, ctx.lang)
    except OrderError:
        return frozenset()


def _seat(t: Text, start: int, end: int, ctx: Context) -> int:
    """The seat of the colour named at folded positions start..end of t."""
    word = t.folded[start:end]
    shown = t.sub(start, end).original
    column = t.col(start)
    try:
        c = vocab.colour(word, column)
    except NotationError:
        named = dict(ctx.names).get(word)
        if named is not None:  # a player's name instead of their colour
            return named
        raise NotationError.make("colour_expected", shown=shown, column=column) from None
    if c not in ctx.colours:
        raise NotationError.make("colour_not_playing", shown=shown, column=column)
    return ctx.colours.index(c)


def _sea_path(t: Text, ctx: Context) -> int:
    """A ship's path: as `_path`, but sea sides too (two sea hexes, or a coast)."""
    return _path(t, ctx, land_only=False)
