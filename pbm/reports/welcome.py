"""The welcome mail's data: seat, password, examples on this game's board, the codebook."""

from __future__ import annotations

from typing import Any

from pbm.i18n import language, translator
from pbm.notation import Context, vocab
from pbm.notation.format import format_item
from pbm.rules.kron import BAECKEREI
from pbm.rules.orders import BuyCard, Castle, Make, RobberOrder, SetupPlacement, Ship, Workshop
from pbm.rules.resources import BROT
from pbm.rules.rng import seal
from pbm.rules.setup import automatic_placement
from pbm.rules.state import GameState, deck_size

from . import codebook
from .notices import RosterRow


def _situation(
    state: GameState, seat: int, lang: str, deadline: str, takes_over: bool
) -> dict[str, Any]:
    """Where the game stands, for a player joining it while it runs: the round, its deadline,
    the seat's hand and the board. `takes_over`: the seat had another player before (else the
    player's own welcome mail comes late: `gm.new_password_for`)."""
    from .report_data import board_map, hand_text

    return {
        "takes_over": takes_over,
        "round": state.round,
        "deadline": deadline,
        "hand": hand_text(state, seat, lang),
        "board_map": board_map(state, lang),
    }


def examples(state: GameState, lang: str, seat: int = 0) -> list[str]:
    """A few real lines on this board, in canonical form."""
    ctx = Context(state.board, lang, state.colours, "setup")
    place = automatic_placement(state)
    board = state.board
    hexes = [h for h in board.robber_hexes if h != state.robber]
    # Late in a game the best crossing may have no free path left (path -1): no example then.
    lines = (
        [format_item(SetupPlacement(place.crossing, place.path), ctx)] if place.path >= 0 else []
    )
    if hexes:
        others = [p for p in range(state.settings.players) if p != seat]
        victims = tuple(others[:2])
        lines.append(format_item(RobberOrder(hexes[0], victims), ctx))
    lines.append(format_item(BuyCard(), ctx))
    if state.sea is not None:
        # Seafarers: a ship on a side touching sea, next to the placement where there is one;
        # never beside the pirate (a ship is not built there: the line copied would fail).
        pirate = state.sea.pirate

        def free(e: int) -> bool:
            return board.path_sea[e] and pirate not in board.path_hexes[e]

        ends = board.crossing_paths[place.crossing]
        sea = [e for e in ends if free(e)] or [e for e in range(len(board.path_sea)) if free(e)]
        if sea:
            lines.append(format_item(Ship(sea[0]), ctx))
    if state.kron is not None:
        # Kronlande: a workshop on the placement, a good made there, the city made a Burg.
        lines.append(format_item(Workshop(BAECKEREI, place.crossing), ctx))
        lines.append(format_item(Make(BROT, 1), ctx))
        lines.append(format_item(Castle(place.crossing), ctx))
    return lines


def colour_wishes(wishes: list[str], taken: list[str], absent: list[str], lang: str) -> list[str]:
    """What the welcome says of a player's colour wishes (canonical colours in): the wishes,
    those taken by players the draw served first, those this table does not play. [] for a
    player who wished nothing."""
    tr = translator(lang)

    def names(colours: list[str]) -> str:
        return ", ".join(vocab.colour_name(c, lang) for c in colours)

    if not wishes:
        return []
    lines = [tr.gettext("Your colour wishes: {colours}.").format(colours=names(wishes))]
    if taken:
        text = tr.ngettext(
            "{colours} went to a player the draw served before you.",
            "{colours} went to players the draw served before you.",
            len(taken),
        )
        lines.append(text.format(colours=names(taken)))
    if absent:
        text = tr.ngettext(
            "{colours} is not played at this table.",
            "{colours} are not played at this table.",
            len(absent),
        )
        lines.append(text.format(colours=names(absent)))
    return lines


#: A word of a `Farben:` line the signup answer repeats: letters (and `-`, `'`), at most
#: this long. A signup request may be forged, and its answer goes to the address it names:
#: anything else of it (a link, a sentence) is not repeated to that address.
_SHOWN_WORD_MAX = 20


def _word_shaped(word: str) -> bool:
    return 0 < len(word) <= _SHOWN_WORD_MAX and all(ch.isalpha() or ch in "-'" for ch in word)


