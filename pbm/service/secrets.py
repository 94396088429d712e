"""Passwords (only their scrypt hashes are stored) and per-player secrets."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from collections import OrderedDict

from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

# scrypt cost 2**13 (~15 ms here): a player's first mail in a process checks one password.
# What makes online guessing slow is this cost per wrong guess (answers to an address stop
# after five wrong passwords an hour, the guessing itself is not refused).
_N, _R, _P = 2**13, 8, 1

#: Pairs (stored hash, password) verified in this process, as keyed digests: a player's later
#: mails skip the scrypt work. Only successes are kept, so every wrong guess pays full price;
#: the key is per process, so the digests are worthless outside it.
_VERIFIED: OrderedDict[bytes, None] = OrderedDict()
_VERIFIED_MAX = 20000
_PROCESS_KEY = os.urandom(32)


def new_password(colour: str) -> str:
    """Easy to type from a phone: the colour and six digits, e.g. `blau-739104`."""
    return f"{colour}-{secrets.randbelow(900000) + 100000}"


def hash_password(password: str) -> str:
    salt = os.urandom(16)
    key = Scrypt(salt=salt, length=32, n=_N, r=_R, p=_P).derive(password.encode())
    return "scrypt$" + base64.b64encode(salt).decode() + "$" + base64.b64encode(key).decode()


def verify_password(password: str, stored: str) -> bool:
    """Constant-time comparison of a candidate against a stored hash."""
    try:
        scheme, salt_b64, key_b64 = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    candidate = password.strip().encode()
    seen = hmac.new(_PROCESS_KEY, stored.encode() + b"\0" + candidate, hashlib.sha256).digest()
    if seen in _VERIFIED:
        _VERIFIED.move_to_end(seen)
        return True
    try:
        key = Scrypt(salt=base64.b64decode(salt_b64), length=32, n=_N, r=_R, p=_P).derive(
            candidate)
        good = hmac.compare_digest(key, base64.b64decode(key_b64))
    except ValueError:  # a damaged stored hash (bad base64)
        return False
    if good:
        _VERIFIED[seen] = None
        if len(_VERIFIED) > _VERIFIED_MAX:
            _VERIFIED.popitem(last=False)
    return good


def new_secret() -> str:
    """A per-player secret (hex), from which the dev-card codebook is derived."""
    return secrets.token_hex(32)


MASK = "****"


def masked(text: str, password: str) -> str:
    """The text with every literal occurrence of the password replaced by ****."""
    return text.replace(password, MASK) if password else text


def masked_raw(raw: bytes, password: str) -> bytes:
    """The same for a stored mail's bytes, in the encodings a plain-text order mail uses.
    (A body in base64 or with quoted-printable line breaks inside the password keeps it.)"""
    if not password:
        return raw
    for encoding in ("utf-8", "latin-1"):
        try:
            raw = raw.replace(password.encode(encoding), MASK.encode())
        except UnicodeEncodeError:
            continue
    return raw
