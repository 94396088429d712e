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
from collections.abc import Callable, Iterable, Mapping
from email.message import Message
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pbm.mail.inbound import MAX_ENVELOPES, body_text, signed_mail
from pbm.mail.smime import PKCS7_MIME
from pbm.notation.vocab import COLOUR_SPELLINGS

# New hashes are a salted BLAKE2b in a PHC-like string, `$pbm-blake2b$v=1$<salt>$<hash>`
# (`hash_password`). The passwords are pbm's own, 63 random bits from `secrets`, never chosen
# by a person: a slow hash protects the passwords people choose (a dictionary, a pattern), and
# adds nothing measurable against 2^62 guesses on average (docs/security.md, "Password
# hashes", has the arithmetic). What a slow hash costs is paid by the service, for every seat's
# first mail in a process and for every wrong guess. If players are ever let choose their
# passwords, those get a slow KDF again.
_FAST = "$pbm-blake2b$v=1$"
#: BLAKE2b's personalisation: a hash of pbm's is no hash of anything else.
_PERSON = b"pbm-password"

# Hashes of before, still verified and replaced at the next right password (`needs_rehash`):
# argon2id PHC strings (`$argon2id$v=19$m=8192,t=1,p=1$salt$hash`, issue 20's parameters and
# OWASP's before them), and before argon2 `scrypt$<salt>$<key>` (N=2**13, r=8, p=1).
_HASHER = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
_LEGACY = "scrypt"
_N, _R, _P = 2**13, 8, 1

#: Pairs (stored hash of before, password) verified in this process, as keyed digests: a
#: player's later mails skip the hashing work until the hash is replaced. Only successes are
#: kept; the key is per process, so the digests are worthless outside it.
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
_DASHES_FROM = "‐‑‒–—−"
_DASHES = str.maketrans({dash: "-" for dash in _DASHES_FROM})


#: The colour of a password as the player writes it (`rød-…`, `weiß-…`, `grün-…`) is the one
#: pbm wrote in ASCII (`roed-…`, `weiss-…`, `gruen-…`, `signup.password_word`): folded so.
_LETTERS = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe", "å": "aa"}
)


def normalized(password: str) -> str:
    """What is hashed and compared: a phone's capital first letter and its dashes forgiven,
    and the colour's letters written as the game's language writes them (every password pbm
    made is ASCII, so its hash stays as it was)."""
    return password.strip().translate(_DASHES).lower().translate(_LETTERS)


def colour_tag(password: str) -> str:
    """The part before the first dash: the seat's colour in passwords pbm makes."""
    return normalized(password).split("-", 1)[0]


def hash_password(password: str) -> str:
    """`$pbm-blake2b$v=1$<salt>$<hash>` of the normalized password, with a new 16-byte salt
    (both unpadded base64, as PHC strings write them)."""
    salt = os.urandom(16)
    return f"{_FAST}{_b64(salt)}${_b64(_blake(normalized(password).encode(), salt))}"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)


def _blake(candidate: bytes, salt: bytes) -> bytes:
    return hashlib.blake2b(candidate, digest_size=32, salt=salt, person=_PERSON).digest()


def needs_rehash(stored: str) -> bool:
    """Whether a hash that verified is in a format of before (argon2id, scrypt): it is then
    replaced while the password is at hand."""
    return not stored.startswith(_FAST)


def verify_password(password: str, stored: str) -> bool:
    """Whether a candidate is the password of a stored hash (BLAKE2b, or argon2id or scrypt
    of before), compared in constant time."""
    candidate = normalized(password).encode()
    if stored.startswith(_FAST):
        # As cheap as remembering it: no cache.
        return _check_fast(candidate, stored)
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


def _check_fast(candidate: bytes, stored: str) -> bool:
    """One BLAKE2b over salt and password. A damaged hash verifies nothing."""
    try:
        salt_b64, hash_b64 = stored[len(_FAST) :].split("$")
        salt, key = _unb64(salt_b64), _unb64(hash_b64)
    except ValueError:  # binascii.Error is one
        return False
    if len(salt) != 16 or len(key) != 32:
        return False
    return hmac.compare_digest(_blake(candidate, salt), key)


