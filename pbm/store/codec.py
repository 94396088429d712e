"""Typed orders ⇄ JSON, for storing what players sent (and replaying it).

Each order is an object `{"t": <class name>, …fields}`; nested orders and tuples nest.
Only the order classes of `pbm.rules.orders` are known, so stored data can never name
arbitrary Python.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from typing import Any

from pbm.rules import orders as o

#: Fields Seafarers added to existing orders: left out while at their default, so a base game's
#: orders are stored exactly as before; a stored order without them reads them as the default.
_SEA_FIELDS = {
    ("TurnOrders", "gold"),
    ("TurnOrders", "robber_else"),
    ("RobberOrder", "pirate"),
    ("SetupPlacement", "ship"),
    ("RoadBuilding", "first_ship"),
    ("RoadBuilding", "second_ship"),
    # Not Seafarers', but stored the same way: a mail whose main build line was refused.
    ("SubstituteBlock", "main_refused"),
}

#: Every order class by its name: the build-step orders (the one list, `orders.BUILD_ACTIONS`)
#: and the others.
_CLASSES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        *o.BUILD_ACTIONS,
        o.SetupPlacement,
        o.RobberOrder,
        o.Knight,
        o.Monopoly,
        o.DiscardPreference,
        o.TradeOffer,
        o.Alternatives,
        o.SubstituteBlock,
        o.TurnOrders,
        o.SetupOrders,
    )
}


def to_data(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        out: dict[str, Any] = {"t": name}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if (name, f.name) in _SEA_FIELDS and v == f.default:
                continue
            out[f.name] = to_data(v)
        return out
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [to_data(v) for v in value]
    return value


def from_data(data: Any) -> Any:
    if isinstance(data, dict):
        cls = _CLASSES[data["t"]]
        kwargs = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                continue  # stored before the field existed: its default
            v = data[f.name]
            if f.name == "timing":
                kwargs[f.name] = o.Timing(v)
            else:
                kwargs[f.name] = from_data(v)
        return cls(**kwargs)
    if isinstance(data, list):
        return tuple(from_data(v) for v in data)
    return data


def dumps(value: Any) -> str:
    return json.dumps(to_data(value), separators=(",", ":"))


def loads(text: str) -> Any:
    return from_data(json.loads(text))
