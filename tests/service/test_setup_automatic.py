"""A setup placement pbm makes itself at the turn's deadline (`pbm game tick`; the player sent
nothing it could use) was announced exactly like one the player chose ("blå placerer hus B3 C3
C4 …"): nobody learnt it was picked for them, that player included. Its line is marked now, in
every mail of it, and its player gets a mail of their own that says so first."""

from __future__ import annotations

import html
import re

import pytest
from databases import game_state, outbox, passwords, seated
from harness import Mailer, new_game, pass_deadline, setup_text, signup

from pbm.notation import vocab
from pbm.rules.setup import setup_player
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.tick import tick

#: The mark under the placement's line, and what the mail to its player says first.
SAYS = {
    "de": (
        "  automatisch gesetzt: die Frist war abgelaufen",
        "Die Frist deines Zugs ist ohne eine brauchbare Aufstellung von dir abgelaufen: "
        "pbm hat für dich gesetzt (unten die Aufstellung mit dem Vermerk „automatisch gesetzt“).",
    ),
    "en": (
        "  placed automatically: the deadline passed",
        "Your turn's deadline passed without a placement from you that could be used: "
        'pbm placed for you (below, the placement marked "placed automatically").',
    ),
    "da": (
        "  placeret automatisk: fristen var udløbet",
        "Fristen for din tur udløb uden en placering fra dig, der kunne bruges: "
        "pbm har placeret for dig (nedenfor placeringen mærket »placeret automatisk«).",
    ),
}


def _first_turn(svc: Service, mailer: Mailer, lang: str) -> tuple[str, str, list[str]]:
    """Game alpha in `lang`, signed up and in its setup: the address and colour of the player
    on turn, and every seated address."""
    new_game(svc, "alpha", lang=lang)
    signup(mailer, "alpha", 4)
    _, st = game_state(svc, "alpha")
    players = seated(svc, "alpha")
    seat = setup_player(st)
    colour = vocab.colour_name(st.colours[seat], lang)
    return players[seat].address, colour, [p.address for p in players.values()]


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_a_placement_made_at_the_deadline_is_marked_and_its_player_told(
    svc: Service, mailer: Mailer, clock: FakeClock, lang: str
) -> None:
    me, colour, everyone = _first_turn(svc, mailer, lang)
    mark, to_me = SAYS[lang]
    seen = len(outbox(svc))
    pass_deadline(svc, clock, "alpha")
    tick(svc)
    placed = [o for o in outbox(svc)[seen:] if o.kind == "placed"]
    (mine,) = [o for o in placed if o.recipients == me]
    (theirs,) = [o for o in placed if o.recipients != me]
    assert sorted(theirs.recipients.split(",")) == sorted(a for a in everyone if a != me)
    for mail in (mine, theirs):
        lines = mail.body.splitlines()
        # The mark stands right under the placement's line.
        at = next(i for i, line in enumerate(lines) if line.startswith(f"{colour} "))
        assert lines[at + 1] == mark, mail.body
    # The player reads first that the placement was made for them; the others are not told so.
    assert " ".join(mine.body.split()).startswith(to_me), mine.body
    # What that sentence quotes is the mark below, word for word (QA: "the line marked below"
    # named a mark the mail did not show as one); the HTML part sets the mark in bold.
    (quoted,) = re.findall(r"[\"„»]([^\"“«]+)[\"“«]", to_me)
    assert mark.strip().startswith(f"{quoted}: ")
    assert (
        f"<b>{html.escape(mark)}</b>" in mine.html and f"<b>{html.escape(mark)}</b>" in theirs.html
    )
    assert to_me.split(":")[0] not in " ".join(theirs.body.split())


def test_a_placement_the_player_sent_is_not_marked(
    svc: Service, mailer: Mailer, clock: FakeClock
) -> None:
    me, colour, everyone = _first_turn(svc, mailer, "de")
    _, st = game_state(svc, "alpha")
    seen = len(outbox(svc))
    mailer.send(me, "Aufstellung", setup_text(st, setup_player(st), passwords(svc)[me]))
    (placed,) = [o for o in outbox(svc)[seen:] if o.kind == "placed"]
    assert sorted(placed.recipients.split(",")) == sorted(everyone)
    assert f"{colour} setzt Siedlung" in placed.body
    assert "automatisch" not in placed.body and "Frist deines Zugs" not in placed.body