def _check(candidate: bytes, stored: str) -> bool:
    """The hashing work of a hash of before: one argon2 or scrypt derivation. A damaged hash
    verifies nothing."""
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
    r"(?i)\b(?:kennwort|passwort|password|passwd|pwd|pw|adgangskode|kodeord)"
    r"(?:\s*+[:=]\s*+|\s++)"
    r"(?P<value>[^\s,;]++)"
)
#: Characters of a line looked at for a password line (lines are capped before parsing).
_SCAN_CHARS = 300


def password_values(*texts: str) -> set[str]:
    """Every value written on a password line in these texts (body, subject), right or wrong,
    and every password of pbm's shape written with blanks for its dashes (the reader takes
    it: `notation.headers.pbm_shaped`): what must not stay in the stored mail. Linear in the
    texts' length."""
    found: set[str] = set()
    for text in texts:
        for line in text.splitlines():
            for m in _PASSWORD_LINE.finditer(line[:_SCAN_CHARS]):
                value = m.group("value").strip("\"'()[]<>.")
                if len(value) >= MIN_MASKED:
                    found.add(value)
            found.update(m.group() for m in _SPACED_SHAPE.finditer(line[:_SCAN_CHARS]))
    return found


def _maskable(values: Iterable[str]) -> list[str]:
    # Longest first: a value that contains another is masked whole.
    return sorted({v for v in values if len(v) >= MIN_MASKED}, key=len, reverse=True)


#: Values replaced wherever they stand in a text or a stored mail: each costs a pass over it. A
#: player's mail has a password line or two; a mail of thousands (8,000 lines and a 5 MB
#: attachment took 62 s under the write lock) has these replaced, and every password line's
#: value masked where it stands, in one pass (`_lines_masked`).
MAX_VALUES = 16
#: A password line anywhere in a text or in a mail's bytes, for masking its value in place.
_PASSWORD_LINE_BYTES = re.compile(_PASSWORD_LINE.pattern.encode())


def _capped(values: Iterable[str]) -> tuple[list[str], bool]:
    """The values to replace wherever they stand (at most `MAX_VALUES`, longest first), and
    whether there were more (then every password line's value is masked in place too)."""
    maskable = _maskable(values)
    return maskable[:MAX_VALUES], len(maskable) > MAX_VALUES


def _lines_masked(text: str, mark: str = MASK) -> str:
    """Every password line's value masked where it stands: one pass, linear."""

    def value(m: re.Match[str]) -> str:
        shown = m.group("value").strip("\"'()[]<>.")
        if len(shown) < MIN_MASKED:
            return m.group(0)
        cut = m.start("value") - m.start()
        return m.group(0)[:cut] + m.group("value").replace(shown, mark)

    return _PASSWORD_LINE.sub(value, text)


def _lines_masked_bytes(raw: bytes) -> bytes:
    def value(m: re.Match[bytes]) -> bytes:
        shown = m.group("value").strip(b"\"'()[]<>.")
        if len(shown) < MIN_MASKED:
            return m.group(0)
        cut = m.start("value") - m.start()
        return m.group(0)[:cut] + m.group("value").replace(shown, MASK.encode())

    return _PASSWORD_LINE_BYTES.sub(value, raw)


def masked(text: str, *passwords: str) -> str:
    """The text with every literal occurrence of the passwords replaced by ****."""
    for value in _maskable(passwords):
        text = text.replace(value, MASK)
    return text


# -- passwords by their shape ---------------------------------------------------------------------
#
# A password pbm makes is found without a label: five pairs of syllables joined by dashes, with
# the seat's colour in front (any spelling of a colour's name, `vocab.COLOUR_SPELLINGS`, and the
# umlaut and Danish ones) or without it (the syllables are the whole secret: the colour adds
# nothing).
# The dashes may be the long ones a phone puts in (`_DASHES`). Case does not matter.

