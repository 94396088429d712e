"""Answers to players' mails outside templates: refusals, status; in the game's language
(its message catalogue, `pbm.i18n`)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from pbm.config.model import ServiceSection
from pbm.i18n import translator
from pbm.notation.format import word
from pbm.notation.mail import ParsedMail
from pbm.reports.help import phase_name
from pbm.store import codec
from pbm.store.models import Game, InboundMail, Player
from pbm.store.statuses import GamePhase

from . import corrections, texts
from .games import game_kind_of, load_state, players_of
from .records import current_orders, last_round_played
from .table import local_deadline


def refusal(game: Game, parsed: ParsedMail, arrived: datetime, player: Player | None = None) -> str:
    """Why orders cannot be taken now ("" when they can); nothing is changed then. `arrived`:
    when the mail reached the mailbox (`intake.arrival`): a mail that came in time counts even
    when it is read after the deadline (the round waits for it: `intake.may_close`).
    `player`: whose mail it is, for the deadline in their time zone."""
    _ = translator(game.locale).gettext
    if game.phase == GamePhase.ENDED:
        return _("The game {game} has ended; orders are no longer read.").format(game=game.name)
    if game.paused:
        return _("The game is paused: no orders are taken until it resumes.")
    if game.phase not in (GamePhase.SETUP, GamePhase.ROUNDS):
        return _("The game takes no orders now.")
    if game.phase != GamePhase.ROUNDS:
        return ""
    if corrections.closed(game):
        return _(
            "The game master is correcting round {round}: its orders stay as they were sent, "
            "and no new ones are taken."
        ).format(round=game.round)
    if parsed.round is not None and parsed.round != game.round:
        deadline = local_deadline(game, player) if game.deadline is not None else None
        return other_round(game.locale, parsed.round, game.round, deadline)
    if late(game, arrived):
        return _(
            "The deadline of round {round} had passed when this mail reached the mailbox: its "
            "orders do not count, and the round is resolved without them. Send your orders for "
            "round {next} once the report of round {round} has come."
        ).format(round=game.round, next=game.round + 1)
    return ""


def late(game: Game, arrived: datetime) -> bool:
    """Whether a mail that `arrived` then came after the open round's deadline."""
    return game.deadline is not None and arrived > game.deadline


def late_marker(round_: int, player_id: int | None) -> str:
    """The error kept with a seat's mail refused as late for `round_` (`InboundMail.error`):
    the round's NMR notice to that seat says the mail came too late (`late_seats`)."""
    return f"late for round {round_}: player {player_id}"


def late_seats(session: Session, game: Game, round_: int, players: list[Player]) -> set[int]:
    """The ids of `players` whose mail for `round_` was refused as late (`late_marker`)."""
    markers = {late_marker(round_, p.id): p.id for p in players if p.id is not None}
    if not markers:
        return set()
    found = session.exec(
        select(InboundMail.error).where(
            col(InboundMail.game_id) == game.id, col(InboundMail.error).in_(list(markers))
        )
    ).all()
    return {markers[e] for e in found}


def other_round(lang: str, sent: int, open_round: int, deadline: str | None) -> str:
    """The refusal of orders for a round that is not the open one (`Runde: 1` while round 2
    is open): what became of that round (resolved, its report sent; or not begun), and how
    to have the lines count now: sent again with the open round's `Runde:` line (in the
    game's words) by its `deadline` (as the player reads it; None: the GM resolves)."""
    _ = translator(lang).gettext
    if sent < open_round:
        what = _(
            "These orders are for round {sent}, which is over: it was resolved and its "
            "report was sent. Round {open} is open."
        )
    else:
        what = _("These orders are for round {sent}, which has not begun: round {open} is open.")
    line = f"{word('round', lang)}: {open_round}"
    if deadline is None:
        todo = _(
            "To use these orders now, send them again with the line '{line}' before the game "
            "master resolves round {open}."
        ).format(line=line, open=open_round)
    else:
        todo = _(
            "To use these orders now, send them again with the line '{line}' by {deadline}."
        ).format(line=line, deadline=deadline)
    return f"{what.format(sent=sent, open=open_round)} {todo}"


