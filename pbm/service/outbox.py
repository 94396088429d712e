"""Queueing mail in the outbox, inside the caller's transaction (transactional outbox)."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import insert
from sqlmodel import Session

from pbm.notation.written import written_in
from pbm.reports.render import Rendered, render, render_message
from pbm.reports.wrap import wrap_text
from pbm.store.models import Game, Outbox
from pbm.store.statuses import OutboxStatus

from .context import Service


def new_message_id(svc: Service) -> str:
    domain = svc.config.service.address.rsplit("@", 1)[-1] or "pbm.invalid"
    return f"<{secrets.token_hex(12)}@{domain}>"


def _values(
    svc: Service,
    kind: str,
    recipients: Iterable[str],
    subject: str,
    body: str,
    *,
    game_id: int | None,
    step: int | None,
    in_reply_to: str,
    html: str,
    image: bytes | None,
    chart: bytes | None,
    secret: str,
    limited: bool,
    attachment: str = "",
    lang: str = "",
) -> dict[str, Any]:
    """An outbox row's columns; without an HTML part given, one is made from the text. The
    text's lines are held within the width of a mail's line here, where every mail passes
    (`wrap.wrap_text`: a rendered one is within it already, a plain text may not be).
    `lang`: the language of a text without an HTML part (its first language, in an answer
    written in several), which the HTML part declares to the reader's mail program and its
    screen reader; told by the text's own words where the caller gives none."""
    if not html:
        # From the text as written: its prose's lines are whole, for the screen to wrap.
        html = render_message(subject, body, lang or written_in(body, subject) or "en", "").html
    body = wrap_text(body)
    now = svc.clock.now()
    return {
        "game_id": game_id,
        "step": step,
        "kind": kind,
        "recipients": ",".join(sorted(set(recipients))),
        "subject": subject,
        "body": body,
        "html": html,
        "image": image,
        "chart": chart,
        "attachment": attachment,
        "message_id": new_message_id(svc),
        "in_reply_to": in_reply_to,
        "created_at": now,
        "next_attempt": now,
        "secret": secret,
        "limited": limited,
    }


def enqueue(
    svc: Service,
    session: Session,
    kind: str,
    recipients: Iterable[str],
    subject: str,
    body: str,
    *,
    game_id: int | None = None,
    step: int | None = None,
    in_reply_to: str = "",
    html: str = "",
    image: bytes | None = None,
    chart: bytes | None = None,
    secret: str = "",
    limited: bool = True,
    lang: str = "",
) -> Outbox:
    """Add a mail to the outbox; it is sent only if the surrounding transaction commits.
    Without an HTML part given, one is made from the text, in `lang` (see `_values`).
    `secret`: what the body's password placeholder stands for (kept only until the mail is
    sent); `limited`: whether the mail counts toward the recipient's hourly answers."""
    row = Outbox(
        **_values(
            svc,
            kind,
            recipients,
            subject,
            body,
            game_id=game_id,
            step=step,
            in_reply_to=in_reply_to,
            html=html,
            image=image,
            chart=chart,
            secret=secret,
            limited=limited,
            lang=lang,
        )
    )
    session.add(row)
    return row


#: The outbox table, for `Mailbag`.
_TABLE = Outbox.__table__  # type: ignore[attr-defined]


class Mailbag:
    """Mails a resolution queues (its report, a notice to each player who sent nothing, the
    GM's digest), written to the outbox by one Core INSERT (`post`) in the resolution's
    transaction, in the order they were added: the ORM's objects, their flush and the
    autoflushes they caused cost more than the rows (docs/performance.md, "Due rounds")."""

    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.rows: list[dict[str, Any]] = []

    def mail(
        self,
        kind: str,
        recipients: Iterable[str],
        subject: str,
        body: str,
        *,
        game_id: int | None = None,
        step: int | None = None,
        html: str = "",
        image: bytes | None = None,
        chart: bytes | None = None,
        attachment: str = "",
    ) -> None:
        """`enqueue`'s mail, kept for `post`. `attachment`: a report's JSON attachment
        (`report_json.attachment_value`)."""
        values = _values(
            self.svc,
            kind,
            recipients,
            subject,
            body,
            game_id=game_id,
            step=step,
            in_reply_to="",
            html=html,
            image=image,
            chart=chart,
            secret="",
            limited=True,
            attachment=attachment,
        )
        values.update(status=OutboxStatus.PENDING, attempts=0, last_error="", sent_at=None)
        self.rows.append(values)

    def notice(
        self,
        kind: str,
        recipients: Iterable[str],
        game: Game,
        subject: str,
        data: dict[str, Any],
        *,
        template: str = "",
        step: int | None = None,
    ) -> None:
        """`notify`'s mail, kept for `post`."""
        mail = _render_notice(template or kind, subject, {"game": game.name, **data})
        self.mail(kind, recipients, subject, mail.text, game_id=game.id, step=step, html=mail.html)

    def post(self, session: Session) -> None:
        """Write the mails in the session's transaction (they are sent only if it commits).
        Mails queued with `enqueue` and not yet flushed are flushed first, so the outbox keeps
        the order in which the mails were queued."""
        if not self.rows:
            return
        if any(isinstance(o, Outbox) for o in session.new):
            session.flush()
        session.connection().execute(insert(_TABLE), self.rows)
        self.rows = []


#: Notices rendered lately, by (template, subject, data): a resolution that sends the same
#: notice to several players (an NMR notice to each who sent nothing, at the same count)
#: renders it once. Rendering is a pure function of these; the data is plain values, whose
#: repr says all of them. Bounded: a few notices of the game at hand are all it is for.
_RENDERED: OrderedDict[tuple[str, str, str], Rendered] = OrderedDict()
_RENDERED_MAX = 16
#: `pbm serve` takes mails in and resolves rounds in threads of its own.
_RENDERED_LOCK = threading.Lock()


def _render_notice(template: str, subject: str, data: dict[str, Any]) -> Rendered:
    key = (template, subject, repr(data))
    with _RENDERED_LOCK:
        mail = _RENDERED.get(key)
        if mail is not None:
            _RENDERED.move_to_end(key)
            return mail
    mail = render(template, subject, data)
    with _RENDERED_LOCK:
        _RENDERED[key] = mail
        if len(_RENDERED) > _RENDERED_MAX:
            _RENDERED.popitem(last=False)
    return mail


def renotify(row: Outbox, game: Game, subject: str, data: dict[str, Any], template: str) -> None:
    """A queued `notify` mail written again from new data, keeping its place in the outbox
    (sent in the order queued)."""
    mail = _render_notice(template, subject, {"game": game.name, **data})
    row.subject, row.body, row.html = subject, mail.text, mail.html


def notify(
    svc: Service,
    session: Session,
    kind: str,
    recipients: Iterable[str],
    game: Game,
    subject: str,
    data: dict[str, Any],
    *,
    template: str = "",
    step: int | None = None,
    in_reply_to: str = "",
    limited: bool = True,
) -> Outbox:
    """Render `templates/<template or kind>` (text and HTML) from plain data and queue it."""
    mail = _render_notice(template or kind, subject, {"game": game.name, **data})
    return enqueue(
        svc,
        session,
        kind,
        recipients,
        subject,
        mail.text,
        game_id=game.id,
        step=step,
        in_reply_to=in_reply_to,
        html=mail.html,
        limited=limited,
    )
