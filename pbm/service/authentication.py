"""Whose mail it is: the password finds the seat, whatever the From address says. A wrong
password changes nothing; the seat's failures are counted, and the player and the GM are told
when they pile up (the player is never locked out)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func
from sqlmodel import col, select

from pbm.notation.clean import iter_clean_lines
from pbm.notation.format import word
from pbm.notation.lines import asks_a_question
from pbm.notation.mail import message_to_gm
from pbm.store.models import InboundMail, Outbox, Player
from pbm.store.statuses import GamePhase, OutboxStatus, PlayerStatus

from . import texts
from .limits import BAD_PASSWORD, HOUR, bad_passwords_last_hour
from .outbox import enqueue
from .press import to_gm
from .request import Request
from .secrets import (
    colour_tag,
    hash_password,
    needs_rehash,
    password_values,
    verify_password,
)
from .signup import password_word
from .table import as_utc, local_deadline, when_text

#: Checks a mail may cost at most: the seats of one game (a game has at most six).
MAX_PASSWORD_CHECKS = 6


def seat_candidates(seats: list[Player], password: str, sender: str, lang: str) -> list[Player]:
    """The seats a password may be for: the one its colour names, else every seat with a
    password (the sender's first). At most `MAX_PASSWORD_CHECKS`."""
    seats = [p for p in seats if p.password_hash]
    tag = colour_tag(password)
    named = [p for p in seats if p.colour and password_word(p.colour, lang) == tag]
    if named:
        return named[:1]
    seats.sort(key=lambda p: p.address != sender)
    return seats[:MAX_PASSWORD_CHECKS]


def verified(
    seats: list[Player],
    password: str,
    sender: str,
    lang: str,
    checked: dict[tuple[int, str], bool],
) -> Player | None:
    """The seat the password is right for, if any. `checked`: outcomes by (seat, hash), kept
    from the mail's first read so that its handling checks no hash twice (a wrong guess is
    costly by design: it is never remembered beyond the mail)."""
    for p in seat_candidates(seats, password, sender, lang):
        key = (p.id or 0, p.password_hash)
        if key not in checked:
            checked[key] = verify_password(password, p.password_hash)
        if checked[key]:
            return p
    return None


def authenticate(r: Request) -> Player | None:
    if not r.parsed.password:
        return None
    p = verified(r.seated(), r.parsed.password, r.inbound.sender, r.lang, r.checked)
    if p is not None and needs_rehash(p.password_hash):
        # An old format or cost, upgraded while the password is at hand (this mail's
        # transaction: a mail that is read again does it again).
        p.password_hash = hash_password(r.parsed.password)
    return p


def _accused_seat(r: Request) -> Player | None:
    """The seat a wrong password was tried on: the one its colour names, else the sender's."""
    seats = r.seated()
    tag = colour_tag(r.parsed.password or "")
    for p in seats:
        if p.colour and p.password_hash and password_word(p.colour, r.lang) == tag:
            return p
    return next((p for p in seats if p.address == r.inbound.sender and p.password_hash), None)


def alert_due(failures: int, first: int) -> bool:
    """At `first` wrong passwords, at twice and at four times as many, then no more until a
    right password starts the count again: three alerts, however long the guessing goes on."""
    return first > 0 and failures in (first, 2 * first, 4 * first)


def bad_password(r: Request) -> None:
    """Nothing changes. The seat's failures are counted (the player and the GM are told when
    they pile up; the player is never locked out). The answer goes only to an address
    registered in this game, and stops after five wrong passwords from it in an hour."""
    seat = _accused_seat(r) if r.parsed.password else None
    if seat is not None:
        seat.failed_passwords += 1
        if alert_due(seat.failed_passwords, r.svc.config.service.password_alert_after):
            _password_alert(r, seat)
    registered = {p.address for p in r.seated()}
    sender = r.inbound.sender
    # Counted before this mail is marked: the first `bad_password_limit` are answered.
    earlier = bad_passwords_last_hour(r.svc, r.session, sender)
    r.mail.error = BAD_PASSWORD
    if (
        sender not in registered
        and _was_replaced(r)
        and earlier < r.svc.config.service.bad_password_limit
    ):
        # A player whose seat went to someone else learns why nothing counts (issue 15).
        r.refuse(texts.t(r.lang, "seat_replaced", games=r.game.name))
        return
    if sender not in registered:
        return
    if earlier >= r.svc.config.service.bad_password_limit:
        # Forged mails may have used up the hour's answers: the player's own slip (a password
        # written, but wrong) must not go unanswered for good (a stranger must never cost a
        # player a deadline). A mail with no password at all, an unmarked responder's answer
        # to our refusals say, waits for no later mail: that would start its storm again.
        if r.parsed.password:
            _answer_later(r)
        return
    said = texts.t(r.lang, "bad_password")
    if r.inbound.encrypted:
        # The password may well be in it: the mail was never read.
        said = texts.t(r.lang, "encrypted_not_read")
    elif not r.parsed.password:
        # Where the password stood that was not read: in the quoted mail below the reader's
        # end (an Outlook reply typed into the quoted form), or in the subject.
        read = "\n".join(line for _, line in iter_clean_lines(r.inbound.text))
        if password_values(r.inbound.text) - password_values(read):
            # Only a password line below the reader's end: `Ich habe mein Kennwort
            # verloren` in the player's own text is read, and is no password there.
            said += "\n\n" + texts.t(r.lang, "password_below_quote")
        elif password_values(r.inbound.subject):
            said += "\n\n" + texts.t(r.lang, "password_in_subject")
        if r.inbound.attachments:
            said += "\n\n" + texts.t(r.lang, "attachments_not_read")
    if not r.inbound.encrypted:
        forwarded = _to_gm_without_password(r)
        if forwarded:
            said += "\n\n" + forwarded
        elif any(asks_a_question(line) for _, line in iter_clean_lines(r.inbound.text)):
            # A question: where questions go.
            said += "\n\n" + texts.t(r.lang, "question_hint")
        else:
            said += "\n\n" + texts.t(r.lang, "lost_password_hint", to_gm=word("to_gm", r.lang))
    r.refuse(said)


def _to_gm_without_password(r: Request) -> str:
    """A message to the game master in a seated player's mail without its right password (a
    lost one, most likely) still reaches the game master, marked as unchecked: the one way a
    player who lost it has to ask for a new one. Nothing else in the mail is done. Only from
    the seat's own address, within the answers of the hour (`bad_password`), and not once the
    game is over. Returns the line for the sender ("" when nothing was forwarded)."""
    if r.game.phase == GamePhase.ENDED:
        return ""
    seat = next((p for p in r.seated() if p.address == r.inbound.sender), None)
    text = message_to_gm(r.inbound.text) if seat is not None else None
    if seat is None or text is None:
        return ""
    masked = r.masked(text)
    if not masked.strip():
        return ""
    return to_gm(r.svc, r.session, r.game, seat, masked, unverified=True)


#: The kind of the one mail that tells an address, an hour later, of the wrong-password mails
#: from it that were not answered.
LATER_KIND = "bad_password_later"


def _answer_later(r: Request) -> None:
    """One mail an hour after the first unanswered wrong password (and none while one waits):
    that more mails with a missing or wrong password came than are answered in an hour, none
    read, and what to do if one was the player's. Bounded: one a game an hour an address, so
    a flood of forged mails still brings the address at most that."""
    sender = r.inbound.sender
    waiting = r.session.exec(
        select(Outbox.id).where(
            Outbox.kind == LATER_KIND,
            Outbox.recipients == sender,
            Outbox.game_id == r.game.id,
            Outbox.status == OutboxStatus.PENDING,
        )
    ).first()
    if waiting is not None:
        return
    seat = next((p for p in r.seated() if p.address == sender), None)
    body = texts.t(
        r.lang,
        "bad_password_later",
        game=r.game.name,
        since=when_text(r.svc.clock.now(), seat.timezone if seat else ""),
        deadline=local_deadline(r.game, seat),
    )
    row = enqueue(
        r.svc,
        r.session,
        LATER_KIND,
        [sender],
        texts.t(r.lang, "error_subject", game=r.game.name),
        body,
        game_id=r.game.id,
        limited=False,
        lang=r.lang,
    )
    row.next_attempt = _later(r)


#: The later mail goes out at least this long before the deadline it names.
BEFORE_DEADLINE = timedelta(minutes=30)


def _later(r: Request) -> datetime:
    """When the later mail goes: as the hour's first counted wrong password leaves the hour's
    window (the answers are free again), but never after the deadline less `BEFORE_DEADLINE`
    (at once if that is nearer): a player told after the round resolved could do nothing."""
    now = r.svc.clock.now()
    first = r.session.exec(
        select(func.min(InboundMail.received_at)).where(
            InboundMail.sender == r.inbound.sender,
            InboundMail.error == BAD_PASSWORD,
            col(InboundMail.received_at) >= now - HOUR,
        )
    ).one()
    when = (as_utc(first) if first is not None else now) + HOUR
    if r.game.deadline is not None:
        when = min(when, as_utc(r.game.deadline) - BEFORE_DEADLINE)
    return max(when, now)


def _was_replaced(r: Request) -> bool:
    return (
        r.session.exec(
            select(Player).where(
                Player.game_id == r.game.id,
                Player.address == r.inbound.sender,
                Player.status == PlayerStatus.REPLACED,
            )
        ).first()
        is not None
    )


def _password_alert(r: Request, seat: Player) -> None:
    from pbm.notation import vocab

    colour = vocab.colour_name(seat.colour or "", r.lang)
    subject = texts.t(r.lang, "password_alert_subject", game=r.game.name, colour=colour)
    body = texts.t(
        r.lang, "password_alert_body", game=r.game.name, colour=colour, count=seat.failed_passwords
    )
    if seat.failed_passwords == 4 * r.svc.config.service.password_alert_after:
        body += texts.t(r.lang, "password_alert_last")
    to = [seat.address, *r.svc.config.service.gm_inbox]
    for address in to:
        enqueue(
            r.svc,
            r.session,
            "password_alert",
            [address],
            subject,
            body,
            game_id=r.game.id,
            limited=False,
            lang=r.lang,
        )
