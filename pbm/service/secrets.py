"""Passwords (only their hashes are stored), per-player secrets, and keeping passwords out of
what is stored.

A password is the seat's colour and five pairs of syllables, `blau-kadu-mepi-rosa-tule-wibo`:
ten syllables drawn from 80 give 63 bits, easy to type on a phone and beyond guessing by mail.
The colour in front says which seat the password is for, so a mail costs one hash check.
"""

from __future__ import annotations

import base64
import contextlib
import email
import email.policy
import hashlib
import hmac
import os
import re
import secrets
from collections import OrderedDict
from collections.abc import Iterable
from email.message import Message

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

# Hashes are argon2id PHC strings (`$argon2id$v=19$m=8192,t=1,p=1$salt$hash`): the string
# carries its parameters, so changing them rehashes each password at its next right use
# (`needs_rehash`). 8 MiB, 1 pass, 1 lane cost about 6 ms here. The passwords are pbm's own, 63
# random bits each: a stolen hash would take 2^62 checks on average, so a slow hash adds nothing
# there, while its cost is paid by every seat's first mail in a process and by every wrong
# guess (a flood of wrong passwords is CPU the service spends). OWASP's minimum for passwords
# people choose (19 MiB, 2 passes) cost 20-50 ms a check and capped the first mails at about 20
# a second (docs/security.md, "Password hashes"). One lane: a check takes one core.
_HASHER = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)

# The format before argon2 (`scrypt$<salt>$<key>`, base64, N=2**13, r=8, p=1): still verified,
# and replaced at the next right password.
_LEGACY = "scrypt"
_N, _R, _P = 2**13, 8, 1

#: Pairs (stored hash, password) verified in this process, as keyed digests: a player's later
#: mails skip the hashing work. Only successes are kept, so every wrong guess pays full price;
#: the key is per process, so the digests are worthless outside it.
_VERIFIED: OrderedDict[bytes, None] = OrderedDict()
_VERIFIED_MAX = 20000
_PROCESS_KEY = os.urandom(32)


_CONSONANTS = "bdfghklmnprstvwz"
_VOWELS = "aeiou"
#: Syllable pairs in a password: 10 syllables of 80 = 63.2 bits.
PASSWORD_GROUPS = 5
PASSWORD_BITS = PASSWORD_GROUPS * 2 * 6.32


def _syllable() -> str:
    return secrets.choice(_CONSONANTS) + secrets.choice(_VOWELS)


def new_password(colour: str) -> str:
    """The colour (plain ASCII, the seat's tag) and five groups of two syllables, e.g.
    `blau-kadu-mepi-rosa-tule-wibo`."""
    groups = ["".join(_syllable() for _ in range(2)) for _ in range(PASSWORD_GROUPS)]
    return "-".join([colour, *groups])


#: Dashes a phone or a word processor puts where the player typed `-`.
_DASHES = str.maketrans({"‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-"})


def normalized(password: str) -> str:
    """What is hashed and compared: a phone's capital first letter and its dashes forgiven."""
    return password.strip().translate(_DASHES).lower()


def colour_tag(password: str) -> str:
    """The part before the first dash: the seat's colour in passwords pbm makes."""
    return normalized(password).split("-", 1)[0]


def hash_password(password: str) -> str:
    """An argon2id PHC string of the normalized password, with a new salt."""
    return _HASHER.hash(normalized(password))


def needs_rehash(stored: str) -> bool:
    """Whether a hash that verified is in an old format or has other parameters than
    `hash_password` uses now: it is then replaced while the password is at hand."""
    if not stored.startswith("$argon2"):
        return True
    try:
        return _HASHER.check_needs_rehash(stored)
    except InvalidHashError:
        return True


def verify_password(password: str, stored: str) -> bool:
    """Whether a candidate is the password of a stored hash (argon2id, or the old scrypt
    format), compared in constant time."""
    candidate = normalized(password).encode()
    seen = hmac.new(_PROCESS_KEY, stored.encode() + b"\0" + candidate, hashlib.sha256).digest()
    if seen in _VERIFIED:
        _VERIFIED.move_to_end(seen)
        return True
    good = _check(candidate, stored)
    if good:
        _VERIFIED[seen] = None
        if len(_VERIFIED) > _VERIFIED_MAX:
            _VERIFIED.popitem(last=False)
    return good


