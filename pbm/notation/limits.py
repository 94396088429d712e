"""How much of a mail the parser reads: caps that keep a hostile mail from costing much.

Every pattern of the order language runs in time linear in its input; these caps bound that
input, so that reading any mail costs at most a few milliseconds a line and a fixed number of
lines (see docs/order-language.md, "Limits").
"""

from __future__ import annotations

#: Characters of one line (as cleaned: without the blanks around it). Most order lines are
#: under 120 characters, but a setup placement takes 55 to 75 (with the echo's brackets), and
#: the canonical form of a ranking puts all of them on one line: twelve ranked placements, as
#: `format_setup_orders` writes them, take about 670. (SMTP allows 998 per line.) Longer lines
#: are refused unread.
MAX_LINE_CHARS = 1000

#: Lines of a mail body that are read (counted after cleaning: blank lines, quotes and comments
#: do not count). A whole round's orders take a few dozen; the rest of a longer mail is not read.
MAX_MAIL_LINES = 300

#: Digits of a number a player writes (a count, a round). No count or round needs more, and
#: `int()` of a long run of digits is slow and raises beyond 4,300 of them.
MAX_DIGITS = 6