_COLOUR_WORDS = sorted(
    {*COLOUR_SPELLINGS, "weiß", "grün", "rød", "blå", "grøn"}, key=len, reverse=True
)
_COLOUR = "(?:" + "|".join(map(re.escape, _COLOUR_WORDS)) + ")"
_DASH = "[" + "".join(sorted({"-", *_DASHES_FROM})) + "]"
_GROUP = f"[{_CONSONANTS}][{_VOWELS}][{_CONSONANTS}][{_VOWELS}]"
#: A password pbm makes, or its syllables alone, in a text (also at the end of a longer word,
#: as in the stored bytes below). A fixed sequence of bounded parts: a try costs at most some
#: forty characters, so a scan is linear.
_SHAPE = re.compile(
    rf"(?i)(?:{_COLOUR}{_DASH})?{_GROUP}(?:{_DASH}{_GROUP}){{{PASSWORD_GROUPS - 1}}}(?!\w)"
)
#: The same with blanks where the dashes go (`rot kadu mepi rosa tule wibo`), or around them
#: (`rot - kadu - …`), or a mix, as a line holds it: masked as written (`password_values`,
#: `Masker`), whether the reader took it (blanks alone) or not.
_SPACED_SEP = rf"(?:[ \t\u00a0]*+{_DASH}[ \t\u00a0]*+|[ \t\u00a0]++)"
_SPACED_SHAPE = re.compile(
    rf"(?i)(?<!\w)(?:{_COLOUR}{_SPACED_SEP})?{_GROUP}"
    rf"(?:{_SPACED_SEP}{_GROUP}){{{PASSWORD_GROUPS - 1}}}(?!\w)"
)
#: A word that begins like a seat's password, a colour and a dash (also those of the six-digit
#: passwords before issue 20, which running games may still have): `Masker` checks it against
#: the hash of the seat that colour names. Possessive: taken whole, never backtracked.
_CANDIDATE = re.compile(rf"(?i)(?<!\w){_COLOUR}{_DASH}[^\W_]++(?:{_DASH}[^\W_]++)*+")
#: A candidate's part after the colour has at least this many characters (`rot-123456`, the
#: shortest password pbm ever made, has six): `rot-gruen` costs no hash check.
_CANDIDATE_REST = 6
#: A longer word is no password of pbm's.
_CANDIDATE_MAX = 100


def _byte_classes() -> bytes:
    """A `bytes.translate` table: consonant `c`, vowel `v` (either case), other ASCII word
    characters `w`, `-` itself, and for the long dashes in UTF-8 (E2 80 90-94, E2 88 92) `e`,
    `x`, `y`; anything else `.`."""
    table = bytearray(b"." * 256)
    for byte in range(128):
        if chr(byte).isalnum() or chr(byte) == "_":
            table[byte] = ord("w")
    for letter in _CONSONANTS + _CONSONANTS.upper():
        table[ord(letter)] = ord("c")
    for letter in _VOWELS + _VOWELS.upper():
        table[ord(letter)] = ord("v")
    table[ord("-")] = ord("-")
    table[0xE2], table[0x80], table[0x88] = ord("e"), ord("x"), ord("x")
    for byte in range(0x90, 0x95):
        table[byte] = ord("y")
    return bytes(table)


_BYTE_CLASSES = _byte_classes()
#: A long dash in the classes (`exy`) becomes `~~-`, of the same length, so that every dash
#: ends in `-` and the pattern below starts with a literal (`-cvcv`), which the regex engine
#: finds without trying every position: a mail of base64, of dashes or of letters costs
#: milliseconds (tests/test_notation_linear.py). The first pair of syllables stands before
#: the match (checked by the look-behinds).
_BYTE_SHAPE = re.compile(
    rb"-cvcv(?:(?<=cvcv-cvcv)|(?<=cvcv~~-cvcv))(?:(?:~~)?-cvcv){%d}(?![cvw])"
    % (PASSWORD_GROUPS - 2)
)
#: What in a mail's bytes hints that a text may hide a password in an encoding (looked for in
#: the lower-cased bytes): the mail is then read part by part even without a password line.
_ENCODED_HINTS = (b"base64", b"quoted-printable", b"=?", b"utf-16", b"utf-32", b"utf-7")


