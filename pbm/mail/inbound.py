"""An inbound mail's raw bytes → what the game needs: who, which message, the text.

Takes the first `text/plain` part (else the HTML part as text), decoding the declared charset,
then UTF-8, then windows-1252; never raises on broken MIME (the text is then empty or best
effort). Knows the signs of mails that must never be answered (auto-replies, bounces, lists).

Hostile mail is read in bounded time: header values are cut before they are decoded, and
decoded once; a mail over the size limit, or with more MIME parts than `MAX_PARTS`, is not
parsed past its header block (`Inbound.refused` says why). Every header value kept is free of
line breaks of any kind (those of `str.splitlines`, U+2028 included), of control characters
and of bidirectional overrides, so that nothing built from it can break a header or spoof
the text around it.
"""

from __future__ import annotations

import binascii
import contextlib
import email
import hashlib
import itertools
import re
import urllib.parse
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.policy import Compat32
from email.utils import getaddresses, parsedate_to_datetime
from html.parser import HTMLParser
from typing import TYPE_CHECKING

from .mojibake import repaired
from .smime import PGP_ENCRYPTED, PKCS7_MIME, SIGNATURE_PARTS, read_pkcs7

#: MIME parts a mail may have; a mail with more is refused unread ("too_many_parts"). A mail
#: with orders has one to three; 200 leaves room for any real mail with a few attachments.
MAX_PARTS = 200
#: Distinct multipart boundaries counted one by one (see `too_many_parts`); a real mail has
#: one to five.
MAX_BOUNDARIES = 50
#: Header fields looked at (a header block of 50,000 fields is read no further).
MAX_HEADERS = 500
#: Header fields kept in `Inbound.headers` (besides those the service reads).
KEPT_HEADERS = 50
#: Characters kept of a header value in `Inbound.headers`; of a Message-ID and a Subject.
HEADER_CHARS = 1000
ID_CHARS = SUBJECT_CHARS = 500
#: A raw header value is cut to this many times the characters kept before it is decoded:
#: room for encoded words (`=?utf-8?q?=C3=A4?=` is 18 characters for one letter, a run of
#: them 6 per letter), while the stdlib's decoder, quadratic in the length, stays fast.
RAW_FACTOR = 8
#: Every header value of every part is cut to this as the parser reads it: the stdlib's
#: parameter parser (charset, boundary, format) is quadratic in a header's length too
#: (a megabyte of `; x=y` in a Content-Type took 11 s).
RAW_HEADER_CHARS = SUBJECT_CHARS * RAW_FACTOR
#: A From or Reply-To longer than this is no single mailbox (answered: nobody).
ADDRESS_RAW_CHARS = 2000
#: Bytes of a refused mail read for its header block.
HEAD_BYTES = 256 * 1024

#: The headers the service reads; kept in `Inbound.headers` wherever they stand.
_WANTED = (
    "message-id",
    "from",
    "reply-to",
    "subject",
    "auto-submitted",
    "x-autoreply",
    "x-autorespond",
    "precedence",
    "list-id",
    "x-pbm-loop",
    "return-path",
    "content-type",
    # What a mail answers: a reply of the GM to a forwarded player mail (`service/gm_mail.py`).
    "in-reply-to",
    "references",
)


@dataclass
class Inbound:
    message_id: str
    sender: str
    subject: str
    text: str
    #: Why this mail must not be answered ("" when it may be): auto-reply, bounce, list, loop.
    no_reply: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    #: Why the mail was not read past its headers ("" when it was): "too_big" (over the
    #: `max_bytes` given to `parse_inbound`) or "too_many_parts" (over `MAX_PARTS`). The text
    #: is then empty; sender, id and subject are there, for a refusal.
    refused: str = ""
    #: The date of the first `Received:` line, written by the server that delivered the mail
    #: (None when there is none, or it cannot be read): when it reached the mailbox.
    received: datetime | None = None
    #: The mail has a part sent as an attachment, which is never read (orders in a file): the
    #: answer to a mail without orders says so.
    attachments: bool = False
    #: The mail is encrypted for its recipient (S/MIME or OpenPGP): its text cannot be read,
    #: and the answer asks for the orders unencrypted.
    encrypted: bool = False


