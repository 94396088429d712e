"""One mail being handled: what a mail command, the authentication and the order intake get
(`Request`), and what became of the mail (`Handled`).

Every mail gets one answer for what it does, and one for each question it asks beside that
(`dispatch.py`), queued in the mail's own transaction (`Request.reply`, `Request.answer`,
`Request.refuse`); answers that concern a seat go to its registered address, never to an
unknown sender.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from pbm.i18n import translator
from pbm.mail.inbound import Inbound
from pbm.notation.mail import ParsedMail
from pbm.reports import notices
from pbm.rules.state import GameState
from pbm.store.models import Game, InboundMail, Outbox, Player

from . import texts
from .context import Service
from .games import players_of
from .limits import may_answer
from .outbox import enqueue, notify, renotify
from .secrets import MASK, Masker, masked_data
from .signup import password_word


@dataclass
class Handled:
    """What became of a mail under the write lock."""

    #: The game whose open round got orders from the mail, if any.
    game: str | None = None
    #: Those orders made the round complete (all in, read in the mail's own transaction) and
    #: the game resolves early: the caller resolves it now (`tick.resolve_if_ready`, which
    #: checks again under the lock). A round completed otherwise is found by the clock.
    complete: bool = False
    #: The game the mail was found to be for (`InboundMail.game_id`).
    game_id: int | None = None
    #: Held for a broken game: its bytes stay as they came (read again when it resumes).
    held: bool = False
    #: The mail gave a seat's right password.
    authenticated: bool = False
    #: The password values of the mail (its password lines', right or wrong) and every value
    #: masked in what pbm made of it (`Request.masked`): none stays in the stored mail.
    secrets: set[str] = field(default_factory=set)
    #: The stored mail was changed (masked, or cut): its bytes as they came are in SQLite's
    #: WAL until `store.db.scrub` (the caller's to call, once the transaction is committed).
    masked: bool = False


@dataclass
class Request:
    """One mail being handled: what every command's `process` gets."""

    svc: Service
    session: Session
    mail: InboundMail
    inbound: Inbound
    game: Game
    parsed: ParsedMail
    player: Player | None = None
    #: The game's state as read with the mail (unchanged under the lock), if it has one.
    state: GameState | None = None
    #: What the mail did besides orders (a message sent, an absence, a time zone), for the
    #: answer.
    notes: list[str] = field(default_factory=list)
    #: The mail changed something besides its orders (a time zone, an absence, a message
    #: sent, the autopilot off): a refusal of its orders then does not say "nothing was
    #: changed".
    changed: bool = False
    handled: Handled = field(default_factory=Handled)
    #: Password checks already made for this mail (`Reading.checked`).
    checked: dict[tuple[int, str], bool] = field(default_factory=dict)
    _seated: list[Player] | None = None
    _lang: str = ""
    _masker: Masker | None = None

    @property
    def lang(self) -> str:
        # The game's language and edition do not change while a mail is handled.
        if not self._lang:
            self._lang = self.game.locale
        return self._lang

    def seated(self) -> list[Player]:
        """The game's seated players (`players_of`), read once per mail: nothing a mail does
        changes who sits where (a signup reads them itself), and the rows are the session's
        own objects, so changes made to them (the autopilot, an absence) are seen."""
        if self._seated is None:
            self._seated = players_of(self.session, self.game)
        return self._seated

    def masked(self, text: str, stored: bool = False) -> str:
        """The mail's text (or a part of it) without any password (`secrets.Masker`): ****
        where it is `stored`, else a note in the game's language where a password stood.
        One masker a mail: its hash checks are counted and remembered across the texts."""
        if self._masker is None:
            seats = {
                password_word(p.colour, self.lang): p.password_hash
                for p in self.seated()
                if p.colour and p.password_hash
            }
            known = {*self.handled.secrets, self.parsed.password or ""}
            self._masker = Masker(known, seats, found=self.handled.secrets)
        mark = MASK if stored else texts.t(self.lang, "password_removed")
        return self._masker.text(text, mark)

    def _may_answer(self, address: str) -> bool:
        if self.player is not None and address == self.player.address:
            # A mail with the seat's right password is always answered: forged mails that
            # use up an address's hourly answers cannot silence the player.
            return True
        if not address or not may_answer(self.svc, self.session, address):
            self.mail.error = self.mail.error or "not answered: rate limit"
            return False
        return True

    def reply(self, kind: str, subject: str, body: str, to: str | None = None) -> None:
        """The one answer to this mail, as plain text (dropped when the address is over its
        hourly limit)."""
        address = to or self.inbound.sender
        if self._may_answer(address):
            enqueue(
                self.svc,
                self.session,
                kind,
                [address],
                subject,
                body,
                game_id=self.game.id,
                in_reply_to=self.inbound.message_id,
                limited=self.player is None,
                lang=self.lang,
            )

    def answer(
        self,
        kind: str,
        subject: str,
        data: dict[str, Any],
        to: str | None = None,
        template: str = "",
    ) -> Outbox | None:
        """The one answer to this mail, from `templates/<template or kind>`. An
        acknowledgement or an error quotes the mail: its data is masked. Returns the queued
        row (None when the address has had its answers for the hour)."""
        address = to or self.inbound.sender
        if kind in ("ack", "error"):
            data = masked_data(data, self.masked)
        if self._may_answer(address):
            return notify(
                self.svc,
                self.session,
                kind,
                [address],
                self.game,
                subject,
                data,
                template=template,
                in_reply_to=self.inbound.message_id,
                limited=self.player is None,
            )
        return None

    def amend(self, row: Outbox | None, subject: str, data: dict[str, Any]) -> None:
        """Write the acknowledgement queued as `row` again from `data` (masked as `answer`
        masks it), keeping its place in the outbox."""
        if row is not None:
            renotify(row, self.game, subject, masked_data(data, self.masked), row.kind)

    def refuse(self, reason: str, to: str | None = None) -> None:
        """An error answer: why, and that nothing was changed unless the mail did change
        something besides (`changed`: its notes say what), and that a forwarded mail in this
        one was not read (the password or orders the player meant may stand there)."""
        if self.parsed.forwarded:
            reason = f"{reason}\n\n{forwarded_not_read(self.lang)}"
        self.answer(
            "error",
            texts.t(self.lang, "error_subject", game=self.game.name),
            notices.error(reason, self.lang, changed_nothing=not self.changed),
            to=to,
        )


def forwarded_not_read(lang: str, orders_above: bool = False) -> str:
    """Said in the answer to a mail whose reading stopped at a forwarded mail; `orders_above`:
    orders were read above it (then the player only learns what was left unread)."""
    _ = translator(lang).gettext
    if orders_above:
        return _(
            "The forwarded mail below your orders was not read (it may be a report or "
            "another player's mail): orders in it do not count."
        )
    return _(
        "A forwarded mail in yours was not read (it may be a report or another player's "
        "mail): write your orders in the mail itself, or paste them above the forwarded part."
    )
