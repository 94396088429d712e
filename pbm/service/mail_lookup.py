"""Which game a mail is for: the game it names (`Spiel:` line, `[name]` in the subject), else
the sender's games; and the board its orders are read against."""

from __future__ import annotations

from functools import cache

from sqlalchemy import bindparam, func
from sqlmodel import Session, col, select

from pbm.i18n import N_, mail_languages, translator
from pbm.mail.inbound import Inbound
from pbm.notation import Context
from pbm.notation.clean import iter_clean_lines
from pbm.notation.mail import ParsedMail, subject_tag
from pbm.rules.layouts import generate_board
from pbm.rules.state import GameState
from pbm.store.models import Game, Player
from pbm.store.statuses import PENDING, GamePhase, PlayerStatus

from . import texts
from .games import load_state, settings_of

#: A game name is never longer than this; a longer value names no game.
GAME_NAME_MAX = 100
#: The game a mail names, and the same read again and locked (built once: building a query
#: and its cache key cost about as much as running it on SQLite).
_NAMED = select(Game).where(Game.name == bindparam("name"))
_NAMED_LOCKED = _NAMED.with_for_update().execution_options(populate_existing=True)
#: The same, whatever the case (`Spiel: Insel` for the game `insel`: German capitalises).
_NAMED_ANY_CASE = select(Game).where(func.lower(Game.name) == bindparam("name"))
_NAMED_ANY_CASE_LOCKED = _NAMED_ANY_CASE.with_for_update().execution_options(populate_existing=True)
#: The commands a pending request (`PENDING`) routes to its game when the mail names none.
_ABOUT_REQUESTS = frozenset({"join", "observe", "unobserve"})


def named_game(inbound: Inbound, scan: ParsedMail) -> str | None:
    """The game a mail names: its first `Spiel:` line (as scanned), else the `[name]` of a
    reply's subject (`subject_tag`: `[EXTERN] Re: [alpha] …` names alpha), else a `[name]`
    anywhere in it."""
    name = scan.game or subject_tag(inbound.subject) or bracketed(inbound.subject).strip()
    return name if name and len(name) <= GAME_NAME_MAX else None


def bracketed(subject: str) -> str:
    """The first non-empty `[…]` of a subject (as `[game] Re: …`), found with `find` in one
    pass: a subject of many `[` costs no more than its length."""
    start = subject.find("[")
    while start >= 0:
        end = subject.find("]", start + 1)
        if end < 0:
            return ""
        # A reply counter (`Re[2]:`, right after its word and before its colon) is no tag.
        k = start - 1  # the character before it, past blanks (each blank looked at once)
        while k >= 0 and subject[k] == " ":
            k -= 1
        counter = k >= 0 and subject[k].isalpha() and subject[end + 1 : end + 2] == ":"
        if end > start + 1 and not counter:
            return subject[start + 1 : end]
        start = subject.find("[", end + 1)
    return ""


def find_games(
    session: Session,
    inbound: Inbound,
    named: str | None,
    scan: ParsedMail,
    lock: bool = False,
) -> list[Game]:
    """The game the mail is for, or the candidates when it does not say and several fit.
    `scan`: what the mail says that needs no board (a mail that asks to join, naming no
    game, is for the games open for signup). `lock`: a game the mail names is read again
    and locked (`FOR UPDATE`), as `handle` needs it."""
    if named:
        game = session.exec(_NAMED_LOCKED if lock else _NAMED, params={"name": named}).first()
        if game is None:
            # Written in another case: the one game of that name whatever the case (two
            # games that differ only in case are not guessed between).
            query = _NAMED_ANY_CASE_LOCKED if lock else _NAMED_ANY_CASE
            found = list(session.exec(query, params={"name": named.lower()}))
            game = found[0] if len(found) == 1 else None
        # A named game that does not exist is not guessed at: the answer lists the choices.
        return [game] if game is not None else []
    rows = session.exec(
        select(Player.game_id, Player.status).where(
            Player.address == inbound.sender, Player.status != PlayerStatus.REPLACED
        )
    ).all()
    mine = {game_id for game_id, status in rows if status not in PENDING}
    # A request not yet confirmed (which a forged From can make) takes only the mails about
    # it: the address's other mails are not drawn into that game.
    asked = {game_id for game_id, status in rows if status in PENDING}
    games = [
        g
        for g in session.exec(
            select(Game).where(Game.phase != GamePhase.ENDED).order_by(col(Game.id))
        )
        if g.id in mine or g.id in asked
    ]
    running = [g for g in games if g.id in mine]
    if running:
        return running
    if asked and (scan.confirm is not None or _ABOUT_REQUESTS.intersection(scan.commands)):
        return [g for g in games if g.id in asked]
    if "join" in scan.commands:
        query = select(Game).where(Game.phase == GamePhase.SIGNUP).order_by(col(Game.id))
        open_games = list(session.exec(query))
        # `Anmeldung golf`, `Join game hotel`: a word after the command that is the name of
        # a game open for signup names it (any other word, `Anmeldung rot`, names none).
        said = set(scan.join_words)
        chosen = [g for g in open_games if g.name.lower() in said]
        return chosen if len(chosen) == 1 else open_games
    return []


