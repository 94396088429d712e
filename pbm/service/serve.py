"""`pbm serve`: the inbox, the deadline clock and the outbox sender in one asyncio process.
`pbm poll` does one pass of each and returns (for cron).

The mailbox and the SMTP server are reached through `Transports` (`pbm/mail/transport.py`):
IMAP and SMTP as the config says by default, the in-memory ones in the tests.

The inbox stores every mail before it marks it seen on the server, so a crash between the two
only means the mail is fetched again and recognised by its Message-ID. After any connection
loss the poller makes a new inbox (a new connection) and reconnects with backoff.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from datetime import datetime

from sqlalchemy.exc import DBAPIError

from pbm.config.model import Settings
from pbm.mail.imap import ImapInbox
from pbm.mail.oauth2 import NeedsLogin, oauth2_section
from pbm.mail.smtp import SmtpSession
from pbm.mail.transport import INBOX_ERRORS, Head, Inbox, Transports
from pbm.reports.picture import release as release_pictures
from pbm.store.db import scrub

from .archive import keep_archives
from .context import Service
from .faults import crashpoint
from .ingest import IngestResult, ingest, recover
from .intake import known_addresses
from .sending import send_pending
from .tick import next_deadline, resolve_if_ready, tick

log = logging.getLogger("pbm")

#: Database errors a loop waits out (a locked SQLite file past its busy timeout, PostgreSQL
#: restarting): the work is retried on the next pass, nothing was committed.
_DB_ERRORS = (DBAPIError,)
#: Outbox rows sent per pass; a full pass is followed by the next without a pause.
SEND_BATCH = 200
#: Mails fetched per IMAP command (`Inbox.fetch_many`) and marked seen per command
#: (`Inbox.done_many`, once all of them are taken in); each is stored and taken in on its
#: own, in order.
FETCH_BATCH = 25
#: How long after a deadline the clock ticks for it (a tick at the very moment may
#: find it not yet passed, by the resolution of the two clocks).
DEADLINE_MARGIN_SECONDS = 0.05


def transports_for(settings: Settings) -> Transports:
    """IMAP and SMTP as pbm.toml's `[imap]`, `[smtp]` and `[oauth2]` say."""
    oauth2 = oauth2_section(settings)
    return Transports(
        inbox=lambda: ImapInbox(settings.imap, oauth2),
        sender=lambda: SmtpSession(settings.smtp, oauth2),
    )


def take_in(svc: Service, raw: bytes, reported: datetime | None = None) -> IngestResult:
    """Store and process one mail, then resolve its game if that completed the round (as the
    mail's own transaction saw it; `resolve_if_ready` checks again under the lock).
    `reported`: when the mailbox says the mail reached it (its time for the deadlines)."""
    result = ingest(svc, raw, reported)
    log.info(
        "mail %s: %s%s", result.mail_id, result.status, f" ({result.game})" if result.game else ""
    )
    if result.game and result.complete and resolve_if_ready(svc, result.game):
        keep_archives(svc, [result.game])
    return result


