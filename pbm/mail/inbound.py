"""An inbound mail's raw bytes → what the game needs: who, which message, the text.

Takes the first `text/plain` part (else the HTML part as text), decoding the declared charset,
then UTF-8, then windows-1252; never raises on broken MIME (the text is then empty or best
effort). Knows the signs of mails that must never be answered (auto-replies, bounces, lists).
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import hashlib
import re
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.utils import getaddresses
from html.parser import HTMLParser


@dataclass
class Inbound:
    message_id: str
    sender: str
    subject: str
    text: str
    #: Why this mail must not be answered ("" when it may be): auto-reply, bounce, list, loop.
    no_reply: str = ""
    headers: dict[str, str] = field(default_factory=dict)


_QUOTE_ON, _QUOTE_OFF = "\x00quote-on\x00", "\x00quote-off\x00"
_BREAKS = ("br", "p", "div", "tr", "li", "h1", "h2", "h3", "table")


class _HtmlText(HTMLParser):
    """Text as a mail client shows it: line breaks from tags only (source wrapping is a
    space), `<pre>` kept as it is, and quoted blocks marked with `>` like a text reply."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head", "title"):
            self._skip += 1
        elif tag == "pre":
            self._pre += 1
            self.parts.append("\n")
        elif tag == "blockquote":
            self.parts.append(f"\n{_QUOTE_ON}\n")
        elif tag in _BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head", "title"):
            self._skip = max(0, self._skip - 1)
        elif tag == "pre":
            self._pre = max(0, self._pre - 1)
            self.parts.append("\n")
        elif tag == "blockquote":
            self.parts.append(f"\n{_QUOTE_OFF}\n")
        elif tag in _BREAKS and tag != "br":
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data if self._pre else re.sub(r"\s+", " ", data))


def html_to_text(html: str) -> str:
    parser = _HtmlText()
    with contextlib.suppress(Exception):  # a broken HTML part still gives what was read
        parser.feed(html)
        parser.close()
    lines: list[str] = []
    depth = 0
    for line in "".join(parser.parts).split("\n"):
        if line.strip() == _QUOTE_ON:
            depth += 1
        elif line.strip() == _QUOTE_OFF:
            depth = max(0, depth - 1)
        else:
            line = line.strip(" ")
            lines.append(("> " * depth + line) if depth and line else line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n") + "\n"


def _decode(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charsets = [part.get_content_charset() or "", "utf-8", "windows-1252", "latin-1"]
    for cs in charsets:
        if not cs:
            continue
        try:
            text = payload.decode(cs)
        except (LookupError, UnicodeDecodeError):
            continue
        if part.get_param("format") == "flowed":
            text = _unflow(text, part.get_param("delsp") == "yes")
        return text
    return payload.decode("utf-8", "replace")


def _unflow(text: str, delsp: bool) -> str:
    """RFC 3676: join lines that end in a space (soft breaks)."""
    out: list[str] = []
    buf = ""
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if line.endswith(" ") and line != "-- ":
            buf += line[:-1] if delsp else line
        else:
            out.append(buf + line)
            buf = ""
    if buf:
        out.append(buf)
    return "\n".join(out)


def body_text(msg: Message) -> str:
    plain = html = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        if (part.get_content_disposition() or "") == "attachment":
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain" and plain is None:
            plain = _decode(part)
        elif ctype == "text/html" and html is None:
            html = _decode(part)
    if plain is not None:
        return plain
    return html_to_text(html) if html is not None else ""


def _header(msg: Message, name: str) -> str:
    """A header's raw value (8-bit bytes kept as surrogate escapes, see `_decode_header`)."""
    wanted = name.lower()
    try:
        for key, value in msg.raw_items():
            if key.lower() == wanted:
                return str(value).strip()
    except Exception:  # a malformed header reads as absent
        return ""
    return ""


def no_reply_reason(msg: Message, sender: str, own_address: str) -> str:
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return "auto-submitted"
    if _header(msg, "X-Autoreply") or _header(msg, "X-Autorespond"):
        return "auto-reply"
    if _header(msg, "Precedence").lower() in ("bulk", "junk", "list", "auto_reply"):
        return "precedence"
    if _header(msg, "List-Id"):
        return "mailing list"
    if _header(msg, "X-PBM-Loop"):
        return "loop"
    if _header(msg, "Return-Path") == "<>":
        return "bounce"
    if sender.lower().startswith(("mailer-daemon@", "postmaster@")):
        return "bounce"
    if msg.get_content_type() == "multipart/report":
        return "bounce"
    if own_address and sender.lower() == own_address.lower():
        return "own address"
    return ""


#: What an address we answer to may look like: one mailbox, no spaces, quotes, brackets,
#: commas or control characters (a comma would make the answer go to a second address).
_ADDRESS = re.compile(r"[^\s@<>()\[\],;:\\\"\x00-\x1f\x7f]{1,64}@[A-Za-z0-9.-]{1,253}")


def _clean(value: str, limit: int) -> str:
    """A header value safe to store anywhere: raw 8-bit bytes decoded (UTF-8, else
    windows-1252), no NUL or other control characters, at most `limit` characters."""
    text = _decode_header(value)
    text = text.encode("utf-8", "replace").decode("utf-8")
    return "".join(ch if ch >= " " or ch == "\t" else " " for ch in text)[:limit]


def _sender(msg: Message) -> str:
    """The address to answer: From, else Reply-To; "" when neither is one valid mailbox."""
    for name in ("From", "Reply-To"):
        try:
            found = getaddresses([_header(msg, name)])
        except Exception:
            continue
        addresses = [a for _, a in found if a]
        if len(addresses) == 1:
            address = _clean(addresses[0], 320).strip().lower()
            if _ADDRESS.fullmatch(address):
                return address
            return ""
    return ""


def parse_inbound(raw: bytes, own_address: str = "") -> Inbound:
    """What the service needs of a mail. Never raises: a mail the parser cannot read at all
    (nested past the recursion limit, say) comes back with its content-derived id, no sender
    and no text, and is stored and answered by nobody."""
    content_id = f"<sha256-{hashlib.sha256(raw).hexdigest()[:32]}@pbm.local>"
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        # A mail without an id gets one from its content: the same bytes are the same mail.
        mid = _clean(_header(msg, "Message-ID"), 500).strip() or content_id
        sender = _sender(msg)
        subject = _clean(_header(msg, "Subject"), 500)
    except RecursionError:
        return Inbound(content_id, "", "", "", "unreadable")
    try:
        text = body_text(msg)
    except Exception:  # RecursionError included
        text = ""
    reason = no_reply_reason(msg, sender, own_address) or ("" if sender else "no sender")
    return Inbound(mid, sender, subject, text.replace("\x00", ""), reason,
                   {k.lower(): _clean(str(v), 2000) for k, v in msg.items()[:50]})


def _decode_header(value: str) -> str:
    """RFC 2047 words decoded; raw 8-bit headers (read as surrogate escapes) taken as UTF-8,
    else windows-1252."""
    if any("\udc80" <= ch <= "\udcff" for ch in value):
        raw = value.encode("ascii", "surrogateescape")
        for cs in ("utf-8", "windows-1252"):
            try:
                return raw.decode(cs)
            except UnicodeDecodeError:
                continue
    try:
        from email.header import decode_header, make_header

        return str(make_header(decode_header(value)))
    except Exception:
        return value


__all__ = ["EmailMessage", "Inbound", "body_text", "html_to_text", "parse_inbound"]
