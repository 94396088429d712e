"""Rounds: orders in, resolution at the deadline (or when all are in), NMR and the autopilot.

A resolution writes its record (events, states), the new state and every mail it causes in
the caller's one transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from pbm.notation import vocab
from pbm.notation.mail import ParsedMail
from pbm.reports import notices, report_json
from pbm.reports.describe import describe_all
from pbm.reports.picture import board_png
from pbm.reports.render import BOARD_CID, CHART_CID, render
from pbm.reports.report_data import (
    correction_data,
    observer_copy,
    order_form,
    orders_mail,
    report_data,
    report_log,
)
from pbm.reports.summary import game_summary
from pbm.rules import GameState, Phase, autopilot, resolve_round
from pbm.rules.events import Event, event_from_json
from pbm.rules.orders import TurnOrders
from pbm.rules.state import RULES, upgraded
from pbm.store import codec
from pbm.store.models import Game, InboundMail, OrderSet, Outbox, Player
from pbm.store.statuses import GamePhase, OutboxStatus, PlayerStatus

from . import answers, corrections, texts
from .broken import broken_games
from .context import Service
from .faults import crashpoint
from .games import (
    deadline_text,
    game_kind_of,
    game_players,
    load_state,
    players_of,
    recipients,
    report_addresses,
    round_hours,
    save_state,
    seated,
    set_deadline,
)
from .outbox import Mailbag
from .records import current_orders, game_events, record, replace_orders
from .secrets import masked
from .table import local_deadline, names_by_seat, roster_rows, shared_deadline


def begin_round(
    svc: Service, session: Session, game: Game, state: GameState, mails: Mailbag | None = None
) -> None:
    """Set the round's deadline; round 1 is announced. `mails`: the resolution's mails, to
    which the announcement is added (else it is written at once)."""
    if state.phase != Phase.ROUNDS:
        return
    bag = mails if mails is not None else Mailbag(svc)
    set_deadline(svc, game, round_hours(svc, game))
    if state.round == 1:
        # After the setup nobody has had a report yet: round 1 is announced on its own.
        order = [vocab.colour_name(state.colours[p], game.locale) for p in state.build_order()]
        # The roster with addresses for the seated players, without for the observers.
        seated = {p.address for p in players_of(session, game)}
        everyone = recipients(session, game)
        kind = game_kind_of(game, state)
        form = order_form(state, game.locale)
        write_to = orders_mail(svc.config.service.address, game.name, 1, form, game.locale)
        for group, addresses in ((seated, True), (set(everyone) - seated, False)):
            if not group:
                continue
            bag.notice(
                "round_open",
                sorted(group),
                game,
                texts.t(game.locale, "round_open_subject", game=game.name),
                notices.round_open(
                    game.locale,
                    order,
                    shared_deadline(session, game, room=60),
                    roster_rows(session, game, addresses=addresses),
                    form,
                    kind,
                    write_to,
                    observer=not addresses,
                ),
            )
        if mails is None:
            bag.post(session)


def submit_orders(
    svc: Service,
    session: Session,
    game: Game,
    player: Player,
    parsed: ParsedMail,
    text: str,
    mail: InboundMail | None,
    sent: set[int] | None = None,
) -> bool:
    """Store a player's orders for the open round, replacing earlier ones as a whole.
    Returns whether earlier orders were replaced. `sent`, if given, is filled with the ids of
    the players whose orders for the round are now in (read in the same query, so the caller
    can tell whether the round is complete without reading them again)."""
    replaced, senders = replace_orders(
        session,
        OrderSet(
            game_id=game.id or 0,
            player_id=player.id or 0,
            round=game.round,
            text=masked(text, parsed.password or ""),
            parsed=codec.dumps(parsed.turn_orders()),
            received_at=svc.clock.now(),
            mail_id=mail.id if mail else None,
        ),
    )
    if sent is not None:
        sent.update(senders)
    return replaced


def away(player: Player, now: datetime | None) -> bool:
    """Whether the player said they are away (`Urlaub bis …`) and that time has not passed."""
    return player.away_until is not None and now is not None and now < player.away_until


def plays_itself(game: Game, player: Player, now: datetime | None) -> bool:
    """Whether the autopilot plays this seat now: switched on (after NMRs, by the GM), after a
    resignation, or while the player is away (unless the deadline waits for them)."""
    from .absence import covered_by_wait

    return (
        player.autopilot
        or player.status == PlayerStatus.RESIGNED
        or (away(player, now) and not covered_by_wait(game, player, now))
    )


def waiting_for(
    session: Session,
    game: Game,
    now: datetime | None = None,
    players: list[Player] | None = None,
    sent: set[int] | None = None,
) -> list[Player]:
    """Active players (not on autopilot, not resigned, not away at `now`) without orders for
    the open round. `players` (the seated players) and `sent` (the ids of the players whose
    orders are in): when the caller has them already."""
    if sent is None:
        sent = set(current_orders(session, game, game.round))
    return [
        p
        for p in (players if players is not None else players_of(session, game))
        if not plays_itself(game, p, now) and (p.id or 0) not in sent
    ]


def ready(
    session: Session,
    game: Game,
    now: datetime | None = None,
    players: list[Player] | None = None,
    sent: set[int] | None = None,
) -> bool:
    """All orders are in and the round may resolve early (a rolled-back round waits for its
    deadline or the GM: `corrections.waiting`); players away at `now` are not waited for.
    `players`, `sent`: as for `waiting_for`."""
    return (
        game.phase == GamePhase.ROUNDS
        and not corrections.waiting(game)
        and not waiting_for(session, game, now, players, sent)
    )


def rounds_played_for(session: Session, game: Game, player: Player) -> list[int]:
    """The rounds just resolved that the autopilot played for this player's seat (away, the
    autopilot on, resigned), oldest first: the newest rounds in a row whose resolution had
    orders for the seat that the player had not sent. [] when the last round resolved was
    the player's own (or an NMR), or the player took the seat after it."""
    import json

    from pbm.store.models import RoundRecord

    if player.seat is None:
        return []
    own = set(
        session.exec(
            select(OrderSet.round).where(
                OrderSet.game_id == game.id,
                OrderSet.player_id == player.id,
                OrderSet.superseded == False,  # noqa: E712  (SQL comparison)
            )
        )
    )
    resolutions = session.exec(
        select(RoundRecord.round, RoundRecord.orders, RoundRecord.players_before)
        .where(RoundRecord.game_id == game.id, RoundRecord.kind == "round")
        .order_by(col(RoundRecord.step).desc())
    )
    played: list[int] = []
    seen: set[int] = set()
    for round_, orders, players_before in resolutions:
        if round_ in seen:
            continue  # a corrected round: its newest resolution is the one that counts
        seen.add(round_)
        if round_ in own or (players_before and str(player.id) not in json.loads(players_before)):
            break  # the player's own orders, or the seat was someone else's then
        by_seat = json.loads(orders)
        if player.seat >= len(by_seat) or by_seat[player.seat] is None:
            break  # no orders at all: an NMR, not the autopilot
        played.append(round_)
    return played[::-1]