async def read_inbox(
    svc: Service,
    box: Inbox,
    taken: Callable[[], None] | None = None,
    stop: asyncio.Event | None = None,
) -> int:
    """Take in every unseen mail; returns how many. A mail is marked seen on the server only
    once it is stored: a mail that could not even be stored stays unseen for the next pass,
    and the mails after it are still read. Mails are fetched and marked seen `FETCH_BATCH` at
    a time (a crash or a lost connection before the mark only means the stored ones are
    fetched again and recognised by their Message-ID). `taken` is called after each mail
    taken in (`pbm serve` wakes its sender with it, so an answer leaves at once). Once `stop`
    is set no further batch is begun: a stopping service with hundreds of mails waiting
    stops after the batch at hand (the rest stay unseen for the next start).

    The mails are taken in fairly (`fair_order`): the players' first, then one mail of each
    sender in turn, so that nobody's flood holds up anybody else. A pass that took in all it
    listed tells the deadlines so (`Intake.passed`): every mail that reached the mailbox
    before the pass began has been read."""
    count = 0
    masked: list[bool] = []
    started = svc.clock.now()
    uids = await box.unseen()
    heads = await box.heads(uids) if uids else {}
    order = await asyncio.to_thread(fair_order, svc, uids, heads)
    max_bytes = svc.config.service.max_stored_kb * 1024
    complete = True
    for start in range(0, len(order), FETCH_BATCH):
        if stop is not None and stop.is_set():
            complete = False
            break
        chunk = order[start : start + FETCH_BATCH]
        raws = await box.fetch_many(chunk, max_bytes)
        stored: list[str] = []
        try:
            for uid in chunk:
                head = heads.get(uid)
                arrived = head.arrived if head is not None else None
                if await _take_one(svc, uid, raws.get(uid), arrived, taken, masked):
                    stored.append(uid)
                else:
                    complete = False
        except Exception:
            # The database failed (the mail at hand stays unseen): the ones stored before it
            # are flagged first, as they would have been one by one.
            if stored:
                with contextlib.suppress(*INBOX_ERRORS):
                    await box.done_many(stored)
            raise
        await box.done_many(stored)
        count += len(stored)
    if complete:
        svc.intake.passed(started)
    if any(masked):
        # Mails stored as they came and masked since: their first bytes leave the WAL now,
        # once per pass (a scrub costs some ms; docs/security.md, "Passwords at rest").
        await asyncio.to_thread(scrub, svc.engine)
    return count


def fair_order(svc: Service, uids: list[str], heads: dict[str, Head]) -> list[str]:
    """The order to take mails in: the mails of the addresses pbm knows (players, observers,
    the GM) first, then the others; within each, one mail of each sender in turn, each
    sender's own mails in the order they came. A mail the mailbox said nothing of goes last."""
    known = known_addresses(svc)
    queues: dict[str, list[str]] = {}
    for uid in uids:
        if uid in heads:
            queues.setdefault(heads[uid].sender, []).append(uid)
    ranked = sorted(queues.values(), key=lambda q: heads[q[0]].sender not in known)
    out: list[str] = []
    for turn in range(max((len(q) for q in ranked), default=0)):
        out.extend(q[turn] for q in ranked if turn < len(q))
    out.extend(uid for uid in uids if uid not in heads)
    return out


async def _take_one(
    svc: Service,
    uid: str,
    raw: bytes | None,
    arrived: datetime | None,
    taken: Callable[[], None] | None,
    masked: list[bool] | None = None,
) -> bool:
    """Take in one fetched mail (None: it has gone); whether it may be marked seen. `masked`
    gets whether the stored mail was masked or cut."""
    if raw is not None:
        try:
            result = await asyncio.to_thread(take_in, svc, raw, arrived)
            if masked is not None:
                masked.append(result.masked)
        except _DB_ERRORS:
            raise
        except Exception:
            log.exception("imap: mail uid %s could not be taken in; left unseen", uid)
            return False
        crashpoint("before-imap-flag")
        if taken is not None:
            taken()
    return True


async def _sleep(stop: asyncio.Event, seconds: float, wake: asyncio.Event | None = None) -> None:
    """Until `seconds` have passed, `stop` is set, or `wake` is set (then cleared)."""
    if wake is None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), seconds)
        return
    waits = {asyncio.create_task(stop.wait()), asyncio.create_task(wake.wait())}
    _, pending = await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    wake.clear()


