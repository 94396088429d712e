"""The model of pbm.toml: every key with its type, limits, default and the comment
config.example.toml shows for it.

The defaults are written here and nowhere else: the service runs with these classes themselves
(the service's `Service.config` is a `Settings`), `load` fills in what a file leaves out,
and config.example.toml is rendered from them (`pbm config example`; tests/test_config.py
keeps the shipped file equal to it).
Values are checked strictly: TOML has real types, so `port = "993"` or `tls = "yes"` is a
mistake to report, not to convert.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import timedelta
from email.utils import parseaddr
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

#: A mail address as the GM writes it for pbm's own mail: one ASCII mailbox (the characters
#: an outgoing To header shows as they are, pbm/mail/outgoing.py) at a host name.
_LOCAL = r"[!#-'*+\-/-9=?A-Z^-~]+(?:\.[!#-'*+\-/-9=?A-Z^-~]+)*"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
ADDRESS = re.compile(rf"{_LOCAL}@{_LABEL}(?:\.{_LABEL})*")
ADDRESS_FIX = "write it as name@example.org"


def check_address(value: str) -> str:
    """A bare address, such as `[service] address`."""
    if len(value) > 254 or not ADDRESS.fullmatch(value):
        raise ValueError(f"{value!r} is not a mail address ({ADDRESS_FIX})")
    return value


def check_optional_address(value: str) -> str:
    return value and check_address(value)


def split_from(value: str) -> tuple[str, str]:
    """`[smtp] from` as (display name, address): `Spielleitung <gm@example.org>`,
    `"Spielleitung, Insel" <gm@example.org>` or a bare address; ("", "") for ""."""
    if not value.strip():
        return "", ""
    if "<" not in value:
        return "", check_address(value.strip())
    name, address = parseaddr(value)
    # parseaddr drops what it cannot read: the address must be all there was in the brackets.
    bracketed = value[value.index("<") + 1 : value.rindex(">")] if ">" in value else ""
    if not address or address != bracketed.strip() or not value.rstrip().endswith(">"):
        raise ValueError(
            f"{value!r} is not an address with a display name "
            '(write it as "Spielleitung <gm@example.org>" or as a bare address)'
        )
    if any(not ch.isprintable() for ch in name):
        raise ValueError("the display name holds control characters")
    return name, check_address(address)


def check_from(value: str) -> str:
    split_from(value)
    return value


def check_database_url(value: str) -> str:
    """A URL SQLAlchemy can open with a driver pbm has: SQLite, or PostgreSQL via psycopg."""
    # Imported here: reading the config must not load SQLAlchemy for commands that do not
    # open the database.
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    fix = "write sqlite:///pbm.db or postgresql+psycopg://user:password@host:5432/pbm"
    try:
        url = make_url(value)
    except ArgumentError:
        raise ValueError(f"not a database URL ({fix})") from None
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise ValueError(f"pbm runs on SQLite or PostgreSQL, not {url.get_backend_name()} ({fix})")
    try:
        url.get_dialect().import_dbapi()
    except (ImportError, NoSuchModuleError):
        raise ValueError(
            f"the driver of {url.drivername} is not installed (use postgresql+psycopg://)"
        ) from None
    return value


Address = Annotated[str, AfterValidator(check_address)]
OptionalAddress = Annotated[str, AfterValidator(check_optional_address)]
FromAddress = Annotated[str, AfterValidator(check_from)]
DatabaseUrl = Annotated[str, AfterValidator(check_database_url)]
Port = Annotated[int, Field(ge=1, le=65535)]
#: The loops' pauses: at least a hundredth of a second (less only spins the CPU), at most a day.
Seconds = Annotated[float, Field(ge=0.01, le=86400)]
Positive = Annotated[int, Field(ge=1)]


def key(
    default: Any,
    comment: str,
    *,
    after: tuple[str, ...] = (),
    secret: bool = False,
    **limits: Any,
) -> Any:
    """A key's default and its comment in config.example.toml; `after`: commented lines shown
    below the key (an alternative value); `secret`: masked by `pbm config check`; `limits`:
    pydantic's (ge=1, min_length=1, alias="from")."""
    return Field(
        default,
        description=comment,
        json_schema_extra={"after": list(after), "secret": secret},
        **limits,
    )


