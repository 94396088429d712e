"""Orders by mail: checked at receipt, stored for the open round or the setup, acknowledged;
and what a mail asks besides (a time zone, an absence, a message), done before them."""

from __future__ import annotations

from typing import Any

from pbm.i18n import translator
from pbm.notation.checks import check_receipt, check_setup_receipt
from pbm.notation.lines import asks_a_question
from pbm.reports import notices
from pbm.store.models import Player
from pbm.store.statuses import GamePhase

from . import answers, texts
from .games import load_state
from .request import Request, forwarded_not_read
from .rounds import plays_itself, ready, submit_orders
from .setup_phase import next_own_step, setup_outcome, submit_setup
from .table import as_utc, local_deadline

#: What may stand around a name signed under a mail: a dash before it, a stop or a comma after.
_AROUND_A_NAME = " \t-\u2013\u2014.,!;:~*_"


def forget_signed_name(r: Request) -> None:
    """The player's own name signed under the orders ("Anna", "- Anna", "Anna Müller"), which
    the reader cannot tell from an order (it knows no names), is not refused as one: the last
    lines, when each is the name the player joined with or its first word, are dropped."""
    assert r.player is not None
    name = " ".join(r.player.name.split()).casefold()
    if not name:
        return
    names = {name, name.split()[0]}
    lines = r.parsed.lines
    while lines and not lines[-1].ok and _bare(lines[-1].text) in names:
        lines.pop()


def _bare(text: str) -> str:
    return " ".join(text.strip(_AROUND_A_NAME).split()).casefold()


def _asks_a_question(r: Request) -> bool:
    """A line refused that asks something (ends on a question mark, starts with a question
    word, goes on after one: `lines.asks_a_question`): the player asked in a mail the service
    reads for orders (the answer says where a question goes)."""
    return any(not line.ok and asks_a_question(line.text) for line in r.parsed.lines)


def table_requests(r: Request) -> None:
    """A time zone, an absence and a message (issue 15), done before the orders; each adds a
    line to the answer (`Request.notes`)."""
    from .absence import set_away
    from .press import send_press

    assert r.player is not None
    _ = translator(r.lang).gettext
    if r.parsed.timezone is not None:
        r.player.timezone = r.parsed.timezone
        r.changed = True
        r.notes.append(
            _("Your time zone: {zone}. Deadlines in mails to you alone are shown in it.").format(
                zone=r.parsed.timezone
            )
        )
    over = r.game.phase == GamePhase.ENDED
    if over and (r.parsed.away is not None or r.parsed.press is not None):
        # The game is over: nobody is told of an absence, no message is forwarded.
        r.notes.append(_("This game has ended: nothing was sent."))
        return
    if r.parsed.away is not None:
        before = r.player.away_until
        until = r.parsed.away.meant(r.svc.clock.now().date())
        said = set_away(r.svc, r.session, r.game, r.player, until)
        if r.player.away_until != before:
            r.changed = True
            # Confirmed by a mail of its own (`away_own`); said again beside orders only.
            if r.parsed.has_orders():
                r.notes.append(said)
        else:
            r.notes.append(said)  # a day passed or too far ahead: refused, and why
    if r.parsed.press is not None:
        r.changed = True
        text = r.masked(r.parsed.press_text)
        r.notes.append(send_press(r.svc, r.session, r.game, r.player, r.parsed.press, text))
        if text != r.parsed.press_text:
            r.notes.append(texts.t(r.lang, "password_removed_note"))


