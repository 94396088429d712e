"""Private, real mail servers on 127.0.0.1 for the end-to-end tests and `pbm bench mail
--dovecot`: Dovecot (IMAP, and LMTP for delivery into maildirs) and OpenSMTPD (SMTP, relaying
every message for `pbm.test` to Dovecot's LMTP). Neither uses the system-wide configs, sockets,
spools or default ports.

    reason = available()            # None when usable, else why not
    servers = start(tmpdir, {"gm@pbm.test": "pw", ...})
    ... servers.imap_port, servers.smtp_port ...
    servers.stop()

Needs root (both daemons drop privileges themselves) and the Debian packages dovecot-imapd,
dovecot-lmtpd and opensmtpd (`bash .ci/mailservers.sh` installs them). Only the addresses given
to `start` are delivered; OpenSMTPD refuses every other recipient at RCPT.

With `oauth2_introspection` (a URL), Dovecot also takes OAuth2 bearer tokens (XOAUTH2 and
OAUTHBEARER, or the `oauth2_mechanisms` given) through its `oauth2` passdb, which asks that URL
about each token (RFC 7662 introspection: POST token=…, an answer with `active` and
`username`); the passwords stay for PLAIN and LOGIN.

How it is kept private:
- Dovecot runs in the foreground (`dovecot -F -c <conf>`) with its base_dir, state_dir and
  log in the work directory; mail is stored in maildirs there as the `mail` user (Dovecot
  will not access mail as root).
- OpenSMTPD has its spool (/var/spool/smtpd) and control socket (/var/run/smtpd.sock)
  compiled in, so it runs in a mount namespace of its own (`unshare -m`) with directories of
  the work directory bind-mounted over /var/spool and /var/run; that also keeps it apart from
  a system-wide instance; a resolv.conf of its own there (`lookup file`) keeps its lookups of
  client addresses to /etc/hosts. Its `lmtp` action runs as the `mail` user for every
  recipient in its virtual table (the users given), so other recipients are refused at RCPT.
- The mail user must be able to reach the maildirs. A pytest tmp_path of root is below
  /tmp/pytest-of-root (mode 0700), so when `tmpdir` is not traversable by everyone the servers
  live in a fresh directory in /tmp instead, which `stop()` removes after copying the logs
  into `tmpdir`.
- The files and folders are given the modes the servers need explicitly (as they were under a
  umask of 022): `pbm bench mail` runs with the `pbm` command's umask of 0o077.
"""

from __future__ import annotations

import contextlib
import functools
import grp
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from pbm.files import PUBLIC_DIR_MODE, make_dirs, write_private, write_public

DOMAIN = "pbm.test"
#: The unprivileged user that owns the maildirs and that OpenSMTPD delivers as.
MAIL_USER = "mail"
#: Users the packages create and the daemons switch to.
_SYSTEM_USERS = ("dovecot", "dovenull", "opensmtpd", MAIL_USER)
_SBIN = "/usr/local/sbin:/usr/sbin:/sbin:/usr/local/bin:/usr/bin:/bin"
_DOVECOT_LIBEXEC = Path("/usr/lib/dovecot")
_START_TIMEOUT = 15.0
_STOP_TIMEOUT = 10.0


def _which(name: str) -> str | None:
    return shutil.which(name, path=os.environ.get("PATH", "") + ":" + _SBIN)


def _env() -> dict[str, str]:
    return {**os.environ, "PATH": os.environ.get("PATH", "") + ":" + _SBIN}


