"""A service process for the crash and worker tests, run as a subprocess on an existing
database. `PBM_CRASH_AT=<point>` in its environment kills it (SIGKILL) at that point.

    python driver.py URL NOW ingest FILE    store and process one raw mail, then resolve the
                                            round if that mail completed it (as `pbm serve`)
    python driver.py URL NOW tick           one tick
    python driver.py URL NOW work IDS START process the stored mails IDS (comma-separated) and
                                            tick, in a loop, starting at the epoch time START
    python driver.py URL NOW send PORT      one pass of the outbox through the SMTP server on
                                            127.0.0.1:PORT

NOW is the fake clock's time (ISO 8601), so the process and the test agree on deadlines.
Prints one JSON line with what it did.
"""

from __future__ import annotations

import json
import sys
import time
from datetime import datetime
from pathlib import Path

from pbm.config.model import ServiceSection, Settings
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.ingest import ingest, process_mail
from pbm.service.tick import resolve_if_ready, tick
from pbm.store.db import make_engine


def main(argv: list[str]) -> int:
    url, now, action, *rest = argv
    svc = Service(
        make_engine(url),
        FakeClock(datetime.fromisoformat(now)),
        Settings(service=ServiceSection(address="gm@pbm.test")),
    )
    out: dict[str, object] = {"action": action}
    if action == "ingest":
        result = ingest(svc, Path(rest[0]).read_bytes())
        out["status"] = result.status
        if result.game:
            out["resolved"] = resolve_if_ready(svc, result.game)
    elif action == "tick":
        out["resolved"] = tick(svc).resolved
    elif action == "work":
        ids = [int(i) for i in rest[0].split(",") if i]
        start = float(rest[1])
        while time.time() < start:
            time.sleep(0.005)
        statuses: dict[str, int] = {}
        resolved: list[str] = []
        for mail_id in ids:
            result = process_mail(svc, mail_id)
            statuses[result.status] = statuses.get(result.status, 0) + 1
            if result.game and resolve_if_ready(svc, result.game):
                resolved.append(result.game)
            if mail_id % 3 == 0:
                resolved += tick(svc).resolved
        for _ in range(3):
            resolved += tick(svc).resolved
        out["statuses"] = statuses
        out["resolved"] = resolved
    elif action == "send":
        import asyncio

        from pbm.config.model import SmtpSection
        from pbm.mail.smtp import SmtpSession
        from pbm.service.sending import send_pending

        smtp = SmtpSection.model_validate({"port": int(rest[0]), "from": "gm@pbm.test"})
        result = asyncio.run(send_pending(svc, lambda: SmtpSession(smtp)))
        out["sent"], out["retry"], out["failed"] = result.sent, result.retry, result.failed
    else:
        raise SystemExit(f"unknown action {action}")
    svc.engine.dispose()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
