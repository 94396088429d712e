"""The modes of the files pbm writes (docs/security.md, "File modes").

Everything pbm writes is its owner's alone, whatever the umask: files 0600, directories 0700.
The database holds the dice seed (every future roll and the deck), the codebook secrets, the
password hashes, the passwords of welcome mails not sent yet and the kept bytes of quarantined
mails; pbm.toml holds the mailbox passwords; the demo's folder holds its mails.

- `private_umask` sets the process's umask to 0o077: the `pbm` command does so first of all
  (`pbm.cli.main`), so that whatever a library creates later (SQLite's `-wal`, `-shm` and
  `-journal` files, a log, a child process's files) is private too.
- `write_private` and `private_dir` give the modes explicitly, for code run without that
  umask (the tests, an embedding program).
- `write_public` and `public_dir` are for the one thing made to be published: the static web
  archive (`pbm game archive`, `[archive] dir`), 0644 and 0755, which a web server running as
  another user must read. It holds nothing secret (`pbm/service/archive.py`).

Standard library only: every layer may use it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: The umask of the `pbm` command: no bit for the group or others.
PRIVATE_UMASK = 0o077
FILE_MODE = 0o600
DIR_MODE = 0o700
PUBLIC_FILE_MODE = 0o644
PUBLIC_DIR_MODE = 0o755


def private_umask() -> int:
    """Set the process's umask to 0o077; returns the one before."""
    return os.umask(PRIVATE_UMASK)


def write_file(path: Path, data: str | bytes, mode: int) -> None:
    """Write `path` with exactly `mode`, also when it exists already with another mode and
    whatever the umask. A text is written as UTF-8."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
    with os.fdopen(fd, "wb") as f:
        os.fchmod(fd, mode)
        f.write(raw)


def write_private(path: Path, data: str | bytes) -> None:
    """Write `path` readable and writable by its owner alone (0600)."""
    write_file(path, data, FILE_MODE)


def write_public(path: Path, data: str | bytes) -> None:
    """Write `path` readable by everyone (0644): only for what is made to be published."""
    write_file(path, data, PUBLIC_FILE_MODE)


def make_dirs(path: Path, mode: int) -> None:
    """Create `path` and its missing parents, each with exactly `mode`; directories that exist
    keep theirs (they are the GM's)."""
    missing = []
    p = path
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        try:
            d.mkdir(mode)
        except FileExistsError:
            continue  # made meanwhile by someone else: theirs
        os.chmod(d, mode)  # mkdir's mode is cut by the umask


def private_dir(path: Path) -> None:
    """`path` and its missing parents, created 0700."""
    make_dirs(path, DIR_MODE)


def public_dir(path: Path) -> None:
    """`path` and its missing parents, created 0755 (the web archive's folders)."""
    make_dirs(path, PUBLIC_DIR_MODE)


def tighten(path: Path) -> bool:
    """Take the group's and others' bits off an existing file of ours; returns whether its
    mode changed. A file that is not there, or not ours to change, is left as it is."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        if not mode & 0o077:
            return False
        os.chmod(path, mode & ~0o077)
    except OSError:
        return False
    return True