class Section(BaseModel):
    # allow_inf_nan: TOML writes inf and nan as floats; no key of pbm's takes them (a deadline
    # times inf overflows at the first mail), so every float is refused unless it is finite.
    model_config = ConfigDict(
        strict=True, extra="forbid", frozen=True, validate_default=True, allow_inf_nan=False
    )


class DatabaseSection(Section):
    """The database."""

    url: DatabaseUrl = key(
        "sqlite:///pbm.db",
        "SQLAlchemy URL. SQLite (default; a relative path is relative to this file, WAL mode):",
        after=(
            "PostgreSQL for larger installations (several `pbm serve` workers may share it):",
            'url = "postgresql+psycopg://pbm:secret@127.0.0.1:5432/pbm"',
        ),
        secret=True,
    )


class ServiceSection(Section):
    """The game master's mail and the service's limits and timings."""

    address: Address = key(
        "gm@pbm.invalid",
        "The game master's address: players write here, every mail comes from here.",
    )
    name: str = key(
        "pbm game master",
        "The display name on outgoing mail (a display name in [smtp] from wins over it).",
    )
    gm_address: OptionalAddress = key(
        "", 'Where the GM digest of every resolved round and the alarms go ("" = none).'
    )
    gm: list[Address] = key(
        [],
        "The game master's own addresses: mail from them is read as the GM's (replies to a"
        " forwarded player mail, mail commands with the GM password), never as a player's"
        " orders. gm_address counts as one of them. When gm_address is empty, the digests and"
        " alarms go to these. Mail commands need the GM password (`pbm gm password`).",
        after=('gm = ["me@example.org", "me@phone.example.org"]',),
    )
    time_scale: float = key(
        1.0,
        "Deadlines are multiplied by this (1.0 in real games; the demo uses seconds); from"
        " 0.000001 to 100.",
        ge=1e-6,
        le=100,
    )
    setup_deadline_share: float = key(
        0.5,
        "A setup placement's deadline, as a share of the round deadline (normal: 48 h -> 24 h).",
        gt=0,
        le=1,
    )
    poll_seconds: Seconds = key(
        60.0,
        "Seconds between two looks into the inbox when the IMAP server offers no IDLE (0.01 to"
        " 86400, as every *_seconds).",
    )
    tick_seconds: Seconds = key(30.0, "Seconds between two checks of deadlines and reminders.")
    send_seconds: Seconds = key(5.0, "Seconds between two runs of the outbox sender.")
    rate_limit_per_hour: Positive = key(
        20, "Answers to one address per hour, at most (stops loops and floods)."
    )
    max_mail_kb: Positive = key(
        256, "Mails with more text than this (KB) are answered with a refusal and not read."
    )
    bad_password_limit: Positive = key(
        5, "After this many wrong passwords from an address in an hour, it gets no more answers."
    )
    password_alert_after: Positive = key(
        5,
        "Wrong passwords for one seat (since its last right one) after which the player and the"
        " GM are told by mail; again at twice and four times as many, then not until a right"
        " one. The player is never locked out.",
    )
    max_stored_kb: Positive = key(
        10240,
        "Raw mail kept per inbound mail (KB, attachments included); a larger mail is stored cut"
        " off at this size and answered with a refusal, unread.",
    )
    no_password_kept_kb: Positive = key(
        64,
        "A mail from an address that is no player, observer or GM, and that gives no right"
        " password, is kept only to this size (KB) once it is handled: enough to see what it"
        " was.",
    )
    stranger_mail_days: Positive = key(
        30,
        "Days the bytes of a mail from an address that is no player, observer or GM are kept;"
        " then only its date, sender, subject and status remain.",
    )
    sent_mail_days: Positive = key(
        30,
        "Days a sent mail keeps its HTML part, pictures and JSON file; then its text part,"
        " subject, recipients and dates remain (the archive keeps every round).",
    )
    mail_wait_minutes: float = key(
        30.0,
        "Minutes a round past its deadline waits for mail that reached the mailbox in time but"
        " is not read yet (the IMAP server down, a backlog); then it is resolved with what was"
        " read, and gm_address is told.",
        ge=0,
        le=10080,
    )

    def hours(self, h: float) -> timedelta:
        """`h` hours of a game's time, as `time_scale` makes them."""
        return timedelta(hours=h * self.time_scale)

    @property
    def gm_inbox(self) -> list[str]:
        """Where the GM's mail goes (digests, alarms, notices, players' `An Spielleitung`):
        `gm_address`, else every address of `gm`; [] when neither is set."""
        if self.gm_address:
            return [self.gm_address]
        return sorted({a.lower() for a in self.gm})

    def is_gm(self, address: str) -> bool:
        """Whether mail from `address` is the GM's (`gm` and `gm_address`): read by
        `gm_mail`, never as a player's orders."""
        address = address.strip().lower()
        return bool(address) and address in self.gm_senders

    @property
    def gm_senders(self) -> frozenset[str]:
        """The addresses the GM writes from: every address of `gm`, and `gm_address`."""
        return frozenset(a.lower() for a in (*self.gm, self.gm_address) if a)