def colours_refused(
    unknown: list[str],
    written: list[str],
    kept: list[str],
    table: list[str],
    lang: str,
    hint: bool = False,
) -> list[str]:
    """What a signup's answer says of a `Farben:` line whose words are not all colours of
    this table: `unknown` (the words that are no colour, as written) and the colours of
    `written` (the line's colours, canonical) the table does not play; the table's colours,
    the wishes `kept` (stored, canonical) that it plays; with `hint`, how to change them (a
    `Farben:` line beside the `Bestätigen:` line). [] when every word is a colour of the
    table."""
    from pbm.notation.format import word

    tr = translator(lang)
    absent = [vocab.colour_name(c, lang) for c in written if c not in table]
    if not unknown and not absent:
        return []
    names = ", ".join(vocab.colour_name(c, lang) for c in table)
    shown = [f"'{w}'" for w in [*unknown, *absent] if _word_shaped(w)]
    if shown:
        text = tr.ngettext(
            "{words} is not a colour at this table ({colours}).",
            "{words} are not colours at this table ({colours}).",
            len(shown),
        )
        lines = [text.format(words=", ".join(shown), colours=names)]
    else:
        text = tr.gettext(
            "Your '{line}:' line names something that is not a colour at this table ({colours})."
        )
        lines = [text.format(line=word("colours", lang), colours=names)]
    played = [vocab.colour_name(c, lang) for c in kept if c in table]
    if played:
        wishes = ", ".join(played)
        lines.append(tr.gettext("Your colour wishes: {colours}.").format(colours=wishes))
    else:
        lines.append(tr.gettext("You have no colour wish: the draw gives you a free colour."))
    if hint:
        text = tr.gettext(
            "To change your wishes, write a line '{line}: …' beside the '{confirm}:' line."
        )
        lines.append(text.format(line=word("colours", lang), confirm=word("confirm", lang)))
    return lines


def welcome_data(
    state: GameState,
    game: str,
    colour: str,
    seat: int,
    password: str,
    secret: str,
    lang: str,
    roster: list[RosterRow] | None = None,
    deadline: str = "",
    nonce: str = "",
    kind: dict[str, Any] | None = None,
    wishes: list[str] | None = None,
    takes_over: bool = True,
) -> dict[str, Any]:
    """`roster`: who plays whom; `deadline`: the open round's, for a player who takes over a
    seat in the running game (they get the seat's hand, the board and the round with it), or
    with `takes_over` False for a seat's own player whose welcome mail never went out;
    `nonce`: the game's seal nonce ("" for a game created before seal nonces), which goes into
    the seal, never into the mail; `kind`: what game this is (`identity.game_kind`); `wishes`:
    what the draw did with the player's colour wishes (`colour_wishes`), for a player seated by
    the draw."""
    names = codebook.CARD_NAMES[language(lang)]
    # One row per card of the deck: nobody can buy more.
    rows = deck_size(state)
    kron = state.kron is not None
    return {
        "lang": lang,
        "game": game,
        "roster": roster or [],
        "situation": _situation(state, seat, lang, deadline, takes_over) if deadline else None,
        "colour": colour,
        "seat": seat + 1,
        "kind": kind,
        # Seats and colours came by lot (`signup.draw`): a player seated by it hears what became
        # of their colour wishes; one who takes over a seat takes its colour.
        "drawn": wishes is not None,
        "wishes": wishes or [],
        "password": password,
        # The dice seal (docs/fair-dice.md): games of rules 1 had none.
        "seal": seal(state.seed, nonce) if state.rules >= 2 else "",
        # Which seal it is: of the seed and a nonce, or (an older game's) of the seed alone.
        "salted": bool(nonce),
        "key": secret,
        "examples": examples(state, lang, seat),
        # A replacement takes over the seat's cards: they are theirs to know.
        "held": [names[c] for c, _ in state.cards[seat]] if state.phase != "setup" else [],
        "codebook": codebook.table(secret, rows, lang, kron),
        "codebook_rows": [
            {
                "number": k,
                "codes": [
                    (code, names[card]) for code, card in codebook.row(secret, k, kron).items()
                ],
            }
            for k in range(1, rows + 1)
        ],
    }
