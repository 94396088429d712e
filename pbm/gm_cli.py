"""The game master's commands: `pbm game …`, `pbm round …`, `pbm player …`, `pbm mail …`,
`pbm outbox …`, `pbm db …`. Thin: each parses its arguments and calls a service function.

The database, the service and the mail stack are imported inside the commands, never at the
top: `pbm sim`, `pbm board`, `pbm orders check` and `pbm --help` load this module too and must
stay free of sqlalchemy, alembic, the mail libraries, jinja2 and Pillow (tests/test_cli_imports.py).

Whatever the CLI prints that a player could have written (names, addresses, subjects, errors)
goes through `clean` first, in the text output and in `--json` alike: a mail must not be able to
drive the game master's terminal with escape sequences or reorder what it shows.
"""

from __future__ import annotations

import json
import logging
import sys
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer

if TYPE_CHECKING:
    from sqlmodel import Session

    from .service.context import Service
    from .store.models import Game, Player

game_app = typer.Typer(help="Create and run games.", no_args_is_help=True)
round_app = typer.Typer(help="The open round of a game.", no_args_is_help=True)
player_app = typer.Typer(help="Players of a game.", no_args_is_help=True)
mail_app = typer.Typer(help="Inbound mail: feed, quarantine, requeue.", no_args_is_help=True)
outbox_app = typer.Typer(help="Outgoing mail.", no_args_is_help=True)
db_app = typer.Typer(help="The database.", no_args_is_help=True)
observer_app = typer.Typer(
    help="Observers of a game: who gets the reports without a seat.", no_args_is_help=True
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]

_config_path: list[str | None] = [None]


# -- what the GM's terminal is shown ------------------------------------------------------------

#: Unicode categories removed from everything printed: controls (C0 and C1, so ESC and the
#: one-character CSI U+009B), format characters (bidi overrides such as U+202E, which reorder
#: what follows), line and paragraph separators, and lone surrogates (which no terminal
#: encoding can write).
UNPRINTED = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: Player names are cut to this many characters where the CLI prints them (text and JSON).
NAME_WIDTH = 40


def clean(text: object, limit: int | None = None) -> str:
    """`text` as it may be printed: without the characters of UNPRINTED, and cut to `limit`
    characters (the last one an ellipsis) when it is longer."""
    s = "" if text is None else str(text)
    # isprintable() is False for every character of UNPRINTED (and for some harmless ones,
    # such as a no-break space), so the usual text skips the loop.
    if not s.isprintable():
        s = "".join(ch for ch in s if unicodedata.category(ch) not in UNPRINTED)
    if limit is not None and len(s) > limit:
        s = s[: limit - 1] + "…"
    return s