_QUOTE_ON, _QUOTE_OFF = "\x00quote-on\x00", "\x00quote-off\x00"
_BREAKS = ("br", "p", "div", "tr", "li", "h1", "h2", "h3", "table")


class _HtmlText(HTMLParser):
    """Text as a mail client shows it: line breaks from tags only (source wrapping is a
    space), `<pre>` kept as it is, and quoted blocks marked with `>` like a text reply.

    A block's edges (`<div>`, Outlook's `<p class=MsoNormal>`, …) end the line only if it has
    text: Gmail writes each line as `<div>…</div>` and Outlook as `<p class=MsoNormal>…</p>`,
    and a line break at both edges numbered the lines the player sees as 1, 2, 3 as 1, 3, 5
    in the answer. An empty line is a block of its own (`<div><br></div>`, `<p
    class=MsoNormal>&nbsp;</p>`), and stays one. Any other `<p>` is a paragraph, shown with
    a blank line around it (Thunderbird's paragraph mode): it keeps a line break at each edge."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0
        self._pre = 0
        #: Whether the line at hand has text: a block's edge then ends it.
        self._line = False
        #: For each open `<p>`: whether it is a paragraph with blank lines around it (not
        #: Outlook's line).
        self._paragraphs: list[bool] = []

    def _edge(self) -> None:
        if self._line:
            self.parts.append("\n")
            self._line = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head", "title"):
            self._skip += 1
        elif tag == "pre":
            self._pre += 1
            self._edge()
        elif tag == "blockquote":
            self.parts.append(f"\n{_QUOTE_ON}\n")
            self._line = False
        elif tag == "br":
            self.parts.append("\n")
            self._line = False
        elif tag == "p":
            spaced = "msonormal" not in (dict(attrs).get("class") or "").lower()
            self._paragraphs.append(spaced)
            self._paragraph_edge(spaced)
        elif tag in _BREAKS:
            self._edge()

    def _paragraph_edge(self, spaced: bool) -> None:
        if spaced:
            self.parts.append("\n")
            self._line = False
        else:
            self._edge()

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head", "title"):
            self._skip = max(0, self._skip - 1)
        elif tag == "pre":
            self._pre = max(0, self._pre - 1)
            self._edge()
        elif tag == "blockquote":
            self.parts.append(f"\n{_QUOTE_OFF}\n")
            self._line = False
        elif tag == "p":
            self._paragraph_edge(self._paragraphs.pop() if self._paragraphs else False)
        elif tag in _BREAKS and tag != "br":
            self._edge()

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        text = data if self._pre else re.sub(r"\s+", " ", data)
        self.parts.append(text)
        if self._pre and "\n" in text:
            self._line = bool(text.rsplit("\n", 1)[1])
        elif text.strip() or "\u00a0" in data:
            # A non-breaking space alone is a line's text: `<p>&nbsp;</p>` is an empty line.
            self._line = True


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


#: Labels that mail clients put on text that is often something else: as browsers do (WHATWG
#: Encoding), Latin-1 and ASCII are read as windows-1252 (its dashes, quotes and euro sign
#: where Latin-1 has invisible control characters), and a text that is valid UTF-8 as UTF-8
#: (a phone's UTF-8 labelled Latin-1 would show `StraÃŸe`; Latin-1 text is almost never
#: valid UTF-8 once it has a letter beyond ASCII).
_LATIN_LABELS = frozenset(
    (
        "iso-8859-1",
        "iso8859-1",
        "iso_8859-1",
        "latin-1",
        "latin1",
        "l1",
        "cp819",
        "us-ascii",
        "ascii",
        "windows-1252",
        "cp1252",
    )
)


def _charsets(declared: str, payload: bytes) -> list[str]:
    """The charsets to try on a part, in turn."""
    if declared in _LATIN_LABELS:
        first = ["utf-8"] if not payload.isascii() else []
        return [*first, "windows-1252", "latin-1"]
    return [declared, "utf-8", "windows-1252", "latin-1"]


#: What a base64 body holds besides its alphabet, padding and line breaks: more of it than
#: this share means the part is text labelled base64 by mistake, and is read as it stands.
_NOT_BASE64_SHARE = 0.05
_BASE64_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
#: `bytes.translate` deletions (each a pass at C speed, no list of pieces: a body is up to
#: `max_stored_kb`): blanks and line ends; every byte no base64 has; and those but `=`.
_BLANKS = b" \t\r\n\v\f"
_NOT_BASE64 = bytes(b for b in range(256) if b not in _BASE64_ALPHABET)
_NOT_BASE64_NOR_PAD = bytes(b for b in _NOT_BASE64 if b != ord("="))


def _payload(part: Message) -> bytes | None:
    """The part's body decoded, leniently for base64 (a mail program's or a gateway's slips
    must not cost a player the orders): junk characters and a cut last group are passed
    over, and a text labelled base64 that is none is taken as it stands."""
    cte = str(part.get("content-transfer-encoding", "")).strip().lower()
    raw = part.get_payload()
    if cte != "base64" or not isinstance(raw, str):
        payload = part.get_payload(decode=True)
        return payload if isinstance(payload, bytes) else None
    data = raw.encode("utf-8", "surrogateescape")
    compact = data.translate(None, _BLANKS)
    junk = len(compact) - len(compact.translate(None, _NOT_BASE64_NOR_PAD))
    if compact and junk > _NOT_BASE64_SHARE * len(compact):
        return data  # `Kennwort: …` under `Content-Transfer-Encoding: base64`
    # Up to the first padding, as a decoder reads it (what follows is another piece).
    usable = compact.partition(b"=")[0].translate(None, _NOT_BASE64)
    whole = len(usable) // 4 * 4
    try:
        decoded = binascii.a2b_base64(usable[:whole])
        rest = usable[whole:]
        if len(rest) >= 2:  # a last group cut short: the bytes it still holds
            decoded += binascii.a2b_base64(rest + b"=" * (4 - len(rest)))
    except (binascii.Error, ValueError):
        return data
    return decoded


def _decode(part: Message) -> str:
    payload = _payload(part)
    if payload is None:
        return ""
    return _decode_bytes(payload, part)


def _decode_bytes(payload: bytes, part: Message) -> str:
    """`payload`, the body of `part`, as text: by its charset (or the one its bytes show)."""
    charsets = _charsets((part.get_content_charset() or "").lower(), payload)
    for cs in charsets:
        if not cs:
            continue
        try:
            text = payload.decode(cs)
        except (LookupError, UnicodeDecodeError):
            continue
        if part.get_param("format") == "flowed":
            text = _unflow(text, part.get_param("delsp") == "yes")
        # `StraÃŸe`: UTF-8 read as Windows-1252 before the mail was sent (`mojibake.py`).
        return repaired(text)
    return repaired(payload.decode("utf-8", "replace"))


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


def body_text(msg: Message, resplit: bool = True, depth: int = 0) -> str:
    """The mail's text: its first plain text part, else its HTML part as text, else the text
    of the mail an S/MIME signature holds (`smime.read_pkcs7`; `depth`: how many such
    envelopes were opened to get here), else the text of a multipart part the parser could
    not split."""
    plain = html = None
    unsplit: Message | None = None
    opaque: Message | None = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        if ctype in PKCS7_MIME and opaque is None:
            # `smime.p7m` is labelled an attachment by the clients that send it so.
            opaque = part
            continue
        if (part.get_content_disposition() or "") == "attachment":
            continue
        if ctype == "text/plain" and plain is None:
            plain = _decode(part)
        elif ctype == "text/html" and html is None:
            html = _decode(part)
        elif part.get_content_maintype() == "multipart" and unsplit is None:
            unsplit = part
    if plain is not None:
        return plain
    if html is not None:
        return html_to_text(html)
    if opaque is not None and depth < MAX_ENVELOPES:
        inner = signed_mail(opaque)
        if inner is not None:
            return body_text(inner, resplit, depth + 1)
    if unsplit is not None and resplit:
        return _resplit(unsplit)
    return ""


#: S/MIME envelopes opened one inside the other (signed, then signed again: a "triple wrap"
#: signs, encrypts and signs; two are what a client writes).
MAX_ENVELOPES = 3


def signed_mail(part: Message) -> Message | None:
    """The mail inside an opaque S/MIME signature, parsed; None when the part is no signed
    mail (encrypted, broken), or is as many parts as a bomb has (counted before parsing, as
    `parse_inbound` counts the mail's own)."""
    payload = _payload(part)
    if not payload:
        return None
    kind, content = read_pkcs7(payload)
    if kind != "signed" or too_many_parts(content):
        return None
    return email.message_from_bytes(content, policy=_POLICY)


def is_encrypted(msg: Message, text: str, depth: int = 0) -> bool:
    """Whether the mail itself is encrypted for its recipient (S/MIME enveloped data,
    PGP/MIME, or a text that is an inline OpenPGP message): nobody here can read it, and the
    answer says so rather than asking for the orders it may hold. Only the mail's own content
    counts, through its signatures: an encrypted file forwarded beside readable text does
    not make the mail encrypted."""
    if depth == 0 and text.lstrip()[:40].startswith("-----BEGIN PGP MESSAGE-----"):
        return True
    ctype = msg.get_content_type()
    if ctype in PGP_ENCRYPTED:
        return True
    if ctype == "multipart/signed":
        # The signed content is the first part (RFC 1847).
        payload = msg.get_payload()
        first = payload[0] if isinstance(payload, list) and payload else None
        return (
            isinstance(first, Message)
            and depth < MAX_ENVELOPES
            and is_encrypted(first, "", depth + 1)
        )
    if ctype not in PKCS7_MIME or msg.is_multipart():
        return False
    if str(msg.get_param("smime-type") or "").lower() in ("enveloped-data", "authenveloped-data"):
        return True
    payload = _payload(msg)
    kind = read_pkcs7(payload)[0] if payload else "unknown"
    if kind == "encrypted":
        return True
    if kind == "signed" and depth < MAX_ENVELOPES:
        inner = signed_mail(msg)
        return inner is not None and is_encrypted(inner, "", depth + 1)
    return False


def _has_attachments(msg: Message) -> bool:
    """Whether a part came as an attachment (never read): a signature or a key is none."""
    return any(
        p.get_content_disposition() == "attachment"
        and p.get_content_type() not in SIGNATURE_PARTS
        and p.get_content_type() not in PKCS7_MIME
        for p in msg.walk()
    )


#: The first boundary line of a multipart body: `--` and the boundary (RFC 2046: at most 70
#: characters).
_BOUNDARY_LINE = re.compile(r"^--([ -~]{1,70}?)[ \t]*\r?$", re.MULTILINE)


def _resplit(part: Message) -> str:
    """The text of a multipart part the parser could not split: its boundary parameter is
    missing, or is not the one its body uses. The body's own first boundary line splits it
    (once: a part found so is not split again)."""
    data = part.get_payload(decode=True)  # the bytes as they came (no encoding named)
    if not isinstance(data, bytes):
        return ""
    body = data.decode("latin-1")  # one character a byte, for the boundary's search
    m = _BOUNDARY_LINE.search(body[:20000])
    if m is None:
        # No boundary line at all: a text under a multipart label; read as it stands.
        return _decode_bytes(data, part)
    if m.group(1).endswith("--"):
        return ""
    boundary = m.group(1).replace('"', "")
    bare_cr = data.count(b"\r") > data.count(b"\r\n")
    if _lines_starting(data, b"--" + boundary.encode("latin-1"), bare_cr) > MAX_PARTS:
        return ""  # as many parts as a bomb has: never parsed (`too_many_parts`)
    head = f'Content-Type: {part.get_content_type()}; boundary="{boundary}"\n\n'.encode()
    again = email.message_from_bytes(head + data, policy=_POLICY)
    return body_text(again, resplit=False) if again.is_multipart() else ""


#: Header values: every line break `str.splitlines` knows (\n \r \v \f \x1c-\x1e \x85 and
#: U+2028/U+2029) and every other control character (C0, DEL, C1) becomes a space, and the
#: bidirectional controls (which can make an address or a subject read as another) go.
_HEADER_CHARS = str.maketrans(
    {
        **{c: " " for c in itertools.chain(range(0x00, 0x20), range(0x7F, 0xA0), (0x2028, 0x2029))},
        **{
            c: None
            for c in itertools.chain(
                (0x061C, 0x200E, 0x200F), range(0x202A, 0x202F), range(0x2066, 0x206A)
            )
        },
    }
)


def clean_header_text(text: str) -> str:
    """`text` with no line break, control character or bidi control left (see above), and
    no lone surrogate (those become "?")."""
    return text.encode("utf-8", "replace").decode("utf-8").translate(_HEADER_CHARS)


def _cut(value: str, chars: int) -> str:
    """At most `chars` of a raw header value, without a half encoded word at the end (the
    decoder would show it as `=?utf-8?q?…`)."""
    if len(value) <= chars:
        return value
    cut = value[:chars]
    token = max(cut.rfind(" "), cut.rfind("\t"), cut.rfind("\n")) + 1
    if "=?" in cut[token:] and not cut.endswith("?="):
        cut = cut[:token]
    return cut


if TYPE_CHECKING:
    _Compat32 = Compat32[Message]
else:
    _Compat32 = Compat32


class _BoundedHeaders(_Compat32):
    """compat32, but every header name and value is cut as it is read (`RAW_HEADER_CHARS`)."""

    def header_source_parse(self, sourcelines: list[str]) -> tuple[str, str]:
        name, value = super().header_source_parse(sourcelines)
        return name[:200], _cut(value, RAW_HEADER_CHARS)


_POLICY = _BoundedHeaders()


def _clean(value: str, limit: int) -> str:
    """A raw header value safe to store and to put into any header: cut before decoding (see
    `RAW_FACTOR`), raw 8-bit bytes decoded (UTF-8, else windows-1252), RFC 2047 words
    decoded, cleaned (`clean_header_text`), at most `limit` characters."""
    return clean_header_text(_decode_header(_cut(value, limit * RAW_FACTOR)))[:limit]


class _Headers:
    """The header fields of a mail, read once: the first raw value of each name among the
    first `MAX_HEADERS` fields, and each value decoded at most once."""

    def __init__(self, msg: Message) -> None:
        self.raw: dict[str, str] = {}
        self._decoded: dict[str, str] = {}
        try:
            for key, value in itertools.islice(msg.raw_items(), MAX_HEADERS):
                self.raw.setdefault(str(key).lower(), str(value))
        except Exception:  # a malformed header block reads as what was read of it
            pass

    def __getitem__(self, name: str) -> str:
        """The decoded, cleaned value ("" when absent)."""
        if name not in self._decoded:
            raw = self.raw.get(name)
            self._decoded[name] = "" if raw is None else _clean(raw, HEADER_CHARS).strip()
        return self._decoded[name]

    def kept(self) -> dict[str, str]:
        """The first `KEPT_HEADERS` names and those the service reads, decoded and cleaned
        (names cleaned as well: they come from the mail too)."""
        names = [*itertools.islice(self.raw, KEPT_HEADERS), *(n for n in _WANTED if n in self.raw)]
        return {clean_header_text(n)[:200]: self[n] for n in dict.fromkeys(names)}


#: The subject of an absence notice that carries none of the headers below (a desktop Outlook's
#: rule, Exchange on its own premises, some providers' vacation notices), in the languages of
#: the players: `Automatische Antwort: [alpha] …`, `Fraværende: …`. Never the words of pbm's
#: own absence line (`Urlaub bis …`, `Abwesend bis …`, `Away until …`): those end in a date.
#: (`X-Auto-Response-Suppress` is no sign: Exchange puts it on ordinary mail too.)
_ABSENCE_SUBJECT = re.compile(
    r"\s*(?:automatische antwort|automatic reply|auto[- ]?reply|autoreply|out of (?:the )?office"
    r"(?: reply| notice)?|abwesenheitsnotiz|abwesenheitsnachricht|automatisk svar|autosvar"
    r"|fraværende|fraværsbesked|fraværsmeddelelse|réponse automatique|respuesta automática"
    r"|risposta automatica|automatisch antwoord)\s*:",
    re.IGNORECASE,
)
#: Values of `X-Autoreply` / `X-Autorespond` that say the mail is none.
_NOT_AUTO = frozenset(("no", "false", "0", "off"))


def no_reply_reason(headers: _Headers, content_type: str, sender: str, own_address: str) -> str:
    auto = headers["auto-submitted"].lower()
    if auto and auto != "no":
        return "auto-submitted"
    for name in ("x-autoreply", "x-autorespond"):
        value = headers[name].lower()
        if value and value not in _NOT_AUTO:
            return "auto-reply"
    absence = _ABSENCE_SUBJECT.match(headers["subject"])
    if absence and "[" in headers["subject"][absence.end() :]:
        # A notice answers one of pbm's mails, whose subjects carry the game's tag; a player
        # may head their own mail "Out of office: 3.–10. Mai" and write orders in it.
        return "absence notice"
    if headers["precedence"].lower() in ("bulk", "junk", "list", "auto_reply"):
        return "precedence"
    if headers["list-id"]:
        return "mailing list"
    if headers["x-pbm-loop"]:
        return "loop"
    if headers["return-path"] == "<>":
        return "bounce"
    if sender.lower().startswith(("mailer-daemon@", "postmaster@")):
        return "bounce"
    if content_type == "multipart/report":
        return "bounce"
    if own_address and sender.lower() == own_address.lower():
        return "own address"
    return ""


#: What an address we answer to may look like: one mailbox, no spaces, quotes, brackets,
#: commas or control characters (a comma would make the answer go to a second address).
_ADDRESS = re.compile(r"[^\s@<>()\[\],;:\\\"\x00-\x1f\x7f]{1,64}@[A-Za-z0-9.-]{1,253}")


def _sender(headers: _Headers) -> str:
    """The address to answer: From, else Reply-To; "" when neither is one valid mailbox.
    Read from the raw value: a display name decoded first could hold a comma."""
    for name in ("from", "reply-to"):
        raw = headers.raw.get(name, "")
        if len(raw) > ADDRESS_RAW_CHARS:
            return ""
        try:
            found = getaddresses([raw.strip()])
        except Exception:
            continue
        addresses = [a for _, a in found if a]
        if len(addresses) == 1:
            address = _clean(addresses[0], 320).strip().lower()
            if _ADDRESS.fullmatch(address):
                return address
            return ""
    return ""


def keep_raw(raw: bytes, max_bytes: int) -> tuple[bytes, bool]:
    """What to store of a mail: its first `max_bytes` bytes, and whether it was cut."""
    max_bytes = max(0, max_bytes)
    return raw[:max_bytes], len(raw) > max_bytes


def _head(raw: bytes) -> bytes:
    """The header block: the bytes up to the first blank line, at most `HEAD_BYTES`."""
    prefix = raw[:HEAD_BYTES]
    ends = [i for i in (prefix.find(b"\n\n"), prefix.find(b"\n\r\n")) if i >= 0]
    return prefix[: min(ends) + 1] if ends else prefix


#: A boundary parameter (also RFC 2231 `boundary*0*=`); every quantifier is bounded and no
#: two of them can take the same characters, so a search is linear in the mail's length.
_BOUNDARY = re.compile(
    rb"boundary(?:\*[0-9]{0,3}\*?)?[ \t\r\n]{0,20}=[ \t\r\n]{0,20}"
    rb"(?:\"([^\"\r\n]{0,200})|([^\s\";]{0,200}))",
    re.IGNORECASE,
)


def _boundaries(raw: bytes) -> set[bytes] | None:
    """The boundaries declared anywhere in the mail, as they stand at a line start (RFC 2231
    words percent-decoded); None when there are more than `MAX_BOUNDARIES`."""
    found: set[bytes] = set()
    for m in _BOUNDARY.finditer(raw):
        value = m.group(1) if m.group(1) is not None else m.group(2)
        if b"'" in value:  # RFC 2231: charset'language'percent-encoded
            value = urllib.parse.unquote_to_bytes(value.rsplit(b"'", 1)[-1])
        # A prefix still finds the lines (up to a space or a quoted-pair backslash, which
        # this scan does not unfold); an empty boundary makes every `--` line one.
        found.add(re.split(rb"[ \t\\]", value, maxsplit=1)[0])
        if len(found) > MAX_BOUNDARIES:
            return None
    return found


def _lines_starting(raw: bytes, prefix: bytes, bare_cr: bool) -> int:
    """How many lines start with `prefix` (after LF or CRLF, and after a bare CR if the mail
    has any: the parser takes each as a line end)."""
    return (
        raw.count(b"\n" + prefix)
        + (raw.count(b"\r" + prefix) if bare_cr else 0)
        + raw.startswith(prefix)
    )


def too_many_parts(raw: bytes) -> bool:
    """Whether the mail has more than `MAX_PARTS` MIME parts, told without parsing it (the
    parser takes seconds for 200,000 parts): first the lines that start with `--` at all
    (counted at C speed, enough for nearly every mail), then those that start with `--` and
    a declared boundary. More than `MAX_BOUNDARIES` declared boundaries with that many `--`
    lines is taken as a bomb without counting further (each count is a pass over the mail)."""
    bare_cr = raw.count(b"\r") > raw.count(b"\r\n")
    if _lines_starting(raw, b"--", bare_cr) <= MAX_PARTS:
        return False
    boundaries = _boundaries(raw)
    if boundaries is None:
        return True
    lines = 0
    for boundary in boundaries:
        lines += _lines_starting(raw, b"--" + boundary, bare_cr)
        if lines > MAX_PARTS:
            return True
    return False


def parse_inbound(raw: bytes, own_address: str = "", max_bytes: int | None = None) -> Inbound:
    """What the service needs of a mail. Never raises: a mail the parser cannot read at all
    (nested past the recursion limit, say) comes back with its content-derived id, no sender
    and no text, and is stored and answered by nobody.

    A mail longer than `max_bytes`, or with more than `MAX_PARTS` MIME parts, is read only
    as far as its header block, and comes back `refused` with no text."""
    content_id = f"<sha256-{hashlib.sha256(raw).hexdigest()[:32]}@pbm.local>"
    try:
        refused = ""
        if max_bytes is not None and len(raw) > max_bytes:
            refused = "too_big"
        elif too_many_parts(raw):
            refused = "too_many_parts"
        if refused:
            msg = BytesHeaderParser(policy=_POLICY).parsebytes(_head(raw))
        else:
            msg = email.message_from_bytes(raw, policy=_POLICY)
        headers = _Headers(msg)
        # A mail without an id gets one from its content: the same bytes are the same mail.
        mid = headers["message-id"][:ID_CHARS].strip() or content_id
        sender = _sender(headers)
        subject = headers["subject"][:SUBJECT_CHARS]
        try:
            content_type = msg.get_content_type()
        except Exception:
            content_type = ""
        reason = no_reply_reason(headers, content_type, sender, own_address) or (
            "" if sender else "no sender"
        )
        kept = headers.kept()
        received = received_date(headers.raw.get("received", ""))
    except Exception:  # RecursionError included
        return Inbound(content_id, "", "", "", "unreadable")
    text = ""
    attached = encrypted = False
    if not refused:
        try:
            text = body_text(msg).replace("\x00", "")
            encrypted = is_encrypted(msg, text)
            attached = not encrypted and _has_attachments(msg)
        except Exception:  # RecursionError included
            text = ""
    return Inbound(mid, sender, subject, text, reason, kept, refused, received, attached, encrypted)


def received_date(value: str) -> datetime | None:
    """The date of a `Received:` field: what follows its last `;` (RFC 5322), in UTC."""
    cut = value.rfind(";")
    if cut < 0 or len(value) - cut > 200:
        return None
    try:
        when = parsedate_to_datetime(value[cut + 1 :].strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)


def head_sender(head: bytes) -> str:
    """The address to answer of a mail's header block alone (as `parse_inbound` finds it):
    for putting mails in order before they are fetched whole."""
    try:
        msg = BytesHeaderParser(policy=_POLICY).parsebytes(head[:HEAD_BYTES])
        return _sender(_Headers(msg))
    except Exception:
        return ""


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
    from email.header import decode_header, make_header

    try:
        parts = decode_header(value)
    except Exception:
        return value
    try:
        return str(make_header(parts))
    except Exception:
        # A word in a charset Python does not know (`x-mac-roman`) or bytes it does not fit:
        # every other word is still decoded, that one as UTF-8 or windows-1252.
        return "".join(_decoded_word(data, charset) for data, charset in parts)


def _decoded_word(data: bytes | str, charset: str | None) -> str:
    if isinstance(data, str):
        return data
    for cs in (charset or "ascii", "utf-8", "windows-1252"):
        try:
            return data.decode(cs)
        except (LookupError, UnicodeDecodeError):
            continue
    return data.decode("utf-8", "replace")


__all__ = [
    "MAX_PARTS",
    "EmailMessage",
    "Inbound",
    "body_text",
    "clean_header_text",
    "head_sender",
    "html_to_text",
    "keep_raw",
    "parse_inbound",
    "received_date",
    "signed_mail",
    "too_many_parts",
]
