"""The configuration file (`pbm.toml`), read with tomllib. Every key and its default is
documented in `config.example.toml`."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .service.context import ServiceConfig

DEFAULT_FILE = "pbm.toml"


@dataclass
class Config:
    #: SQLAlchemy URL; a relative SQLite path is taken relative to the config file.
    database_url: str = "sqlite:///pbm.db"
    service: ServiceConfig = field(default_factory=ServiceConfig)
    #: The raw tables, for the parts that read their own section (mail, demo).
    raw: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None


def load(path: str | Path | None = None) -> Config:
    """Read the config file; without one (and no ./pbm.toml), the defaults."""
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
        url = "sqlite:///" + str((p.parent / url[len("sqlite:///"):]).resolve())
    svc = raw.get("service", {})
    service = ServiceConfig(
        address=str(svc.get("address", ServiceConfig.address)),
        name=str(svc.get("name", ServiceConfig.name)),
        gm_address=str(svc.get("gm_address", "")),
        time_scale=float(svc.get("time_scale", 1.0)),
        setup_deadline_share=float(svc.get("setup_deadline_share", 0.5)),
    )
    return Config(url, service, raw, p)