def _check(candidate: bytes, stored: str) -> bool:
    """The hashing work: one argon2 or scrypt derivation. A damaged hash verifies nothing."""
    if stored.startswith("$argon2"):
        try:
            return _HASHER.verify(stored, candidate)
        except (VerificationError, InvalidHashError):
            return False
    try:
        scheme, salt_b64, key_b64 = stored.split("$")
    except ValueError:
        return False
    if scheme != _LEGACY:
        return False
    try:
        salt, key = base64.b64decode(salt_b64), base64.b64decode(key_b64)
        # The standard library's scrypt (OpenSSL's): the same derivation as before, without
        # loading `cryptography` into every process that checks a password.
        derived = hashlib.scrypt(candidate, salt=salt, n=_N, r=_R, p=_P, dklen=32)
    except ValueError:  # a damaged stored hash (bad base64)
        return False
    return hmac.compare_digest(derived, key)


def new_secret() -> str:
    """A per-player secret (hex), from which the dev-card codebook is derived."""
    return secrets.token_hex(32)


MASK = "****"
#: Shorter values on a password line are not masked: replacing every "ja" in a stored mail
#: would garble it, and pbm's passwords are far longer.
MIN_MASKED = 6

#: A password line anywhere in a line (also quoted, also "Dein Kennwort: …" from a quoted
#: welcome mail): the keyword, a separator, the value up to a blank, comma or semicolon.
_PASSWORD_LINE = re.compile(
    r"(?i)\b(?:kennwort|passwort|password|pw)(?:\s*+[:=]\s*+|\s++)"
    r"(?P<value>[^\s,;]++)"
)
#: Characters of a line looked at for a password line (lines are capped before parsing).
_SCAN_CHARS = 300


def password_values(*texts: str) -> set[str]:
    """Every value written on a password line in these texts (body, subject), right or wrong:
    what must not stay in the stored mail. Linear in the texts' length."""
    found: set[str] = set()
    for text in texts:
        for line in text.splitlines():
            for m in _PASSWORD_LINE.finditer(line[:_SCAN_CHARS]):
                value = m.group("value").strip("\"'()[]<>.")
                if len(value) >= MIN_MASKED:
                    found.add(value)
    return found


def _maskable(values: Iterable[str]) -> list[str]:
    # Longest first: a value that contains another is masked whole.
    return sorted({v for v in values if len(v) >= MIN_MASKED}, key=len, reverse=True)


def masked(text: str, *passwords: str) -> str:
    """The text with every literal occurrence of the passwords replaced by ****."""
    for value in _maskable(passwords):
        text = text.replace(value, MASK)
    return text


def masked_raw(raw: bytes, passwords: Iterable[str] | str, deep: bool = True) -> bytes:
    """A stored mail's bytes without the passwords. Literal occurrences go first (a plain-text
    order mail); with `deep`, the mail is then read part by part, and a text part or a
    subject that still holds one in an encoding (base64, quoted-printable with a soft break
    inside the password, RFC 2047) is written anew without it."""
    values = _maskable([passwords] if isinstance(passwords, str) else passwords)
    if not values:
        return raw
    for value in values:
        for encoding in ("utf-8", "latin-1"):
            with contextlib.suppress(UnicodeEncodeError):
                raw = raw.replace(value.encode(encoding), MASK.encode())
    if not deep:
        return raw
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        if not _mask_parts(msg, values):
            return raw
        return msg.as_bytes()
    except Exception:  # a mail the library cannot write back: keep its headers only
        head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
        return head + b"\n\n[pbm: body removed, it held a password pbm could not mask]\n"


def _mask_parts(msg: Message, values: list[str]) -> bool:
    """Write anew each text part and the subject that still hold a value; True if any did."""
    from email.header import decode_header, make_header

    changed = False
    subject = msg.get("Subject")
    if subject is not None:
        text = str(make_header(decode_header(str(subject))))
        if any(v in text for v in values):
            del msg["Subject"]
            msg["Subject"] = masked(text, *values)
            changed = True
    for part in msg.walk():
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            continue
        charset = part.get_content_charset() or "utf-8"
        try:
            text = payload.decode(charset, "replace")
        except LookupError:
            text = payload.decode("utf-8", "replace")
        if any(v in text for v in values):
            del part["Content-Transfer-Encoding"]
            part.set_payload(masked(text, *values), charset="utf-8")
            changed = True
    return changed