def orders_for_round(
    session: Session,
    game: Game,
    state: GameState,
    now: datetime | None = None,
    players: list[Player] | None = None,
) -> tuple[dict[int, TurnOrders | None], list[Player], frozenset[int]]:
    """Each seat's orders: what they sent, else the autopilot's if it plays for them, else
    None (NMR). Also returns the players who sent nothing and are not on autopilot, and the
    seats whose orders the autopilot wrote. `players`: the seated players, when the caller
    has them already."""
    sent = current_orders(session, game, game.round)
    orders: dict[int, TurnOrders | None] = {}
    missing = []
    piloted = set()
    for p in players if players is not None else players_of(session, game):
        seat = p.seat if p.seat is not None else 0
        row = sent.get(p.id or 0)
        if row is not None:
            orders[seat] = codec.loads(row.parsed)
        elif plays_itself(game, p, now):
            orders[seat] = autopilot.turn_orders(state, seat)
            piloted.add(seat)
        else:
            orders[seat] = None
            missing.append(p)
    return orders, missing, frozenset(piloted)


def resolve(svc: Service, session: Session, game: Game) -> int:
    """Resolve the open round now; returns the record's step."""
    state = load_state(game)
    correction = corrections.take(game, state.round)
    if state.rules < RULES and correction is None:
        # A game an older pbm started plays by the newest rules from its next round on
        # (docs/fair-dice.md, "Games started before sealed dice"); a round resolved before
        # is resolved again by the rules that resolved it.
        state = upgraded(state)
    # Every player row, read once: the resolution changes the counters, never who sits or
    # who receives the report (each further query had flushed what the resolution wrote).
    everyone = game_players(session, game)
    players = seated(everyone)
    orders, missing, piloted = orders_for_round(session, game, state, svc.clock.now(), players)
    new, events = resolve_round(state, orders)
    by_seat = [orders.get(seat) for seat in range(state.settings.players)]
    step = record(
        svc, session, game, "round", state, new, events, codec.dumps(by_seat), players=everyone
    )
    save_state(game, new)
    # The resolution's mails, written together below.
    mails = Mailbag(svc)
    _nmr(svc, session, game, players, missing, state.round, step, mails)
    if new.phase == Phase.ENDED:
        game.deadline = None
        footer = ""
    else:
        begin_round(svc, session, game, new, mails)
        footer = texts.t(
            game.locale,
            "next",
            round=new.round,
            deadline=shared_deadline(session, game, players=players),
        )
    subject = texts.t(
        game.locale,
        "report_subject" if new.phase != Phase.ENDED else "end_subject",
        game=game.name,
        round=state.round,
    )
    codes = {p.seat: p.codebook_secret for p in players if p.seat is not None and p.codebook_secret}
    summary = (
        game_summary(game_events(session, game), new, game.locale)
        if new.phase == Phase.ENDED
        else None
    )
    names = names_by_seat(session, game, players)
    amends = None
    if correction is not None and correction["sent"]:
        # The players read a report of this round before: this one says what changed, and why.
        subject = texts.t(
            game.locale,
            "correction_subject" if new.phase != Phase.ENDED else "correction_end_subject",
            game=game.name,
            round=state.round,
        )
        read = [event_from_json(e) for e in correction["events"]]
        # Kept for the archive, which marks the round as corrected and says what changed.
        corrections.note_corrected(game, state.round, correction["why"], correction["events"])
        amends = correction_data(
            correction["why"],
            report_log(read, new, game.locale, codes, piloted, names),
            report_log(events, new, game.locale, codes, piloted, names),
        )
    data = report_data(
        new,
        events,
        game.locale,
        game.name,
        codes,
        footer,
        BOARD_CID,
        summary,
        quiet=piloted,
        correction=amends,
        names=names,
        nonce=game.seal_nonce,
        address=svc.config.service.address,
    )
    chart = None
    if new.phase == Phase.ENDED:
        # The HTML part of the game-end mail shows every player's VP over the rounds: a PNG
        # inline (cid:), since mail programs such as Gmail strip inline SVG.
        from .archive import end_chart_png

        drawn = end_chart_png(session, game, [p["label"] for p in data["players"]])
        if drawn is not None:
            chart, data["vp_chart_title"] = drawn
            data["vp_chart_cid"] = CHART_CID
    addresses = report_addresses(everyone)
    seated_at = {p.address for p in players}
    watching = [a for a in addresses if a not in seated_at]
    # Observers get a copy of their own while the game goes on: theirs shows no order form.
    # It is written first: the players' is the step's newest report (`preview` reads that).
    groups: list[tuple[list[str], dict[str, Any]]] = []
    if watching and new.phase != Phase.ENDED:
        groups.append((watching, observer_copy(data)))
        addresses = [a for a in addresses if a in seated_at]
    groups.append((addresses, data))
    image = board_png(new, game.locale)
    for group, shown in groups:
        if not group:
            continue
        report = render("report", subject, shown)
        mails.mail(
            "report" if new.phase != Phase.ENDED else "end",
            group,
            subject,
            report.text,
            game_id=game.id,
            step=step,
            html=report.html,
            image=image,
            chart=chart,
            attachment=_report_json(game, new, state.round, data["log"], names, players, group),
        )
    if svc.config.service.gm_inbox:
        _digest(
            svc, session, game, state.round, players, missing, new, events, step, mails, piloted
        )
    _drop_reminders(session, game)
    mails.post(session)
    crashpoint("resolving")
    return step


