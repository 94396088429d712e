"""The development-card codebook: what a purchase's code means, for its buyer only.

Each player has a secret (32 random bytes, stored per player). For their k-th purchase, row k
of their table maps short codes to card types; every row is derived afresh with HMAC-SHA256 from
the secret, so equal codes in two rows (or two players' tables) say nothing. The round report
shows `blau: Karte 3 → K7Q`; only blau's table turns K7Q into a card type.

For client tools there is also a sealed notice: the card type encrypted with AES-GCM under a key
derived (HKDF) from the same secret, bound to the game, seat and purchase number.
"""

from __future__ import annotations

import base64
import hmac
from hashlib import sha256
from typing import TYPE_CHECKING

from pbm.i18n import language, translator
from pbm.notation import vocab
from pbm.rules.layouts import CARD_TYPES, KRON_CARD_TYPES

from .wrap import WIDTH

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

#: Code characters: no 0/O, 1/I/L, so codes survive being copied by hand.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 3

#: The card names in each game language (from the message catalogue, via `vocab`).
CARD_NAMES = vocab.CARD_NAMES


def _code(digest: bytes) -> str:
    n = int.from_bytes(digest[:8], "big")
    out = []
    for _ in range(CODE_LENGTH):
        n, r = divmod(n, len(ALPHABET))
        out.append(ALPHABET[r])
    return "".join(out)


def row(secret_hex: str, number: int, kron: bool = False) -> dict[str, str]:
    """Row `number` (1 = first purchase): code → card type, five distinct codes; in a Kronlande
    game eight (its three project cards after the five, so the five keep their codes)."""
    key = bytes.fromhex(secret_hex)
    codes: dict[str, str] = {}
    for card in (*CARD_TYPES, *KRON_CARD_TYPES) if kron else CARD_TYPES:
        attempt = 0
        while True:
            digest = hmac.new(key, f"row:{number}:{card}:{attempt}".encode(), sha256).digest()
            code = _code(digest)
            if code not in codes:
                codes[code] = card
                break
            attempt += 1
    return dict(sorted(codes.items()))


def code_for(secret_hex: str, number: int, card: str) -> str:
    """The code printed in the reports for a player's `number`-th purchase of `card` (the
    Kronlande row: its first five codes are the base game's row)."""
    return next(code for code, c in row(secret_hex, number, kron=True).items() if c == card)


def decode(secret_hex: str, number: int, code: str, kron: bool = False) -> str | None:
    return row(secret_hex, number, kron).get(code.strip().upper())


def table(secret_hex: str, rows: int, lang: str = "de", kron: bool = False) -> list[str]:
    """The printable table: one line per purchase number (`kron`: with the project cards),
    within a mail's line width (`wrap.WIDTH`): a row too wide for it goes on in lines of its
    own under its first code, never breaking a code from its card's name."""
    names = CARD_NAMES[language(lang)]
    # Translators: {number:2} is the purchase number, right-aligned in two columns.
    label = translator(lang).gettext("Card {number:2}: {codes}")
    out = []
    for k in range(1, rows + 1):
        codes = [f"{code}={names[card]}" for code, card in row(secret_hex, k, kron).items()]
        head = label.format(number=k, codes="")
        # Two spaces between the codes, or one where that keeps the row on one line.
        for gap in ("  ", " "):
            if len(head) + len(gap.join(codes)) <= WIDTH:
                out.append(head + gap.join(codes))
                break
        else:
            line: list[str] = []
            lead = head
            for code in codes:
                if line and len(lead) + len("  ".join([*line, code])) > WIDTH:
                    out.append(lead + "  ".join(line))
                    line, lead = [], " " * len(head)
                line.append(code)
            out.append(lead + "  ".join(line))
    return out


# -- sealed notices ---------------------------------------------------------------------------

_PLAIN_LENGTH = 16
#: Card names longer than `_PLAIN_LENGTH` are sealed under a short name, so that every notice
#: keeps one size (and a report's line its 72 columns): Kronlande's Hafenprivileg.
_SEALED_AS = {"harbour_privilege": "harbour_priv"}
_UNSEALED = {v: k for k, v in _SEALED_AS.items()}


def _aead(secret_hex: str) -> AESGCM:
    # Imported here: `cryptography` is some 6 MB of a process, and only a card purchase's
    # notice needs it (pbm serve stays small until then).
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"pbm codebook notice").derive(
        bytes.fromhex(secret_hex)
    )
    return AESGCM(key)


def seal(secret_hex: str, game: str, seat: int, number: int, card: str) -> str:
    """An opaque token saying which card the purchase was, readable with the secret only."""
    # A nonce derived from everything the notice says: the same notice is the same token (a
    # report rendered again is identical), and different contents never share a nonce.
    nonce = hmac.new(
        bytes.fromhex(secret_hex), f"nonce:{game}:{seat}:{number}:{card}".encode(), sha256
    ).digest()[:12]
    aad = f"{game}:{seat}:{number}".encode()
    # Padded to one length: the token's size must not tell one card type from another.
    plain = _SEALED_AS.get(card, card).encode().ljust(_PLAIN_LENGTH, b" ")
    sealed = _aead(secret_hex).encrypt(nonce, plain, aad)
    return f"{game}:{seat}:{number}:" + base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal(secret_hex: str, token: str) -> str | None:
    """The card type of a sealed notice, or None if the key or the token is wrong."""
    from cryptography.exceptions import InvalidTag

    try:
        game, seat, number, blob = token.strip().rsplit(":", 3)
        raw = base64.urlsafe_b64decode(blob.encode())
        card = (
            _aead(secret_hex)
            .decrypt(raw[:12], raw[12:], f"{game}:{seat}:{number}".encode())
            .decode()
            .rstrip()
        )
        return _UNSEALED.get(card, card)
    except (ValueError, InvalidTag, UnicodeDecodeError):
        return None
