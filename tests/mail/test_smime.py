"""Signed and encrypted mail as real clients send it: an opaque S/MIME signature holds the
whole mail (read as that mail), a detached one or a key is no attachment, and an encrypted mail
(S/MIME, PGP/MIME, inline OpenPGP) is answered with what to do, never with "wrong password"
alone. The signatures are made here with `cryptography`, as a client makes them."""

from __future__ import annotations

import base64
import datetime
import time
from collections.abc import Iterator
from functools import cache

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs7
from cryptography.x509.oid import NameOID
from harness import Mailer, Table
from sqlmodel import Session, col, select

from pbm.mail.inbound import MAX_ENVELOPES, parse_inbound
from pbm.mail.smime import read_pkcs7
from pbm.service.ingest import ingest
from pbm.store.models import OrderSet, Outbox

GM = "gm@pbm.test"
SENDER = "anna@example.test"
ORDERS = "Kennwort: tulpe-482913\r\nStraße 6L 5L\r\n"


def _certificate(
    key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey, address: str
) -> x509.Certificate:
    """A self-signed certificate for `address`, as a client's own S/MIME certificate is."""
    name = x509.Name([x509.NameAttribute(NameOID.EMAIL_ADDRESS, address)])
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    return (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + datetime.timedelta(days=3650))
        .sign(key, hashes.SHA256())
    )


@cache
def _signer() -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    return _certificate(key, SENDER), key


@cache
def _recipient() -> x509.Certificate:
    """The GM's certificate (RSA: what S/MIME encryption takes)."""
    return _certificate(rsa.generate_private_key(public_exponent=65537, key_size=2048), GM)


def _entity(text: str = ORDERS) -> bytes:
    return f'Content-Type: text/plain; charset="utf-8"\r\n\r\n{text}'.encode()


def _signed_der(entity: bytes) -> bytes:
    cert, key = _signer()
    return (
        pkcs7.PKCS7SignatureBuilder()
        .set_data(entity)
        .add_signer(cert, key, hashes.SHA256())
        .sign(serialization.Encoding.DER, [pkcs7.PKCS7Options.Binary])
    )


def _p7m_mail(
    der: bytes, smime_type: str = "signed-data", ctype: str = "application/pkcs7-mime"
) -> bytes:
    body = base64.encodebytes(der).decode().replace("\n", "\r\n")
    return (
        f"From: Anna <{SENDER}>\r\nTo: {GM}\r\nSubject: Züge\r\n"
        "Message-ID: <smime-test@example.test>\r\nMIME-Version: 1.0\r\n"
        f'Content-Type: {ctype}; smime-type={smime_type}; name="smime.p7m"\r\n'
        'Content-Disposition: attachment; filename="smime.p7m"\r\n'
        f"Content-Transfer-Encoding: base64\r\n\r\n{body}"
    ).encode()


# -- BER, as streaming signers write it ---------------------------------------------------------


def _tlv(tag: int, content: bytes) -> bytes:
    n = len(content)
    if n < 0x80:
        return bytes([tag, n]) + content
    size = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(size)]) + size + content


def _indefinite(tag: int, *children: bytes) -> bytes:
    return bytes([tag, 0x80]) + b"".join(children) + b"\x00\x00"


_OID_SIGNED = _tlv(0x06, bytes.fromhex("2a864886f70d010702"))
_OID_DATA = _tlv(0x06, bytes.fromhex("2a864886f70d010701"))


def _ber_signed(entity: bytes, chunk: int = 7) -> bytes:
    """A SignedData in BER with indefinite lengths and the content in chunks (no signer: the
    signature is not what is read)."""
    chunks = [_tlv(0x04, entity[i : i + chunk]) for i in range(0, len(entity), chunk)]
    encap = _indefinite(0x30, _OID_DATA, _indefinite(0xA0, _indefinite(0x24, *chunks)))
    signed = _indefinite(0x30, _tlv(0x02, b"\x01"), _tlv(0x31, b""), encap, _tlv(0x31, b""))
    return _indefinite(0x30, _OID_SIGNED, _indefinite(0xA0, signed))


# -- reading ------------------------------------------------------------------------------------


