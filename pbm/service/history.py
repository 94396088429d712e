"""`Verlauf` / `History` (issue 15): the past rounds of a game for a player, as links into its web
archive when `[archive] url` is set, else the last reports (as sent to everybody) in one mail."""

from __future__ import annotations

from sqlmodel import Session, col, select

from pbm.i18n import translator
from pbm.store.models import Game, Outbox, RoundRecord
from pbm.store.statuses import OutboxStatus

from .archive import page_name
from .context import Service


def history_body(svc: Service, session: Session, game: Game, last: int) -> str:
    _ = translator(game.locale).gettext
    url = svc.config.archive.url.rstrip("/")
    rounds = sorted(
        {
            r
            for r in session.exec(
                select(RoundRecord.round).where(
                    RoundRecord.game_id == game.id, RoundRecord.kind == "round"
                )
            )
        }
    )
    if not rounds:
        return _("No round of {game} has been played yet.").format(game=game.name) + "\n"
    if url:
        base = f"{url}/{game.name}"
        lines = [_("The game's archive: {url}").format(url=f"{base}/index.html"), ""]
        lines += [
            _("Round {round}: {url}").format(round=r, url=f"{base}/{page_name(r)}") for r in rounds
        ]
        return "\n".join(lines) + "\n"
    # The reports as everybody got them (the game-end report too), newest last.
    # One per resolution step: a report retried for one recipient is another row of it.
    reports: list[Outbox] = []
    seen: set[int | None] = set()
    for row in session.exec(
        select(Outbox)
        .where(
            Outbox.game_id == game.id,
            col(Outbox.kind).in_(("report", "end")),
            Outbox.status != OutboxStatus.DROPPED,
        )
        .order_by(col(Outbox.id).desc())
    ):
        if row.step in seen:
            continue
        seen.add(row.step)
        reports.append(row)
        if len(reports) == last:
            break
    parts = [
        translator(game.locale)
        .ngettext(
            "The last report of {game} (rounds played: {rounds}):",
            "The last {count} reports of {game} (rounds played: {rounds}):",
            len(reports),
        )
        .format(count=len(reports), game=game.name, rounds=len(rounds))
    ]
    for row in reversed(reports):
        parts += ["", "=" * 72, row.subject, "=" * 72, "", row.body.rstrip()]
    return "\n".join(parts) + "\n"
