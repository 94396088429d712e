"""An outbox row → a MIME message: UTF-8, stable Message-ID, threading and RFC 3834 headers."""

from __future__ import annotations

from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime

#: Our own loop guard: a mail carrying it is never answered (see `inbound.no_reply_reason`).
LOOP_HEADER = "X-PBM-Loop"


def build_message(
    *, from_address: str, from_name: str, recipients: list[str], subject: str, body: str,
    html: str, message_id: str, in_reply_to: str, date: datetime, image: bytes | None = None,
    image_cid: str = "board@pbm",
) -> EmailMessage:
    """Text part complete on its own; the HTML part (if any) with the picture inline
    (multipart/related, referenced as cid:)."""
    msg = EmailMessage()
    msg["From"] = str(Address(display_name=from_name, addr_spec=from_address))
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
        msg["Auto-Submitted"] = "auto-replied"
    else:
        msg["Auto-Submitted"] = "auto-generated"
    msg[LOOP_HEADER] = from_address
    msg.set_content(body, charset="utf-8")
    if html:
        msg.add_alternative(html, subtype="html", charset="utf-8")
        if image:
            html_part = msg.get_body(preferencelist=("html",))
            assert isinstance(html_part, EmailMessage)
            html_part.add_related(image, maintype="image", subtype="png",
                                  cid=f"<{image_cid}>", filename="board.png",
                                  disposition="inline")
            # RFC 2387: multipart/related names the type of its root part.
            html_part.set_param("type", "text/html")
    return msg
