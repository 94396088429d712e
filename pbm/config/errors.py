"""What is wrong with a config file, as the GM reads it: one line per mistake, naming the file,
the key and the fix (`pbm.toml: [service] adress: unknown key (did you mean address?)`).

pydantic reports every error of the file at once, each with its location and kind; they are
turned into these lines here, so `pbm config check`, `pbm serve` and every other command refuse
a bad file at start with the same words.
"""

from __future__ import annotations

import difflib
import json
from typing import Any, get_args, get_origin

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from .model import SECTIONS, Section, file_key, is_secret


class ConfigError(Exception):
    """The config file cannot be used. `problems`: one line per mistake, each starting with the
    file's name."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def _keys(section: type[Section]) -> list[str]:
    return [file_key(section, f) for f in section.model_fields]


def _field(section: type[Section], key: str) -> str | None:
    for name in section.model_fields:
        if file_key(section, name) == key:
            return name
    return None


def _home_of(key: str) -> str | None:
    """The section that has a key of this name."""
    for name, section in SECTIONS.items():
        if key in _keys(section):
            return name
    return None


def _shown(value: Any) -> str:
    """A value as it was written in the file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _expected(annotation: Any) -> str:
    """What a key takes, in words."""
    if annotation is bool:
        return "true or false"
    if annotation is int:
        return "a whole number"
    if annotation is float:
        return "a number"
    if annotation is str:
        return 'a text in quotes ("…")'
    if get_origin(annotation) is list:
        return 'a list in brackets (["name@example.org"])'
    args = get_args(annotation)
    if args and args[0] is not annotation:
        if "auto" in {a for arg in args for a in get_args(arg)}:
            return 'true, false or "auto"'
        return _expected(args[0])
    return "another kind of value"


def _unquoted(expected: str, value: Any) -> bool:
    """The value is right but written in quotes (`port = "993"`, `tls = "true"`)."""
    if not isinstance(value, str):
        return False
    if expected == "true or false" or expected.startswith("true, false"):
        return value in ("true", "false")
    try:
        float(value)
    except ValueError:
        return False
    return expected in ("a whole number", "a number")


def _unknown_key(section: str, key: str) -> str:
    known = _keys(SECTIONS[section])
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if close:
        return f"unknown key (did you mean {close[0]}?)"
    home = _home_of(key)
    if home:
        return f"unknown key here (it belongs in [{home}])"
    return f"unknown key (the keys of [{section}]: {', '.join(known)})"


def _top_level(key: str, value: Any) -> str:
    if isinstance(value, dict):
        close = difflib.get_close_matches(key.lower(), list(SECTIONS), n=1, cutoff=0.6)
        hint = f"did you mean [{close[0]}]?" if close else f"the sections: {', '.join(SECTIONS)}"
        return f"[{key}]: unknown section ({hint})"
    home = _home_of(key)
    if home:
        return f"{key}: belongs in a section (write it below [{home}])"
    return f"{key}: unknown key (the sections: {', '.join(SECTIONS)})"


def _key_problem(section: str, key: str, error: ErrorDetails) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        return _unknown_key(section, key)
    cls = SECTIONS[section]
    field = _field(cls, key)
    assert field is not None
    value = error.get("input")
    secret = is_secret(cls, field)
    ctx = error.get("ctx") or {}
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    limits = {
        "greater_than_equal": "at least {ge}",
        "greater_than": "more than {gt}",
        "less_than_equal": "at most {le}",
        "less_than": "less than {lt}",
    }
    if kind in limits:
        bound = {
            k: _shown(int(v) if isinstance(v, float) and v.is_integer() else v)
            for k, v in ctx.items()
        }
        return f"must be {limits[kind].format(**bound)}" + (
            "" if secret else f", not {_shown(value)}"
        )
    if kind == "finite_number":
        return "must be a finite number" + ("" if secret else f", not {_shown(value)}")
    if kind == "string_too_short":
        return 'must not be empty ("")'
    expected = _expected(cls.model_fields[field].annotation)
    if secret:
        return f"must be {expected}"
    fix = f" (write {key} = {value}, without quotes)" if _unquoted(expected, value) else ""
    return f"must be {expected}, not {_shown(value)}{fix}"


def problems(file: str, data: dict[str, Any], exc: ValidationError) -> list[str]:
    """One line per mistake of `exc`, in the order of the file's model."""
    lines: list[str] = []
    seen: set[tuple[str, ...]] = set()
    for error in exc.errors():
        loc = tuple(str(part) for part in error["loc"])
        where = loc[:2]
        if where in seen:
            continue  # a union's alternatives (starttls) each report the same key
        seen.add(where)
        if len(loc) == 1:
            if error["type"] == "extra_forbidden":
                line = _top_level(loc[0], data.get(loc[0]))
            else:
                line = (
                    f"[{loc[0]}]: must be a section (write [{loc[0]}] on a line of its own, "
                    "its keys below it)"
                )
        else:
            line = f"[{loc[0]}] {loc[1]}: {_key_problem(loc[0], loc[1], error)}"
        lines.append(f"{file}: {line}")
    return lines