@functools.cache
def _can_unshare_mounts() -> str | None:
    unshare = _which("unshare")
    if unshare is None:
        return "unshare (util-linux) is missing"
    try:
        done = subprocess.run(
            [unshare, "--mount", "--propagation", "private", "true"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot run unshare: {exc}"
    if done.returncode != 0:
        return f"cannot make a private mount namespace: {done.stderr.strip()[:200]}"
    return None


def available() -> str | None:
    """None when the servers can be started here, else the reason why not."""
    missing = [name for name in ("dovecot", "smtpd", "unshare", "mount") if _which(name) is None]
    missing += [
        f"{_DOVECOT_LIBEXEC / name}"
        for name in ("imap", "lmtp")
        if not (_DOVECOT_LIBEXEC / name).exists()
    ]
    if missing:
        return (
            "not installed: "
            + ", ".join(missing)
            + " (apt-get install dovecot-imapd dovecot-lmtpd opensmtpd)"
        )
    if os.geteuid() != 0:
        return "needs root (Dovecot and OpenSMTPD start as root and drop privileges)"
    for user in _SYSTEM_USERS:
        try:
            pwd.getpwnam(user)
        except KeyError:
            return f"system user {user!r} is missing (are the packages fully installed?)"
    return _can_unshare_mounts()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _world_traversable(path: Path) -> bool:
    return all(p.stat().st_mode & stat.S_IXOTH for p in [path, *path.parents])


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class _Died(Exception):
    """The daemon exited while starting; `busy` when a port was taken meanwhile."""

    def __init__(self, message: str, busy: bool) -> None:
        super().__init__(message)
        self.busy = busy


def _wait_greeting(
    proc: subprocess.Popen[bytes], port: int, expect: bytes, logs: list[Path], deadline: float
) -> None:
    """Wait until `port` answers with a line starting with `expect`, or `proc` dies."""
    last = ""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            text = "\n".join(_tail(log) for log in logs)
            raise _Died(f"exited with {proc.returncode}:\n{text}", busy="in use" in text.lower())
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
                s.settimeout(2)
                line = s.recv(200)
                if line.startswith(expect) and proc.poll() is None:
                    return
                last = repr(line)
        except OSError as exc:
            last = str(exc)
        time.sleep(0.05)
    raise RuntimeError(
        f"no greeting on 127.0.0.1:{port} ({last}):\n" + "\n".join(_tail(log) for log in logs)
    )


def _stop(proc: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM the daemon's master and wait; SIGKILL its process group if it lingers."""
    if proc is None:
        return
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(_STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)
    # Children that outlived their master (its process group is ours: start_new_session).
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


@dataclass
class MailServers:
    """Both servers, started: connect to `imap_port` and `smtp_port` on 127.0.0.1."""

    work: Path
    users: dict[str, str]
    keep_logs_in: Path
    imap_port: int = 0
    lmtp_port: int = 0
    smtp_port: int = 0
    host: str = "127.0.0.1"
    dovecot: subprocess.Popen[bytes] | None = None
    smtpd: subprocess.Popen[bytes] | None = None
    #: Dovecot's oauth2 passdb asks this URL about tokens ("" = passwords only).
    oauth2_introspection: str = ""
    oauth2_mechanisms: tuple[str, ...] = ("xoauth2", "oauthbearer")
    _own_work: bool = False
    _logs: list[Path] = field(default_factory=list)

    def _oauth2_passdb(self) -> tuple[str, str]:
        """The auth mechanisms to offer and the passdbs' config."""
        passwords = f"""\
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%Lu {self.work}/passwd
}}
"""
        if not self.oauth2_introspection:
            return "plain login", passwords
        conf = self.work / "dovecot-oauth2.conf.ext"
        write_public(
            conf,
            f"""\
introspection_mode = post
introspection_url = {self.oauth2_introspection}
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
""",
        )
        mechanisms = " ".join(self.oauth2_mechanisms)
        oauth2 = f"""\
passdb {{
  driver = oauth2
  mechanisms = {mechanisms}
  args = {conf}
}}
"""
        # A refused token is the tests' daily bread: no delay and no penalty doubling it for
        # the next attempt from 127.0.0.1.
        # (Dovecot's documented way to turn the penalty off: no socket for it.)
        quick = (
            "auth_failure_delay = 0\n"
            "service anvil {\n  unix_listener anvil-auth-penalty {\n    mode = 0\n  }\n}\n"
        )
        return f"plain login {mechanisms}", quick + oauth2 + passwords

    # -- Dovecot -----------------------------------------------------------------------------

    def _dovecot_conf(self) -> Path:
        w = self.work
        mail = pwd.getpwnam(MAIL_USER)
        conf = w / "dovecot.conf"
        mechanisms, passdbs = self._oauth2_passdb()
        write_public(
            conf,
            f"""\
# Private Dovecot for the pbm tests and benchmarks (nothing from /etc/dovecot is included).
instance_name = pbm-test-{os.getpid()}
base_dir = {w}/dovecot-run
state_dir = {w}/dovecot-state
log_path = {w}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = {mechanisms}
auth_verbose = yes
mail_uid = {mail.pw_uid}
mail_gid = {mail.pw_gid}
first_valid_uid = {mail.pw_uid}
first_valid_gid = {mail.pw_gid}
mail_location = maildir:~/Maildir
mail_fsync = never
{passdbs}userdb {{
  driver = static
  args = home={w}/mail/%Lu
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {self.lmtp_port}
  }}
}}
protocol lmtp {{
  postmaster_address = postmaster@{DOMAIN}
}}
""",
        )
        return conf

    def _start_dovecot(self) -> None:
        w = self.work
        mail = pwd.getpwnam(MAIL_USER)
        for d in ("dovecot-run", "dovecot-state", "mail"):
            make_dirs(w / d, PUBLIC_DIR_MODE)
        os.chown(w / "mail", mail.pw_uid, mail.pw_gid)
        passwd = w / "passwd"
        write_private(
            passwd,
            "".join(
                f"{user.lower()}:{{PLAIN}}{password}\n" for user, password in self.users.items()
            ),
        )
        # The auth process runs as the `dovecot` user.
        os.chown(passwd, 0, grp.getgrnam("dovecot").gr_gid)
        passwd.chmod(0o640)
        conf = self._dovecot_conf()
        log = w / "dovecot.log"
        out = w / "dovecot.out"
        log.unlink(missing_ok=True)  # each attempt's log on its own
        self._logs += [log, out]
        with out.open("wb") as f:
            self.dovecot = subprocess.Popen(
                [_which("dovecot") or "dovecot", "-F", "-c", str(conf)],
                stdin=subprocess.DEVNULL,
                stdout=f,
                stderr=subprocess.STDOUT,
                env=_env(),
                start_new_session=True,
            )
        deadline = time.monotonic() + _START_TIMEOUT
        _wait_greeting(self.dovecot, self.imap_port, b"* OK", [log, out], deadline)
        _wait_greeting(self.dovecot, self.lmtp_port, b"220", [log, out], deadline)

    # -- OpenSMTPD ---------------------------------------------------------------------------

    def _start_smtpd(self) -> None:
        w = self.work
        spool, run = w / "smtpd-spool", w / "smtpd-run"
        make_dirs(spool / "smtpd", PUBLIC_DIR_MODE)
        make_dirs(run, PUBLIC_DIR_MODE)
        (spool / "smtpd").chmod(0o711)  # smtpd checks its spool's owner and mode
        vusers = w / "smtpd-vusers"
        write_private(vusers, "".join(f"{user.lower()} {MAIL_USER}\n" for user in self.users))
        conf = w / "smtpd.conf"
        write_private(
            conf,
            f"""\
# Private OpenSMTPD (pbm tests, benchmarks): everything for {DOMAIN} goes to Dovecot's LMTP.
table vusers file:{vusers}
listen on 127.0.0.1 port {self.smtp_port} hostname mx.{DOMAIN}
action "dovecot" lmtp "127.0.0.1:{self.lmtp_port}" rcpt-to virtual <vusers>
match from any for domain "{DOMAIN}" action "dovecot"
""",
        )
        for path in (conf, vusers):
            os.chown(path, 0, 0)
            path.chmod(0o600)
        # Names from /etc/hosts only: smtpd looks up every client's address (and that name's
        # addresses), and a system resolver that leaves a query unanswered stalls a session's
        # greeting for its 5 s timeout (every twentieth connection or so in a sandbox).
        resolv = w / "smtpd-resolv.conf"
        write_public(
            resolv, "# Private OpenSMTPD: /etc/hosts only (asr's `lookup`).\nlookup file\n"
        )
        log = w / "smtpd.log"
        self._logs.append(log)
        script = (
            'mount --bind "$1" /var/spool && mount --bind "$2" /var/run '
            '&& { [ ! -f /etc/resolv.conf ] || mount --bind "$3" /etc/resolv.conf; } '
            '&& exec "$4" -d -f "$5"'
        )
        with log.open("wb") as f:
            self.smtpd = subprocess.Popen(
                [
                    _which("unshare") or "unshare",
                    "--mount",
                    "--propagation",
                    "private",
                    "sh",
                    "-c",
                    script,
                    "sh",
                    str(spool),
                    str(run),
                    str(resolv),
                    _which("smtpd") or "smtpd",
                    str(conf),
                ],
                stdin=subprocess.DEVNULL,
                stdout=f,
                stderr=subprocess.STDOUT,
                env=_env(),
                start_new_session=True,
            )
        _wait_greeting(self.smtpd, self.smtp_port, b"220", [log], time.monotonic() + _START_TIMEOUT)

    # -- both --------------------------------------------------------------------------------

    def _start(self) -> None:
        for attempt in range(5):  # a free port may be taken before the daemon binds it
            self.imap_port, self.lmtp_port = free_port(), free_port()
            try:
                self._start_dovecot()
                break
            except _Died as exc:
                _stop(self.dovecot)
                self.dovecot = None
                if not exc.busy or attempt == 4:
                    raise RuntimeError(f"dovecot {exc}") from None
        for attempt in range(5):
            self.smtp_port = free_port()
            try:
                self._start_smtpd()
                break
            except _Died as exc:
                _stop(self.smtpd)
                self.smtpd = None
                if not exc.busy or attempt == 4:
                    raise RuntimeError(f"smtpd {exc}") from None

    def logs(self) -> str:
        """The end of each server log (for assertion messages)."""
        return "\n".join(f"--- {log.name}\n{_tail(log)}" for log in dict.fromkeys(self._logs))

    def stop(self) -> None:
        """Stop both (SMTP first, so nothing is left half delivered), and clean up."""
        try:
            _stop(self.smtpd)
            _stop(self.dovecot)
        finally:
            self.smtpd = self.dovecot = None
            if self._own_work:
                for log in dict.fromkeys(self._logs):
                    with contextlib.suppress(OSError):
                        shutil.copy(log, self.keep_logs_in / log.name)
                shutil.rmtree(self.work, ignore_errors=True)

    def __enter__(self) -> MailServers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start(
    tmpdir: Path | str,
    users: dict[str, str],
    oauth2_introspection: str = "",
    oauth2_mechanisms: tuple[str, ...] = ("xoauth2", "oauthbearer"),
) -> MailServers:
    """Start Dovecot and OpenSMTPD for `users` (address: IMAP password), all @pbm.test;
    `oauth2_introspection`: Dovecot also takes OAuth2 tokens that URL says are active."""
    reason = available()
    if reason:
        raise RuntimeError(f"mail servers unavailable: {reason}")
    for user, password in users.items():
        if not user.lower().endswith("@" + DOMAIN):
            raise ValueError(f"{user}: only addresses @{DOMAIN} are delivered")
        if any(c in user + password for c in ":\n\r \t"):
            raise ValueError(f"{user}: no ':' or whitespace in addresses and passwords")
    tmpdir = Path(tmpdir).resolve()
    tmpdir.mkdir(parents=True, exist_ok=True)
    if _world_traversable(tmpdir):
        work, own = tmpdir / "mailservers", False
        work.mkdir(exist_ok=True)
    else:
        work, own = Path(tempfile.mkdtemp(prefix="pbm-mailservers-", dir="/tmp")), True
    work.chmod(0o755)
    servers = MailServers(
        work=work,
        users=dict(users),
        keep_logs_in=tmpdir,
        oauth2_introspection=oauth2_introspection,
        oauth2_mechanisms=oauth2_mechanisms,
        _own_work=own,
    )
    try:
        servers._start()
    except BaseException:
        servers.stop()
        raise
    return servers
