"""The model as TOML: config.example.toml (every key, its default and its comment) and the
effective config `pbm config check` prints (every key as in force, secrets masked)."""

from __future__ import annotations

import json
import textwrap
from typing import Any

from pydantic import BaseModel

from .model import SECTIONS, Section, Settings, file_key, is_secret

HEADER = """\
# pbm configuration. `pbm init` writes this file as ./pbm.toml (readable by its owner only: it
# holds passwords); every command reads it from --config FILE, else $PBM_CONFIG, else
# ./pbm.toml. Every key is shown with its default; a key left out takes it. `pbm config check`
# refuses unknown keys, wrong types, numbers out of range (inf and nan too) and bad addresses,
# and prints the config in force. Every path in this file (the SQLite database, [archive] dir,
# [oauth2] token_file) is relative to the folder this file is in, not to the folder pbm is run
# from.
"""
#: Shown for a password that is set, in place of it.
MASK = "********"


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        # A JSON string is a TOML basic string for all that a config holds.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return repr(value)


def _comment(text: str) -> list[str]:
    return textwrap.wrap(text, width=96, initial_indent="# ", subsequent_indent="# ")


def _extra(section: type[Section], field: str) -> dict[str, Any]:
    extra = section.model_fields[field].json_schema_extra
    return extra if isinstance(extra, dict) else {}


def example() -> str:
    """config.example.toml, rendered from the model."""
    lines = HEADER.rstrip("\n").split("\n")
    for name, section in SECTIONS.items():
        lines += ["", f"[{name}]"]
        defaults = section()
        for field, info in section.model_fields.items():
            lines += _comment(info.description or "")
            lines.append(f"{file_key(section, field)} = {toml_value(getattr(defaults, field))}")
            after = _extra(section, field).get("after") or []
            lines += [f"# {line}" for line in after]
    return "\n".join(lines) + "\n"


def masked_url(url: str) -> str:
    """A database URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _shown(section: type[Section], field: str, value: Any) -> Any:
    if not is_secret(section, field) or not value:
        return value
    if field == "url":
        return masked_url(value)
    return MASK


def effective(settings: Settings) -> dict[str, dict[str, Any]]:
    """Every section and key as in force (defaults filled in), secrets masked."""
    out: dict[str, dict[str, Any]] = {}
    for name, section in SECTIONS.items():
        values: BaseModel = getattr(settings, name)
        out[name] = {
            file_key(section, field): _shown(section, field, getattr(values, field))
            for field in section.model_fields
        }
    return out


def effective_toml(settings: Settings) -> str:
    lines: list[str] = []
    for name, values in effective(settings).items():
        lines += ["", f"[{name}]"] if lines else [f"[{name}]"]
        lines += [f"{key} = {toml_value(value)}" for key, value in values.items()]
    return "\n".join(lines) + "\n"
