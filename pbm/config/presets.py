"""The mailbox providers `[imap] provider` knows, the OAuth2 providers `[oauth2] provider`
knows, and the settings filled in from them.

A preset fills in the keys of [imap] and [smtp] (and [oauth2] provider) that the file leaves
out; a key written in the file always wins. Without `provider` and without `auth = "oauth2"`
nothing here changes a config. Each preset's own requirement (an app password, IMAP switched
on in the web mailer, OAuth2) is in docs/gm-guide.md, "Mailbox providers".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .model import Settings


@dataclass(frozen=True)
class OAuth2Provider:
    """An OAuth2 provider's endpoints and the scopes that open IMAP and SMTP."""

    token_endpoint: str
    authorize_endpoint: str
    #: "" when the provider has no device-code flow for the mail scopes (Google's refuses them).
    device_endpoint: str
    scopes: tuple[str, ...]
    #: Extra query parameters of the browser flow (Google gives a refresh token only with these).
    authorize_params: tuple[tuple[str, str], ...] = ()


#: `[oauth2] provider`.
OAUTH2_PROVIDERS: dict[str, OAuth2Provider] = {
    "google": OAuth2Provider(
        token_endpoint="https://oauth2.googleapis.com/token",
        authorize_endpoint="https://accounts.google.com/o/oauth2/v2/auth",
        device_endpoint="",
        scopes=("https://mail.google.com/",),
        authorize_params=(("access_type", "offline"), ("prompt", "consent")),
    ),
    "microsoft": OAuth2Provider(
        token_endpoint="https://login.microsoftonline.com/common/oauth2/v2.0/token",
        authorize_endpoint="https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
        device_endpoint="https://login.microsoftonline.com/common/oauth2/v2.0/devicecode",
        scopes=(
            "https://outlook.office.com/IMAP.AccessAsUser.All",
            "https://outlook.office.com/SMTP.Send",
            "offline_access",
        ),
    ),
}


@dataclass(frozen=True)
class MailPreset:
    imap: dict[str, Any]
    smtp: dict[str, Any]
    #: The auth kind the provider takes ("password": an app password where it asks for one).
    auth: str
    #: The OAuth2 provider of `auth = "oauth2"` ("" = the provider has none for third parties).
    oauth2: str
    #: What the GM must do at the provider first, for `pbm mailbox check` and the docs.
    requirement: str


_IMAPS = {"port": 993, "tls": True}
_SMTPS = {"port": 465, "tls": True, "starttls": False}
_SUBMISSION = {"port": 587, "tls": False, "starttls": True}

PRESETS: dict[str, MailPreset] = {
    "gmail": MailPreset(
        {"host": "imap.gmail.com", **_IMAPS},
        {"host": "smtp.gmail.com", **_SMTPS},
        "password",
        "google",
        'an app password (2-step verification on), or auth = "oauth2" with a Google client id',
    ),
    "outlook": MailPreset(
        {"host": "outlook.office365.com", **_IMAPS},
        {"host": "smtp-mail.outlook.com", **_SUBMISSION},
        "oauth2",
        "microsoft",
        "OAuth2 only (Microsoft takes no passwords): a client id and `pbm mailbox login`",
    ),
    "gmx": MailPreset(
        {"host": "imap.gmx.net", **_IMAPS},
        {"host": "mail.gmx.net", **_SUBMISSION},
        "password",
        "",
        "IMAP switched on in the GMX settings (POP3/IMAP Abruf); the account password",
    ),
    "webde": MailPreset(
        {"host": "imap.web.de", **_IMAPS},
        {"host": "smtp.web.de", **_SUBMISSION},
        "password",
        "",
        "IMAP switched on in the WEB.DE settings (POP3/IMAP Abruf); the account password",
    ),
    "posteo": MailPreset(
        {"host": "posteo.de", **_IMAPS},
        {"host": "posteo.de", **_SMTPS},
        "password",
        "",
        "the account password",
    ),
    "fastmail": MailPreset(
        {"host": "imap.fastmail.com", **_IMAPS},
        {"host": "smtp.fastmail.com", **_SMTPS},
        "password",
        "",
        "an app password (Settings, Privacy & Security, App passwords)",
    ),
}


def _fill(section: Any, values: dict[str, Any]) -> Any:
    """`values` for the keys the file left out of `section`."""
    update = {k: v for k, v in values.items() if k not in section.model_fields_set}
    return section.model_copy(update=update) if update else section


def apply(settings: Settings, name: str, base: Path | None) -> tuple[Settings, list[str]]:
    """The settings with the preset and the OAuth2 provider filled in, and the token file made
    absolute (relative to `base`, the config file's folder); and the problems, one line each."""
    imap, smtp, oauth2 = settings.imap, settings.smtp, settings.oauth2
    preset = PRESETS.get(imap.provider)
    if preset is not None:
        imap = _fill(imap, {**preset.imap, "auth": preset.auth})
        smtp = _fill(
            smtp, {**preset.smtp, "auth": imap.auth, "user": imap.user, "password": imap.password}
        )
        oauth2 = _fill(oauth2, {"provider": preset.oauth2})
    problems: list[str] = []
    if "oauth2" in (imap.auth, smtp.auth):
        if smtp.auth == "oauth2" and not smtp.user:
            smtp = smtp.model_copy(update={"user": imap.user})
        known = OAUTH2_PROVIDERS.get(oauth2.provider)
        if known is not None:
            oauth2 = _fill(
                oauth2,
                {
                    "token_endpoint": known.token_endpoint,
                    "device_endpoint": known.device_endpoint,
                    "authorize_endpoint": known.authorize_endpoint,
                    "scopes": list(known.scopes),
                },
            )
        need = 'needed for auth = "oauth2"'
        if not oauth2.token_endpoint:
            problems.append(f'{name}: [oauth2] token_endpoint: {need} (or provider = "google")')
        if not oauth2.client_id:
            problems.append(
                f"{name}: [oauth2] client_id: {need} (register pbm with the provider:"
                ' docs/gm-guide.md, "Mailbox providers")'
            )
        for section, values in (("imap", imap), ("smtp", smtp)):
            if values.auth == "oauth2" and not values.user:
                problems.append(f"{name}: [{section}] user: {need} (the mailbox's address)")
                break
    if base is not None and not Path(oauth2.token_file).is_absolute():
        oauth2 = oauth2.model_copy(update={"token_file": str((base / oauth2.token_file).resolve())})
    settings = settings.model_copy(update={"imap": imap, "smtp": smtp, "oauth2": oauth2})
    return settings, problems
