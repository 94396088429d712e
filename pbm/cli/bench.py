"""`pbm bench …`: the benchmarks, each a module of pbm/bench/ with its own options."""

from __future__ import annotations

import typer

app = typer.Typer(help="Benchmarks: figures as a table, --json for machines.", no_args_is_help=True)
_PASS = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command("engine", context_settings=_PASS)
def bench_engine(ctx: typer.Context) -> None:
    """Engine rolls/s (random bots) beside catanatron 3.2.1 in its own venv, and pbm alone on
    each Seafarers scenario and Kronlande. Options: --games N, --sea-games N, --kron-games N,
    --seed S, --json, --skip-catanatron."""
    from pbm.bench.engine import main as run

    raise typer.Exit(run(list(ctx.args)))


@app.command("orders", context_settings=_PASS)
def bench_orders(ctx: typer.Context) -> None:
    """A 15-line order mail parsed, checked and resolved: ms per mail. Options: --json."""
    from pbm.bench.orders import main as run

    run(list(ctx.args))


@app.command("rounds", context_settings=_PASS)
def bench_rounds(ctx: typer.Context) -> None:
    """N due games resolved with reports into the outbox. Options: --games N,
    --database URL, --json."""
    from pbm.bench.rounds import main as run

    run(list(ctx.args))


@app.command("mail", context_settings=_PASS)
def bench_mail(ctx: typer.Context) -> None:
    """N order mails end to end over loopback IMAP/SMTP beside the transport alone.
    Options: --mails N, --dovecot, --json."""
    from pbm.bench.mail import main as run

    run(list(ctx.args))


@app.command("latency", context_settings=_PASS)
def bench_latency(ctx: typer.Context) -> None:
    """Order mails at 5, 20 and 50 a second against the serve loops (IMAP IDLE): p50/p99 from
    the mailbox to the answer in the player's mailbox. Options: --rates R,R, --seconds S,
    --json; --burst [--games N] [--interval S] [--start-seconds S]: the deadline rush, N games'
    orders one every S seconds, then their shared deadline (answers, and every report's arrival
    after it)."""
    from pbm.bench.latency import main as run

    run(list(ctx.args))


@app.command("serve", context_settings=_PASS)
def bench_serve(ctx: typer.Context) -> None:
    """`pbm serve` as a subprocess with N due games: peak and idle RSS, seconds to resolve
    and send everything. Options: --games N, --discard, --tick-seconds S, --send-seconds S,
    --json, --keep."""
    from pbm.bench.serve import main as run

    run(list(ctx.args))
