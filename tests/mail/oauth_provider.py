"""A small OAuth2 provider on 127.0.0.1 for the OAuth2 tests, standing in for Google or
Microsoft: a token endpoint (refresh, device code, authorization code with PKCE), a device
authorization endpoint, an authorization endpoint that signs in at once, and a token
introspection endpoint (RFC 7662) that Dovecot's oauth2 passdb and the aiosmtpd authenticator
ask. It hands out opaque random tokens and remembers them; a test expires or revokes them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

CLIENT_ID = "pbm-test-client"


@dataclass
class Provider:
    """The provider's memory: access tokens (token → (user, expiry)), refresh tokens (token →
    user), and what it was asked."""

    port: int = 0
    access: dict[str, tuple[str, float]] = field(default_factory=dict)
    refresh: dict[str, str] = field(default_factory=dict)
    codes: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    devices: dict[str, str | None] = field(default_factory=dict)
    refreshes: int = 0
    introspections: int = 0
    #: The user the authorization endpoint and the device page sign in.
    signing_in: str = ""
    #: Refresh tokens rotate (Microsoft's do): a refresh gives a new one, the old one dies.
    rotate: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def grant(self, user: str, lifetime: float = 3600) -> dict[str, Any]:
        """New tokens for `user`, as the token endpoint answers."""
        with self.lock:
            access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
            self.access[access] = (user, time.time() + lifetime)
            self.refresh[refresh] = user
        return {
            "access_token": access,
            "refresh_token": refresh,
            "token_type": "Bearer",
            "expires_in": int(lifetime),
        }

    def expire_all(self) -> None:
        """Every access token dies (the refresh tokens live on)."""
        with self.lock:
            self.access.clear()

    def revoke_all(self) -> None:
        """Every token dies: the user must sign in again."""
        with self.lock:
            self.access.clear()
            self.refresh.clear()

    def user_of(self, token: str) -> str | None:
        with self.lock:
            self.introspections += 1
            user, until = self.access.get(token, ("", 0.0))
        return user if user and until > time.time() else None

    def approve_devices(self) -> None:
        """The GM entered the code on the device page."""
        with self.lock:
            for code in self.devices:
                self.devices[code] = self.signing_in

    # -- the endpoints -------------------------------------------------------------------------

    def token(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        if form.get("client_id") != CLIENT_ID:
            return 401, {"error": "invalid_client"}
        kind = form.get("grant_type")
        if kind == "refresh_token":
            with self.lock:
                self.refreshes += 1
                user = self.refresh.get(form.get("refresh_token", ""))
                if user and self.rotate:
                    del self.refresh[form["refresh_token"]]
            if user is None:
                return 400, {"error": "invalid_grant", "error_description": "token revoked"}
            answer = self.grant(user)
            if not self.rotate:
                with self.lock:
                    del self.refresh[answer.pop("refresh_token")]
            return 200, answer
        if kind == "urn:ietf:params:oauth:grant-type:device_code":
            with self.lock:
                code = form.get("device_code", "")
                if code not in self.devices:
                    return 400, {"error": "expired_token"}
                user = self.devices[code]
            if user is None:
                return 400, {"error": "authorization_pending"}
            return 200, self.grant(user)
        if kind == "authorization_code":
            with self.lock:
                user, challenge, redirect = self.codes.pop(form.get("code", ""), ("", "", ""))
            verifier = form.get("code_verifier", "")
            digest = hashlib.sha256(verifier.encode()).digest()
            if not user or redirect != form.get("redirect_uri"):
                return 400, {"error": "invalid_grant"}
            if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != challenge:
                return 400, {"error": "invalid_grant", "error_description": "PKCE"}
            return 200, self.grant(user)
        return 400, {"error": "unsupported_grant_type"}

    def device(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        code = secrets.token_urlsafe(16)
        with self.lock:
            self.devices[code] = None
        return 200, {
            "device_code": code,
            "user_code": "ABCD-EFGH",
            "verification_uri": f"{self.url}/device-page",
            "expires_in": 60,
            "interval": 0.05,
        }

    def authorize(self, query: dict[str, str]) -> str:
        """Where the browser is sent: the redirect URI with a code."""
        code = secrets.token_urlsafe(16)
        with self.lock:
            self.codes[code] = (self.signing_in, query["code_challenge"], query["redirect_uri"])
        return query["redirect_uri"] + "?" + urlencode({"code": code, "state": query["state"]})

    def introspect(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        user = self.user_of(form.get("token", ""))
        return 200, ({"active": True, "username": user} if user else {"active": False})


@contextmanager
def running(provider: Provider | None = None) -> Iterator[Provider]:
    provider = provider or Provider()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self, code: int, body: dict[str, Any]) -> None:
            raw = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_POST(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(size).decode()).items()}
            path = urlsplit(self.path).path
            routes = {
                "/token": provider.token,
                "/device": provider.device,
                "/introspect": provider.introspect,
            }
            if path not in routes:
                self._answer(404, {"error": "not_found"})
                return
            self._answer(*routes[path](form))

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            if parts.path != "/authorize":
                self._answer(404, {"error": "not_found"})
                return
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            self.send_response(302)
            self.send_header("Location", provider.authorize(query))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # A client gone between the server's select and its accept would leave accept blocking
    # for good, and `shutdown` waiting on it: with a timeout the loop goes on (an accepted
    # connection is blocking again, as socketserver expects).
    server.socket.settimeout(0.5)
    provider.port = server.server_port
    # Polled every 50 ms, not 500 ms: `shutdown` waits for the loop's next poll.
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield provider
    finally:
        server.shutdown()
        server.server_close()


class OAuthAuthenticator:
    """aiosmtpd handler methods for AUTH XOAUTH2 and OAUTHBEARER, checking each token with the
    provider (mixed into an SMTP handler; aiosmtpd finds `auth_<MECHANISM>` on the handler)."""

    provider: Provider

    async def _bearer(self, server: SMTP, args: list[str], mechanism: str) -> AuthResult:
        if len(args) < 2:
            return AuthResult(success=False, handled=False)
        raw = base64.b64decode(args[1]).decode()
        fields = dict(f.split("=", 1) for f in raw.split("\x01") if "=" in f)
        if mechanism == "OAUTHBEARER":
            user = raw.split(",")[1].removeprefix("a=")
            bearer = fields.get("auth", "")
        else:
            user, bearer = fields.get("user", ""), fields.get("auth", "")
        token = bearer.removeprefix("Bearer ")
        if token and self.provider.user_of(token) == user:
            return AuthResult(success=True, auth_data=LoginPassword(user.encode(), b""))
        # The error as a challenge; the client answers with an empty line (RFC 7628 §3.2.3).
        status = base64.b64encode(b'{"status":"invalid_token"}').decode()
        await server.challenge_auth(status, encode_to_b64=False)
        return AuthResult(success=False, handled=False, message="535 5.7.8 invalid token")

    async def auth_XOAUTH2(self, server: SMTP, args: list[str]) -> AuthResult:
        return await self._bearer(server, args, "XOAUTH2")

    async def auth_OAUTHBEARER(self, server: SMTP, args: list[str]) -> AuthResult:
        return await self._bearer(server, args, "OAUTHBEARER")