#: What only pbm's own confirmation requests say, in every language: the sentence above the
#: code's line of a signup's request, and the opening of an observer's (up to its game).
_REQUEST_SIGNS = (
    N_("To take the seat, reply to this mail with the line:"),
    texts.raw("observe_confirm_body"),
)


def _words_of(text: str) -> str:
    return " ".join(text.lower().split())


@cache
def _request_signs() -> tuple[str, ...]:
    return tuple(
        sign
        for msgid in _REQUEST_SIGNS
        for lang in mail_languages()
        if (sign := _words_of(translator(lang).gettext(msgid).split("{game}", 1)[0]))
    )


def echoes_request(inbound: Inbound) -> bool:
    """Whether the mail holds pbm's own confirmation request outside a quote: an automatic
    reply that pastes the mail it answers (`----- Ihre Nachricht -----`, no `>`), with the
    `Bestätigen:` line in it. Its code is not taken: only the line written by whoever reads
    the request seats the address."""
    text = _words_of(" ".join(line for _, line in iter_clean_lines(inbound.text)))
    return any(sign in text for sign in _request_signs())


def implied_confirm(session: Session, inbound: Inbound) -> tuple[str, str] | None:
    """The confirmation code of a request this address has pending, when the mail holds it
    but not on a `Bestätigen:` line at the start of a line, and why it is not taken: "" (it
    is: alone on a line), "sentence" (in a line of the player's own text, among other words)
    or "quoted" (only in the quoted mail).

    Written by the player alone on a line: it confirms as the line would, since only the
    address the code went to can know it. Only in the quote ("Ja, gerne!" above the request)
    or in a sentence ("Das war ich nicht, was soll der Code …?", "sorry, typo. Confirm: …"):
    not taken, since an auto-reply quotes it too and a refusal names it (a forged request
    would then seat the address), but answered with the line to write and why
    (`mail_commands.confirm`)."""
    tokens = session.exec(
        select(Player.confirm_token).where(
            Player.address == inbound.sender,
            col(Player.status).in_(PENDING),
            Player.confirm_token != "",
        )
    ).all()
    if not tokens:
        return None
    # Alone on a line (a full stop or brackets around it forgiven): a sentence that only
    # mentions the code ("Das war ich nicht, was soll der Code …?") confirms nothing.
    own = [line.lower() for _, line in iter_clean_lines(inbound.text)]
    written = {line.strip(" \t.,;:!\"'()[]<>") for line in own}
    for token in tokens:
        if token and token.lower() in written:
            return token, ""
    for token in tokens:
        if token and any(token.lower() in line for line in own):
            return token, "sentence"
    whole = inbound.text.lower()
    return next(((token, "quoted") for token in tokens if token and token.lower() in whole), None)


def seat_names(players: list[Player]) -> tuple[tuple[str, int], ...]:
    """Each seated player's name and first name (folded) with the seat, for the parser
    (`Context.names`): a name two players share, or that is a colour, is left out."""
    from pbm.notation.context import seat_names as named

    return named((p.name, p.seat) for p in players if p.seat is not None)


def parse_context(
    game: Game, players: list[Player] | None = None
) -> tuple[Context, GameState | None]:
    if game.state:
        state = load_state(game)
        phase = "setup" if game.phase == GamePhase.SETUP else "round"
        names = seat_names(players) if players else ()
        return Context(state.board, game.locale, state.colours, phase, names=names), state
    if game.layout == "beginner":
        from pbm.rules.beginner import beginner_board

        return Context(beginner_board(), game.locale), None
    settings = settings_of(game)
    if settings.kronlande:
        # Before the seats are drawn: the Kronlande island of the seed (quarries, fishing
        # grounds), so that its words and hexes are read already.
        from pbm.rules.state import board_for

        return Context(board_for(settings, game.seed), game.locale), None
    return Context(generate_board(settings.size, game.seed), game.locale), None
