"""The order language: mail text ⇄ typed orders, with typed errors (see docs/order-language.md)."""

from .errors import AmbiguousError, IllegalOrderError, NotationError, OrderError
from .format import format_item
from .lines import Context, parse_line
from .mail import LineResult, ParsedMail, parse_mail

__all__ = [
    "AmbiguousError",
    "Context",
    "IllegalOrderError",
    "LineResult",
    "NotationError",
    "OrderError",
    "ParsedMail",
    "format_item",
    "parse_line",
    "parse_mail",
]