#: The mailbox providers `[imap] provider` knows (pbm/config/presets.py).
MailProvider = Literal["", "gmail", "outlook", "gmx", "webde", "posteo", "fastmail"]
Auth = Literal["password", "oauth2"]


class ImapSection(Section):
    """The mailbox pbm reads (IMAP)."""

    provider: MailProvider = key(
        "",
        'A known mailbox provider: "gmail", "outlook", "gmx", "webde", "posteo" or "fastmail"'
        " fills in host, port, tls and auth here and in [smtp] (and [oauth2] provider); a key"
        ' written in the file wins. "" = none (docs/gm-guide.md, "Mailbox providers").',
        after=('provider = "gmail"',),
    )
    auth: Auth = key(
        "password",
        'How pbm signs in: "password" (user and password; an app password where the provider'
        ' asks for one) or "oauth2" (a token from [oauth2]; `pbm mailbox login` gets it).',
    )
    host: str = key("127.0.0.1", "The IMAP server.", min_length=1)
    port: Port = key(143, "Its port (143; 993 with tls = true).")
    user: str = key("", "The login name.")
    password: str = key("", "The login password.", secret=True)
    tls: bool = key(False, "Implicit TLS (usually port 993).")
    folder: str = key("INBOX", "The folder read.", min_length=1)
    processed_folder: str = key(
        "", 'Handled mails are moved here when the server supports MOVE ("" = only marked \\Seen).'
    )
    idle: bool = key(
        True, "Wait with IDLE when the server offers it (re-issued at least every 29 minutes)."
    )
    timeout: Seconds = key(30.0, "Seconds to wait for an answer of the server.")


class SmtpSection(Section):
    """The server pbm sends through (SMTP submission)."""

    auth: Auth = key(
        "password",
        '"password" (user and password, if a user is set) or "oauth2" (the token of [oauth2],'
        " signed in as user, else as [imap] user).",
    )
    host: str = key("127.0.0.1", "The SMTP server.", min_length=1)
    port: Port = key(25, "Its port (25; 587 with STARTTLS, 465 with tls = true).")
    user: str = key("", 'The login name ("" = no login).')
    password: str = key("", "The login password.", secret=True)
    tls: bool = key(False, "Implicit TLS (usually port 465).")
    starttls: bool | Literal["auto"] = key(
        False, 'STARTTLS: true requires it, false never, "auto" when the server offers it.'
    )
    from_: FromAddress = key(
        "",
        'Envelope and From address ("" = [service] address); with a display name:'
        ' "Spielleitung <gm@example.org>" (the name then wins over [service] name).',
        alias="from",
    )
    timeout: Seconds = key(30.0, "Seconds to wait for an answer of the server.")

    @property
    def from_address(self) -> str:
        """The address of `from` ("" when the file sets none: [service] address then)."""
        return split_from(self.from_)[1]

    @property
    def starttls_wanted(self) -> bool | None:
        """`starttls` as aiosmtplib takes it: True requires it, False never, None when offered."""
        return None if self.starttls == "auto" else self.starttls