def test_an_opaque_signature_is_read_as_the_mail_it_holds() -> None:
    inbound = parse_inbound(_p7m_mail(_signed_der(_entity())), GM)
    assert inbound.text.splitlines() == ORDERS.splitlines()
    # The signature is no attachment, and nothing is encrypted.
    assert (inbound.attachments, inbound.encrypted) == (False, False)
    # The old `x-` content type of older clients.
    old = parse_inbound(_p7m_mail(_signed_der(_entity()), ctype="application/x-pkcs7-mime"), GM)
    assert old.text == inbound.text


def test_ber_with_indefinite_lengths_and_chunks_is_read() -> None:
    entity = _entity("Kennwort: tulpe-482913\r\nStraße 6L 5L\r\n" + "Grüße\r\n" * 40)
    assert read_pkcs7(_ber_signed(entity)) == ("signed", entity)
    inbound = parse_inbound(_p7m_mail(_ber_signed(entity)), GM)
    assert "Straße 6L 5L" in inbound.text.splitlines()


def test_a_signature_inside_a_signature_is_read_up_to_the_limit() -> None:
    entity = _entity()
    for _ in range(MAX_ENVELOPES):
        der = _signed_der(entity)
        entity = (
            b"Content-Type: application/pkcs7-mime; smime-type=signed-data\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n" + base64.encodebytes(der)
        )
    # MAX_ENVELOPES signatures around the text: read.
    assert "Straße 6L 5L" in parse_inbound(_p7m_mail(der), GM).text
    # One more: no text, no error.
    assert parse_inbound(_p7m_mail(_signed_der(entity)), GM).text == ""


@pytest.mark.parametrize(
    "der",
    [
        b"",
        b"\x30",
        b"\x30\x84\xff\xff\xff\xff",  # a length past the end
        b"\x30\x80" * 5000,  # indefinite nesting without end
        bytes(range(256)) * 4,
        _tlv(0x30, _OID_DATA + _tlv(0xA0, _tlv(0x04, b"x"))),  # plain data: no signature
    ],
    ids=["empty", "tag-only", "long-length", "deep", "noise", "data"],
)
def test_a_broken_signature_is_no_text_and_no_error(der: bytes) -> None:
    started = time.process_time()
    inbound = parse_inbound(_p7m_mail(der), GM)
    assert (inbound.text, inbound.encrypted, inbound.attachments) == ("", False, False)
    assert inbound.sender == SENDER
    assert time.process_time() - started < 1.0


