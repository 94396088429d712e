"""OAuth2 sign-in to the mailbox (`[imap] auth = "oauth2"`, `[smtp] auth = "oauth2"`): the
tokens, kept in a file of the GM's alone (0600), the access token refreshed from the refresh
token before it expires and when the server refuses it, and the SASL strings XOAUTH2 (Google,
Microsoft) and OAUTHBEARER (RFC 7628) that carry it.

The HTTP side is Authlib's OAuth2 client (on httpx2): the refresh, the device-code flow
(RFC 8628) and the browser flow with PKCE on a loopback redirect (RFC 8252) that
`pbm mailbox login` runs once to get the first tokens. Nothing here speaks IMAP or SMTP: imap.py
and smtp.py ask `TokenSource.token` for a token and sign in with it.

A refresh token the provider no longer takes (revoked, expired, the password changed) raises
`NeedsLogin`: only the GM can mend it, by running `pbm mailbox login` again. It is a
`TransportError`, so `pbm serve` waits it out with backoff like a server that is down, and goes
on with everything that needs no mailbox.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pbm.config.model import OAuth2Section, Settings
from pbm.config.presets import OAUTH2_PROVIDERS

from .transport import TransportError

#: An access token with less life left than this is refreshed before it is used.
REFRESH_MARGIN = 300.0
#: What the GM runs when the refresh token is gone.
LOGIN_COMMAND = "pbm mailbox login"
#: OAuth2 errors of the token endpoint that no retry mends: the GM must sign in again.
_FOR_GOOD = {"invalid_grant", "invalid_client", "unauthorized_client", "invalid_scope"}


#: Seconds to wait for the provider's token endpoint.
HTTP_TIMEOUT = 30.0


def oauth2_section(settings: Settings) -> OAuth2Section | None:
    """pbm.toml's `[oauth2]` (its provider's endpoints filled in when it was read), when
    `[imap]` or `[smtp]` signs in with OAuth2; else None."""
    if "oauth2" not in (settings.imap.auth, settings.smtp.auth):
        return None
    return settings.oauth2


def authorize_params(cfg: OAuth2Section) -> dict[str, str]:
    """What the provider's authorization page needs beyond the standard (Google: offline)."""
    known = OAUTH2_PROVIDERS.get(cfg.provider)
    return dict(known.authorize_params) if known is not None else {}


class OAuth2Error(TransportError):
    """The token endpoint could not be reached or answered oddly: try again later."""


class NeedsLogin(OAuth2Error):
    """No usable refresh token: the GM must run `pbm mailbox login` again."""


def xoauth2(user: str, token: str) -> str:
    """The XOAUTH2 initial response (base64), as Google and Microsoft define it."""
    raw = f"user={user}\x01auth=Bearer {token}\x01\x01"
    return base64.b64encode(raw.encode()).decode("ascii")


def oauthbearer(user: str, token: str, host: str, port: int) -> str:
    """The OAUTHBEARER initial response (base64), RFC 7628 §3.1 (a `,` or `=` in the user
    escaped as RFC 5801 says)."""
    name = user.replace("=", "=3D").replace(",", "=2C")
    raw = f"n,a={name},\x01host={host}\x01port={port}\x01auth=Bearer {token}\x01\x01"
    return base64.b64encode(raw.encode()).decode("ascii")


# -- the token file ---------------------------------------------------------------------------