def cleaned(data: Any) -> Any:
    """Every string in `data` (dict keys too) cleaned, for `--json`: json.dumps escapes the C0
    controls but, with ensure_ascii=False, writes C1 controls and bidi overrides as they are."""
    if isinstance(data, str):
        return clean(data)
    if isinstance(data, dict):
        return {clean(k) if isinstance(k, str) else k: cleaned(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [cleaned(v) for v in data]
    return data


def echo(line: str, err: bool = False) -> None:
    """Print one line of text output, cleaned."""
    typer.echo(clean(line), err=err)


def echo_text(text: str) -> None:
    """Print a text of several lines (a report, a map), each line cleaned."""
    typer.echo("\n".join(clean(line) for line in text.split("\n")))


def _print(data: Any, as_json: bool, text: Callable[[], None]) -> None:
    if as_json:
        typer.echo(json.dumps(cleaned(data), ensure_ascii=False, default=lambda o: clean(str(o))))
    else:
        text()


def _player_row(p: Player) -> dict[str, Any]:
    return {
        "seat": p.seat,
        "colour": p.colour,
        "name": clean(p.name, NAME_WIDTH),
        "address": clean(p.address),
        "status": p.status,
        "autopilot": p.autopilot,
        "nmr": p.nmr_count,
    }


def _game_row(session: Session, game: Game) -> dict[str, Any]:
    """summary() and the reason the service marked the game broken ("" while it is fine)."""
    from .service.games import summary

    data = summary(session, game)
    data["name"] = clean(data["name"])
    data["broken"] = clean(game.broken)
    return data


# -- the service --------------------------------------------------------------------------------


def _shown(url: str) -> str:
    """A database URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def set_config(path: str | None) -> None:
    _config_path[0] = path


def service() -> Service:
    from .config import load
    from .service.context import Service
    from .store.db import make_engine
    from .store.migrate import upgrade

    cfg = load(_config_path[0])
    upgrade(cfg.database_url)
    return Service(make_engine(cfg.database_url), config=cfg.service)


@contextmanager
def refusals() -> Iterator[None]:
    """A ServiceError is a refusal with a message, not a crash."""
    from .service.games import ServiceError

    try:
        yield
    except ServiceError as e:
        echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None


#: Third-party loggers held at WARNING, with `pbm serve -v` too: at DEBUG aioimaplib logs every
#: IMAP line (LOGIN with the password, FETCH with whole mails), aiosmtplib every SMTP line (AUTH,
#: DATA), aiosmtpd ("mail.log") and pymap their sessions, sqlalchemy statements with parameters.
QUIET_LOGGERS = (
    "aioimaplib",
    "aiosmtplib",
    "aiosmtpd",
    "mail.log",
    "pymap",
    "asyncio",
    "sqlalchemy",
)


def configure_logging(verbose: bool, stream: TextIO | None = None) -> None:
    """Logging for `pbm serve`: INFO lines to stderr (or `stream`); `verbose` lowers only the
    "pbm" logger to DEBUG, never the mail or database libraries' (QUIET_LOGGERS)."""
    logging.basicConfig(format="%(asctime)s %(levelname)s %(message)s", stream=stream)
    # basicConfig sets no level when the root logger has a handler already.
    logging.getLogger().setLevel(logging.INFO)
    logging.getLogger("pbm").setLevel(logging.DEBUG if verbose else logging.INFO)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


# -- init and db --------------------------------------------------------------------------------


def init_cmd(
    path: Annotated[Path, typer.Argument(help="Where to write the config.")] = Path("pbm.toml"),
    force: Annotated[bool, typer.Option(help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented pbm.toml (every key with its default) and create the database."""
    from importlib.resources import files

    from .config import load
    from .store.migrate import upgrade

    if path.exists() and not force:
        echo(f"error: {path} exists (use --force to overwrite)", err=True)
        raise typer.Exit(2)
    path.write_text(
        files("pbm").joinpath("config.example.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    cfg = load(path)
    upgrade(cfg.database_url)
    echo(f"wrote {path}; database ready at {_shown(cfg.database_url)}")


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Create or migrate the database schema to the newest version."""
    from .config import load
    from .store.migrate import upgrade

    cfg = load(_config_path[0])
    upgrade(cfg.database_url)
    echo(f"database up to date: {_shown(cfg.database_url)}")


# -- game ---------------------------------------------------------------------------------------


@game_app.command("create")
def game_create(
    name: str,
    players: Annotated[int, typer.Option(min=3, max=6)] = 4,
    size: Annotated[str | None, typer.Option(help="small, medium, large, huge")] = None,
    bank: Annotated[str, typer.Option(help="classic or unlimited")] = "classic",
    deadline: Annotated[str, typer.Option(help="normal, relaxed, fast or off")] = "normal",
    lang: Annotated[str, typer.Option(help="de or en")] = "de",
    seed: Annotated[int | None, typer.Option(help="Fixes board and dice.")] = None,
    early: Annotated[bool, typer.Option(help="Resolve when all orders are in.")] = True,
    card_limit: Annotated[int, typer.Option()] = 7,
    newcomer_protection: Annotated[bool, typer.Option()] = False,
    vp_target: Annotated[int | None, typer.Option()] = None,
    nmr_autopilot: Annotated[int, typer.Option(help="NMRs before the autopilot.")] = 3,
    as_json: JsonOpt = False,
) -> None:
    """Create a game and open its signup."""
    from .service.games import create_game, summary
    from .store.db import transaction

    svc = service()
    with refusals(), transaction(svc.engine) as session:
        game = create_game(
            svc,
            session,
            name,
            players=players,
            size=size,
            bank=bank,
            deadline=deadline,
            lang=lang,
            seed=seed,
            early_resolve=early,
            card_limit=card_limit,
            newcomer_protection=newcomer_protection,
            vp_target=vp_target,
            nmr_autopilot_after=nmr_autopilot,
        )
        data = summary(session, game)
    _print(data, as_json, lambda: echo(f"created {name}: signup open"))


@game_app.command("list")
def game_list(as_json: JsonOpt = False) -> None:
    """Every game with its phase and round; a game the service stopped shows why."""
    from sqlmodel import Session, col, select

    from .store.models import Game

    svc = service()
    with Session(svc.engine) as session:
        rows = [_game_row(session, g) for g in session.exec(select(Game).order_by(col(Game.id)))]

    def text() -> None:
        for r in rows:
            paused = " (paused)" if r["paused"] else ""
            broken = f" (broken: {r['broken']})" if r["broken"] else ""
            echo(
                f"{r['name']:20} {r['phase']:8} round {r['round']:3} "
                f"{r['players']}/{r['seats']} players{paused}{broken}"
            )

    _print(rows, as_json, text)


@game_app.command("show")
def game_show(name: str, as_json: JsonOpt = False) -> None:
    """A game's settings, deadline and players; a game the service stopped shows why."""
    from sqlmodel import Session

    from .service.games import get_game, players_of

    svc = service()
    with refusals(), Session(svc.engine) as session:
        game = get_game(session, name)
        data = _game_row(session, game)
        data["players_list"] = [_player_row(p) for p in players_of(session, game)]

    def text() -> None:
        for k, v in data.items():
            if k == "broken":
                if v:  # nothing to say about a game that is fine
                    echo(f"{k:16} {v}")
                continue
            echo(f"{k:16} {v}")

    _print(data, as_json, text)


@game_app.command("start")
def game_start(name: str) -> None:
    """Close the signup early and draw seats with the players who joined (at least 3)."""
    from .service.games import get_game
    from .service.signup import draw_now
    from .store.db import transaction

    svc = service()
    with refusals(), transaction(svc.engine) as session:
        draw_now(svc, session, get_game(session, name, lock=True))
    echo(f"{name}: seats drawn, setup begins")


def _set_paused(name: str, paused: bool) -> None:
    from .service.games import get_game
    from .store.db import transaction

    svc = service()
    with refusals(), transaction(svc.engine) as session:
        game = get_game(session, name, lock=True)
        game.paused = paused
    echo(f"{name}: {'paused' if paused else 'running'}")


@game_app.command("pause")
def game_pause(name: str) -> None:
    """Stop deadlines and orders until resume."""
    _set_paused(name, True)


@game_app.command("resume")
def game_resume(name: str) -> None:
    """Restart deadlines and orders; a game the service marked broken runs again, and the
    mails held for it meanwhile are read now, oldest first."""
    from .service.broken import resume

    svc = service()
    with refusals():
        held = resume(svc, name)
    echo(f"{name}: running" + (f"; {len(held)} held mails read" if held else ""))


@game_app.command("replay")
def game_replay(name: str, as_json: JsonOpt = False) -> None:
    """Rebuild the game from settings, seed and stored orders; compare with the stored events.
    Exit status 1 on any difference."""
    from sqlmodel import Session

    from .service import gm
    from .service.games import get_game

    svc = service()
    with refusals(), Session(svc.engine) as session:
        result = gm.replay(session, get_game(session, name))
    data = {"steps": result.steps, "ok": result.ok, "mismatches": result.mismatches}
    _print(
        data,
        as_json,
        lambda: echo(
            f"{result.steps} steps replayed: "
            + ("identical" if result.ok else f"differences at steps {result.mismatches}")
        ),
    )
    raise typer.Exit(0 if result.ok else 1)


@game_app.command("board")
def game_board(
    name: str,
    png: Annotated[Path | None, typer.Option("--png", help="Write the picture here.")] = None,
) -> None:
    """The board of a running game: a text map, or the PNG picture with `--png FILE`."""
    from sqlmodel import Session

    from .service.games import get_game, load_state

    svc = service()
    with refusals(), Session(svc.engine) as session:
        game = get_game(session, name)
        state = load_state(game)
    if png:
        from .reports.picture import board_png

        png.write_bytes(board_png(state, game.lang))
        echo(f"{png}: {png.stat().st_size} bytes")
    else:
        from .reports.report_data import board_map

        echo_text(board_map(state, game.lang))


@game_app.command("tick")
def game_tick() -> None:
    """Do what is due now in every game (deadlines, reminders), once."""
    from .service.tick import tick

    result = tick(service())
    echo(f"resolved {result.resolved}, placed {result.placed}, reminded {result.reminded}")


# -- round --------------------------------------------------------------------------------------


@round_app.command("status")
def round_status(name: str, as_json: JsonOpt = False) -> None:
    """Who has sent orders for the open round."""
    from sqlmodel import Session

    from .service.games import get_game, players_of
    from .service.rounds import waiting_for

    svc = service()
    with refusals(), Session(svc.engine) as session:
        game = get_game(session, name)
        missing = {p.id for p in waiting_for(session, game)}
        rows = [
            {
                "colour": p.colour,
                "name": clean(p.name, NAME_WIDTH),
                "orders": p.id not in missing,
                "autopilot": p.autopilot,
                "status": p.status,
            }
            for p in players_of(session, game)
        ]
        data = {"game": name, "round": game.round, "deadline": game.deadline, "players": rows}

    def text() -> None:
        echo(f"{name} round {data['round']}, deadline {data['deadline']}")
        for r in rows:
            mark = "autopilot" if r["autopilot"] else ("orders in" if r["orders"] else "waiting")
            echo(f"  {r['colour'] or '-':8} {r['name']:20} {mark}")

    _print(data, as_json, text)


@round_app.command("resolve")
def round_resolve(
    name: str,
    now: Annotated[bool, typer.Option("--now", help="Resolve even if not due.")] = False,
) -> None:
    """Resolve the open round if it is due (deadline passed or all orders in), or `--now`."""
    from .service.games import ServiceError, get_game
    from .service.rounds import resolve
    from .service.tick import tick
    from .store.db import transaction

    svc = service()
    with refusals():
        if now:
            with transaction(svc.engine) as session:
                game = get_game(session, name, lock=True)
                if game.phase != "rounds":
                    raise ServiceError(f"{name} has no open round")
                resolve(svc, session, game)
            echo(f"{name}: resolved")
        else:
            result = tick(svc)
            echo(f"{name}: " + ("resolved" if name in result.resolved else "not due"))


@round_app.command("preview")
def round_preview(name: str) -> None:
    """Print the report resolving now would send, and change nothing."""
    from sqlmodel import Session

    from .service import gm
    from .service.games import get_game

    svc = service()
    with refusals(), Session(svc.engine) as session:
        game = get_game(session, name)
        result = gm.preview(svc, session, game)
        session.rollback()
    echo_text(result.report)


@round_app.command("extend")
def round_extend(name: str, hours: Annotated[float, typer.Option(help="Hours to add.")]) -> None:
    from .service.games import extend_deadline, get_game
    from .store.db import transaction

    svc = service()
    with refusals(), transaction(svc.engine) as session:
        deadline = extend_deadline(svc, get_game(session, name, lock=True), hours)
    echo(f"{name}: deadline {deadline:%Y-%m-%d %H:%M} UTC")


@round_app.command("rollback")
def round_rollback(name: str) -> None:
    """Throw away the last resolution (events and unsent reports); the state goes back."""
    from .service import gm
    from .service.games import get_game
    from .store.db import transaction

    svc = service()
    with refusals(), transaction(svc.engine) as session:
        step = gm.rollback(svc, session, get_game(session, name, lock=True))
    echo(f"{name}: step {step} rolled back")


# -- player -------------------------------------------------------------------------------------


@player_app.command("list")
def player_list(name: str, as_json: JsonOpt = False) -> None:
    from sqlmodel import Session

    from .service.games import get_game, players_of

    svc = service()
    with refusals(), Session(svc.engine) as session:
        rows = [_player_row(p) for p in players_of(session, get_game(session, name))]

    def text() -> None:
        for r in rows:
            echo(
                f"{r['seat'] if r['seat'] is not None else '-':>2} {r['colour'] or '-':8}"
                f" {r['name']:20} {r['address']:30} {r['status']}"
                f"{' autopilot' if r['autopilot'] else ''}"
            )

    _print(rows, as_json, text)


@player_app.command("replace")
def player_replace(name: str, colour: str, address: str) -> None:
    """A new person takes a seat: new address and password, same seat and colour."""
    from .service import gm
    from .service.games import get_game
    from .store.db import transaction

    svc = service()
    with refusals(), transaction(svc.engine) as session:
        gm.replace_player(svc, session, get_game(session, name, lock=True), colour, address)
    echo(f"{name}: {colour} is now {address}; a welcome mail with the password is queued")


@player_app.command("password")
def player_password(name: str, colour: str) -> None:
    """A new password for a player who lost theirs, mailed to their registered address."""
    from .service import gm
    from .service.games import get_game
    from .store.db import transaction

    svc = service()
    with refusals(), transaction(svc.engine) as session:
        player = gm.new_password_for(svc, session, get_game(session, name, lock=True), colour)
        address = player.address
    echo(f"{name}: a new password for {colour} is queued to {address}")


@player_app.command("autopilot")
def player_autopilot(name: str, colour: str, state: str) -> None:
    """Switch the autopilot for a seat `on` or `off`."""
    from .service import gm
    from .service.games import get_game
    from .store.db import transaction

    if state not in ("on", "off"):
        raise typer.BadParameter("on or off")
    svc = service()
    with refusals(), transaction(svc.engine) as session:
        gm.autopilot(svc, session, get_game(session, name, lock=True), colour, state == "on")
    echo(f"{name}: autopilot {state} for {colour}")


def codebook_cmd(name: str, colour: str) -> None:
    """A player's codebook, for the GM to send to a player who lost it."""
    from sqlmodel import Session

    from .reports import codebook
    from .rules.state import deck_for
    from .service.games import get_game, settings_of
    from .service.gm import colour_player

    svc = service()
    with refusals(), Session(svc.engine) as session:
        game = get_game(session, name)
        player = colour_player(session, game, colour)
        rows = sum(deck_for(settings_of(game)).values())
        for line in codebook.table(player.codebook_secret, rows, game.lang):
            echo(line)


def decode_cmd(
    token: str,
    key: Annotated[str, typer.Option("--key", help="The key from your welcome mail.")],
) -> None:
    """Read a sealed notice of a card purchase with the player's key (no database needed)."""
    from .reports import codebook

    card = codebook.unseal(key, token)
    if card is None:
        echo("error: this key does not open this notice", err=True)
        raise typer.Exit(1)
    echo(f"{codebook.CARD_NAMES['de'][card]} / {codebook.CARD_NAMES['en'][card]}")


# -- mail and outbox ----------------------------------------------------------------------------


@mail_app.command("ingest")
def mail_ingest(
    file: Annotated[
        Path | None, typer.Argument(help="A raw mail (.eml); - or none: standard input.")
    ] = None,
) -> None:
    """Feed one raw mail to the service, as the IMAP poller would (also for a local MTA's pipe)."""
    from .service.ingest import ingest
    from .service.tick import resolve_if_ready

    # "-" is standard input, as for other tools; a file of that name is "./-".
    raw = sys.stdin.buffer.read() if file is None or str(file) == "-" else file.read_bytes()
    svc = service()
    result = ingest(svc, raw)
    if result.game:
        resolve_if_ready(svc, result.game)
    echo(f"mail {result.mail_id}: {result.status}")


@mail_app.command("quarantine")
def mail_quarantine(as_json: JsonOpt = False) -> None:
    """Mails whose processing failed, kept with their error."""
    from sqlmodel import Session, col, select

    from .store.models import InboundMail

    svc = service()
    with Session(svc.engine) as session:
        rows: list[dict[str, Any]] = [
            {
                "id": m.id,
                "message_id": clean(m.message_id),
                "sender": clean(m.sender),
                "subject": clean(m.subject),
                "received_at": m.received_at,
                "error": clean(m.error.strip().splitlines()[-1]) if m.error.strip() else "",
            }
            for m in session.exec(
                select(InboundMail)
                .where(InboundMail.status == "quarantined")
                .order_by(col(InboundMail.id))
            )
        ]

    def text() -> None:
        for r in rows:
            echo(f"{r['id']:5} {r['sender']:30} {r['subject'][:30]:30} {r['error']}")

    _print(rows, as_json, text)


@mail_app.command("requeue")
def mail_requeue(mail_id: int) -> None:
    """Process a quarantined (or any stored) mail again."""
    from .service.ingest import requeue

    svc = service()
    try:
        result = requeue(svc, mail_id)
    except KeyError:
        echo(f"error: no mail {mail_id}", err=True)
        raise typer.Exit(2) from None
    echo(f"mail {mail_id}: {result.status}")


@outbox_app.command("list")
def outbox_list(
    status: Annotated[str | None, typer.Option(help="pending, sent, failed, dropped")] = None,
    as_json: JsonOpt = False,
) -> None:
    from sqlmodel import Session, col, select

    from .store.models import Outbox

    svc = service()
    with Session(svc.engine) as session:
        query = select(Outbox).order_by(col(Outbox.id))
        if status:
            query = query.where(Outbox.status == status)
        rows: list[dict[str, Any]] = [
            {
                "id": o.id,
                "kind": o.kind,
                "to": clean(o.recipients),
                "subject": clean(o.subject),
                "status": o.status,
                "attempts": o.attempts,
                "last_error": clean(o.last_error),
            }
            for o in session.exec(query)
        ]

    def text() -> None:
        for r in rows:
            echo(f"{r['id']:5} {r['status']:8} {r['kind']:10} {r['to'][:40]:40} {r['subject']}")

    _print(rows, as_json, text)


@outbox_app.command("retry")
def outbox_retry(row_id: int) -> None:
    """Send a failed (or dropped) outbox mail again."""
    from .service import gm
    from .store.db import transaction

    svc = service()
    with refusals(), transaction(svc.engine) as session:
        gm.retry_mail(svc, session, row_id)
    echo(f"outbox {row_id}: pending again")


# -- the service --------------------------------------------------------------------------------


def serve_cmd(
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Log pbm's debug lines.")
    ] = False,
) -> None:
    """Run the service: the IMAP inbox, deadlines and the SMTP outbox, until SIGTERM."""
    import asyncio

    from .config import load
    from .service.serve import serve

    configure_logging(verbose)
    cfg = load(_config_path[0])
    asyncio.run(serve(service(), cfg.serve))


def poll_cmd(as_json: JsonOpt = False) -> None:
    """One pass of everything (stored mails, the inbox, deadlines, the outbox), then exit."""
    import asyncio

    from .config import load
    from .service.serve import poll_once

    cfg = load(_config_path[0])
    result = asyncio.run(poll_once(service(), cfg.serve))
    _print(result, as_json, lambda: echo(" ".join(f"{k}={v}" for k, v in result.items())))


bench_app = typer.Typer(
    help="Benchmarks: figures as a table, --json for machines.", no_args_is_help=True
)
_PASS = {"allow_extra_args": True, "ignore_unknown_options": True}


@bench_app.command("engine", context_settings=_PASS)
def bench_engine(ctx: typer.Context) -> None:
    """Engine rolls/s (random bots) beside catanatron 3.2.1 in its own venv.
    Options: --games N, --seed S, --json, --skip-catanatron."""
    from .bench.engine import main as run

    raise typer.Exit(run(list(ctx.args)))


@bench_app.command("orders", context_settings=_PASS)
def bench_orders(ctx: typer.Context) -> None:
    """A 15-line order mail parsed, checked and resolved: ms per mail. Options: --json."""
    from .bench.orders import main as run

    run(list(ctx.args))


@bench_app.command("rounds", context_settings=_PASS)
def bench_rounds(ctx: typer.Context) -> None:
    """N due games resolved with reports into the outbox. Options: --games N,
    --database URL, --json."""
    from .bench.rounds import main as run

    run(list(ctx.args))


@bench_app.command("mail", context_settings=_PASS)
def bench_mail(ctx: typer.Context) -> None:
    """N order mails end to end over loopback IMAP/SMTP beside the transport alone.
    Options: --mails N, --dovecot, --json."""
    from .bench.mail import main as run

    run(list(ctx.args))


@bench_app.command("serve", context_settings=_PASS)
def bench_serve(ctx: typer.Context) -> None:
    """`pbm serve` as a subprocess with N due games: peak and idle RSS, seconds to resolve
    and send everything. Options: --games N, --discard, --tick-seconds S, --send-seconds S,
    --json, --keep."""
    from .bench.serve import main as run

    run(list(ctx.args))


# -- observers ----------------------------------------------------------------------------------


@observer_app.command("list")
def observer_list(name: str, as_json: JsonOpt = False) -> None:
    """Observers of a game: confirmed (`observer`) and asked but not confirmed
    (`observer_pending`, no reports yet)."""
    from sqlmodel import Session

    from .service.games import get_game, observers_of

    svc = service()
    with refusals(), Session(svc.engine) as session:
        rows = [
            {"address": p.address, "status": p.status, "since": p.joined_at}
            for p in observers_of(session, get_game(session, name))
        ]

    def text() -> None:
        for r in rows:
            echo(f"{r['address']:40} {r['status']:16} {r['since']:%Y-%m-%d %H:%M}")

    _print(rows, as_json, text)


@observer_app.command("remove")
def observer_remove(name: str, address: str) -> None:
    """Stop an observer's reports (confirmed or pending)."""
    from .service.games import get_game, remove_observer
    from .store.db import transaction

    svc = service()
    with refusals(), transaction(svc.engine) as session:
        removed = remove_observer(session, get_game(session, name, lock=True), address)
        shown = removed.address
    echo(f"{name}: {shown} no longer observes")


def register(app: typer.Typer) -> None:
    app.add_typer(bench_app, name="bench")
    app.command("init")(init_cmd)
    app.command("serve")(serve_cmd)
    app.command("codebook")(codebook_cmd)
    app.command("decode")(decode_cmd)
    app.command("poll")(poll_cmd)
    app.add_typer(game_app, name="game")
    app.add_typer(round_app, name="round")
    app.add_typer(player_app, name="player")
    app.add_typer(mail_app, name="mail")
    app.add_typer(outbox_app, name="outbox")
    app.add_typer(db_app, name="db")
    app.add_typer(observer_app, name="observer")
