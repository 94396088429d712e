"""What every service function needs: the database, the clock and the settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

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
    #: `[archive] dir`: where `pbm serve` keeps the games' web archives ("" for none).
    archive_dir: str = ""
    #: `[archive] url`: that folder on the web, for the `Verlauf` answer ("" for none).
    archive_url: str = ""

    def hours(self, h: float) -> timedelta:
        return timedelta(hours=h * self.time_scale)


@dataclass
class Service:
    engine: Engine
    clock: Clock = field(default_factory=SystemClock)
    config: ServiceConfig = field(default_factory=ServiceConfig)
