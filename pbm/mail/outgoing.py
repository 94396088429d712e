"""An outbox row → a MIME message: UTF-8, stable Message-ID, threading and RFC 3834 headers.

Whatever an outbox row holds (it may echo a stranger's Subject or Message-ID), the message
builds: every header value is cleaned of line breaks and control characters, a threading
reference that is not a plain msg-id is left out, and a password travels in the row only as
`PASSWORD_PLACEHOLDER` until the message is built.
"""

from __future__ import annotations

import hashlib
import html as htmllib
import re
import secrets
from datetime import datetime
from email.base64mime import body_encode
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime

from .headers import POLICY
from .inbound import clean_header_text

#: Our own loop guard: a mail carrying it is never answered (see `inbound.no_reply_reason`).
LOOP_HEADER = "X-PBM-Loop"
#: Stands for the secret (a new password) in a stored body and HTML part; the secret itself
#: is kept beside it (`Outbox.secret`) only until the mail is sent. ASCII letters, digits and
#: hyphens: HTML escaping leaves it as it is, and no text of the game contains it.
PASSWORD_PLACEHOLDER = "PBM-PASSWORD-PLACEHOLDER-7Q"
#: Characters of a Subject or display name put into a header.
HEADER_CHARS = 500

#: A msg-id we put into Message-ID, In-Reply-To or References: `<…>` of printable ASCII
#: without spaces and angle brackets (bounded, so a header line stays short).
_MSG_ID = re.compile(r"<[!-;=?-~]{1,250}>")
#: An address as a To header may show it: one ASCII mailbox, nothing that ends the header
#: or the address early.
_ADDRESS = re.compile(r"[!#-'*+\-/-9=?A-Z^-~.]{1,64}@[A-Za-z0-9.-]{1,253}")


def header_text(value: str) -> str:
    """A Subject or display name fit for a header: one line, no control characters."""
    return " ".join(clean_header_text(value).split())[:HEADER_CHARS]


def msg_id(value: str) -> str:
    """`value` if it is a plain msg-id, else ""."""
    value = value.strip()
    return value if _MSG_ID.fullmatch(value) else ""


def header_address(address: str) -> str:
    """What To shows for `address`: the address if it is a plain ASCII mailbox, else what is
    left of it without spaces, control and bidi characters and the characters that end an
    address (an internationalised address keeps its letters). The envelope still carries
    the address as given; the SMTP client or server refuses it there if it must, for that
    recipient alone."""
    address = address.strip()
    if _ADDRESS.fullmatch(address):
        return address
    return "".join(
        ch for ch in clean_header_text(address) if ch.isprintable() and ch not in ' ,;:<>()[]\\"'
    )[:320]


def readdress(msg: EmailMessage, recipients: list[str]) -> EmailMessage:
    """`msg` with its To header naming `recipients` (in place; one message goes to each
    recipient of a report, each seeing only their own address)."""
    to = ", ".join(a for a in map(header_address, recipients) if a) or "undisclosed-recipients:;"
    if "To" in msg:
        msg.replace_header("To", to)
    else:
        msg["To"] = to
    return msg


def build_message(
    *,
    from_address: str,
    from_name: str,
    recipients: list[str],
    subject: str,
    body: str,
    html: str,
    message_id: str,
    in_reply_to: str,
    date: datetime,
    image: bytes | None = None,
    image_cid: str = "board@pbm",
    secret: str = "",
    chart: bytes | None = None,
    chart_cid: str = "vpchart@pbm",
) -> EmailMessage:
    """Text part complete on its own; the HTML part (if any) with the picture inline
    (multipart/related, referenced as cid:), and the VP chart (`chart`, PNG) as a second
    one. `secret` takes the place of every `PASSWORD_PLACEHOLDER` in the body and the HTML
    part (a placeholder with no secret to put in raises ValueError: the mail would tell the
    player nothing).

    Never fails on what the row holds: headers are cleaned, an In-Reply-To that is not a
    plain msg-id is left out, a Message-ID that is not one is replaced by one derived from
    it (stable, so a resend still carries the same)."""
    if PASSWORD_PLACEHOLDER in body or PASSWORD_PLACEHOLDER in html:
        if not secret:
            raise ValueError("the mail carries a password placeholder but no secret")
        body = body.replace(PASSWORD_PLACEHOLDER, secret)
        html = html.replace(PASSWORD_PLACEHOLDER, htmllib.escape(secret))
    # A lone surrogate (never from the database, but cheap to rule out) cannot be encoded.
    body = body.encode("utf-8", "replace").decode("utf-8")
    html = html.encode("utf-8", "replace").decode("utf-8")
    domain = from_address.rsplit("@", 1)[-1] or "pbm.invalid"
    msg = EmailMessage(policy=POLICY)
    msg["From"] = str(Address(display_name=header_text(from_name), addr_spec=from_address))
    readdress(msg, recipients)
    msg["Subject"] = header_text(subject)
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = msg_id(message_id) or (
        f"<{hashlib.sha256(message_id.encode('utf-8', 'replace')).hexdigest()[:32]}@{domain}>"
    )
    if in_reply_to:
        # A reference that is not a plain msg-id (a stranger's Message-ID with spaces, line
        # separators or 8-bit characters) is dropped: the answer is then not threaded.
        if reference := msg_id(in_reply_to):
            msg["In-Reply-To"] = reference
            msg["References"] = reference
        msg["Auto-Submitted"] = "auto-replied"
    else:
        msg["Auto-Submitted"] = "auto-generated"
    msg[LOOP_HEADER] = from_address
    msg.set_content(body, charset="utf-8")
    if html:
        msg.add_alternative(html, subtype="html", charset="utf-8")
        pictures = [(image, image_cid, "board.png"), (chart, chart_cid, "vp-chart.png")]
        if any(data for data, _, _ in pictures):
            html_part = msg.get_body(preferencelist=("html",))
            assert isinstance(html_part, EmailMessage)
            for data, cid, filename in pictures:
                if data:
                    # The first turns the HTML part into multipart/related, the next join it.
                    html_part.add_related(
                        data,
                        maintype="image",
                        subtype="png",
                        cid=f"<{cid}>",
                        filename=filename,
                        disposition="inline",
                    )
            # RFC 2387: multipart/related names the type of its root part.
            html_part.set_param("type", "text/html")
    for part in msg.walk():
        if part.is_multipart():
            part.set_boundary(boundary())
    return msg


def attach(msg: EmailMessage, filename: str, data: bytes) -> EmailMessage:
    """`msg` with `data` attached as the file `filename` (application/json, base64), in place of
    the file of that name attached before (in place; one message goes to each recipient of a
    report, each with a file of their own): the message becomes multipart/mixed, its body the
    first part. Replacing a file swaps its payload only: its headers stay as they were made."""
    if msg.get_content_type() != "multipart/mixed":
        msg.make_mixed()
        msg.set_boundary(boundary())
    name = header_text(filename)
    part = next((p for p in msg.iter_attachments() if p.get_filename() == name), None)
    if part is None:
        msg.add_attachment(data, maintype="application", subtype="json", filename=name)
    else:
        part.set_payload(body_encode(data))
    return msg


def boundary() -> str:
    """A MIME boundary no part can contain: "=_" never occurs in base64 or quoted-printable,
    and the 128 random bits do not occur in a text by chance. Set before the message is
    written, it spares the standard generator its own: that one joins every part into one
    string, searches it, and compiles a new regular expression for every message, each kept
    in `re`'s cache of 512 (`pbm serve` grew by their share while sending a round's reports,
    and the patterns pbm looks up there were pushed out)."""
    return "=_pbm_" + secrets.token_hex(16)
