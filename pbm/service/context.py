"""What every service function needs: the database, the clock and the settings."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.engine import Engine

from pbm.config.model import ServiceSection

from .clock import Clock, SystemClock

#: Round deadline presets (docs/gm-guide.md, "Creating a game"); "off" has none: the GM resolves.
DEADLINE_PRESETS: dict[str, float | None] = {
    "normal": 48.0,
    "relaxed": 96.0,
    "fast": 24.0,
    "off": None,
}


#: The defaults of pbm.toml's [service] (pbm/config/model.py is the one place they are written).
_DEFAULT = ServiceSection()


@dataclass
class ServiceConfig:
    """The service's settings, from pbm.toml's [service] (`pbm.config.Config.service`); see
    pbm/config/model.py for what each means."""

    #: The game master's own address: players write here, mails come from here.
    address: str = _DEFAULT.address
    #: The display name on outgoing mail.
    name: str = _DEFAULT.name
    #: Where digests and alarms go.
    gm_address: str = _DEFAULT.gm_address
    #: `[service] gm`: the addresses the GM writes from (`gm_senders`).
    gm: list[str] = field(default_factory=lambda: list(_DEFAULT.gm))
    #: 1.0 in real games; the demo shrinks hours to seconds with 1/3600.
    time_scale: float = _DEFAULT.time_scale
    #: A setup placement's deadline, as a fraction of the round deadline.
    setup_deadline_share: float = _DEFAULT.setup_deadline_share
    #: Answers to one address per hour, at most (a loop or a flood stops there).
    rate_limit_per_hour: int = _DEFAULT.rate_limit_per_hour
    #: Mails with more text than this are answered with a refusal, not read.
    max_mail_kb: int = _DEFAULT.max_mail_kb
    #: After this many wrong passwords from an address in an hour, it gets no more answers.
    bad_password_limit: int = _DEFAULT.bad_password_limit
    #: Wrong passwords for one seat (since its last right one) after which the player and the
    #: GM are told; again at twice and four times as many, then not until a right one. Never a
    #: lock-out.
    password_alert_after: int = _DEFAULT.password_alert_after
    #: Raw mail kept per inbound mail (KB); a larger mail is stored cut off and refused.
    max_stored_kb: int = _DEFAULT.max_stored_kb
    #: How long past a deadline a round waits for mail that came in time but is not read yet.
    mail_wait_minutes: float = _DEFAULT.mail_wait_minutes
    #: A handled mail that gave no right password is kept only to this size (KB).
    no_password_kept_kb: int = _DEFAULT.no_password_kept_kb
    #: Days a stranger's mail keeps its bytes (`retention.py`).
    stranger_mail_days: int = _DEFAULT.stranger_mail_days
    #: `[archive] dir`: where `pbm serve` keeps the games' web archives ("" for none).
    archive_dir: str = ""
    #: `[archive] url`: that folder on the web, for the `Verlauf` answer ("" for none).
    archive_url: str = ""

    def hours(self, h: float) -> timedelta:
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


@dataclass
class Intake:
    """How far this process has read its mailbox (`Service.intake`). Only a process that
    reads a mailbox is `active`; a process that is only given mails (`pbm mail ingest`, the
    tests) has nothing of its own to wait for."""

    active: bool = False
    #: Every mail that reached the mailbox before this moment has been taken in (stored and
    #: read, or waiting): the start of the last pass of the inbox that took in all it listed.
    read_through: datetime | None = None
    #: A deadline waits for a pass of the inbox (`want_pass`).
    wanted: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def passed(self, started: datetime) -> None:
        """A pass of the inbox that began at `started` took in every mail it listed."""
        with self._lock:
            if self.read_through is None or started > self.read_through:
                self.read_through = started

    def want_pass(self) -> None:
        """A deadline waits for the mailbox: the inbox should read it now, not at its next
        news (an IDLE lasts up to 29 minutes)."""
        with self._lock:
            self.wanted = True

    def take_wanted(self) -> bool:
        """Whether a pass was wanted since the last call (and no longer)."""
        with self._lock:
            wanted, self.wanted = self.wanted, False
            return wanted

    def read_past(self, moment: datetime) -> bool:
        """Whether every mail that came before `moment` has been taken in, as far as this
        process's own mailbox goes."""
        with self._lock:
            return not self.active or (
                self.read_through is not None and self.read_through >= moment
            )


@dataclass
class Service:
    engine: Engine
    clock: Clock = field(default_factory=SystemClock)
    config: ServiceConfig = field(default_factory=ServiceConfig)
    #: How far this process has read its mailbox (`pbm/service/intake.py`).
    intake: Intake = field(default_factory=Intake)
    #: When this process last let strangers' old mails go (`retention.forget_strangers`).
    forgot_at: datetime | None = None