def _report_json(
    game: Game,
    state: GameState,
    round_: int,
    log: list[str],
    names: dict[int, str],
    players: list[Player],
    addresses: list[str],
) -> str:
    """The report's JSON attachment (`report_json`): the public part, and each seated
    recipient's own hand and cards by address (an observer gets the public part alone)."""
    own: dict[str, dict[str, Any]] = {}
    for p in players:
        if p.seat is not None and p.address in addresses and p.address not in own:
            own[p.address] = report_json.own_part(state, p.seat)
    public = report_json.public_part(
        state, game.name, game.locale, round_, log, game.deadline, names
    )
    return report_json.attachment_value(public, own, report_json.filename(game.locale, round_))


def _drop_reminders(session: Session, game: Game) -> None:
    """A reminder not sent yet when its round is resolved (the outbox was down, or its sender
    was killed and the service not back before the deadline) would come after the deadline it
    reminds of: it is dropped instead."""
    session.exec(
        update(Outbox)
        .where(
            col(Outbox.game_id) == game.id,
            col(Outbox.kind) == "reminder",
            col(Outbox.status) == OutboxStatus.PENDING,
        )
        .values(
            status=OutboxStatus.DROPPED,
            last_error="not sent: the round was resolved before it could go out",
        )
        .execution_options(synchronize_session=False)
    )


