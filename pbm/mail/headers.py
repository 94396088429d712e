"""The `email` package's default policy with a header factory that remembers what it made.

Every header set on an `EmailMessage` (by us, or by `set_content`, `add_alternative`,
`set_boundary` for the MIME headers) goes through the policy's header factory, which builds
a new class for the header's kind (`type(...)`, each time) and parses the value. An order
mail's acknowledgement sets about 27 headers, most of them the same in every mail (the MIME
headers, From, Auto-Submitted, the loop guard): that was about a third of building it.

`CachedHeaders` keeps one class per header name, and the header objects made for values seen
before. A header object is never changed once made (the message replaces it when a value
changes), so one object may stand in any number of messages; the messages flatten to the same
bytes as with the default policy (the same classes, the same parse).

A header kept so is folded once for each way of writing it (`FoldedOnce`): the standard
generator folds every header of every message again, through the parse tree, and that was
most of flattening an acknowledgement.
"""

from __future__ import annotations

import email.policy
from email.headerregistry import BaseHeader, HeaderRegistry
from typing import Any

#: Header objects kept; the store is emptied when full. A header object keeps its parse tree
#: (some 6 kB): 512 of them, most of them values of one message, were 3 MB of `pbm serve`
#: after a tick over a thousand games (docs/performance.md, twelfth round).
KEPT_HEADERS = 128
#: Headers whose value is one message's own (or one recipient's): made, not kept, as they
#: would never be asked for again. A multipart's Content-Type carries its boundary, which is
#: the message's own too, so it is not kept either.
OWN_VALUES = frozenset(
    {"message-id", "date", "to", "cc", "subject", "in-reply-to", "references", "content-id"}
)


class FoldedOnce(BaseHeader):
    """A header that keeps its folded form for the policy it was last folded for: what
    `fold` reads of the policy is its line length, line separator and whether it may write
    UTF-8 (RFC 6532). The header's value never changes, so neither does its fold."""

    def fold(self, *, policy: Any) -> str:
        key = (policy.max_line_length, policy.linesep, policy.utf8)
        kept = self.__dict__.get("_pbm_folded")
        if kept is not None and kept[0] == key:
            return str(kept[1])
        folded = str(super().fold(policy=policy))
        self.__dict__["_pbm_folded"] = (key, folded)
        return folded


class CachedHeaders(HeaderRegistry):
    """A `HeaderRegistry` with a class per header name made once and a store of headers made."""

    def __init__(self) -> None:
        super().__init__(base_class=FoldedOnce)
        self._classes: dict[str, type[BaseHeader]] = {}
        self._made: dict[tuple[str, str], Any] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        key = name.lower()
        cls = self._classes.get(key)
        if cls is None:
            cls = self._classes[key] = super().__getitem__(name)
        return cls

    def __call__(self, name: str, value: Any) -> Any:
        if not isinstance(value, str) or name.lower() in OWN_VALUES or "boundary=" in value:
            # The policy takes other values too (an `Address`, a list): made, not kept.
            return self[name](name, value)
        key = (name, value)
        header = self._made.get(key)
        if header is None:
            header = self[name](name, value)
            if len(self._made) >= KEPT_HEADERS:
                self._made.clear()
            self._made[key] = header
        return header


#: `email.policy.default` with `CachedHeaders`: what outgoing messages are built with.
POLICY = email.policy.default.clone(header_factory=CachedHeaders())
