"""`pbm round …`: the open round of one game."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .clean import cleaned, with_names_cut
from .common import reader, refusals, service
from .output import JsonOpt, colour, echo, echo_text, show, table, when

app = typer.Typer(help="The open round of a game.", no_args_is_help=True)


@app.command("status")
def round_status(name: str, as_json: JsonOpt = False) -> None:
    """Who has sent orders for the open round."""
    from pbm.service import admin

    svc = reader()
    with refusals():
        data: dict[str, Any] = cleaned(admin.round_status(svc, name))
    rows = data["players"] = with_names_cut(data["players"])

    def text() -> None:
        if data["paused"]:
            # Nothing is taken or resolved: the GM reads that first (`game resume` goes on).
            echo(
                f"{name} round {data['round']}, paused (no orders taken, nothing resolved: "
                f"pbm game resume {name}), deadline {when(data['deadline'])}"
            )
        else:
            echo(f"{name} round {data['round']}, deadline {when(data['deadline'])}")

        def orders(r: dict[str, Any]) -> str:
            if r["orders"]:
                return "in"
            if r["autopilot"]:
                return "autopilot"
            if r["away"]:
                return "away (autopilot)" if not r["waited_for"] else "away (waited for)"
            if r["waited_for"]:
                return "waiting"
            if data.get("phase") == "setup":
                return "not on turn"  # each seat places in turn: only the one on turn waits
            return "autopilot"  # resigned: the autopilot plays the seat

        cells = [(colour(r["colour"]), r["name"], orders(r)) for r in rows]
        for line in table(("colour", "name", "orders"), cells):
            echo(f"  {line}")

    show(data, as_json, text)


@app.command("resolve")
def round_resolve(
    name: str,
    now: Annotated[bool, typer.Option("--now", help="Resolve even if not due.")] = False,
) -> None:
    """Resolve this game's open round if it is due (deadline passed, or all orders in and the
    game resolves early), or at once with `--now`. Other games are not touched."""
    from pbm.service import admin

    svc = service()
    with refusals():
        result = admin.resolve_round(svc, name, now)
    if result.broken:
        echo(f"{name}: marked broken: {result.reason}")
        raise typer.Exit(1)
    echo(f"{name}: " + ("resolved" if result.resolved else "not due"))


@app.command("preview")
def round_preview(
    name: str,
    show_dice: Annotated[
        bool, typer.Option("--show-dice", help="Show the coming rolls and what they decide.")
    ] = False,
) -> None:
    """Print the report resolving now would send, and change nothing. The coming rolls, and
    every line that follows from them, stay hidden unless --show-dice (the GM may play)."""
    from pbm.service import admin

    svc = reader()
    with refusals():
        preview = admin.preview_round(svc, name, show_dice)
    echo_text(preview.report)


@app.command("extend")
def round_extend(
    name: str,
    hours: Annotated[float, typer.Option(help="Hours to add (from now if there is none).")],
    why: Annotated[str, typer.Option(help="Why: every player reads it.")] = "",
) -> None:
    """Move the deadline of the open round (or setup turn) by HOURS; every player is told,
    with --why. A deadline in the past is refused: `pbm round resolve GAME --now` resolves
    the round at once. One moved to now is told to nobody: the next tick acts on it."""
    from pbm.service import admin
    from pbm.service.table import as_utc

    svc = service()
    with refusals():
        deadline = admin.extend_round(svc, name, hours, why)
    if as_utc(deadline) <= as_utc(svc.clock.now()):
        # Due at once: no player is mailed a deadline that has passed (`gm.extend`).
        echo(
            f"{name}: deadline now ({when(deadline)}); the players are not told it"
            f"{' (nor --why)' if why else ''}: the next `pbm game tick` (or `pbm serve`) "
            "makes the setup placement or resolves the round, and that mail tells them"
        )
        return
    echo(f"{name}: deadline {when(deadline)}")


@app.command("rollback")
def round_rollback(
    name: str,
    why: Annotated[
        str, typer.Option(help="Why: every player reads it (needed once the report went out).")
    ] = "",
    reopen: Annotated[
        bool, typer.Option("--reopen", help="Let players change their orders for the round.")
    ] = False,
) -> None:
    """Throw away the last resolution (events and unsent reports); the state goes back. A
    round keeps its rolls; its orders stay unless --reopen; it resolves again at its deadline
    or with `pbm round resolve --now`, and its report then tells everyone what changed."""
    from pbm.service import admin

    svc = service()
    with refusals():
        done = admin.rollback_round(svc, name, why, reopen)
    if done.kind != "round":
        echo(f"{name}: step {done.step} rolled back (setup)")
        return
    orders = "reopened for changed orders" if done.reopened else "orders stay as sent"
    told = f"; {done.notified} addresses told" if done.notified else ""
    correction = "; its report went out: the next one is a correction" if done.sent else ""
    echo(f"{name}: step {done.step} rolled back, round {done.round}: {orders}{told}{correction}")