OAuth2ProviderName = Literal["", "google", "microsoft"]


class OAuth2Section(Section):
    """OAuth2 sign-in (auth = "oauth2" in [imap] or [smtp]); `pbm mailbox login` gets the
    first tokens, pbm refreshes them."""

    provider: OAuth2ProviderName = key(
        "",
        'The provider\'s endpoints and scopes: "google" or "microsoft" ("" = the ones of'
        " [imap] provider, else the endpoints below).",
    )
    client_id: str = key(
        "", "The client id of the app registered with the provider (docs/gm-guide.md)."
    )
    client_secret: str = key(
        "", 'Its client secret, if it has one (Google\'s desktop apps do; "" = none).', secret=True
    )
    token_endpoint: str = key("", 'The token endpoint ("" = the provider\'s).')
    device_endpoint: str = key(
        "", 'The device authorization endpoint ("" = the provider\'s, if it has one).'
    )
    authorize_endpoint: str = key(
        "", 'The authorization endpoint of the browser flow ("" = the provider\'s).'
    )
    scopes: list[str] = key([], "The scopes asked for ([] = the provider's for IMAP and SMTP).")
    token_file: str = key(
        "pbm-oauth2.json",
        "Where the tokens are kept (readable by its owner only; a relative path is relative"
        " to this file).",
        min_length=1,
    )


class ArchiveSection(Section):
    """The static web archive of the games (`pbm game archive`)."""

    dir: str = key(
        "",
        "Where `pbm serve` keeps every game's archive up to date after each round (one folder "
        "per game; a relative path is relative to this file's folder, as every path here); empty:"
        " no archive.",
    )
    url: str = key(
        "",
        "The web address of that folder, for the links of the `Verlauf`/`History` answer "
        "(as https://example.org/pbm); empty: the answer holds the last reports instead.",
    )


class Settings(BaseModel):
    """The whole file; a missing section or key takes its default. Read from the file alone
    (`load` passes its tables in): an environment variable left over in a shell or a unit file
    never changes a running game master unseen."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, validate_default=True)

    # Factories: the URL's check imports SQLAlchemy, which importing this module must not.
    database: DatabaseSection = Field(default_factory=DatabaseSection)
    service: ServiceSection = Field(default_factory=ServiceSection)
    imap: ImapSection = Field(default_factory=ImapSection)
    smtp: SmtpSection = Field(default_factory=SmtpSection)
    oauth2: OAuth2Section = Field(default_factory=OAuth2Section)
    archive: ArchiveSection = Field(default_factory=ArchiveSection)

    def updated(self, **sections: Mapping[str, object]) -> Settings:
        """A copy with some keys of some sections changed, checked as the file's keys are:
        `updated(imap={"port": 1143}, service={"poll_seconds": 0.1})`, keys by their names in
        the file (`{"from": …}`). For the programs that set up a mailbox of their own (the
        demo, the benchmarks, the tests)."""
        data = {name: dict(section.model_dump(by_alias=True)) for name, section in self}
        for name, keys in sections.items():
            data[name].update(keys)
        return Settings.model_validate(data)

    @property
    def sender_name(self) -> str:
        """The display name on outgoing mail: `[smtp] from`'s, the more specific one, else
        `[service] name`."""
        return split_from(self.smtp.from_)[0] or self.service.name


#: The sections in file order, by their names in the file.
SECTIONS: dict[str, type[Section]] = {
    "database": DatabaseSection,
    "service": ServiceSection,
    "imap": ImapSection,
    "smtp": SmtpSection,
    "oauth2": OAuth2Section,
    "archive": ArchiveSection,
}


def file_key(section: type[Section], field: str) -> str:
    """A field's name in the file (`from_` is `from`)."""
    info = section.model_fields[field]
    return info.alias or field


def is_secret(section: type[Section], field: str) -> bool:
    extra = section.model_fields[field].json_schema_extra
    return bool(isinstance(extra, dict) and extra.get("secret"))