def test_a_cut_signature_is_no_text() -> None:
    der = _signed_der(_entity())
    for cut in (len(der) // 3, len(der) // 2, len(der) - 1):
        assert parse_inbound(_p7m_mail(der[:cut]), GM).text == ""


def test_a_part_bomb_inside_a_signature_is_never_parsed() -> None:
    parts = "".join("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(5000))
    bomb = f'Content-Type: multipart/mixed; boundary="b"\r\n\r\n{parts}--b--\r\n'.encode()
    started = time.process_time()
    inbound = parse_inbound(_p7m_mail(_signed_der(bomb)), GM)
    assert inbound.text == ""
    assert time.process_time() - started < 1.0


def test_detached_signatures_and_keys_are_no_attachments() -> None:
    cert, key = _signer()
    entity = _entity()
    signed = (
        pkcs7.PKCS7SignatureBuilder()
        .set_data(entity)
        .add_signer(cert, key, hashes.SHA256())
        .sign(serialization.Encoding.SMIME, [pkcs7.PKCS7Options.DetachedSignature])
    )
    # `multipart/signed` with `smime.p7s` as an attachment (Apple Mail, Thunderbird).
    head = f"From: {SENDER}\r\nTo: {GM}\r\nSubject: Züge\r\n".encode()
    inbound = parse_inbound(head + signed, GM)
    assert "Straße 6L 5L" in inbound.text.splitlines()
    assert (inbound.attachments, inbound.encrypted) == (False, False)
    # PGP/MIME signed, with the sender's key attached (Thunderbird's "attach my public key").
    b = "pgp-b"
    pgp = (
        f"From: {SENDER}\r\nTo: {GM}\r\nSubject: Züge\r\nMIME-Version: 1.0\r\n"
        f'Content-Type: multipart/signed; micalg=pgp-sha256; protocol="application/pgp-'
        f'signature"; boundary="{b}"\r\n\r\n'
        f"--{b}\r\nContent-Type: multipart/mixed; boundary=inner\r\n\r\n"
        f"--inner\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{ORDERS}\r\n"
        "--inner\r\nContent-Type: application/pgp-keys; name=OpenPGP_0xABCD.asc\r\n"
        'Content-Disposition: attachment; filename="OpenPGP_0xABCD.asc"\r\n\r\n'
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\r\nxx\r\n-----END PGP PUBLIC KEY BLOCK-----\r\n"
        "--inner--\r\n\r\n"
        f"--{b}\r\nContent-Type: application/pgp-signature; name=OpenPGP_signature.asc\r\n"
        'Content-Disposition: attachment; filename="OpenPGP_signature.asc"\r\n\r\n'
        "-----BEGIN PGP SIGNATURE-----\r\nxx\r\n-----END PGP SIGNATURE-----\r\n"
        f"--{b}--\r\n"
    ).encode()
    inbound = parse_inbound(pgp, GM)
    assert "Straße 6L 5L" in inbound.text.splitlines()
    assert (inbound.attachments, inbound.encrypted) == (False, False)
    # A real attachment beside the signature still counts as one.
    pdf = pgp.replace(b"application/pgp-keys", b"application/pdf")
    assert parse_inbound(pdf, GM).attachments


def _smime_encrypted() -> bytes:
    der = (
        pkcs7.PKCS7EnvelopeBuilder()
        .set_data(_entity())
        .add_recipient(_recipient())
        .encrypt(serialization.Encoding.DER, [])
    )
    return _p7m_mail(der, smime_type="enveloped-data")


def _pgp_mime_encrypted() -> bytes:
    b = "enc-b"
    return (
        f"From: {SENDER}\r\nTo: {GM}\r\nSubject: Züge\r\nMIME-Version: 1.0\r\n"
        f'Content-Type: multipart/encrypted; protocol="application/pgp-encrypted"; '
        f'boundary="{b}"\r\n\r\n'
        f"--{b}\r\nContent-Type: application/pgp-encrypted\r\n\r\nVersion: 1\r\n\r\n"
        f"--{b}\r\nContent-Type: application/octet-stream; name=encrypted.asc\r\n"
        'Content-Disposition: inline; filename="encrypted.asc"\r\n\r\n'
        "-----BEGIN PGP MESSAGE-----\r\n\r\nhQEMA\r\n-----END PGP MESSAGE-----\r\n"
        f"--{b}--\r\n"
    ).encode()


def _inline_pgp_encrypted() -> bytes:
    return (
        f"From: {SENDER}\r\nTo: {GM}\r\nSubject: Züge\r\n\r\n"
        "-----BEGIN PGP MESSAGE-----\r\n\r\nhQEMA\r\n-----END PGP MESSAGE-----\r\n"
    ).encode()


ENCRYPTED = {
    "smime": _smime_encrypted,
    "pgp-mime": _pgp_mime_encrypted,
    "inline-pgp": _inline_pgp_encrypted,
}


@pytest.mark.parametrize("kind", sorted(ENCRYPTED))
def test_an_encrypted_mail_is_known_as_such(kind: str) -> None:
    inbound = parse_inbound(ENCRYPTED[kind](), GM)
    assert inbound.encrypted
    assert not inbound.attachments
    assert "Straße" not in inbound.text


def test_a_smime_type_that_lies_is_read_by_what_the_part_holds() -> None:
    # Labelled encrypted, holding a signed mail: the label says enveloped, so it is taken at
    # its word (a client that labels it so could not read it back either); and the reverse.
    signed_as_enveloped = _p7m_mail(_signed_der(_entity()), smime_type="enveloped-data")
    assert parse_inbound(signed_as_enveloped, GM).encrypted
    der = _smime_encrypted().split(b"\r\n\r\n", 1)[1]
    enveloped_as_signed = _p7m_mail(base64.decodebytes(der), smime_type="signed-data")
    assert parse_inbound(enveloped_as_signed, GM).encrypted


def test_orders_above_a_quoted_pgp_message_are_not_encrypted() -> None:
    raw = (
        f"From: {SENDER}\r\nTo: {GM}\r\nSubject: Züge\r\n\r\n{ORDERS}\r\n"
        "> -----BEGIN PGP MESSAGE-----\r\n> hQEMA\r\n"
    ).encode()
    inbound = parse_inbound(raw, GM)
    assert not inbound.encrypted
    assert "Straße 6L 5L" in inbound.text.splitlines()


# -- through the service ------------------------------------------------------------------------


@pytest.fixture
def table(games: object) -> Iterator[Table]:
    yield games.start(cast=False)  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", sorted(ENCRYPTED))
def test_an_encrypted_mail_is_answered_with_what_to_do(
    mailer: Mailer, table: Table, kind: str
) -> None:
    svc = mailer.svc
    player = table.addresses[0]
    raw = ENCRYPTED[kind]().replace(SENDER.encode(), player.encode())
    raw = raw.replace(b"Subject: Z\xc3\xbcge", f"Subject: [{table.name}] Züge".encode())
    with Session(svc.engine) as s:
        before = len(list(s.exec(select(OrderSet))))
    result = ingest(svc, raw)
    assert result.status == "done"
    with Session(svc.engine) as s:
        replies = list(s.exec(select(Outbox).order_by(col(Outbox.id).desc())))
        assert len(list(s.exec(select(OrderSet)))) == before, "nothing changed"
    reply = replies[0]
    assert reply.recipients == player
    assert "verschlüsselt" in reply.body and "unverschlüsselt" in reply.body
    assert "Kennwort fehlt" not in reply.body


def test_a_sequence_of_millions_of_elements_costs_no_more_than_its_bytes() -> None:
    """A hostile signature of 3.75 million empty elements (a 10 MB mail): only the few
    elements each step needs are read."""
    body = b"\x05\x00" * 3_750_000
    der = b"\x30\x84" + len(body).to_bytes(4, "big") + body
    started = time.process_time()
    inbound = parse_inbound(_p7m_mail(der), GM)
    assert (inbound.text, inbound.encrypted) == ("", False)
    assert time.process_time() - started < 5.0


def test_an_encrypted_file_forwarded_beside_readable_orders_is_no_encrypted_mail() -> None:
    encrypted = _smime_encrypted().split(b"\r\n\r\n", 1)[1].decode()
    raw = (
        f"From: {SENDER}\r\nTo: {GM}\r\nSubject: Züge\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/mixed; boundary="m"\r\n\r\n'
        f"--m\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{ORDERS}\r\n"
        '--m\r\nContent-Type: application/pkcs7-mime; smime-type=enveloped-data; name="x.p7m"\r\n'
        'Content-Disposition: attachment; filename="x.p7m"\r\n'
        f"Content-Transfer-Encoding: base64\r\n\r\n{encrypted}\r\n--m--\r\n"
    ).encode()
    inbound = parse_inbound(raw, GM)
    assert not inbound.encrypted
    assert "Straße 6L 5L" in inbound.text.splitlines()


@pytest.mark.parametrize(
    "entity",
    [
        # The password in a part the service did not read, in the signed mail only.
        'Content-Type: multipart/alternative; boundary="q"\r\n\r\n--q\r\nContent-Type: '
        "text/plain\r\n\r\nStraße 6L 5L\r\n--q\r\nContent-Type: text/html\r\n\r\n"
        "<p>Kennwort: {pw}</p>\r\n--q--\r\n",
        'Content-Type: multipart/mixed; boundary="q"\r\n\r\n--q\r\nContent-Type: text/plain'
        "\r\n\r\nStraße 6L 5L\r\n--q\r\nContent-Type: text/plain\r\nContent-Disposition: "
        "attachment; filename=a.txt\r\n\r\nmy pw {pw}\r\n--q--\r\n",
        "Subject: Kennwort {pw}\r\nContent-Type: text/plain\r\n\r\nStraße 6L 5L\r\n",
    ],
    ids=["html", "attachment", "subject"],
)
def test_no_password_survives_in_the_stored_copy_of_a_signed_mail(entity: str) -> None:
    import email as email_package

    from pbm.service.secrets import masked_raw, new_password

    password = new_password("rot")
    raw = _p7m_mail(_signed_der(entity.format(pw=password).encode()))
    for given in ([password], []):
        stored = masked_raw(raw, given)
        parts = email_package.message_from_bytes(stored).walk()
        decoded = b"".join(p.get_payload(decode=True) or b"" for p in parts if not p.is_multipart())
        assert password.split("-", 1)[1].encode() not in stored + decoded
        assert "Straße 6L 5L" in parse_inbound(stored, GM).text