def take_orders(r: Request) -> str | None:
    assert r.player is not None
    game, lang, player = r.game, r.lang, r.player
    refuse = answers.refusal(game, r.parsed, r.mail.received_at, player)
    if refuse:
        # The orders are refused, not what the mail did beside them (a message sent, an
        # absence, a time zone): the answer says that too.
        if game.phase == GamePhase.ROUNDS and answers.late(game, r.mail.received_at):
            # Kept with the mail: the round's NMR notice says it came too late.
            r.mail.error = answers.late_marker(game.round, player.id)
        r.refuse("\n\n".join([refuse, *r.notes]), to=player.address)
        return None
    if r.parsed.forwarded:
        r.notes.append(forwarded_not_read(lang, orders_above=r.parsed.has_orders()))
    setup = game.phase == GamePhase.SETUP
    if setup or game.phase == GamePhase.ROUNDS:
        # What can never be carried out is refused now, with its reason, rather than found
        # out when the round resolves or the player's setup turn comes.
        check = check_setup_receipt if setup else check_receipt
        seat = player.seat if player.seat is not None else 0
        check(r.parsed, r.state or load_state(game), seat, game.locale)
    if game.phase == GamePhase.ROUNDS and r.parsed.substitutes_run_anyway():
        # The substitutes run as if a main build had failed: said, since the player may have
        # meant the refused line to be corrected instead.
        refused = [str(x.line) for x in r.parsed.lines if x.refused_build and x.error]
        r.notes.append(texts.t(lang, "substitutes_after_refused", lines=", ".join(refused)))
    if r.parsed.commented:
        # The order form's lines filled in with their `#` left: not read, and the player
        # must hear why (the answer's count of lines not read says nothing of it).
        lines = "\n".join(f"  {number:>2}  {order}" for number, order in r.parsed.commented)
        r.notes.append(texts.t(lang, "commented_orders", lines=lines))
    if _asks_a_question(r):
        # Beside orders too: the question line is only refused, and nobody would answer it.
        r.notes.append(texts.t(lang, "question_hint"))
    placements = setup and (
        r.parsed.setup_orders().placements or r.parsed.later_setup_orders().placements
    )
    if not r.parsed.has_orders() or (setup and not placements):
        # Nothing usable: earlier orders are not replaced by nothing (a mail of typos, or a
        # password line alone, must not wipe valid orders; in the setup only a placement is
        # of use, so a discard or trade line alone is nothing either).
        if r.inbound.attachments:
            r.notes.append(texts.t(lang, "attachments_not_read"))
        if r.inbound.encrypted:
            r.notes.append(texts.t(lang, "encrypted_not_read"))
        if setup and _on_turn(r, player):
            r.notes.append(
                translator(lang)
                .gettext("It is your turn in the setup: send a placement by {deadline}.")
                .format(deadline=local_deadline(game, player))
            )
        r.answer(
            "error",
            texts.t(lang, "partly_subject" if r.changed else "error_subject", game=game.name),
            notices.ack(
                r.parsed,
                r.inbound.text,
                lang,
                replaced=False,
                round_=game.round if game.phase == GamePhase.ROUNDS else None,
                deadline=local_deadline(game, player),
                stored=False,
                closed=_closed(r) and game.phase == GamePhase.ROUNDS,
                notes=r.notes,
                changed=r.changed,
                autopilot=plays_itself(game, player, r.svc.clock.now()),
            ),
            template="ack",
            to=player.address,
        )
        return None
    if game.phase == GamePhase.ROUNDS:
        sent: set[int] = set()
        text = r.masked(r.inbound.text, stored=True)
        replaced = submit_orders(r.svc, r.session, game, player, r.parsed, text, r.mail, sent=sent)
        # Whether these orders completed the round, from the orders just read: the caller
        # resolves only then (no further transaction for the mails that leave it open).
        r.handled.complete = (
            game.early_resolve
            and not game.paused
            and ready(r.session, game, r.svc.clock.now(), r.seated(), sent)
        )
        r.answer(
            "ack",
            texts.t(lang, "ack_subject", game=game.name, round=game.round),
            notices.ack(
                r.parsed,
                r.inbound.text,
                lang,
                replaced=replaced,
                round_=game.round,
                deadline=local_deadline(game, player),
                notes=r.notes,
                closed=_closed(r),
                autopilot=plays_itself(game, player, r.svc.clock.now()),
                complete=r.handled.complete,
            ),
            to=player.address,
        )
        return game.name
    text = r.masked(r.inbound.text, stored=True)
    before = load_state(game)
    if next_own_step(before, player.seat if player.seat is not None else -1) is None:
        r.refuse(texts.t(lang, "all_placed"), to=player.address)
        return None
    subject = texts.t(lang, "setup_ack_subject", game=game.name)

    def ack(replaced: bool, placed: str = "", failed: bool = False) -> dict[str, Any]:
        return notices.ack(
            r.parsed,
            r.inbound.text,
            lang,
            replaced=replaced,
            round_=None,
            deadline=local_deadline(game, player),
            notes=r.notes,
            placed=placed,
            setup_failed=failed,
        )

    # Queued before the placement it may make, and the notices that follow (the placement to
    # all, round 1's mail): the player reads the answer first. Its text once the outcome is in.
    row = r.answer("ack", subject, ack(False), to=player.address)
    replaced, step, now = submit_setup(r.svc, r.session, game, player, r.parsed, text, r.mail)
    assert step is not None  # `next_own_step` above
    written = [
        p.crossing
        for p in (*r.parsed.setup_orders().placements, *r.parsed.later_setup_orders().placements)
    ]
    placed, failed = setup_outcome(game, before, player.seat or 0, step, written)
    if not now and failed:
        # Only `Zweite Siedlung: …` while the first placement is the player's to make now: it
        # is kept for their second turn, nothing failed; the turn now still wants a placement.
        failed = False
        r.notes.append(
            translator(lang)
            .gettext("It is your turn in the setup: send a placement by {deadline}.")
            .format(deadline=local_deadline(game, player))
        )
    r.amend(row, subject, ack(replaced, placed, failed))
    return None


def _closed(r: Request) -> bool:
    """Whether the round's deadline has passed while this mail, which reached the mailbox in
    time (`answers.refusal`), waited to be read: it counts, and nothing replaces it now."""
    deadline = r.game.deadline
    return deadline is not None and as_utc(r.svc.clock.now()) >= as_utc(deadline)


def _on_turn(r: Request, player: Player) -> bool:
    """Whether it is the player's turn to place in the setup now."""
    from pbm.rules.setup import setup_player

    state = r.state or load_state(r.game)
    return player.seat is not None and setup_player(state) == player.seat
