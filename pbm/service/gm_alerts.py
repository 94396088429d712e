"""The GM hears what matters (issue 28): a mail to the GM (`[service] gm_address`, else the
`gm` addresses; none when neither is set) when

- the table of a game is full: the seats are drawn and the setup (or round 1) begins;
- the autopilot takes a seat by itself: after missed rounds, or when its player resigned (not
  when the GM switched it: the GM knows);
- a mail is quarantined (its handling raised): nothing of it was done until `pbm mail requeue`.

A player's absence and return are told to the GM with the players' notice (`absence.py`), and
the round digest shows a seat the autopilot played as such (`rounds._digest`). Each alert goes
out in the transaction of what it tells of, but for the quarantine, which is told in one of its
own once the mail is quarantined: a fault in telling never keeps a mail from quarantine.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlmodel import Session

from pbm.i18n import mail_languages
from pbm.notation.format import word
from pbm.reports.notices import lang_code
from pbm.reports.render import render, render_message
from pbm.store.db import transaction
from pbm.store.models import Game, InboundMail, Player
from pbm.store.statuses import GamePhase

from . import texts
from .context import Service
from .outbox import Mailbag, enqueue, notify
from .secrets import masked_text, password_values
from .table import label, shared_deadline

log = logging.getLogger("pbm")


def started(svc: Service, session: Session, game: Game, players: list[Player]) -> None:
    """The table is full and the seats are drawn: who sits where, and the first deadline."""
    if not svc.config.service.gm_inbox:
        return
    seats = [{"label": label(game, p), "address": p.address} for p in players]
    notify(
        svc,
        session,
        "gm_alert",
        svc.config.service.gm_inbox,
        game,
        texts.t(game.locale, "gm_started_subject", game=game.name),
        {
            "lang": lang_code(game.locale),
            "event": "started",
            "seats": seats,
            "setup": game.phase == GamePhase.SETUP,
            "deadline": shared_deadline(session, game, room=200, players=players),
        },
        template="gm_alert",
        limited=False,
    )


def autopilot(
    svc: Service,
    game: Game,
    player: Player,
    why: str,
    mails: Mailbag,
    step: int | None = None,
) -> None:
    """The autopilot took a seat by itself (`why`: "nmr" after missed rounds, or "resigned");
    added to `mails`, the caller's mails."""
    if not svc.config.service.gm_inbox:
        return
    seat = label(game, player)
    mails.notice(
        "gm_alert",
        svc.config.service.gm_inbox,
        game,
        texts.t(game.locale, "gm_autopilot_took_subject", game=game.name, seat=seat),
        {
            "lang": lang_code(game.locale),
            "event": "autopilot",
            "seat": seat,
            "colour": player.colour or "",
            "back": word("back", game.locale),
            "why": why,
            "count": player.nmr_count,
        },
        template="gm_alert",
        step=step,
    )


def quarantined(svc: Service, mail_id: int) -> None:
    """Tell the GM that a mail was quarantined, in a transaction of its own (in every language
    pbm speaks: the mail's game is not known). Never raises: the mail is quarantined whatever
    becomes of this."""
    if not svc.config.service.gm_inbox:
        return
    try:
        with transaction(svc.engine) as session:
            mail = session.get(InboundMail, mail_id)
            if mail is None:
                return
            _quarantined(svc, session, mail)
    except Exception:  # the alert must not undo or repeat the quarantine
        log.exception("mail %s: quarantined; the GM could not be told", mail_id)


def _quarantined(svc: Service, session: Session, mail: InboundMail) -> None:
    error = mail.error.strip().splitlines()[-1] if mail.error.strip() else ""
    data: dict[str, Any] = {
        "event": "quarantined",
        "id": mail.id,
        "sender": mail.sender or "-",
        "mail_subject": masked_text(mail.subject, password_values(mail.subject))[:200],
        "error": masked_text(error, password_values(error))[:300],
    }
    parts = []
    for lang in mail_languages():
        subject = texts.t(lang, "gm_quarantined_subject", id=mail.id)
        parts.append((subject, render("gm_alert", subject, {**data, "lang": lang, "game": ""})))
    subject = " / ".join(dict.fromkeys(s for s, _ in parts))
    body = "\n\n".join(m.text.rstrip() for _, m in parts) + "\n"
    # Declared in the language of its first part (the service's default language).
    mail_html = render_message(subject, body, mail_languages()[0], "")
    enqueue(
        svc,
        session,
        "gm_alert",
        svc.config.service.gm_inbox,
        subject,
        body,
        html=mail_html.html,
        limited=False,
    )
