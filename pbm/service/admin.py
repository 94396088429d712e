"""What the game master's commands do (`pbm game …`, `pbm round …`, `pbm player …`,
`pbm observer …`, `pbm mail …`, `pbm outbox …`), each one a transaction of its own, answering
with plain data: dicts of str, int, bool and datetime, lists of them, or a dataclass.

The command line (pbm/cli/) only parses, calls one of these and prints. It sees no table row
and no session; what a player could have written comes back as it is stored, and the command
line cleans it for the terminal. A request the service refuses raises ServiceError.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select

from pbm.store.db import reading, scrub, transaction
from pbm.store.models import Game, InboundMail, Outbox, Player
from pbm.store.statuses import GamePhase, MailStatus, OutboxStatus

from . import gm
from .broken import mark_broken, unreadable
from .context import Service
from .games import (
    ServiceError,
    create_game,
    get_game,
    load_state,
    observers_of,
    pending_signups,
    players_of,
    remove_observer,
    settings_of,
    summary,
)
from .ingest import IngestResult, ingest, requeue
from .rounds import ready, resolve
from .secrets import masked_text, password_values
from .signup import add_player as seat_player
from .signup import draw_now
from .tell import tell
from .tick import resolve_if_ready
from .verify import Verification, verify

# -- games --------------------------------------------------------------------------------------


def _game_row(session: Session, game: Game) -> dict[str, Any]:
    """summary() and the reason the service marked the game broken, else what of it cannot be
    read ("" while it is fine)."""
    return {**summary(session, game), "broken": game.broken or unreadable(game)}


def _player_row(p: Player) -> dict[str, Any]:
    return {
        "seat": p.seat,
        "colour": p.colour,
        "name": p.name,
        "address": p.address,
        "status": str(p.status),
        "autopilot": p.autopilot,
        "nmr": p.nmr_count,
    }


def new_game(svc: Service, name: str, **settings: Any) -> dict[str, Any]:
    """Create a game and open its signup (`create_game`'s settings); returns its row, with the
    keys of `pbm game list` (`_game_row`: `broken` too)."""
    with transaction(svc.engine) as session:
        return _game_row(session, create_game(svc, session, name, **settings))


def list_games(svc: Service) -> list[dict[str, Any]]:
    """Every game in the order they were created, as `_game_row`."""
    with reading(svc.engine) as session:
        games = session.exec(select(Game).order_by(col(Game.id)))
        return [_game_row(session, g) for g in games]


def show_game(svc: Service, name: str) -> dict[str, Any]:
    """A game's row with its seated players (`players_list`)."""
    with reading(svc.engine) as session:
        game = get_game(session, name)
        data = _game_row(session, game)
        data["players_list"] = [_player_row(p) for p in players_of(session, game)]
        return data


def start_game(svc: Service, name: str) -> None:
    """Close the signup early and draw seats with the players who joined."""
    with transaction(svc.engine) as session:
        draw_now(svc, session, get_game(session, name, lock=True))


def pause_game(svc: Service, name: str) -> bool:
    """Stop deadlines and orders until `broken.resume`; the players are told. False when the
    game was paused already (nothing changes, nobody is told again)."""
    with transaction(svc.engine) as session:
        game = get_game(session, name, lock=True)
        gm.check_not_ended(game, "pause")
        if game.paused:
            return False
        game.paused = True
        tell(svc, session, game, "paused")
        return True


def message(svc: Service, name: str, to: str, text: str) -> list[str]:
    """`pbm game message`: the GM's text to one colour or to all; returns the addresses."""
    from .press import gm_message

    with transaction(svc.engine) as session:
        return gm_message(svc, session, get_game(session, name), to, text)


def end_game(svc: Service, name: str, why: str = "") -> None:
    """The GM ends a game before its time; the players are told, with `why`."""
    with transaction(svc.engine) as session:
        gm.end_game(svc, session, get_game(session, name, lock=True), why)


def announce(svc: Service, name: str, text: str) -> int:
    """`pbm game announce`: the GM's own text to every player and observer; returns how many
    addresses it goes to."""
    if not text.strip():
        raise ServiceError("the announcement is empty")
    with transaction(svc.engine) as session:
        game = get_game(session, name)
        row = tell(svc, session, game, "announce", text=text)
        return len(row.recipients.split(",")) if row else 0


def replay_game(svc: Service, name: str) -> gm.ReplayResult:
    with reading(svc.engine) as session:
        return gm.replay(session, get_game(session, name))


def board_map(svc: Service, name: str) -> str:
    """The text map of a running game, as its reports draw it."""
    from pbm.reports.report_data import board_map as draw

    with reading(svc.engine) as session:
        game = get_game(session, name)
        return draw(load_state(game), game.locale)


def board_picture(svc: Service, name: str) -> bytes:
    """The board of a running game as a PNG picture."""
    from pbm.reports.picture import board_png

    with reading(svc.engine) as session:
        game = get_game(session, name)
        return board_png(load_state(game), game.locale)


# -- the open round -----------------------------------------------------------------------------


def round_status(svc: Service, name: str) -> dict[str, Any]:
    """The open round, its deadline and who has sent orders for it."""
    from .records import current_orders
    from .rounds import away, plays_itself

    with reading(svc.engine) as session:
        game = get_game(session, name)
        now = svc.clock.now()
        rounds = game.phase == GamePhase.ROUNDS
        sent = set(current_orders(session, game, game.round)) if rounds else set()
        # In the setup only the seat on turn is waited for (each places in turn).
        on_turn = _setup_seat(game) if game.phase == GamePhase.SETUP else None
        players = [
            {
                "colour": p.colour,
                "name": p.name,
                # Orders in for the open round: an absent seat the autopilot plays has none.
                "orders": (p.id or 0) in sent,
                "autopilot": p.autopilot,
                "away": away(p, now),
                # The round does not wait for it: orders in, or the autopilot plays it.
                "waited_for": (
                    p.seat == on_turn
                    if game.phase == GamePhase.SETUP
                    else (p.id or 0) not in sent and not plays_itself(game, p, now)
                ),
                "status": str(p.status),
            }
            for p in players_of(session, game)
        ]
        return {
            "game": name,
            "phase": str(game.phase),
            "round": game.round,
            "deadline": game.deadline,
            "players": players,
            "paused": game.paused,
        }


def _setup_seat(game: Game) -> int | None:
    """The seat whose setup placement is awaited; None once the setup is done."""
    from pbm.rules import Phase
    from pbm.rules.setup import setup_player

    state = load_state(game)
    return setup_player(state) if state.phase == Phase.SETUP else None


@dataclass
class Resolved:
    """What `resolve_round` did: resolved the round, or not (why), or marked the game broken."""

    resolved: bool
    #: "" when resolved; "not due", or the reason the game was marked broken.
    reason: str = ""
    broken: bool = False


def resolve_round(svc: Service, name: str, now: bool = False) -> Resolved:
    """Resolve the open round of the game `name` alone: if it is due (the deadline passed, or
    the game resolves early and all orders are in), or at once with `now`. A paused or broken
    game is not due. A resolution that raises marks the game broken, as at a deadline; with
    `now` it goes up to the GM as it is."""
    with reading(svc.engine) as session:
        get_game(session, name)  # an unknown game is a refusal, not a broken game
    if now:
        with transaction(svc.engine) as session:
            game = get_game(session, name, lock=True)
            if game.phase == GamePhase.SETUP:
                # The way to the automatic placement now.
                raise ServiceError(
                    f"{name} is in the setup: there is no round to resolve yet; to have the "
                    f"placement on turn made now: {gm.setup_now_hint(svc, game)}"
                )
            if game.phase != GamePhase.ROUNDS:
                raise ServiceError(f"{name} has no open round (it is in {game.phase})")
            resolve(svc, session, game)
        return Resolved(True)
    try:
        with transaction(svc.engine) as session:
            game = get_game(session, name, lock=True)
            due = game.deadline is not None and svc.clock.now() >= game.deadline
            if (
                game.paused
                or game.broken
                or game.phase != GamePhase.ROUNDS
                or not (due or (game.early_resolve and ready(session, game)))
            ):
                return Resolved(False, "not due")
            resolve(svc, session, game)
            return Resolved(True)
    except DBAPIError:
        raise
    except Exception as exc:
        mark_broken(svc, name, exc)
        with reading(svc.engine) as session:
            return Resolved(False, get_game(session, name).broken, broken=True)


def preview_round(svc: Service, name: str, show_dice: bool = False) -> gm.Preview:
    """The report resolving now would send, without what the coming rolls decide unless
    `show_dice` (`gm.preview`); the resolution is rolled back."""
    with Session(svc.engine) as session:
        try:
            return gm.preview(svc, session, get_game(session, name), show_dice)
        finally:
            session.rollback()


def extend_round(svc: Service, name: str, hours: float, why: str = "") -> datetime:
    """Move the deadline by `hours`; returns the new deadline. The players are told, with
    `why`; a deadline in the past is refused (`gm.extend`)."""
    with transaction(svc.engine) as session:
        return gm.extend(svc, session, get_game(session, name, lock=True), hours, why)


def rollback_round(svc: Service, name: str, why: str = "", reopen: bool = False) -> gm.RolledBack:
    """Throw away the last resolution (`gm.rollback`)."""
    with transaction(svc.engine) as session:
        rolled = gm.rollback(svc, session, get_game(session, name, lock=True), why, reopen)
    scrub(svc.engine)  # the passwords of the outbox rows it dropped
    return rolled


def verify_game(svc: Service, name: str) -> Verification:
    """The dice of a game checked against its seal and every report sent (`verify.verify`)."""
    with reading(svc.engine) as session:
        return verify(session, get_game(session, name))


# -- players and observers ----------------------------------------------------------------------


def list_players(svc: Service, name: str) -> list[dict[str, Any]]:
    """The seated players, then, while the signup is open, the sign-ups not yet confirmed
    (status `signup_pending`, no seat), as `_player_row`."""
    with reading(svc.engine) as session:
        game = get_game(session, name)
        rows = players_of(session, game)
        if game.phase == GamePhase.SIGNUP:
            rows += pending_signups(session, game)
        return [_player_row(p) for p in rows]


def add_player(
    svc: Service, name: str, address: str, player_name: str = "", colours: str = ""
) -> dict[str, Any]:
    """The GM seats an address in a game open for signup, without a confirmation by mail (a
    pending sign-up of the address is confirmed); `colours`: wishes as a player writes them
    (`rot, blau`). Returns the row, as `_player_row`; the draw follows if the table is full."""
    from pbm.notation import vocab
    from pbm.notation.errors import NotationError
    from pbm.notation.text import simple

    wishes: list[str] = []
    for word in colours.replace(",", " ").replace(";", " ").split():
        try:
            wishes.append(vocab.colour(simple(word)))
        except NotationError:
            raise ServiceError(f"not a colour: {word!r}") from None
    with transaction(svc.engine) as session:
        game = get_game(session, name, lock=True)
        player = seat_player(svc, session, game, address, player_name, tuple(wishes))
        return _player_row(player)


def replace_player(
    svc: Service, name: str, colour: str, address: str, player_name: str = ""
) -> None:
    with transaction(svc.engine) as session:
        game = get_game(session, name, lock=True)
        gm.replace_player(svc, session, game, colour, address, player_name)
    scrub(svc.engine)  # the departed player's unsent welcome mail, its password emptied


def new_password(svc: Service, name: str, colour: str) -> str:
    """A new password for a seat, queued to its address; returns that address."""
    with transaction(svc.engine) as session:
        game = get_game(session, name, lock=True)
        address = gm.new_password_for(svc, session, game, colour).address
    scrub(svc.engine)  # an unsent welcome mail with the old password, dropped
    return address


def set_autopilot(svc: Service, name: str, colour: str, on: bool) -> bool:
    """False when the seat's autopilot was so already."""
    with transaction(svc.engine) as session:
        return gm.autopilot(svc, session, get_game(session, name, lock=True), colour, on)


def codebook(svc: Service, name: str, colour: str) -> list[str]:
    """A player's codebook table, the lines of their welcome mail."""
    from pbm.reports import codebook as book
    from pbm.rules.state import deck_for, deck_size

    with reading(svc.engine) as session:
        game = get_game(session, name)
        player = gm.colour_player(session, game, colour)
        # The deck the game was dealt (a game of an older pbm may hold another than a new one).
        rows = (
            deck_size(load_state(game)) if game.state else sum(deck_for(settings_of(game)).values())
        )
        kron = settings_of(game).kronlande
        return book.table(player.codebook_secret, rows, game.locale, kron)


def list_observers(svc: Service, name: str) -> list[dict[str, Any]]:
    """Observers, confirmed (`observer`) and pending, in the order they asked."""
    with reading(svc.engine) as session:
        return [
            {"address": p.address, "status": str(p.status), "since": p.joined_at}
            for p in observers_of(session, get_game(session, name))
        ]


def drop_observer(svc: Service, name: str, address: str) -> str:
    """Stop an observer's reports; returns the address as stored."""
    with transaction(svc.engine) as session:
        return remove_observer(session, get_game(session, name, lock=True), address).address


# -- mail and outbox ----------------------------------------------------------------------------


def take_in(svc: Service, raw: bytes) -> IngestResult:
    """Store and process one raw mail, as the IMAP poller does, then resolve its game if
    that completed the round."""
    result = ingest(svc, raw)
    if result.game:
        resolve_if_ready(svc, result.game)
    return result


def requeue_mail(svc: Service, mail_id: int) -> IngestResult:
    try:
        result = requeue(svc, mail_id)
    except KeyError:
        raise ServiceError(f"no mail {mail_id}") from None
    if result.duplicate:
        # Said, not answered with its status as if it had been read again now.
        raise ServiceError(
            f"mail {mail_id} is {result.status} already: only a quarantined or held mail is "
            "read again (a processed one never twice)"
        )
    scrub(svc.engine)  # the mail's kept bytes, its passwords masked now that it was read
    return result


def quarantined(svc: Service) -> list[dict[str, Any]]:
    """Mails whose processing failed, oldest first, with the last line of their error. A
    quarantined mail keeps its bytes and subject as they came (for `pbm mail requeue`): the
    subject and the error are shown without a password (a password line's value, or anything
    shaped like a password pbm makes)."""
    with reading(svc.engine) as session:
        mails = session.exec(
            select(InboundMail)
            .where(InboundMail.status == MailStatus.QUARANTINED)
            .order_by(col(InboundMail.id))
        )
        return [
            {
                "id": m.id,
                "message_id": m.message_id,
                "sender": m.sender,
                "subject": _shown(m.subject),
                "received_at": m.received_at,
                "error": _shown(m.error.strip().splitlines()[-1] if m.error.strip() else ""),
            }
            for m in mails
        ]


def _shown(text: str) -> str:
    """A mail's text as the GM's terminal shows it: without a password."""
    return masked_text(text, password_values(text))


def outbox_rows(svc: Service, status: str | None = None) -> list[dict[str, Any]]:
    """Outgoing mails in the order they were queued, those of `status` only if given (one of
    `OutboxStatus`: anything else is refused, not answered with an empty list)."""
    statuses = [s.value for s in OutboxStatus]
    if status is not None and status not in statuses:
        raise ServiceError(f"status must be {', '.join(statuses[:-1])} or {statuses[-1]}")
    with reading(svc.engine) as session:
        query = select(Outbox).order_by(col(Outbox.id))
        if status:
            query = query.where(Outbox.status == status)
        return [
            {
                "id": o.id,
                "kind": o.kind,
                "to": o.recipients,
                "subject": o.subject,
                "status": str(o.status),
                "attempts": o.attempts,
                "last_error": o.last_error,
                # When a pending mail is tried next (after a failed try: its back-off), and
                # when a mail went; None for neither.
                "next_attempt": o.next_attempt if o.status == OutboxStatus.PENDING else None,
                "sent_at": o.sent_at,
            }
            for o in session.exec(query)
        ]


def gm_password(svc: Service, keep: bool = False) -> str:
    """A new GM password for mail commands (`gm_mail.new_gm_password`): returned to be shown
    once; only its hash is stored. `keep`: only if none is set ("" when one is: `pbm init`
    on a database that has one)."""
    from .gm_mail import new_gm_password

    return new_gm_password(svc, keep=keep)


def retry_outbox(svc: Service, row_id: int) -> None:
    """Send a failed outbox mail again, at once (a dropped one is refused: `gm.retry_mail`)."""
    with transaction(svc.engine) as session:
        gm.retry_mail(svc, session, row_id)
