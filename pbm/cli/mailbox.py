"""`pbm mailbox …`: the GM's mailbox: the first OAuth2 sign-in (`login`) and a checked
connection (`check`)."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import config
from .output import JsonOpt, echo, show

app = typer.Typer(help="The mailbox: OAuth2 sign-in, connection check.", no_args_is_help=True)


@app.command("login")
def mailbox_login(
    browser: Annotated[
        bool, typer.Option("--browser", help="The browser flow, also where a device code works.")
    ] = False,
    device: Annotated[
        bool, typer.Option("--device", help="The device-code flow (a code typed on any device).")
    ] = False,
    no_open: Annotated[
        bool, typer.Option("--no-open", help="Print the browser link only; open no browser.")
    ] = False,
) -> None:
    """Sign in to the mailbox with OAuth2 ([imap]/[smtp] auth = "oauth2") and keep the tokens.
    Run it again when `pbm serve` says the provider has revoked them."""
    import webbrowser

    from pbm.mail.oauth2 import OAuth2Error, login, oauth2_section

    oauth2 = oauth2_section(config().settings)
    if oauth2 is None:
        echo('error: neither [imap] nor [smtp] has auth = "oauth2": no login needed', err=True)
        raise typer.Exit(2)
    if browser and device:
        echo("error: --browser or --device, not both", err=True)
        raise typer.Exit(2)
    flow = "browser" if browser else "device" if device else "auto"
    opener = (lambda url: None) if no_open else webbrowser.open
    try:
        login(oauth2, lambda line: typer.echo(line), opener, flow)
    except OAuth2Error as exc:
        echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    echo(f"Signed in. The tokens are kept in {oauth2.token_file} (readable by you alone).")
    echo(
        "pbm refreshes them itself. Should the provider revoke them (a new password, access"
        " withdrawn), `pbm serve` says so: then run `pbm mailbox login` again."
    )


@app.command("check")
def mailbox_check(
    as_json: JsonOpt = False,
    wait: Annotated[
        float, typer.Option("--wait", help="Seconds the round trip waits for the test mail.")
    ] = 60.0,
) -> None:
    """Connect to IMAP and SMTP as configured, sign in, select the folder, send a test mail to
    the service's own address and find it; each step with the fix when it fails. Exit status
    1 when a step fails."""
    import asyncio

    from pbm.config.presets import PRESETS
    from pbm.mail.check import check

    cfg = config()
    preset = PRESETS.get(cfg.settings.imap.provider)
    requirement = preset.requirement if preset is not None else ""
    steps = asyncio.run(check(cfg.settings, requirement, wait))
    failed = any(s.status == "failed" for s in steps)

    def text() -> None:
        for s in steps:
            echo(f"{s.status:8} {s.name:16} {s.detail}")
            if s.fix:
                echo(f"{'':8} {'':16} fix: {s.fix}")

    show({"ok": not failed, "steps": [s.as_dict() for s in steps]}, as_json, text)
    if failed:
        raise typer.Exit(1)
