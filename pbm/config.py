"""The configuration file (`pbm.toml`), read with tomllib. Every key and its default is
documented in `config.example.toml`."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .mail.imap import ImapConfig
from .mail.smtp import SmtpConfig
from .service.context import ServiceConfig
from .service.serve import ServeConfig

DEFAULT_FILE = "pbm.toml"


@dataclass
class Config:
    #: SQLAlchemy URL; a relative SQLite path is taken relative to the config file.
    database_url: str = "sqlite:///pbm.db"
    service: ServiceConfig = field(default_factory=ServiceConfig)
    serve: ServeConfig = field(default_factory=ServeConfig)
    #: The raw tables, for the parts that read their own section (mail, demo).
    raw: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None


def load(path: str | Path | None = None) -> Config:
    """Read the config file: `path`, else $PBM_CONFIG, else ./pbm.toml, else the defaults."""
    path = path or os.environ.get("PBM_CONFIG") or None
    if path is None:
        if not Path(DEFAULT_FILE).exists():
            return Config()
        path = DEFAULT_FILE
    p = Path(path)
    with p.open("rb") as f:
        raw = tomllib.load(f)
    db = raw.get("database", {})
    url = str(db.get("url", "sqlite:///pbm.db"))
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
        # Relative SQLite files live beside the config file, wherever pbm is run from.
        url = "sqlite:///" + str((p.parent / url[len("sqlite:///") :]).resolve())
    svc = raw.get("service", {})
    service = ServiceConfig(
        address=str(svc.get("address", ServiceConfig.address)),
        name=str(svc.get("name", ServiceConfig.name)),
        gm_address=str(svc.get("gm_address", "")),
        time_scale=float(svc.get("time_scale", 1.0)),
        setup_deadline_share=float(svc.get("setup_deadline_share", 0.5)),
        rate_limit_per_hour=int(svc.get("rate_limit_per_hour", 20)),
        max_mail_kb=int(svc.get("max_mail_kb", 256)),
        bad_password_limit=int(svc.get("bad_password_limit", 5)),
        password_alert_after=int(svc.get("password_alert_after", 5)),
        max_stored_kb=int(svc.get("max_stored_kb", 10240)),
    )
    imap = raw.get("imap", {})
    smtp = raw.get("smtp", {})
    starttls = smtp.get("starttls", False)
    serve = ServeConfig(
        imap=ImapConfig(
            host=str(imap.get("host", "127.0.0.1")),
            port=int(imap.get("port", 143)),
            user=str(imap.get("user", "")),
            password=str(imap.get("password", "")),
            tls=bool(imap.get("tls", False)),
            folder=str(imap.get("folder", "INBOX")),
            processed_folder=str(imap.get("processed_folder", "")),
            idle=bool(imap.get("idle", True)),
        ),
        smtp=SmtpConfig(
            host=str(smtp.get("host", "127.0.0.1")),
            port=int(smtp.get("port", 25)),
            user=str(smtp.get("user", "")),
            password=str(smtp.get("password", "")),
            tls=bool(smtp.get("tls", False)),
            starttls=None if starttls == "auto" else bool(starttls),
            from_address=str(smtp.get("from", "")),
        ),
        poll_seconds=float(svc.get("poll_seconds", 60)),
        tick_seconds=float(svc.get("tick_seconds", 30)),
        send_seconds=float(svc.get("send_seconds", 5)),
    )
    return Config(url, service, serve, raw, p)