#: One lock per token file: the inbox and the outbox refresh in threads of the same process.
_LOCKS: dict[Path, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def _lock(path: Path) -> threading.Lock:
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(path, threading.Lock())


def read_tokens(path: Path) -> dict[str, Any]:
    """The stored tokens; NeedsLogin when there are none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NeedsLogin(f"no OAuth2 token in {path}: run `{LOGIN_COMMAND}`") from None
    except (OSError, ValueError) as exc:
        raise NeedsLogin(f"{path} cannot be read ({exc}): run `{LOGIN_COMMAND}`") from None
    if not isinstance(data, dict) or not data.get("refresh_token"):
        raise NeedsLogin(f"{path} holds no refresh token: run `{LOGIN_COMMAND}`")
    return data


def store_tokens(path: Path, token: dict[str, Any]) -> None:
    """Keep what the next refresh needs, readable by its owner alone; written beside and
    renamed, so a crash never leaves half a file (and with it no refresh token)."""
    kept = {
        k: token[k]
        for k in ("access_token", "refresh_token", "expires_at", "token_type", "scope")
        if token.get(k) is not None
    }
    if "expires_at" not in kept and token.get("expires_in") is not None:
        kept["expires_at"] = int(time.time()) + int(token["expires_in"])
    part = path.with_name(path.name + ".part")
    # 0600 whatever the umask (as pbm.files.write_private, which this layer does not import).
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        os.fchmod(fd, 0o600)
        f.write(json.dumps(kept, indent=1) + "\n")
    part.replace(path)


def _client(cfg: OAuth2Section, **kwargs: Any) -> Any:
    # Imported here: the `pbm` commands that sign in to no mailbox do not load httpx2.
    from authlib.integrations.httpx_client import OAuth2Client

    return OAuth2Client(
        client_id=cfg.client_id,
        client_secret=cfg.client_secret or None,
        # A public client (Microsoft's device flow) sends its id in the body and no secret.
        token_endpoint_auth_method="client_secret_post" if cfg.client_secret else "none",
        timeout=HTTP_TIMEOUT,
        **kwargs,
    )


def _token_call(what: str, call: Callable[[], Any]) -> dict[str, Any]:
    """A call to the token endpoint; its failures as NeedsLogin (for good) or OAuth2Error."""
    import httpx2
    from authlib.common.errors import AuthlibBaseError

    try:
        return dict(call())
    except AuthlibBaseError as exc:
        error = str(getattr(exc, "error", "") or "")
        said = f"{error}: {getattr(exc, 'description', '') or ''}".strip(": ")
        if error in _FOR_GOOD:
            raise NeedsLogin(
                f"the OAuth2 provider refused the {what} ({said}): run `{LOGIN_COMMAND}` again"
            ) from None
        raise OAuth2Error(f"OAuth2 {what}: {said}") from None
    except (httpx2.HTTPError, OSError, ValueError) as exc:
        raise OAuth2Error(f"OAuth2 {what}: {type(exc).__name__}: {exc}") from None


class TokenSource:
    """The access token for a sign-in: the stored one while it lives, else refreshed (and
    stored) from the refresh token. `clock`: seconds since the epoch (tests move it)."""

    def __init__(self, cfg: OAuth2Section, clock: Callable[[], float] = time.time) -> None:
        self.cfg = cfg
        self.clock = clock

    def access_token(self, refused: str = "") -> str:
        """A token to sign in with; `refused`: the token the server just refused, refreshed
        unless another connection has refreshed it meanwhile."""
        with _lock(Path(self.cfg.token_file)):
            stored = read_tokens(Path(self.cfg.token_file))
            token = str(stored.get("access_token") or "")
            expires = float(stored.get("expires_at") or 0)
            if token and token != refused and expires - REFRESH_MARGIN > self.clock():
                return token
            fresh = self._refresh(str(stored["refresh_token"]))
            store_tokens(Path(self.cfg.token_file), fresh)
            return str(fresh["access_token"])

    async def token(self, refused: str = "") -> str:
        """`access_token` off the event loop (the refresh is a blocking HTTP call)."""
        import asyncio

        return await asyncio.to_thread(self.access_token, refused)

    def _refresh(self, refresh_token: str) -> dict[str, Any]:
        with _client(self.cfg) as client:
            token = _token_call(
                "refresh",
                lambda: client.refresh_token(self.cfg.token_endpoint, refresh_token=refresh_token),
            )
        if not token.get("access_token"):
            raise OAuth2Error("OAuth2 refresh: the answer holds no access token")
        # A provider that rotates refresh tokens sends a new one; else the old one stays.
        token.setdefault("refresh_token", refresh_token)
        return token


# -- the first sign-in (`pbm mailbox login`) --------------------------------------------------


@dataclass
class _Redirect:
    """What the loopback redirect brought (the browser flow's one request)."""

    url: str = ""
    came: threading.Event = field(default_factory=threading.Event)


def _redirect_server(got: _Redirect) -> HTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            query = parse_qs(urlsplit(self.path).query)
            if "code" not in query and "error" not in query:
                self.send_error(404)
                return
            got.url = f"http://127.0.0.1:{port}{self.path}"
            got.came.set()
            body = b"pbm: signed in. You can close this window.\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the URL holds the one-time code: not to the terminal

    server = HTTPServer(("127.0.0.1", 0), Handler)
    port = server.server_port
    return server


def browser_login(
    cfg: OAuth2Section,
    say: Callable[[str], None],
    open_browser: Callable[[str], object],
    wait_seconds: float = 300.0,
) -> dict[str, Any]:
    """The authorization-code flow with PKCE: the provider's page opened in a browser, its
    redirect caught on 127.0.0.1 (RFC 8252 §7.3); returns the tokens."""
    if not cfg.authorize_endpoint:
        raise OAuth2Error("no authorization endpoint: set [oauth2] authorize_endpoint")
    got = _Redirect()
    server = _redirect_server(got)
    # Polled every 0.1 s (not 0.5): the command ends that much sooner after the sign-in,
    # since `shutdown` waits for the loop's next poll.
    thread = threading.Thread(target=server.serve_forever, args=(0.1,), daemon=True)
    thread.start()
    try:
        redirect = f"http://127.0.0.1:{server.server_port}/"
        verifier = secrets.token_urlsafe(48)
        with _client(
            cfg, scope=" ".join(cfg.scopes), redirect_uri=redirect, code_challenge_method="S256"
        ) as client:
            url, state = client.create_authorization_url(
                cfg.authorize_endpoint, code_verifier=verifier, **authorize_params(cfg)
            )
            say(f"Sign in to the mailbox in your browser; if none opens, open:\n{url}")
            with contextlib.suppress(Exception):  # no browser here: the link is printed
                open_browser(url)
            if not got.came.wait(wait_seconds):
                raise OAuth2Error(f"no sign-in came back within {wait_seconds:.0f} s")
            error = parse_qs(urlsplit(got.url).query).get("error")
            if error:
                raise OAuth2Error(f"the sign-in was refused: {error[0]}")
            return _token_call(
                "sign-in",
                lambda: client.fetch_token(
                    cfg.token_endpoint,
                    authorization_response=got.url,
                    state=state,
                    code_verifier=verifier,
                ),
            )
    finally:
        server.shutdown()
        server.server_close()


def device_login(
    cfg: OAuth2Section,
    say: Callable[[str], None],
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Any]:
    """The device-code flow (RFC 8628): the GM opens a page on any device and types a code;
    the token endpoint is asked until they have; returns the tokens."""
    with _client(cfg) as client:
        try:
            answer = client.request(
                "POST",
                cfg.device_endpoint,
                data={"client_id": cfg.client_id, "scope": " ".join(cfg.scopes)},
                withhold_token=True,
            )
            grant = answer.json()
        except Exception as exc:
            raise OAuth2Error(f"OAuth2 device code: {type(exc).__name__}: {exc}") from None
        if not isinstance(grant, dict) or "device_code" not in grant:
            raise OAuth2Error(f"OAuth2 device code: unexpected answer {str(grant)[:300]}")
        page = grant.get("verification_uri") or grant.get("verification_url") or ""
        say(f"Open {page} and enter the code {grant['user_code']}")
        interval = float(grant.get("interval") or 5)
        deadline = time.monotonic() + float(grant.get("expires_in") or 900)
        while time.monotonic() < deadline:
            sleep(interval)
            try:
                return _token_call(
                    "sign-in",
                    lambda: client.fetch_token(
                        cfg.token_endpoint,
                        grant_type="urn:ietf:params:oauth:grant-type:device_code",
                        device_code=grant["device_code"],
                    ),
                )
            except NeedsLogin:
                raise
            except OAuth2Error as exc:
                if "authorization_pending" in str(exc):
                    continue
                if "slow_down" in str(exc):
                    interval += 5
                    continue
                raise
    raise OAuth2Error("the code was not entered in time: run the login again")


def login(
    cfg: OAuth2Section,
    say: Callable[[str], None],
    open_browser: Callable[[str], object],
    flow: str = "auto",
) -> dict[str, Any]:
    """The first sign-in: the device-code flow where the provider has one (`flow` "auto" or
    "device"), else the browser flow; the tokens are stored in the token file."""
    device = flow == "device" or (flow == "auto" and bool(cfg.device_endpoint))
    if device and not cfg.device_endpoint:
        raise OAuth2Error("this provider has no device-code flow: use --browser")
    token = device_login(cfg, say) if device else browser_login(cfg, say, open_browser)
    if not token.get("refresh_token"):
        raise OAuth2Error(
            "the provider gave no refresh token (Microsoft: add the scope offline_access)"
        )
    store_tokens(Path(cfg.token_file), token)
    return token