async def inbox_loop(
    svc: Service,
    stop: asyncio.Event,
    transports: Transports | None = None,
    wake: asyncio.Event | None = None,
    poke: asyncio.Event | None = None,
    read: asyncio.Event | None = None,
) -> None:
    """Read the inbox, then wait for new mail (IMAP IDLE, or `poll_seconds`) or for `poke`
    (a deadline waits for the mailbox to be read past it: `clock_loop`, told by `read` when
    that pass is through); `wake` is set after each mail taken in, for the sender."""
    new_inbox = (transports or transports_for(svc.config)).inbox
    delay = 1.0
    while not stop.is_set():
        box = new_inbox()
        try:
            await box.connect()
            log.info("imap: connected to %s", box.where)
            delay = 1.0
            poked = True  # a deadline may have waited for the mailbox while it was away
            while not stop.is_set():
                taken = wake.set if wake is not None else None
                while await read_inbox(svc, box, taken, stop) and not stop.is_set():
                    # Mail that came while these were taken in is not news to IDLE: read
                    # again until a pass finds nothing, then wait.
                    pass
                if poked and read is not None:
                    # The clock waits for this pass to close a deadline.
                    read.set()
                poked = False
                waiting = asyncio.create_task(box.wait(svc.config.service.poll_seconds, poke))
                stopping = asyncio.create_task(stop.wait())
                done, _ = await asyncio.wait(
                    {waiting, stopping}, return_when=asyncio.FIRST_COMPLETED
                )
                if stopping in done:
                    waiting.cancel()
                    break
                stopping.cancel()
                waiting.result()
                if poke is not None and poke.is_set():
                    poke.clear()
                    poked = True
        except (*INBOX_ERRORS, *_DB_ERRORS) as exc:
            # A database error leaves the mail unseen on the server: it is fetched again.
            if isinstance(exc, NeedsLogin):
                # Only the GM can mend it; the clock and the outbox go on meanwhile.
                log.error("imap: %s; the mailbox is tried again in %.0f s", exc, delay)
            else:
                log.warning("imap: %s: %s; reconnecting in %.0f s", type(exc).__name__, exc, delay)
            await _sleep(stop, delay)
            delay = min(delay * 2, 300.0)
        except Exception:
            log.exception("imap: unexpected error; reconnecting in %.0f s", delay)
            await _sleep(stop, delay)
            delay = min(delay * 2, 300.0)
        finally:
            await box.close()


async def clock_loop(
    svc: Service,
    stop: asyncio.Event,
    poke: asyncio.Event | None = None,
    read: asyncio.Event | None = None,
    wake: asyncio.Event | None = None,
) -> None:
    """Do what is due (`tick`) every `tick_seconds`, and at once when the next deadline
    passes (`next_deadline`); `poke` is set when a deadline waits for a pass of the inbox
    (`Intake.want_pass`), which then reads the mailbox at once and sets `read` when through,
    so the round closes right after that pass, not a tick later; `wake` starts the sender
    after a round was resolved (its reports wait)."""
    while not stop.is_set():
        waiting_for_inbox = False
        try:
            result = await asyncio.to_thread(tick, svc)
        except _DB_ERRORS as exc:
            log.warning("clock: database: %s; retrying", exc)
        except Exception:
            # A game's own fault is caught per game in `tick`; this is anything else. The
            # loop goes on: deadlines of every other game must still be kept.
            log.exception("clock: unexpected error; retrying")
        else:
            for name in result.resolved:
                log.info("game %s: round resolved", name)
            if result.resolved:
                await asyncio.to_thread(keep_archives, svc, result.resolved)
                release_pictures()
            for name in result.broken:
                log.error("game %s: marked broken", name)
            if result.resolved and wake is not None:
                wake.set()
            if poke is not None and svc.intake.take_wanted():
                poke.set()
                waiting_for_inbox = read is not None
        await _sleep(stop, await _until_next_tick(svc), read if waiting_for_inbox else None)


async def _until_next_tick(svc: Service) -> float:
    """Seconds to the next tick: `tick_seconds`, or less when a deadline passes before."""
    try:
        moment = await asyncio.to_thread(next_deadline, svc)
    except _DB_ERRORS:
        return svc.config.service.tick_seconds
    if moment is None:
        return svc.config.service.tick_seconds
    ahead = (moment - svc.clock.now()).total_seconds()
    # A hair past the deadline: a tick exactly at it would find it not yet passed.
    return max(0.0, min(svc.config.service.tick_seconds, ahead + DEADLINE_MARGIN_SECONDS))


