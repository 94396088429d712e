"""The static web archive of a game (issue 15): `pbm game archive GAME DIR`, and with
`[archive] dir` set, `pbm serve` keeps every game's archive up to date after each round.

The archive is plain files (`index.html`, `round-001.html` …, `board-001.png` …, `vp.svg`) that
any web server serves, or a browser opens from the file system. It holds only what every player
was told at that round (the round's public log, the board, the hands as counts, the visible
victory points), and at the game's end what the end report revealed. Never a password, an
address, a codebook, a card purchase's code, an unrevealed card or the dice seed.

It is made to be published, by a web server that may run as another user: its files are
written 0644 and the folders pbm creates for it 0755, whatever the umask (`pbm` runs with
0o077); folders that exist keep their modes, so a GM who wants it private keeps it in a
folder of mode 0700 or 0750 (docs/security.md, "File modes").
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from sqlmodel import Session, col, select

from pbm.files import public_dir, write_public
from pbm.i18n import translator
from pbm.notation import vocab
from pbm.reports.chart import vp_chart_svg
from pbm.reports.pieces import pieces_text, places_text
from pbm.reports.render import environment
from pbm.reports.report_data import changed_lines, log_lines, player_label
from pbm.reports.summary import game_summary, name_columns
from pbm.rules import GameState, state_from_json
from pbm.rules.events import event_from_json
from pbm.store.db import reading
from pbm.store.models import Game, RoundRecord
from pbm.store.statuses import GamePhase

from . import corrections
from .context import Service
from .games import game_kind_of, get_game, players_of
from .records import autopilot_seats, game_events

log = logging.getLogger("pbm")


def page_name(round_: int) -> str:
    return f"round-{round_:03d}.html"


def _public_name(name: str) -> str:
    """A name fit for the web: never an address."""
    return "" if "@" in name else name


def _rounds(session: Session, game: Game) -> list[tuple[int, GameState, list[Any]]]:
    """(round, state after, events) of every resolved round, in order."""
    rows = session.exec(
        select(RoundRecord)
        .where(RoundRecord.game_id == game.id, RoundRecord.kind == "round")
        .order_by(col(RoundRecord.step))
    )
    out = []
    for rec in rows:
        state = state_from_json(json.loads(rec.state_after))
        events = [event_from_json(e) for e in json.loads(rec.events)]
        out.append((rec.round, state, events))
    return out


def _corrections(
    game: Game,
    round_: int,
    state: GameState,
    lines: list[str],
    names: dict[int, str],
    quiet: frozenset[int],
) -> list[dict[str, Any]]:
    """The corrections of a round whose report had gone out, oldest first: the GM's reason
    and the lines of the log that went and came with each (`corrections.corrected`), each
    version told as the page tells the round (`log_lines`, the autopilot's seats `quiet`)."""
    lang = game.locale
    found = corrections.corrected(game).get(str(round_), [])
    versions = [
        log_lines([event_from_json(e) for e in entry["events"]], state, lang, quiet, names)
        for entry in found
    ]
    versions.append(lines)
    out = []
    for i, entry in enumerate(found):
        removed, added = changed_lines(versions[i], versions[i + 1])
        out.append({"why": entry["why"], "removed": removed, "added": added})
    return out


def _players(state: GameState, labels: list[str], final: bool, lang: str) -> list[dict[str, Any]]:
    return [
        {
            "label": labels[p],
            # Every piece on the board, as the report lists them (`pieces.pieces_text`).
            "pieces": pieces_text(state, p, lang),
            "cards": sum(state.hands[p]),
            "dev": len(state.cards[p]),
            "knights": state.knights[p],
            "vp": state.vp(p) if final else state.visible_vp(p),
        }
        for p in range(len(state.colours))
    ]


def archive_data(session: Session, game: Game) -> dict[str, Any]:
    """Everything the archive's pages show, as plain data (no database rows)."""
    lang = game.locale  # the edition's words too (de@modern)
    seated = players_of(session, game)
    names = {p.seat: _public_name(p.name) for p in seated if p.seat is not None}
    if game.anonymous:
        names = {seat: "" if "@" in n else n for seat, n in names.items()}
    rounds = _rounds(session, game)
    # The seats the autopilot played, by round: the page marks what it did, as the report did.
    piloted = autopilot_seats(session, game)
    current = state_from_json(json.loads(game.state)) if game.state else None
    colours = list(current.colours) if current else []
    labels = [
        player_label(vocab.colour_name(c, lang), names.get(i, "")) for i, c in enumerate(colours)
    ]
    ended = game.phase == GamePhase.ENDED
    won = current is not None and current.winner >= 0
    # Over, won or ended by the GM: every hidden card is revealed and counted (the end mail
    # showed them), so the standing, the chart and the game in numbers agree.
    revealed = ended and current is not None
    pages = []
    for i, (round_, state, events) in enumerate(rounds):
        last = i == len(rounds) - 1
        quiet = piloted.get(round_, frozenset())
        # The round's log as its report told it, but for a purchase: its number, not the
        # buyer's code ("(autopilot)" on what the autopilot did, none of its failed lines).
        lines = log_lines(events, state, lang, quiet, names)
        pages.append(
            {
                "round": round_,
                # Corrected after its report went out: the GM's reason and what changed.
                "corrections": _corrections(game, round_, state, lines, names, quiet),
                "file": page_name(round_),
                "board": f"board-{round_:03d}.png",
                "log": lines,
                "players": _players(state, labels, last and revealed, lang),
                "places": places_text(state, lang),
                "prev": page_name(rounds[i - 1][0]) if i > 0 else "",
                "next": page_name(rounds[i + 1][0]) if not last else "",
            }
        )
    chart = _chart(game, rounds, labels, colours, revealed)
    summary = game_summary(game_events(session, game), current, lang) if ended and current else None
    if summary is not None:
        name_columns(summary, [names.get(p, "") for p in range(len(colours))])
    standing = _players(current, labels, revealed, lang) if current else []
    return {
        "lang": lang,
        "game": game.name,
        "phase": str(game.phase),
        "ended": ended,
        "round": game.round,
        # What game this is, as its mails say it: the kind, the players and the target, the
        # special rules, the islands (`reports.identity.game_kind`).
        "kind": _kind(game, current),
        "winner": labels[current.winner] if won and current else "",
        "winner_vp": standing[current.winner]["vp"] if won and current else 0,
        # Ended by the game master (nobody won): the reason given (`pbm game end --why`).
        "ended_by_gm": ended and not won,
        "ended_why": game.ended_why if ended and not won else "",
        "roster": labels,
        "standing": standing,
        # Where the robber (and the pirate) stand now, as the round pages say it.
        "places": places_text(current, lang) if current else "",
        "chart": chart,
        "pages": pages,
        "summary": summary,
    }


def _kind(game: Game, state: GameState | None) -> dict[str, Any] | None:
    """The game's identity (`games.game_kind_of`); None when its settings cannot be read (the
    archive of a broken game is written all the same)."""
    try:
        return game_kind_of(game, state)
    except Exception:
        log.warning("archive of %s: its kind cannot be told", game.name)
        return None


def _chart_args(
    game: Game,
    rounds: list[tuple[int, GameState, list[Any]]],
    labels: list[str],
    colours: list[str],
    won: bool,
) -> tuple[str, list[int], list[tuple[str, str]], list[list[int]], str, str]:
    """What the VP chart draws (`chart.vp_chart_svg`'s arguments, `chart_png.vp_chart_png`'s
    too): the visible points after each round (at the game's end, won or ended by the GM,
    all points: `won`)."""
    tr = translator(game.locale)
    series = [
        [
            (state.vp(p) if (won and i == len(rounds) - 1) else state.visible_vp(p))
            for i, (_, state, _e) in enumerate(rounds)
        ]
        for p in range(len(colours))
    ]
    return (
        tr.gettext("Victory points of {game} over the rounds").format(game=game.name),
        [r for r, _, _ in rounds],
        list(zip(labels, colours, strict=True)),
        series,
        tr.pgettext("chart", "Round"),
        tr.pgettext("chart", "Victory points"),
    )


def _chart(
    game: Game,
    rounds: list[tuple[int, GameState, list[Any]]],
    labels: list[str],
    colours: list[str],
    won: bool,
) -> str:
    """The VP chart as SVG, or "" before the first round."""
    if not rounds:
        return ""
    return vp_chart_svg(*_chart_args(game, rounds, labels, colours, won))


def end_chart(session: Session, game: Game, labels: list[str]) -> str:
    """The VP chart as SVG (`labels` as the report names the players)."""
    rounds = _rounds(session, game)
    if not rounds:
        return ""
    final = rounds[-1][1]
    return _chart(game, rounds, labels, list(final.colours), final.winner >= 0)


def end_chart_png(session: Session, game: Game, labels: list[str]) -> tuple[bytes, str] | None:
    """The VP chart for the HTML part of the game-end mail, as PNG (mail programs such as Gmail
    strip inline SVG), with its title for the picture's alt text; None before the first round.
    `labels`: as the report names the players."""
    from pbm.reports.chart_png import vp_chart_png

    rounds = _rounds(session, game)
    if not rounds:
        return None
    final = rounds[-1][1]
    args = _chart_args(game, rounds, labels, list(final.colours), final.winner >= 0)
    return vp_chart_png(*args), args[0]


def _write(path: Path, data: bytes) -> None:
    """Written under another name, then renamed: a reader never sees half a page. Readable by
    everyone (0644): the archive is made to be published."""
    tmp = path.with_name(f".{path.name}.tmp")
    write_public(tmp, data)
    os.replace(tmp, path)


def write_archive(svc: Service, name: str, directory: Path) -> list[Path]:
    """Write (or bring up to date) the archive of the game `name` in `directory`; returns the
    files written. Board pictures of earlier rounds are kept (a round once resolved does not
    change, only the last one may be rolled back); pages of rounds no longer there go."""
    from pbm.reports.picture import board_png

    with reading(svc.engine) as session:
        game = get_game(session, name)
        data = archive_data(session, game)
        states = {r: s for r, s, _ in _rounds(session, game)}
    public_dir(directory)
    env = environment(data["lang"])
    written = []
    index = env.get_template("archive_index.html.j2").render(data)
    _write(directory / "index.html", index.encode())
    written.append(directory / "index.html")
    if data["chart"]:
        _write(directory / "vp.svg", data["chart"].encode())
        written.append(directory / "vp.svg")
    last = data["pages"][-1]["round"] if data["pages"] else 0
    for page in data["pages"]:
        html = env.get_template("archive_round.html.j2").render({**data, "page": page})
        _write(directory / page["file"], html.encode())
        board = directory / page["board"]
        if not board.exists() or page["round"] == last:
            _write(board, board_png(states[page["round"]], data["lang"]))
        written += [directory / page["file"], board]
    keep = {p.name for p in written}
    for old in directory.glob("round-*.html"):
        if old.name not in keep:
            old.unlink()
    for old in directory.glob("board-*.png"):
        if old.name not in keep:
            old.unlink()
    return written


def game_folder(root: str | Path, name: str) -> Path:
    """The folder of the game `name` in `[archive] dir`: a folder right inside it, resolved
    (`..`, an absolute name, a symbolic link), or ValueError. Names are checked when a game is
    created (`games.GAME_NAME`); a game created before that check may have any name."""
    base = Path(root).resolve()
    folder = (base / name).resolve()
    if folder.parent != base:
        raise ValueError(f"the game's name {name!r} is not a folder inside {base}")
    return folder


def keep_archives(svc: Service, names: list[str]) -> None:
    """After rounds were resolved: bring those games' archives in `[archive] dir` up to date.
    A failure is logged and never stops the service (the archive is written again next round).
    Nothing is ever written outside `[archive] dir`, whatever a game is called."""
    root = svc.config.archive.dir
    if not root:
        return
    for name in names:
        try:
            write_archive(svc, name, game_folder(root, name))
        except Exception:
            log.exception("archive of %s: not written", name)
