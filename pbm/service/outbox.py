"""Queueing mail in the outbox, inside the caller's transaction (transactional outbox)."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from sqlmodel import Session

from pbm.reports.render import Rendered, render, render_message
from pbm.store.models import Game, Outbox

from .context import Service


def new_message_id(svc: Service) -> str:
    domain = svc.config.address.rsplit("@", 1)[-1] or "pbm.invalid"
    return f"<{secrets.token_hex(12)}@{domain}>"


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
) -> Outbox:
    """Add a mail to the outbox; it is sent only if the surrounding transaction commits.
    Without an HTML part given, one is made from the text. `secret`: what the body's password
    placeholder stands for (kept only until the mail is sent); `limited`: whether the mail
    counts toward the recipient's hourly answers."""
    if not html:
        html = render_message(subject, body, "de", "").html
    row = Outbox(
        game_id=game_id,
        step=step,
        kind=kind,
        recipients=",".join(sorted(set(recipients))),
        subject=subject,
        body=body,
        html=html,
        image=image,
        chart=chart,
        message_id=new_message_id(svc),
        in_reply_to=in_reply_to,
        created_at=svc.clock.now(),
        next_attempt=svc.clock.now(),
        secret=secret,
        limited=limited,
    )
    session.add(row)
    return row


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
