"""What an S/MIME `application/pkcs7-mime` part holds: the mail a client signed "opaque" (the
signed text inside the signature, as Outlook sends it when "clear text signed" is off), or a
mail encrypted for its recipient, which nobody but that recipient's key can read.

The signature is not checked: a `multipart/signed` mail is read by its text part unchecked as
well, and a password in the text is what proves the sender. Only as much of CMS (RFC 5652) is
read as finds the content: BER's indefinite lengths and chunked octet strings included, as
streaming signers write them.
"""

from __future__ import annotations

from typing import Literal

#: OIDs of a CMS ContentInfo's type (DER-encoded, without tag and length).
_SIGNED_DATA = bytes.fromhex("2a864886f70d010702")  # 1.2.840.113549.1.7.2
_ENVELOPED_DATA = bytes.fromhex("2a864886f70d010703")  # 1.2.840.113549.1.7.3
_AUTH_ENVELOPED_DATA = bytes.fromhex("2a864886f70d0109100117")  # 1.2.840.113549.1.9.16.1.23

#: How deep the structure is read: a content info holds its content three levels down; more
#: nesting than this is no mail a client wrote.
_MAX_DEPTH = 12

Kind = Literal["signed", "encrypted", "unknown"]


class _Malformed(ValueError):
    pass


def _header(data: bytes, pos: int) -> tuple[int, int, int | None]:
    """The tag byte at `pos`, where its content starts, and its length (None: indefinite)."""
    if pos + 2 > len(data):
        raise _Malformed("cut short")
    tag = data[pos]
    if tag & 0x1F == 0x1F:
        raise _Malformed("high tag number")  # CMS's own tags are all low numbers
    first = data[pos + 1]
    pos += 2
    if first < 0x80:
        return tag, pos, first
    if first == 0x80:
        if not tag & 0x20:
            raise _Malformed("indefinite primitive")
        return tag, pos, None
    count = first & 0x7F
    if count > 4 or pos + count > len(data):
        raise _Malformed("length")
    return tag, pos + count, int.from_bytes(data[pos : pos + count], "big")


def _element(data: bytes, pos: int, depth: int = 0) -> tuple[int, int, int, int]:
    """The element at `pos`: its tag, its content's start and end, and where the next
    element starts."""
    if depth > _MAX_DEPTH:
        raise _Malformed("too deep")
    tag, start, length = _header(data, pos)
    if length is not None:
        end = start + length
        if end > len(data):
            raise _Malformed("cut short")
        return tag, start, end, end
    # Indefinite: the children up to the end-of-contents octets (00 00).
    at = start
    while True:
        if at + 2 > len(data):
            raise _Malformed("no end of contents")
        if data[at] == 0 and data[at + 1] == 0:
            return tag, start, at, at + 2
        at = _element(data, at, depth + 1)[3]


def _children(
    data: bytes, start: int, end: int, depth: int, most: int
) -> list[tuple[int, int, int]]:
    """The first `most` elements inside a constructed element's content: tag, content start
    and end (a step reads only the few it needs: a sequence of millions of empty elements
    costs nothing past them)."""
    out: list[tuple[int, int, int]] = []
    at = start
    while at < end and len(out) < most:
        tag, cstart, cend, at = _element(data, at, depth)
        out.append((tag, cstart, cend))
    return out


#: The chunks of a content streamed in pieces (BER): a signer writes pieces of a kilobyte
#: or more, so a mail of `max_stored_kb` holds far fewer.
_MAX_CHUNKS = 20_000


def _octets(data: bytes, tag: int, start: int, end: int, depth: int) -> bytes:
    """An OCTET STRING's bytes: primitive, or constructed of chunks (BER)."""
    if tag == 0x04:
        return data[start:end]
    if tag != 0x24 or depth > _MAX_DEPTH:
        raise _Malformed("no octet string")
    chunks = _children(data, start, end, depth, _MAX_CHUNKS + 1)
    if len(chunks) > _MAX_CHUNKS:
        raise _Malformed("too many chunks")
    return b"".join(_octets(data, *chunk, depth + 1) for chunk in chunks)


def _content_info(data: bytes) -> tuple[bytes, tuple[int, int]]:
    """The content type's OID and the span of the `[0]` content of a ContentInfo."""
    tag, start, end, _ = _element(data, 0)
    if tag != 0x30:
        raise _Malformed("no sequence")
    parts = _children(data, start, end, 1, 2)
    if len(parts) < 2 or parts[0][0] != 0x06 or parts[1][0] != 0xA0:
        raise _Malformed("no content info")
    return data[parts[0][1] : parts[0][2]], (parts[1][1], parts[1][2])


def read_pkcs7(data: bytes) -> tuple[Kind, bytes]:
    """What a DER/BER-encoded CMS ContentInfo is: ("signed", the MIME entity it signed),
    ("encrypted", b"") or ("unknown", b"") (broken, or a kind no mail client sends)."""
    try:
        oid, (start, end) = _content_info(data)
        if oid in (_ENVELOPED_DATA, _AUTH_ENVELOPED_DATA):
            return "encrypted", b""
        if oid != _SIGNED_DATA:
            return "unknown", b""
        (signed,) = [c for c in _children(data, start, end, 2, 1) if c[0] == 0x30]
        # SignedData: version, digest algorithms, then the encapsulated content info.
        fields = _children(data, signed[1], signed[2], 3, 3)
        encap = next((f for f in fields if f[0] == 0x30), None)
        if encap is None:
            return "unknown", b""
        inner = _children(data, encap[1], encap[2], 4, 2)
        if len(inner) < 2 or inner[1][0] != 0xA0:
            return "unknown", b""  # detached: the content is not in here
        (octets,) = _children(data, inner[1][1], inner[1][2], 5, 1)
        return "signed", _octets(data, *octets, 6)
    except (_Malformed, ValueError):
        return "unknown", b""


#: The content types of an S/MIME part that holds a whole mail (RFC 8551, and the older `x-`).
PKCS7_MIME = frozenset(("application/pkcs7-mime", "application/x-pkcs7-mime"))
#: Parts that only sign or describe a key: never orders, never "an attachment not read".
SIGNATURE_PARTS = frozenset(
    (
        "application/pkcs7-signature",
        "application/x-pkcs7-signature",
        "application/pgp-signature",
        "application/pgp-keys",
    )
)
#: PGP/MIME's encrypted mail (RFC 3156) and its parts.
PGP_ENCRYPTED = frozenset(("multipart/encrypted", "application/pgp-encrypted"))
