"""`Zurück` / `Back`: the player plays again (the autopilot off, an absence over)."""

from __future__ import annotations

from pbm.i18n import N_, translator
from pbm.notation import vocab
from pbm.store.statuses import PlayerStatus

from .. import texts
from ..order_intake import take_orders
from ..request import Request
from ..rounds import rounds_played_for, set_autopilot
from ..table import local_deadline, where_it_stands
from .command import MailCommand


def back(r: Request) -> str | None:
    assert r.player is not None
    if r.player.status == PlayerStatus.RESIGNED:
        r.player.status = PlayerStatus.ACTIVE
    was_away = r.player.away_until is not None and r.player.away_until > r.svc.clock.now()
    if was_away:
        from ..absence import announce_back

        announce_back(r.svc, r.session, r.game, r.player)
    # An absence ends with the player's return (`Urlaub bis …` is then forgotten).
    r.player.away_until = None
    # With orders, or lines refused beside the return (a typo, a time zone that is none), one
    # answer says both: the return and what became of every line.
    with_lines = r.parsed.has_orders() or r.parsed.has_refused()
    if not r.player.autopilot and was_away and not with_lines:
        # Back into a game lost track of: what the autopilot did meanwhile, what is open now.
        said = [
            translator(r.lang).gettext("Welcome back: your absence is over."),
            *_played_for_you(r),
            where_it_stands(r.session, r.game, r.player),
        ]
        r.reply(
            "ack",
            texts.t(r.lang, "ok_subject", game=r.game.name),
            "\n".join(line for line in said if line) + "\n",
        )
    switched = set_autopilot(r.svc, r.session, r.game, r.player, False, notify=not with_lines)
    if switched and not was_away:
        # The table heard when the autopilot took the seat: it hears that the player is back
        # (an absence over was announced above already).
        from ..absence import announce_back

        announce_back(r.svc, r.session, r.game, r.player)
    if not with_lines:
        if not switched and not was_away:
            # Nothing to come back from (an absence that ran out by itself, say): said so.
            r.reply(
                "ack",
                texts.t(r.lang, "ok_subject", game=r.game.name),
                texts.t(
                    r.lang,
                    "back_already",
                    colour=vocab.colour_name(r.player.colour or "", r.game.locale),
                    deadline=local_deadline(r.game, r.player),
                ),
            )
        return None
    # Said with the orders' answer too: if they are refused, the return still stands.
    _ = translator(r.lang).gettext
    if switched:
        r.changed = True
        colour = vocab.colour_name(r.player.colour or "", r.game.locale)
        r.notes.append(
            _("You play {colour} yourself again: the autopilot is off.").format(colour=colour)
        )
    elif was_away:
        r.changed = True
        r.notes.append(_("Welcome back: your absence is over."))
        r.notes += _played_for_you(r)
    elif not r.parsed.has_orders():
        # Nothing to come back from, and only lines refused: said beside them.
        colour = vocab.colour_name(r.player.colour or "", r.game.locale)
        r.notes.append(
            _("You play {colour} yourself already (no autopilot, no absence).").format(
                colour=colour
            )
        )
    return take_orders(r)


def _played_for_you(r: Request) -> list[str]:
    """The rounds the autopilot played for the returning player, said in one line ([] for
    none): what happened at their seat is theirs now."""
    assert r.player is not None
    played = rounds_played_for(r.session, r.game, r.player)
    if not played:
        return []
    text = translator(r.lang).ngettext(
        "While you were away, the autopilot played your seat in round {rounds}.",
        "While you were away, the autopilot played your seat in rounds {rounds}.",
        len(played),
    )
    # The rounds are the newest ones in a row: the first and the last say them all.
    rounds = str(played[0]) if len(played) == 1 else f"{played[0]}–{played[-1]}"
    return [text.format(rounds=rounds)]


COMMAND = MailCommand("back", "", N_("play yourself again (autopilot off)"), True, back)
