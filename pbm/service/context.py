"""What every service function needs: the database, the clock and the settings (pbm.toml's
checked model itself, `pbm.config.model.Settings`: `svc.config.service.rate_limit_per_hour`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.engine import Engine

from pbm.config.model import Settings

from .clock import Clock, SystemClock

#: Round deadline presets (docs/gm-guide.md, "Creating a game"); "off" has none: the GM resolves.
DEADLINE_PRESETS: dict[str, float | None] = {
    "normal": 48.0,
    "relaxed": 96.0,
    "fast": 24.0,
    "off": None,
}


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
    config: Settings = field(default_factory=Settings)
    #: How far this process has read its mailbox (`pbm/service/intake.py`).
    intake: Intake = field(default_factory=Intake)
    #: When this process last let strangers' old mails go (`retention.forget_strangers`).
    forgot_at: datetime | None = None