def _nmr(
    svc: Service,
    session: Session,
    game: Game,
    players: list[Player],
    missing: list[Player],
    round_: int,
    step: int,
    mails: Mailbag,
) -> None:
    """Count consecutive NMRs; after the configured number the autopilot takes the seat."""
    ids = {p.id for p in missing}
    late = answers.late_seats(session, game, round_, missing) if missing else set()
    # Resolved before its deadline with orders missing: the GM did (`round resolve --now`).
    early = game.deadline is not None and svc.clock.now() < game.deadline
    for p in players:
        if p.id not in ids:
            if not p.autopilot:
                p.nmr_count = 0
            continue
        p.nmr_count += 1
        mails.notice(
            "nmr",
            [p.address],
            game,
            texts.t(game.locale, "nmr_subject", game=game.name, round=round_),
            notices.nmr(
                game.locale, round_, p.nmr_count, game.nmr_autopilot_after, p.id in late, early
            ),
            step=step,
        )
        if p.nmr_count >= game.nmr_autopilot_after:
            set_autopilot(svc, session, game, p, True, step=step, mails=mails, why="nmr")


def set_autopilot(
    svc: Service,
    session: Session,
    game: Game,
    player: Player,
    on: bool,
    step: int | None = None,
    mails: Mailbag | None = None,
    why: str = "",
    notify: bool = True,
) -> bool:
    """Switch the seat's autopilot and mail its player; False when it was so already.
    `mails`: a resolution's mails, to which the notice is added (else it is written at once).
    `why`: the autopilot takes the seat by itself ("nmr", "resigned"): the GM is told too.
    `notify`: False when the player's own mail switched it and its answer says so (the GM
    is told of a `why` all the same)."""
    if player.autopilot == on:
        return False
    player.autopilot = on
    if not on:
        player.nmr_count = 0
    if not notify and not (on and why):
        return True
    key = "autopilot_on" if on else "autopilot_off"
    bag = mails if mails is not None else Mailbag(svc)
    if notify:
        bag.notice(
            key,
            [player.address],
            game,
            texts.t(game.locale, f"{key}_subject", game=game.name),
            notices.autopilot(
                game.locale,
                vocab.colour_name(player.colour or "", game.locale),
                on,
                # A paused game's deadline is not the one that counts: the resume sets it.
                round_=game.round
                if not on and game.phase == GamePhase.ROUNDS and not game.paused
                else None,
                deadline=local_deadline(game, player),
            ),
            template="autopilot",
            step=step,
        )
    if on and why:
        from . import gm_alerts

        gm_alerts.autopilot(svc, game, player, why, bag, step=step)
    if mails is None:
        bag.post(session)
    return True


def _digest(
    svc: Service,
    session: Session,
    game: Game,
    round_: int,
    players: list[Player],
    missing: list[Player],
    state: GameState,
    events: list[Event],
    step: int,
    mails: Mailbag,
    piloted: frozenset[int] = frozenset(),
) -> None:
    """The GM's digest of a resolution: who sent orders, NMRs, autopilots, the points (hidden
    ones included: the GM may see them), what happened."""
    absent = {p.id for p in missing}
    rows = []
    for p in players:
        if p.seat is None:
            continue
        # The autopilot's orders (`piloted`: on for the seat, or the player away), not the
        # player's: shown as such.
        sent = "nmr" if p.id in absent else ("autopilot" if p.seat in piloted else "orders")
        rows.append(
            notices.DigestRow(
                vocab.colour_name(p.colour or "", game.locale), p.name, sent, state.vp(p.seat)
            )
        )
    winner = (
        vocab.colour_name(state.colours[state.winner], game.locale) if state.winner >= 0 else ""
    )
    broken = [notices.BrokenGame(g.name, g.broken) for g in broken_games(session)]
    mails.notice(
        "digest",
        svc.config.service.gm_inbox,
        game,
        texts.t(game.locale, "digest_subject", game=game.name, round=round_),
        notices.digest(
            game.locale,
            round_,
            rows,
            winner,
            deadline_text(game),
            describe_all(events, state, game.locale),
            broken,
        ),
        step=step,
    )
