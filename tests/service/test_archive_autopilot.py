"""The web archive marks what the autopilot did as the round report does: a line its orders
made for an absent seat ends "(autopilot)" (German "(Autopilot)"), no line of a player's own
orders does, and the autopilot's failed lines are left out as in the mail; the lines come in
the report's order. Before, the archive told "rød (Spieler 0) bygger by …" as the player's
own move, where the report to every player had said the autopilot played it."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from databases import game_row, game_state, outbox, records, seated
from harness import Games, Mailer, send_orders
from mail_text import report_log

from pbm.notation import vocab
from pbm.reports.describe import describe, ordered_by, player_label
from pbm.rules.events import OrderFailed, event_from_json
from pbm.service.archive import page_name, write_archive
from pbm.service.clock import FakeClock
from pbm.service.context import Service

AWAY_WORDS = {
    "de": ("Kennwort", "Urlaub bis"),
    "en": ("Password", "Away until"),
    "da": ("Adgangskode", "Væk indtil"),
}
MARK = {"de": " (Autopilot)", "en": " (autopilot)", "da": " (autopilot)"}
#: The seat that goes away.
AWAY = 2


def _archive_log(folder: Path, round_: int) -> list[str]:
    page = (folder / page_name(round_)).read_text(encoding="utf-8")
    m = re.search(r'<pre id="log">(.*?)</pre>', page, re.S)
    assert m is not None
    return html.unescape(m.group(1)).splitlines()


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_the_archive_marks_what_the_autopilot_did_as_the_report_does(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock, tmp_path: Path, lang: str
) -> None:
    table = games.start("alpha", lang=lang)
    me = seated(svc, "alpha")[AWAY].address
    until = (clock.now() + timedelta(days=30)).date().isoformat()
    password, away = AWAY_WORDS[lang]
    mailer.send(me, "Away", f"{password}: {table.passwords[me]}\n{away} {until}\n")
    # Rounds played by the others until the autopilot's orders for the seat did something.
    for _ in range(6):
        round_ = game_row(svc, "alpha").round
        send_orders(mailer, "alpha", [s for s in range(4) if s != AWAY], pw=table.passwords)
        record = records(svc, "alpha")[-1]
        events = [event_from_json(e) for e in json.loads(record.events)]
        if any(ordered_by(e) == AWAY for e in events):
            break
    else:
        raise AssertionError("the autopilot did nothing for the seat in six rounds")
    acted = [e for e in events if ordered_by(e) == AWAY]
    (report,) = [o for o in outbox(svc, "report") if o.step == record.step]
    mailed = report_log(report.body)

    folder = tmp_path / "arch"
    write_archive(svc, "alpha", folder)
    shown = _archive_log(folder, round_)

    marked = [line for line in shown if line.endswith(MARK[lang])]
    assert len(marked) == len(acted), (acted, shown)
    labels = {
        s: player_label(vocab.colour_name(p.colour or "", lang), p.name)
        for s, p in seated(svc, "alpha").items()
    }
    for line in marked:
        assert labels[AWAY] in line, line
        assert not any(labels[s] in line for s in range(4) if s != AWAY), line
    # As the mail: the same lines in the same order, but for a purchase, which the mail tells
    # by the buyer's code and the archive by its number (no code is public).
    assert len(shown) == len(mailed), (shown, mailed)
    for archived, sent in zip(shown, mailed, strict=True):
        bought = re.fullmatch(r"(.*: \w+ \d+) → \w+( \(\w+\))?", sent)
        if bought:  # "gul (Spieler 2): kort 2 → ZAH" / "gul (Spieler 2): kort 2 købt"
            assert archived.startswith(bought[1] + " ") and archived.endswith(bought[2] or "")
        else:
            assert archived == sent, (archived, sent)
    # No failed line of the autopilot's: its orders are a plan whose lines fail harmlessly.
    _, state = game_state(svc, "alpha")
    names = {p: seat.name for p, seat in seated(svc, "alpha").items()}
    for e in events:
        if isinstance(e, OrderFailed) and e.player == AWAY:
            assert describe(e, state, lang, names) not in shown, e