async def outbox_loop(
    svc: Service,
    stop: asyncio.Event,
    transports: Transports | None = None,
    wake: asyncio.Event | None = None,
) -> None:
    """Send what is due, then wait `send_seconds` or until `wake` is set (a mail was taken
    in: its answer is waiting)."""
    new_sender = (transports or transports_for(svc.config)).sender
    while not stop.is_set():
        try:
            result = await send_pending(svc, new_sender, limit=SEND_BATCH)
        except _DB_ERRORS as exc:
            log.warning("outbox: database: %s; retrying", exc)
            await _sleep(stop, svc.config.service.send_seconds)
            continue
        except Exception:
            # A row's own fault fails that row (`sending.py`); this is anything else.
            log.exception("outbox: unexpected error; retrying")
            await _sleep(stop, svc.config.service.send_seconds)
            continue
        for row in result.sent:
            log.info("outbox %s: sent", row)
        for row in result.retry:
            log.warning("outbox %s: will retry", row)
        for row in result.failed:
            log.error("outbox %s: failed permanently", row)
        if len(result.sent) + len(result.retry) + len(result.failed) < SEND_BATCH:
            await _sleep(stop, svc.config.service.send_seconds, wake)
        # else: a full pass; more are waiting (a round's reports for many games), go on.


async def serve(
    svc: Service,
    stop: asyncio.Event | None = None,
    transports: Transports | None = None,
) -> None:
    """Run until SIGTERM/SIGINT (or `stop` is set). `transports`: by default IMAP and SMTP
    as the service's config (`svc.config`) says, with its loops' periods."""
    stop = stop or asyncio.Event()
    transports = transports or transports_for(svc.config)
    # This process reads the mailbox: deadlines wait until it has read past them.
    svc.intake.active = True
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        # Outside the main thread (tests) there are no signal handlers: the caller sets `stop`.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    while True:
        try:
            await asyncio.to_thread(recover, svc)
            break
        except _DB_ERRORS as exc:
            log.warning("recover: database: %s; retrying", exc)
            await _sleep(stop, svc.config.service.tick_seconds)
            if stop.is_set():
                return
    # Set by the inbox after each mail taken in: its answer leaves at once, not up to
    # send_seconds later.
    wake = asyncio.Event()
    # Set by the clock when a deadline waits for the mailbox: the inbox reads it at once.
    poke = asyncio.Event()
    # Set by the inbox when the pass a deadline waited for is through: the clock acts then.
    read = asyncio.Event()
    await asyncio.gather(
        inbox_loop(svc, stop, transports, wake, poke, read),
        clock_loop(svc, stop, poke, read, wake),
        outbox_loop(svc, stop, transports, wake),
    )
    # A clean stop leaves no old page (a password, a mail before masking) in the WAL.
    with contextlib.suppress(*_DB_ERRORS):
        await asyncio.to_thread(scrub, svc.engine)
    log.info("stopped")


async def poll_once(svc: Service, transports: Transports | None = None) -> dict[str, int]:
    """One pass: unprocessed mails, the inbox, what is due, the outbox."""
    transports = transports or transports_for(svc.config)
    svc.intake.active = True
    recovered = await asyncio.to_thread(recover, svc)
    box = transports.inbox()
    read = 0
    inbox_failed = 0
    try:
        await box.connect()
        read = await read_inbox(svc, box)
    except INBOX_ERRORS as exc:
        # The inbox being down must not stop deadlines and the outbox (a deadline still waits
        # for mail that may be unread, `intake.may_close`); the pass says so.
        log.warning("imap: %s: %s", type(exc).__name__, exc)
        inbox_failed = 1
    finally:
        await box.close()
    ticked = await asyncio.to_thread(tick, svc)
    await asyncio.to_thread(keep_archives, svc, ticked.resolved)
    sent = await send_pending(svc, transports.sender)
    return {
        "recovered": len(recovered),
        "read": read,
        "resolved": len(ticked.resolved),
        "broken": len(ticked.broken),
        "sent": len(sent.sent),
        "retry": len(sent.retry),
        "failed": len(sent.failed),
        "inbox_failed": inbox_failed,
    }
