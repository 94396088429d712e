"""The configuration file (`pbm.toml`): read with tomllib, checked against the model
(`model.py`, where every key and its default is written). The service runs with the checked
model itself (`Settings`): this package imports nothing of pbm above it.

A file that cannot be used raises ConfigError with one line per mistake (`errors.py`); the
command line prints them and exits with status 2 before it does anything.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import ConfigError, problems
from .model import SECTIONS, Settings
from .presets import apply as apply_presets
from .text import effective, effective_toml, example, masked_url

DEFAULT_FILE = "pbm.toml"
SECTIONS_TEXT = ", ".join(SECTIONS)

__all__ = [
    "DEFAULT_FILE",
    "Config",
    "ConfigError",
    "Settings",
    "effective",
    "effective_toml",
    "example",
    "find",
    "load",
    "masked_url",
    "read",
]


@dataclass(frozen=True)
class Config:
    """A checked config: the file's settings (defaults filled in, every relative path made
    absolute from the file's folder) and where they came from (None: no file, the defaults)."""

    settings: Settings = field(default_factory=Settings)
    path: Path | None = None

    @property
    def database_url(self) -> str:
        return self.settings.database.url


def find(path: str | Path | None = None) -> Path | None:
    """The file to read: `path`, else $PBM_CONFIG, else ./pbm.toml if it exists, else None
    (the defaults)."""
    given = path or os.environ.get("PBM_CONFIG") or None
    if given is not None:
        return Path(given)
    return Path(DEFAULT_FILE) if Path(DEFAULT_FILE).exists() else None


def read(data: dict[str, Any], name: str = DEFAULT_FILE, base: Path | None = None) -> Settings:
    """Check the tables of a config file; `name` is what the error lines call it, `base` the
    folder every relative path of the file is taken from (`_paths_from`)."""
    # No key of the file starts with "_" (pydantic keeps such names for a model's private
    # attributes): such a key is an unknown one, and said so plainly.
    odd = [k for k in data if k.startswith("_")]
    if odd:
        raise ConfigError(
            [f"{name}: {k}: unknown key (the sections: {SECTIONS_TEXT})" for k in odd]
        )
    data = _sections_in_any_case(data, name)
    try:
        settings = Settings(**data)
    except ValidationError as exc:
        raise ConfigError(problems(name, data, exc)) from None
    settings, wrong = apply_presets(settings, name, base)
    if wrong:
        raise ConfigError(wrong)
    return _paths_from(settings, base) if base is not None else settings


def _paths_from(settings: Settings, base: Path) -> Settings:
    """Every path of the file made absolute from `base`, the config file's folder: a relative
    SQLite file and `[archive] dir` live beside the config file, wherever pbm is run from (a
    cron job, a systemd unit and the GM's shell then mean the same files); `[oauth2]
    token_file` is made absolute by the presets (`presets.apply`)."""
    url = settings.database.url
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
        rest = url[len("sqlite:///") :]
        if rest and not rest.startswith(":memory:"):
            absolute = "sqlite:///" + str((base / rest).resolve())
            database = settings.database.model_copy(update={"url": absolute})
            settings = settings.model_copy(update={"database": database})
    folder = settings.archive.dir
    if folder and not Path(folder).expanduser().is_absolute():
        archive = settings.archive.model_copy(update={"dir": str((base / folder).resolve())})
        settings = settings.model_copy(update={"archive": archive})
    elif folder.startswith("~"):
        archive = settings.archive.model_copy(update={"dir": str(Path(folder).expanduser())})
        settings = settings.model_copy(update={"archive": archive})
    return settings


def _sections_in_any_case(data: dict[str, Any], name: str) -> dict[str, Any]:
    """The tables with a section's name in another case (`[Service]`, `[IMAP]`) under the
    section's own name, as pbm has always read them; one section written twice in two cases is
    refused, not one of them dropped."""
    out: dict[str, Any] = {}
    spelt: dict[str, str] = {}
    twice: list[str] = []
    for key, value in data.items():
        section = key.lower() if isinstance(value, dict) and key.lower() in SECTIONS else key
        if section in spelt:
            twice.append(f"{name}: [{spelt[section]}] and [{key}]: the same section twice")
            continue
        spelt[section] = key
        out[section] = value
    if twice:
        raise ConfigError(twice)
    return out


def load(path: str | Path | None = None) -> Config:
    """Read and check the config file (see `find`); raises ConfigError."""
    p = find(path)
    if p is None:
        return Config(read({}, base=Path.cwd()), None)
    try:
        with p.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError([f"{p}: no such file (`pbm init {p}` writes one)"]) from None
    except OSError as exc:
        raise ConfigError([f"{p}: cannot be read: {exc.strerror}"]) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError([f"{p}: not valid TOML: {_one_line(str(exc))}"]) from None
    except RecursionError:
        raise ConfigError([f"{p}: not readable as TOML: nested too deeply"]) from None
    except Exception as exc:  # anything else tomllib raises (an integer of 5,000 digits)
        reason = _one_line(f"{type(exc).__name__}: {exc}")
        raise ConfigError([f"{p}: not readable as TOML: {reason}"]) from None
    return Config(read(data, str(p), p.parent), p)


def _one_line(text: str) -> str:
    """An error's words on one line, cut to what a terminal line holds."""
    line = " ".join(text.split())
    return line if len(line) <= 200 else line[:199] + "…"
