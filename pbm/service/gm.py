"""The game master's levers: pause, replace a player, autopilot, preview, rollback, replay."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, or_
from sqlmodel import Session, col, select

from pbm.mail.outgoing import PASSWORD_PLACEHOLDER
from pbm.notation import vocab
from pbm.rules import GameState, resolve_round, state_from_json
from pbm.rules.events import NoOrders, RoundStarted, event_from_json
from pbm.rules.orders import SetupOrders
from pbm.rules.setup import place_setup, place_setup_automatic, setup_player
from pbm.store import codec
from pbm.store.models import Game, OrderSet, Outbox, Player, RoundRecord
from pbm.store.statuses import GamePhase, OutboxStatus, PlayerStatus

from . import corrections, texts
from .context import Service
from .games import (
    ServiceError,
    extend_deadline,
    first_state,
    load_state,
    players_of,
    recipients,
    save_state,
    set_deadline,
    turn_hours,
)
from .outbox import enqueue
from .rounds import resolve, set_autopilot
from .secrets import hash_password, new_password, new_secret
from .signup import password_word, send_new_password, send_welcome
from .table import as_utc, label, shared_deadline, shown_name
from .tell import tell


def colour_player(session: Session, game: Game, colour: str) -> Player:
    """The seated player of a colour, named in any spelling (`weiß`, `weiss`, `white`)."""
    from pbm.notation import vocab
    from pbm.notation.text import simple

    try:
        wanted = vocab.colour(simple(colour))
    except Exception:
        wanted = colour
    for p in players_of(session, game):
        if p.colour == wanted:
            return p
    raise ServiceError(f"no player plays {colour} in {game.name}")


def drop_unsent_welcomes(session: Session, game: Game, address: str) -> list[Outbox]:
    """The welcome mails to `address` in `game` not sent yet (pending, or failed and waiting
    for `pbm outbox retry`) are dropped, and the password each holds (`Outbox.secret`) goes
    with them: it no longer works (a new one was drawn, or the seat went to someone else).
    A new password's mail (`signup.send_new_password`) is one of them: it carries a password
    too. Returns the mails dropped."""
    dropped = []
    for mail in session.exec(
        select(Outbox).where(
            Outbox.game_id == game.id,
            Outbox.kind == "welcome",
            Outbox.recipients == address,
            col(Outbox.status).in_([OutboxStatus.PENDING, OutboxStatus.FAILED]),
        )
    ):
        mail.status = OutboxStatus.DROPPED
        mail.secret = ""
        dropped.append(mail)
    return dropped


def replace_player(
    svc: Service, session: Session, game: Game, colour: str, address: str, name: str = ""
) -> Player:
    """A new person takes the seat: new address, new password, same seat and colour; `name`
    (else the address) is how the others read them."""
    from .signup import display_name, seat_address

    check_not_ended(game, "a new player")
    old = colour_player(session, game, colour)
    address = seat_address(address)
    if any(p.address == address for p in players_of(session, game)):
        raise ServiceError(f"{address} has a seat in {game.name} already")
    old.status = PlayerStatus.REPLACED
    leaving = old.address
    drop_unsent_welcomes(session, game, leaving)
    password = new_password(password_word(old.colour or colour, game.locale))
    new = Player(
        game_id=game.id or 0,
        address=address,
        name=display_name(name) or address,
        preferences=old.preferences,
        colour=old.colour,
        seat=old.seat,
        # A new secret the departed player never had: the seat's later purchases are
        # sealed for the new player alone. The cards the seat holds are listed in
        # the new player's welcome mail.
        password_hash=hash_password(password),
        codebook_secret=new_secret(),
        joined_at=svc.clock.now(),
    )
    session.add(new)
    session.flush()
    # The orders already sent for the open round stay with the seat.
    current = select(OrderSet).where(
        OrderSet.player_id == old.id,
        OrderSet.superseded == False,  # noqa: E712 (SQL, not Python truthiness)
    )
    for row in session.exec(current):
        row.player_id = new.id or 0
    send_welcome(svc, session, game, load_state(game), new, password)
    # The leaving player is told; the others learn who plays the colour now.
    colour_name = vocab.colour_name(new.colour or "", game.locale)
    tell(svc, session, game, "replaced_out", to=[leaving], colour=colour_name)
    others = [a for a in recipients(session, game) if a != new.address]
    # A player without a name shown (none given, or only the address) is "a new player".
    shown = shown_name(game, new)
    tell(svc, session, game, "replaced", to=others, colour=colour_name, name=shown)
    return new


def end_game(svc: Service, session: Session, game: Game, why: str = "") -> None:
    """The GM ends the game before its time: no more deadlines or orders; every player and
    observer is told, with `why`, the final standing (every hidden card revealed and counted,
    ties sharing a place) and the game in numbers: the numbers the archive shows of the
    game."""
    from pbm.reports.summary import game_summary, name_columns

    from .records import game_events
    from .table import names_by_seat

    if game.phase == GamePhase.ENDED:
        raise ServiceError(f"{game.name} has ended already")
    game.phase = GamePhase.ENDED
    game.deadline = None
    game.ended_why = why  # the archive says it beside the final standing
    state = load_state(game) if game.state else None
    final: list[dict[str, object]] = []
    summary = None
    if state is not None:
        names = names_by_seat(session, game)
        final = final_standing(state, game.locale, names)
        summary = game_summary(game_events(session, game), state, game.locale)
        name_columns(summary, [names.get(p, "") for p in range(len(state.colours))])
    # The game is over: its dice seed and seal nonce are revealed, as in the game-end report
    # (rules 2).
    seed = game.seed if state is not None and state.rules >= 2 else None
    tell(
        svc,
        session,
        game,
        "ended",
        text=why,
        final=final,
        summary=summary,
        vp_target=state.settings.vp_target if state is not None else 0,
        seed=seed,
        nonce=game.seal_nonce,
    )


def final_standing(
    state: GameState, lang: str, names: dict[int, str] | None = None
) -> list[dict[str, object]]:
    """Every seat by its victory points, hidden VP cards counted (`GameState.vp`), most first
    (in seat order among equals): its place (equal points share one: 1, 2, 2, 4), its label
    ("gelb (Carol)"), its points and the development cards it still held, revealed."""
    from pbm.reports.report_data import player_label

    names = names or {}
    points = [state.vp(p) for p in range(len(state.colours))]
    order = sorted(range(len(points)), key=lambda p: (-points[p], p))
    return [
        {
            "place": 1 + sum(1 for q in points if q > points[p]),
            "label": player_label(vocab.colour_name(state.colours[p], lang), names.get(p, "")),
            "vp": points[p],
            "revealed": [vocab.card_name(card, lang) for card, _ in state.cards[p]],
        }
        for p in order
    ]


#: A deadline this little in the past is "now" (the hint's figure, typed a little later).
EXTEND_GRACE = timedelta(minutes=10)
#: The most a deadline is moved at once, either way (about eleven years: any larger number is a
#: typo, and one past the calendar's end cannot be written).
MAX_EXTEND_HOURS = 100_000


def setup_now_hint(svc: Service, game: Game) -> str:
    """The commands that make the setup placement on turn now: a deadline that has passed
    needs only the clock's next tick; one ahead is moved to now first (its hours rounded away
    from zero, so that it is not left seconds ahead, where the tick would place nothing); a
    turn without a deadline (`--deadline off`) is given one of now."""
    if game.deadline is None:
        return f"pbm round extend {game.name} --hours 0, then pbm game tick"
    now = svc.clock.now()
    left = (as_utc(game.deadline) - now).total_seconds() / 3600 / svc.config.service.time_scale
    if left <= 0:
        return "the turn's deadline has passed: pbm game tick"
    hours = math.ceil(left * 100) / 100
    return f"pbm round extend {game.name} --hours -{hours:.2f}, then pbm game tick"


def extend(svc: Service, session: Session, game: Game, hours: float, why: str = "") -> datetime:
    """Move the open deadline by `hours` (from now when there is none); the players are told,
    with `why`. A deadline that would lie in the past is refused, with the command that does
    what the GM means: no player is ever told a deadline that has passed. One moved to now
    (or a little before: `EXTEND_GRACE`, the hint's figure typed later), as the setup's hint
    has it (`setup_now_hint`), is set to now and told to nobody: it is due at once, and the
    placement or the report the next tick makes is what the players read."""
    if game.phase not in (GamePhase.SETUP, GamePhase.ROUNDS):
        raise ServiceError(f"{game.name} has no open round or setup turn (it is in {game.phase})")
    if not math.isfinite(hours) or abs(hours) > MAX_EXTEND_HOURS:
        raise ServiceError(
            f"--hours is a number of hours between -{MAX_EXTEND_HOURS} and {MAX_EXTEND_HOURS}"
        )
    if hours == 0 and game.deadline is not None:
        # Nothing moves: no mail to every player about a deadline that stays as it was.
        hint = ""
        if game.phase == GamePhase.SETUP:
            hint = f"; to have the setup placement made now: {setup_now_hint(svc, game)}"
        raise ServiceError(f"{game.name}: --hours 0 leaves the deadline as it is{hint}")
    now = svc.clock.now()
    base = game.deadline or now
    target = base + svc.config.service.hours(hours)
    if now - EXTEND_GRACE <= target <= now:
        # "Now", as the hint below gives it, typed a little later: the deadline is now, due
        # at once. No mail: "New deadline: <now>" would tell the players a deadline that
        # has passed by the time they read it; the tick's placement or report tells them.
        hours = (now - base).total_seconds() / 3600 / svc.config.service.time_scale
        return extend_deadline(svc, game, hours)
    if target < now:
        if game.phase == GamePhase.ROUNDS:
            hint = f"to resolve round {game.round} now: pbm round resolve {game.name} --now"
        else:
            hint = f"to have the setup placement made now: {setup_now_hint(svc, game)}"
        raise ServiceError(
            f"{game.name}: --hours {hours:g} would put the deadline in the past; {hint}"
        )
    deadline = extend_deadline(svc, game, hours)
    tell(
        svc,
        session,
        game,
        "deadline",
        deadline=shared_deadline(session, game, room=56),
        round_=game.round if game.phase == GamePhase.ROUNDS else 0,  # 0: the setup
        text=why,
    )
    return deadline


def new_password_for(svc: Service, session: Session, game: Game, colour: str) -> Player:
    """A player who lost their password gets a new one, mailed to their registered address
    (the old one stops working, and a mail with it not sent yet is dropped). The mail says it
    is a new password for their seat and where the game stands (`send_new_password`); only the
    password changes, so the codebook key of the welcome mail stays good and is not sent
    again, unless the welcome mail itself was among those dropped: then the player never had
    it, and gets it whole, with the new password."""
    check_not_ended(game, "a new password")
    player = colour_player(session, game, colour)
    # A welcome mail still waiting would carry the password that stops working now.
    dropped = drop_unsent_welcomes(session, game, player.address)
    password = new_password(password_word(player.colour or colour, game.locale))
    player.password_hash = hash_password(password)
    # The welcome mail is the one that shows the codebook key (a new password's does not).
    lost_welcome = any(player.codebook_secret and player.codebook_secret in m.body for m in dropped)
    if lost_welcome:
        send_welcome(svc, session, game, load_state(game), player, password, takes_over=False)
    else:
        send_new_password(svc, session, game, player, password)
    return player


def retry_mail(svc: Service, session: Session, row_id: int) -> Outbox:
    """Send a failed outbox mail again, at once. A dropped one stays dropped: pbm drops only
    what must not go out (a report of a round rolled back, a welcome with a password replaced
    since, a reminder of a round resolved)."""
    row = session.get(Outbox, row_id)
    if row is None:
        raise ServiceError(f"no outbox mail {row_id}")
    if row.status == OutboxStatus.SENT:
        raise ServiceError(f"outbox mail {row_id} was sent already")
    if row.status == OutboxStatus.PENDING:
        due = row.next_attempt
        if row.attempts and due is not None and as_utc(due) > as_utc(svc.clock.now()):
            # Waiting out its back-off after a failed try (up to 6 hours): the GM fixed the
            # cause, so it goes at the next outbox pass.
            row.next_attempt = svc.clock.now()
            return row
        raise ServiceError(f"outbox mail {row_id} is waiting to be sent already")
    if PASSWORD_PLACEHOLDER in row.body and not row.secret:
        # Its password was replaced (or it went with a seat's new player): the mail would
        # tell the player nothing they could use.
        raise ServiceError(
            f"outbox mail {row_id} carried a password that is no longer valid; "
            "pbm player password GAME COLOUR mails a new one"
        )
    if row.status == OutboxStatus.DROPPED:
        why = row.last_error or "its round was rolled back, or the password in it was replaced"
        raise ServiceError(f"outbox mail {row_id} was dropped ({why}): it is not to be sent")
    row.status = OutboxStatus.PENDING
    row.next_attempt = svc.clock.now()
    row.last_error = ""
    return row


def check_not_ended(game: Game, what: str) -> None:
    """A lever for a game that goes on (pause, autopilot, a new player) is refused for one that
    has ended: its players would be mailed about a game that is over."""
    if game.phase == GamePhase.ENDED:
        raise ServiceError(f"{game.name} has ended: {what} is for a game that goes on")


def autopilot(svc: Service, session: Session, game: Game, colour: str, on: bool) -> bool:
    """The GM switches a seat's autopilot: its player gets the `autopilot` mail, every other
    player and observer a notice naming the seat ("gelb (Carol)"); nothing when it was so
    (then False)."""
    check_not_ended(game, "the autopilot")
    player = colour_player(session, game, colour)
    if not set_autopilot(svc, session, game, player, on):
        return False
    others = [a for a in recipients(session, game) if a != player.address]
    tell(svc, session, game, "autopilot", to=others, colour=label(game, player), on=on)
    return True


@dataclass
class Preview:
    events: list[str]
    report: str
    #: Lines of the report left out because they show (or follow from) rolls not yet out.
    hidden: int = 0


def preview(svc: Service, session: Session, game: Game, show_dice: bool = False) -> Preview:
    """What resolving now would give; the caller rolls the transaction back.

    The GM may be playing: unless `show_dice`, or the round's rolls are out already (a round
    rolled back after its report went out), the report is cut to what no roll decides (the
    round's order, who sent no orders) and says how many lines it leaves out."""
    if game.phase != GamePhase.ROUNDS:
        # In the setup a placement is made, not a round resolved: nothing to preview yet.
        raise ServiceError(
            f"{game.name} has no open round to preview (it is in {game.phase}); "
            f"pbm round status {game.name} shows where it stands"
        )
    public = corrections.rolls_public(game)
    step = resolve(svc, session, game)
    report = session.exec(
        select(Outbox)
        .where(
            Outbox.game_id == game.id,
            Outbox.step == step,
            Outbox.status == OutboxStatus.PENDING,
            col(Outbox.kind).in_(("report", "end")),
        )
        .order_by(col(Outbox.id).desc())
    ).first()
    record = session.exec(
        select(RoundRecord).where(RoundRecord.game_id == game.id, RoundRecord.step == step)
    ).one()
    kinds = [e["kind"] for e in json.loads(record.events)]
    body = report.body if report else ""
    if game.seal_nonce:
        # A round that would end the game previews the end report, which reveals the seal's
        # nonce: it stays secret until the game has ended (the seed is the GM's anyway).
        body = body.replace(game.seal_nonce, "<seal nonce: shown when the game has ended>")
    if show_dice or public:
        return Preview(kinds, body)
    return _without_dice(kinds, record, game.locale)


def _without_dice(kinds: list[str], record: RoundRecord, lang: str) -> Preview:
    """The preview of a round whose rolls are not out: only what no roll decides."""
    from pbm.reports.describe import describe, describe_all

    events = [event_from_json(e) for e in json.loads(record.events)]
    state = state_from_json(json.loads(record.state_before))
    kept = [e for e in events if isinstance(e, (RoundStarted, NoOrders))]
    lines = [line for e in kept if (line := describe(e, state, lang)) is not None]
    hidden = len(describe_all(events, state, lang)) - len(lines)
    note = (
        f"[{hidden} lines of the report are not shown: they tell the coming rolls or what "
        "follows from them. `pbm round preview --show-dice` shows the whole report.]"
    )
    return Preview(kinds, "\n".join([*lines, "", note]) + "\n", hidden)


def _sent_report(
    session: Session, game: Game, step: int, kinds: tuple[str, ...] = ("report", "end")
) -> bool:
    """Whether a report (or the game-end report) of the step went out to anybody; `kinds`:
    other mails of the step (a setup placement's notice, `placed`)."""
    return (
        session.exec(
            select(Outbox).where(
                Outbox.game_id == game.id,
                Outbox.step == step,
                _WENT_OUT,
                col(Outbox.kind).in_(kinds),
            )
        ).first()
        is not None
    )


@dataclass
class RolledBack:
    """What `rollback` did."""

    step: int
    kind: str
    #: The round that is open again (0 for a setup step).
    round: int
    #: Its report had gone out: the next resolution of the round is a correction.
    sent: bool = False
    reopened: bool = False
    #: Players told of the correction now (the rollback notice).
    notified: int = 0


#: A mail that went out to somebody: sent, or pending with recipients served already (its
#: sender was killed between two of them, `Outbox.delivered`).
_WENT_OUT = or_(
    col(Outbox.status) == OutboxStatus.SENT,
    and_(col(Outbox.status) == OutboxStatus.PENDING, col(Outbox.delivered) != ""),
)


def _seed_revealed(session: Session, game: Game) -> bool:
    """Whether a sent mail (the game-end report, the GM's end notice) showed the dice seed: its
    seal nonce, which only those mails show (the seed's digits, for a game created before
    seal nonces)."""
    if not game.seed and not game.seal_nonce:
        return False
    shown = game.seal_nonce or str(game.seed)
    return any(
        shown in mail.body
        for mail in session.exec(
            select(Outbox).where(
                Outbox.game_id == game.id,
                col(Outbox.kind).in_(("end", "gm_notice")),
                _WENT_OUT,
            )
        )
    )


def rollback(
    svc: Service, session: Session, game: Game, why: str = "", reopen: bool = False
) -> RolledBack:
    """Throw away the last resolution: its record, its unsent mails; the state goes back.
    Sent mails cannot be unsent; they stay in the outbox as they were.

    A round that is rolled back keeps its rolls (they come from the game seed alone) and its
    orders: orders change only if `reopen`. If its report went out, `why` is required: the
    players get it now (with the deadline if reopened) and again in the corrected report,
    which says what changed (`corrections`)."""
    why = why.strip()
    record = session.exec(
        select(RoundRecord)
        .where(RoundRecord.game_id == game.id)
        .order_by(col(RoundRecord.step).desc())
    ).first()
    if record is None:
        raise ServiceError(f"{game.name} has nothing to roll back")
    if game.phase == GamePhase.ENDED and (not game.state or load_state(game).winner < 0):
        # Ended by the GM, not won: no round's resolution ended it, and the end notice (sent
        # or still on its way) tells every player the dice seed.
        raise ServiceError(
            f"{game.name} was ended by the game master (pbm game end): a rollback cannot bring "
            "it back, its end notice tells everyone the dice seed"
        )
    if _seed_revealed(session, game):
        # Every later roll follows from the seed the players now have: the game cannot go on
        # (docs/fair-dice.md, "Rollback").
        raise ServiceError(
            f"{game.name}: its dice seed went out with the game's end; a rollback would let "
            "everyone know every coming roll"
        )
    if record.kind == "setup" and game.phase != GamePhase.SETUP:
        # The last placement began round 1: its opening, deadline and acks went out, and
        # orders for it may be in. Going back into the setup would leave them standing.
        raise ServiceError(
            f"{game.name}: round 1 has begun, so the setup's last placement can no longer be "
            "rolled back (round 1 can be, once it is resolved)"
        )
    sent = (
        _sent_report(session, game, record.step)
        if record.kind == "round"
        else _sent_report(session, game, record.step, ("placed",))
    )
    if record.kind != "round" and reopen:
        raise ServiceError(
            f"step {record.step} of {game.name} is a setup placement: --reopen is for rounds "
            "(a setup placement takes new placements anyway)"
        )
    if (sent or reopen) and not why:
        if record.kind == "setup":
            raise ServiceError(
                f"setup step {record.step} of {game.name}: its placement went out to the "
                "players; say why with --why TEXT (every player gets it)"
            )
        told = "its report went out" if sent else "the players are told it is open again"
        raise ServiceError(
            f"round {record.round} of {game.name}: {told}; say why with --why TEXT "
            "(every player gets it)"
        )
    for mail in session.exec(
        select(Outbox).where(
            Outbox.game_id == game.id,
            Outbox.step == record.step,
            Outbox.status == OutboxStatus.PENDING,
        )
    ):
        mail.status = OutboxStatus.DROPPED
        mail.secret = ""  # a dropped mail is never built: its secret goes at once
    before = state_from_json(json.loads(record.state_before))
    save_state(game, before)
    if record.kind == "round":
        # Orders already sent for the next round were written against the withdrawn report:
        # they go (the rollback notice asks for new ones once the round is resolved again).
        for later in session.exec(
            select(OrderSet).where(
                OrderSet.game_id == game.id,
                OrderSet.round > record.round,
                OrderSet.superseded == False,  # noqa: E712  (SQL comparison)
            )
        ):
            later.superseded = True
    # NMR counts, autopilots and resignations go back to what they were before the step.
    snapshot = json.loads(record.players_before or "{}")
    for p in session.exec(select(Player).where(Player.game_id == game.id)):
        # A replacement made since stays: the seat's new holder keeps it.
        if str(p.id) in snapshot and p.status != PlayerStatus.REPLACED:
            nmr, auto, status = snapshot[str(p.id)]
            p.nmr_count, p.autopilot = nmr, auto
            if status != PlayerStatus.REPLACED:
                p.status = PlayerStatus(status)
    if record.kind == "setup":
        # The placement's orders (the newest for that step) count again.
        row = session.exec(
            select(OrderSet)
            .where(
                OrderSet.game_id == game.id,
                OrderSet.round == 0,
                OrderSet.setup_step == before.setup_step,
            )
            .order_by(col(OrderSet.id).desc())
        ).first()
        if row is not None:
            row.superseded = False
    set_deadline(svc, game, turn_hours(svc, game, record.kind == "setup"))
    session.delete(record)
    done = RolledBack(record.step, record.kind, before.round if record.kind == "round" else 0)
    if record.kind == "round":
        corrections.note_rollback(game, record.round, why, reopen, sent, json.loads(record.events))
        done.sent, done.reopened = sent, reopen
        if sent or reopen:
            done.notified = _tell_rollback(svc, session, game, record.round, why, reopen)
    elif sent:
        done.sent = True
        done.notified = _tell_setup_rollback(svc, session, game, before, why)
    return done


def _tell_setup_rollback(
    svc: Service, session: Session, game: Game, before: GameState, why: str
) -> int:
    """Every player and observer hears that the last placement is taken back, and why; the
    player whose turn it is again may place anew. Returns how many addresses."""
    from pbm.reports.render import render_message

    to = recipients(session, game)
    if not to:
        return 0
    colour = vocab.colour_name(before.colours[setup_player(before)], game.locale)
    body = texts.t(
        game.locale,
        "rollback_setup" if game.deadline is not None else "rollback_setup_gm",
        game=game.name,
        why=why,
        colour=colour,
        deadline=shared_deadline(session, game, room=200),
    )
    subject = texts.t(game.locale, "rollback_setup_subject", game=game.name)
    mail = render_message(subject, body, game.locale, game.name)
    enqueue(svc, session, "correction", to, subject, mail.text, game_id=game.id, html=mail.html)
    return len(to)


def _tell_rollback(
    svc: Service, session: Session, game: Game, round_: int, why: str, reopen: bool
) -> int:
    """Every player and observer hears that the round is being corrected, and why; returns
    how many addresses."""
    from pbm.reports.render import render_message

    to = recipients(session, game)
    key = "rollback_closed"
    if reopen:
        key = "rollback_reopened" if game.deadline is not None else "rollback_reopened_gm"
    body = texts.t(
        game.locale,
        key,
        game=game.name,
        round=round_,
        why=why,
        deadline=shared_deadline(session, game, room=200),
    )
    subject = texts.t(game.locale, "rollback_subject", game=game.name, round=round_)
    if to:
        mail = render_message(subject, body, game.locale, game.name)
        enqueue(svc, session, "correction", to, subject, mail.text, game_id=game.id, html=mail.html)
    return len(to)


@dataclass
class ReplayResult:
    steps: int
    mismatches: list[int]

    @property
    def ok(self) -> bool:
        return not self.mismatches


def replay(session: Session, game: Game) -> ReplayResult:
    """Rebuild the game from its settings, seed and colours and the orders the engine was
    given at each step; every step's events and state must equal the stored ones."""
    records = list(
        session.exec(
            select(RoundRecord)
            .where(RoundRecord.game_id == game.id)
            .order_by(col(RoundRecord.step))
        )
    )
    mismatches = []
    state: GameState | None = None
    for rec in records:
        before = state_from_json(json.loads(rec.state_before))
        if state is None:
            # By the rules the game began with (an older pbm's game: rules 1, its deck).
            state = first_state(
                game, before.colours, rules=before.rules, board_version=before.board_version
            )
        if before.rules > state.rules:
            # The service moved the game to newer rules at this step (`rounds.resolve`).
            state = state.copy()
            state.rules = before.rules
        stored = [event_from_json(e) for e in json.loads(rec.events)]
        if rec.kind == "setup":
            used = json.loads(rec.orders)
            orders = codec.from_data(used["orders"]) if used["orders"] else SetupOrders(())
            new, events, placed = place_setup(state, orders)
            if not placed and used["auto"]:
                new, more = place_setup_automatic(state)
                events += more
        else:
            new, events = resolve_round(state, list(codec.loads(rec.orders)))
        after = state_from_json(json.loads(rec.state_after))
        if [e.to_json() for e in events] != [e.to_json() for e in stored] or new != after:
            mismatches.append(rec.step)
        state = new
    return ReplayResult(len(records), mismatches)