def _bytes_unshaped(raw: bytes) -> bytes:
    """A mail's bytes with the syllables of every password shape written plainly in them as
    ****: the colour in front may stay, the secret does not. Linear: one translation, one
    scan for a literal."""
    classes = raw.translate(_BYTE_CLASSES)
    if b"\xe2" in raw:
        classes = classes.replace(b"exy", b"~~-")
    pieces: list[bytes] = []
    pos = 0
    for m in _BYTE_SHAPE.finditer(classes):
        first = m.start() - (6 if classes[m.start() - 1] == ord("~") else 4)
        pieces += [raw[pos:first], MASK.encode()]
        pos = m.end()
    if not pieces:
        return raw
    pieces.append(raw[pos:])
    return b"".join(pieces)


def masked_text(text: str, passwords: Iterable[str] = (), mark: str = MASK) -> str:
    """The text without the passwords given and without anything shaped like one of pbm's:
    for what is stored or shown and has no game to check against (the stored subject, the GM's
    list of quarantined mails). Linear in the text's length."""
    values, many = _capped(passwords)
    if many:
        text = _lines_masked(text, mark)
    for value in values:
        text = text.replace(value, mark)
    return _SHAPE.sub(mark, text)


def masked_data(value: Any, mask: Callable[[str], str]) -> Any:
    """Template data (dicts, lists, texts) with `mask` applied to every text in it: for an
    answer that quotes the mail."""
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, dict):
        return {k: masked_data(v, mask) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [masked_data(v, mask) for v in value]
    return value


#: A value known from a password line is masked in a text pbm passes on only if it has a dash
#: or a digit, as every password pbm made has: `Kennwort vergessen` in a message to the GM
#: keeps its `vergessen` (the stored mail masks every value, `masked_raw`).
_PASSWORD_LIKE = re.compile(rf"[0-9]|{_DASH}")


#: Hash checks one mail may cost for words that begin like a password: a game has at most six
#: seats (`authentication.MAX_PASSWORD_CHECKS`).
MASK_CHECKS = 6


class Masker:
    """Keeps one mail's passwords out of every text pbm makes of it: the message it forwards
    (to a player or to the GM), the orders it stores, the answer that quotes it.

    Masked are, in this order: the values known (the sender's password, and the values of the
    mail's password lines, right or wrong, that have a dash or a digit); every word shaped
    like a password pbm makes (`_SHAPE`, no check needed); and every word that begins like
    one (a seat's colour word and a dash, `_CANDIDATE`) and verifies as the password of the
    seat that colour names. That costs one hash check a word (none for a password the process
    verified before), each word is checked once, and a mail costs at most `checks` of them: a
    word past that is masked unchecked (too much masked costs a word of the message, too
    little a password). `found` collects every value masked as written, for the stored mail
    (`masked_raw`)."""

    def __init__(
        self,
        known: Iterable[str],
        seats: Mapping[str, str],
        found: set[str] | None = None,
        checks: int = MASK_CHECKS,
    ) -> None:
        self._known, self._lines = _capped(v for v in known if _PASSWORD_LIKE.search(v))
        self._known_keys = {normalized(v) for v in self._known}
        #: The seats' password hashes by the word their passwords begin with.
        self._seats = dict(seats)
        self._left = checks
        self._verdicts: dict[str, bool] = {}
        self.found: set[str] = found if found is not None else set()
        #: Hash checks made so far.
        self.checked = 0

    def text(self, text: str, mark: str = MASK) -> str:
        if self._lines:
            text = _lines_masked(text, mark)
        for value in self._known:
            if value in text:
                text = text.replace(value, mark)
                self.found.add(value)

        def hit(m: re.Match[str]) -> str:
            self.found.add(m.group(0))
            return mark

        def candidate(m: re.Match[str]) -> str:
            return hit(m) if self._is_password(m.group(0)) else m.group(0)

        return _CANDIDATE.sub(candidate, _SPACED_SHAPE.sub(hit, _SHAPE.sub(hit, text)))

    def _is_password(self, word: str) -> bool:
        key = normalized(word)
        colour, _, rest = key.partition("-")
        if len(rest) < _CANDIDATE_REST or len(key) > _CANDIDATE_MAX:
            return False
        if key in self._known_keys:
            return True
        verdict = self._verdicts.get(key)
        if verdict is None:
            stored = self._seats.get(colour)
            if stored is None:  # no seat of this game has that colour: no password of it
                verdict = False
            elif self._left <= 0:
                verdict = True
            else:
                self._left -= 1
                self.checked += 1
                verdict = verify_password(key, stored)
            self._verdicts[key] = verdict
        return verdict


def masked_raw(raw: bytes, passwords: Iterable[str] | str, deep: bool = True) -> bytes:
    """A stored mail's bytes without the passwords given and without anything shaped like a
    password pbm makes (`_SHAPE`, no label needed). Literal occurrences go first (a plain-text
    order mail); with `deep`, the mail is then read part by part (when it has passwords given,
    or an encoding that may hide one), and a text part, an attachment of text or a subject that
    still holds one in an encoding (base64, quoted-printable with a soft break inside the
    password, RFC 2047) is written anew without it."""
    given = [passwords] if isinstance(passwords, str) else list(passwords)
    values, many = _capped(given)
    if many:
        raw = _lines_masked_bytes(raw)
    for value in values:
        for encoding in ("utf-8", "latin-1"):
            with contextlib.suppress(UnicodeEncodeError):
                raw = raw.replace(value.encode(encoding), MASK.encode())
    raw = _bytes_unshaped(raw)
    if not deep:
        return raw
    if not values:
        lower = raw.lower()
        if not any(hint in lower for hint in _ENCODED_HINTS):
            return raw
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        if not _mask_parts(msg, given):
            return raw
        return msg.as_bytes()
    except Exception:  # a mail the library cannot write back: keep its headers only
        if not values:
            return raw  # read only for a hint of an encoding: nothing known to hide in it
        head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
        return head + b"\n\n[pbm: body removed, it held a password pbm could not mask]\n"


def _holds(text: str, values: list[str], lines: bool) -> bool:
    return (
        any(v in text for v in values)
        or _SHAPE.search(text) is not None
        or (lines and _lines_masked(text) != text)
    )


def _mask_signed(part: Message, given: list[str], depth: int) -> bool:
    """An opaque S/MIME signature (`inbound.signed_mail`) whose mail holds a password anywhere
    (its text, another text part, an attachment of text, a subject, a signature inside): kept
    as that mail's text, masked, in its place (True). The signature could not stay valid over
    a masked text anyway; the text is what the service read. A signature that cannot be read
    (broken, nested past `MAX_ENVELOPES`) is removed when a password is known: nobody can
    tell whether it holds one."""
    values, lines = _capped(given)
    inner = signed_mail(part) if depth < MAX_ENVELOPES else None
    if inner is None:
        if not values:
            return False
        text = "[pbm: signed part removed, it could not be read to mask a password]\n"
    else:
        text = body_text(inner)
        if not _mask_parts(inner, given, depth + 1) and not _holds(text, values, lines):
            return False
        text = masked_text(text, given)
    for name in ("Content-Type", "Content-Transfer-Encoding", "Content-Disposition"):
        del part[name]
    part.set_payload(text, charset="utf-8")
    return True


def _mask_parts(msg: Message, given: list[str], depth: int = 0) -> bool:
    """Write anew each text part and each subject (the mail's, a forwarded mail's) that still
    hold a password given (or, past `MAX_VALUES` of them, a password line's value) or a
    password's shape; True if any did."""
    from email.header import decode_header, make_header

    values, lines = _capped(given)
    changed = False
    for part in msg.walk():
        subject = part.get("Subject")
        if subject is not None:
            try:
                text = str(make_header(decode_header(str(subject))))
            except (LookupError, UnicodeError, ValueError):  # an unknown charset: as written
                text = str(subject)
            if _holds(text, values, lines):
                del part["Subject"]
                part["Subject"] = masked_text(text, given)
                changed = True
        if part.get_content_type() in PKCS7_MIME and _mask_signed(part, given, depth):
            changed = True
            continue
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
        if _holds(text, values, lines):
            del part["Content-Transfer-Encoding"]
            part.set_payload(masked_text(text, given), charset="utf-8")
            changed = True
    return changed