def status_body(
    session: Session, game: Game, player: Player | None, now: datetime | None = None
) -> str:
    """The answer to `Status`: round, paused or not, the deadline (in the player's time zone),
    which colours have sent orders and the player's own orders (both with the password), the public
    standing and the roster (addresses only to a player who gave the password, never in an
    anonymous game)."""
    _ = translator(game.locale).gettext
    lines = [
        _where_it_stands(session, game),
        # What game this is: its kind, the players and the victory-point target.
        *game_kind_of(game)["title_lines"],
    ]
    if game.paused:
        lines.append(_("The game is paused: nothing is resolved and no orders are taken."))
    if game.deadline:
        lines.append(_("Deadline: {deadline}").format(deadline=local_deadline(game, player)))
    if game.phase == GamePhase.ROUNDS and player is not None:
        # Who has sent orders is the table's business: a player's (with the password), not a
        # stranger's.
        lines += _who_sent(session, game, now)
    if player is not None and game.phase == GamePhase.ROUNDS:
        row = current_orders(session, game, game.round).get(player.id or 0)
        if row is None:
            lines.append(_("Your orders: none yet."))
        else:
            lines.append(_("Your orders are in:"))
            lines += [f"  {line}" for line in _canonical(game, row.parsed)]
    if game.state:
        lines.append("")
        lines += texts.public_summary(load_state(game), game.locale)
    if game.phase != GamePhase.SIGNUP:
        lines.append("")
        lines += roster_text(session, game, addresses=player is not None)
    return "\n".join(lines) + "\n"


def _where_it_stands(session: Session, game: Game) -> str:
    """The status's first line: the round; in the signup how many have joined of how many;
    in the setup whose placement it is."""
    from .games import settings_of
    from .table import setup_turn

    _ = translator(game.locale).gettext
    phase = phase_name(game.locale, str(game.phase))
    if game.phase == GamePhase.SIGNUP:
        return _("{game}: {phase}, {joined} of {seats} players have joined").format(
            game=game.name,
            phase=phase,
            joined=len(players_of(session, game)),
            seats=settings_of(game).players,
        )
    if game.phase == GamePhase.SETUP and game.state:
        _seat, who = setup_turn(session, game)
        return _("{game}: {phase}, {player} places now").format(
            game=game.name, phase=phase, player=who
        )
    round_ = game.round
    if game.phase == GamePhase.ENDED:
        # The last round played, as the end mail counts them: a game the GM ended had a
        # round open that was never played.
        round_ = last_round_played(session, game) or round_
    return _("{game}: {phase}, round {round}").format(game=game.name, phase=phase, round=round_)


def _who_sent(session: Session, game: Game, now: datetime | None) -> list[str]:
    """Which colours have sent orders for the open round, which the autopilot plays, which
    are still awaited: colours only, never what was sent."""
    from pbm.notation import vocab

    from .rounds import plays_itself

    _ = translator(game.locale).gettext
    sent = current_orders(session, game, game.round)
    groups: dict[str, list[str]] = {"in": [], "auto": [], "waiting": []}
    for p in players_of(session, game):
        colour = vocab.colour_name(p.colour or "", game.locale)
        if (p.id or 0) in sent:
            groups["in"].append(colour)
        elif plays_itself(game, p, now):
            groups["auto"].append(colour)
        else:
            groups["waiting"].append(colour)
    out = [_("Orders in: {colours}").format(colours=", ".join(groups["in"]) or "-")]
    if groups["auto"]:
        out.append(_("Autopilot: {colours}").format(colours=", ".join(groups["auto"])))
    out.append(_("Waiting for: {colours}").format(colours=", ".join(groups["waiting"]) or "-"))
    return out


def roster_text(session: Session, game: Game, *, addresses: bool) -> list[str]:
    """The roster as lines of plain text (the Status answer)."""
    from .table import roster_rows

    _ = translator(game.locale).gettext
    lines = [_("Players:")]
    for r in roster_rows(session, game, addresses=addresses):
        lines.append(f"  {r.colour:8} {r.name or '-'}" + (f" <{r.address}>" if r.address else ""))
    return lines


def _canonical(game: Game, parsed_json: str) -> list[str]:
    from pbm.notation import Context
    from pbm.notation.format import format_turn_orders

    state = load_state(game)
    return format_turn_orders(
        codec.loads(parsed_json), Context(state.board, game.locale, state.colours, "round")
    )


def too_big(lang: str, kb: int) -> str:
    text = translator(lang).gettext("This mail has more than {kb} KB of text and was not read.")
    return text.format(kb=kb) + "\n"


def refused(lang: str, why: str, config: ServiceSection) -> str:
    """Why a mail was not read: `why` is too_long (text), too_big (the whole mail) or
    too_many_parts."""
    _ = translator(lang).gettext
    if why == "too_long":
        return too_big(lang, config.max_mail_kb)
    if why == "too_many_parts":
        return (
            _(
                "This mail has too many parts (attachments) and was not read. Send the orders "
                "as plain text."
            )
            + "\n"
        )
    text = _(
        "This mail is larger than {kb} KB and was not read (only its beginning is kept). "
        "Send the orders as plain text without attachments."
    )
    return text.format(kb=config.max_stored_kb) + "\n"
