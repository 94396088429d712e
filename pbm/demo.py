"""`pbm demo`: a whole game by real mail over loopback, with no configuration.

An IMAP server (pymap, in process) and an SMTP server (aiosmtpd) start on free 127.0.0.1 ports,
the real `serve` machinery runs on a SQLite database in a work folder with deadlines compressed
to seconds, and bot players join by mail, confirm their signup with the code mailed to them,
read their welcome mails over IMAP to learn their passwords, and send their placements and
orders by mail, written by the autopilot in the order language. One bot misses rounds on
purpose: NMR, the autopilot taking over, and its return with "Ich bin zurück" are all part of
the game. Every mail is left as .eml, every report as .html,
with an index.html, and the pbm.toml the demo ran with, so every GM command works afterwards.
With a Seafarers scenario the game is played on its board: the bots' setup mails place ships
where the coast asks for one, and their order mails build and move ships and name `Gold:`. In
Kronlande (`kronlande`) it is played on the large island: the bots' mails build workshops,
make goods (`Herstellen 2 Brot`), raise Burgen and Residenzen and play the project cards.
"""

from __future__ import annotations

import asyncio
import base64
import email
import email.policy
import html
import json
import re
import tempfile
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import aiosmtplib
from sqlmodel import Session, col, func, select

from pbm.config.model import ImapSection, Settings

from .devservers.loopback import LoopbackMail
from .files import private_dir, write_private
from .mail.imap import ImapInbox
from .notation import Context
from .notation.format import format_setup_orders, format_turn_orders, word
from .notation.vocab import colour_name
from .rules import GameState, Phase, autopilot
from .rules.setup import setup_player
from .service.context import Service
from .service.games import create_game, get_game, load_state, players_of
from .service.serve import serve
from .store.db import make_engine, scrub, transaction
from .store.migrate import upgrade
from .store.models import InboundMail, Outbox
from .store.statuses import OutboxStatus

GM = "gm@pbm.demo"
GAME = "demo"
#: 48 hours become 6 seconds.
TIME_SCALE = 6 / (48 * 3600)
#: The lazy bot misses these rounds (two NMRs bring the autopilot) and is back in the next.
LAZY_ROUNDS = (3, 4)
NMR_AUTOPILOT_AFTER = 2


@dataclass
class DemoResult:
    winner: str
    rounds: int
    mails_in: int
    mails_out: int
    dir: str
    seconds: float
    files: int = 0


@dataclass
class Bot:
    address: str
    lazy: bool = False
    password: str = ""
    sent: set[tuple[str, int]] = field(default_factory=set)
    count: int = 0


#: The colour each bot asks for.
_COLOURS = ("rot", "blau", "gelb", "weiss", "gruen", "braun")
#: The subjects of the bots' setup and round mails, by game language (the service reads no
#: order from a subject: they are for the reader of the mails).
_SUBJECTS = {
    "de": ("Aufstellung", "Züge Runde {n}"),
    "en": ("Setup", "Orders round {n}"),
    "da": ("Opstilling", "Træk runde {n}"),
}


class Demo:
    def __init__(
        self,
        workdir: Path,
        players: int,
        seed: int,
        progress: Any = None,
        scenario: str | None = None,
        kronlande: bool = False,
        lang: str = "de",
    ) -> None:
        self.dir = workdir
        #: The game's language: the bots write their mails in its order words.
        self.lang = lang
        self.players = players
        self.seed = seed
        self.scenario = scenario
        self.kronlande = kronlande
        self.progress = progress
        self.lb = LoopbackMail()
        self.svc: Service | None = None

    def _write_config(self) -> Path:
        cfg = self.dir / "pbm.toml"
        write_private(
            cfg,
            "# Written by `pbm demo`: the configuration the demo game ran with.\n"
            '[database]\nurl = "sqlite:///pbm.db"\n\n'
            f'[service]\naddress = "{GM}"\nname = "pbm demo"\n'
            f"time_scale = {TIME_SCALE!r}\npoll_seconds = 0.1\ntick_seconds = 0.2\n"
            "send_seconds = 0.1\n\n"
            f'[imap]\nhost = "127.0.0.1"\nport = {self.lb.imap.port}\nuser = "{GM}"\n'
            'password = "demo"\nprocessed_folder = "Processed"\nidle = false\n\n'
            f'[smtp]\nhost = "127.0.0.1"\nport = {self.lb.smtp_port}\nfrom = "{GM}"\n',
        )
        return cfg

    async def run(self) -> DemoResult:
        start = time.perf_counter()
        await self.lb.start()
        await self.lb.add_user(GM, "demo")
        self._write_config()
        url = f"sqlite:///{self.dir / 'pbm.db'}"
        upgrade(url)
        # The hourly answer limit counts real time, which the demo compresses: lifted here.
        self.svc = svc = Service(
            make_engine(url),
            config=Settings().updated(
                service={
                    "address": GM,
                    "name": "pbm demo",
                    "time_scale": TIME_SCALE,
                    "rate_limit_per_hour": 10**6,
                    "poll_seconds": 0.1,
                    "tick_seconds": 0.2,
                    "send_seconds": 0.1,
                },
                # Polling every 0.1 s beats IDLE here: pymap reports news to an IDLE client
                # only about once a second, and a search on a local server costs nothing.
                imap={
                    "port": self.lb.imap.port,
                    "user": GM,
                    "password": "demo",
                    "processed_folder": "Processed",
                    "idle": False,
                },
                smtp={"port": self.lb.smtp_port, "from": GM},
            ),
        )
        with transaction(svc.engine) as session:
            create_game(
                svc,
                session,
                GAME,
                players=self.players,
                seed=self.seed,
                nmr_autopilot_after=NMR_AUTOPILOT_AFTER,
                scenario=self.scenario,
                kronlande=self.kronlande,
                lang=self.lang,
            )
        stop = asyncio.Event()
        server = asyncio.create_task(serve(svc, stop))
        bots = [
            Bot(f"bot{i + 1}@pbm.demo", lazy=(i == self.players - 1)) for i in range(self.players)
        ]
        try:
            for bot in bots:
                await self.lb.add_user(bot.address, "demo")
            w = self._word
            for i, bot in enumerate(bots):
                colour = colour_name(_COLOURS[i], self.lang)
                await self._send(
                    bot,
                    w("join"),
                    f"{w('game')}: {GAME}\n{w('name')}: Bot {i + 1}\n{w('colours')}: {colour}",
                )
            await asyncio.gather(*(self._learn_password(b) for b in bots))
            await self._play(bots)
            await self._drain()
        finally:
            stop.set()
            await asyncio.wait_for(server, 30)
            await self.lb.stop()
        result = self._result(time.perf_counter() - start)
        result.files = self._export()
        # As at the end of `pbm serve`: the WAL written back and cut, no old page left in it.
        scrub(svc.engine)
        return result

    async def _send(self, bot: Bot, subject: str, body: str) -> None:
        bot.count += 1
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = bot.address, GM, subject
        msg["Message-ID"] = f"<{bot.count}.{bot.address}>"
        msg.set_content(body)
        await aiosmtplib.send(msg, hostname="127.0.0.1", port=self.lb.smtp_port)

    async def _learn_password(self, bot: Bot) -> None:
        """Read the bot's mailbox over IMAP until the welcome mail with the password came,
        answering the request to confirm the signup with its code on the way."""
        box = ImapInbox(
            ImapSection(port=self.lb.imap.port, user=bot.address, password="demo", idle=False)
        )
        await box.connect()
        try:
            for _ in range(600):
                for uid in await box.unseen():
                    raw = await box.fetch(uid)
                    await box.done(uid)
                    if raw is None:
                        continue
                    msg = email.message_from_bytes(raw, policy=email.policy.default)
                    body = msg.get_body(preferencelist=("plain",))
                    text = str(body.get_content()) if body is not None else ""
                    confirm, password = self._word("confirm"), self._word("password")
                    code = re.search(rf"^ *{re.escape(confirm)}: (\S+)", text, re.M)
                    if code:
                        # Only the address's own answer with the code takes the seat.
                        await self._send(
                            bot, f"Re: {msg['Subject']}", f"{confirm}: {code.group(1)}\n"
                        )
                        continue
                    m = re.search(rf"{re.escape(password)}: (\S+)", text)
                    if m:
                        bot.password = m.group(1)
                        return
                await asyncio.sleep(0.05)
        finally:
            await box.close()
        raise RuntimeError(f"{bot.address}: no welcome mail")

    def _state(self) -> tuple[GameState, dict[int, str]]:
        assert self.svc is not None
        with Session(self.svc.engine) as session:
            game = get_game(session, GAME)
            seats = {p.seat: p.address for p in players_of(session, game) if p.seat is not None}
            return load_state(game), seats

    async def _play(self, bots: list[Bot]) -> None:
        by_address = {b.address: b for b in bots}
        while True:
            state, seats = self._state()
            if state.phase == Phase.ENDED:
                return
            if state.phase == Phase.SETUP:
                seat = setup_player(state)
                bot = by_address[seats[seat]]
                key = ("setup", state.setup_step)
                if key not in bot.sent:
                    bot.sent.add(key)
                    ctx = Context(state.board, self.lang, state.colours, "setup")
                    lines = format_setup_orders(autopilot.setup_orders(state, seat), ctx)
                    await self._send(
                        bot,
                        _SUBJECTS.get(self.lang, _SUBJECTS["de"])[0],
                        f"{self._word('password')}: {bot.password}\n" + "\n".join(lines),
                    )
            else:
                await self._orders(state, seats, by_address)
            self._report(state)
            await asyncio.sleep(0.05)

    async def _orders(
        self, state: GameState, seats: dict[int, str], by_address: dict[str, Bot]
    ) -> None:
        ctx = Context(state.board, self.lang, state.colours, "round")
        w = self._word
        for seat, address in sorted(seats.items()):
            bot = by_address[address]
            key = ("round", state.round)
            if key in bot.sent:
                continue
            bot.sent.add(key)
            back = ""
            if bot.lazy:
                if state.round in LAZY_ROUNDS:
                    continue  # misses the round on purpose: NMR
                if state.round == LAZY_ROUNDS[-1] + 1:
                    continue  # the autopilot plays the seat this round
                if state.round == LAZY_ROUNDS[-1] + 2:
                    back = f"{w('back')}\n"
            lines = format_turn_orders(autopilot.turn_orders(state, seat), ctx)
            await self._send(
                bot,
                _SUBJECTS.get(self.lang, _SUBJECTS["de"])[1].format(n=state.round),
                f"{w('password')}: {bot.password}\n{back}{w('round')}: {state.round}\n"
                + "\n".join(lines),
            )

    def _word(self, key: str) -> str:
        """An order word of the game's language, as pbm writes it."""
        return word(key, self.lang)

    def _report(self, state: GameState) -> None:
        if self.progress is not None:
            self.progress(state)

    async def _drain(self) -> None:
        """Let the last reports go out before the servers stop."""
        assert self.svc is not None
        for _ in range(200):
            with Session(self.svc.engine) as session:
                pending = session.exec(
                    select(func.count())
                    .select_from(Outbox)
                    .where(Outbox.status == OutboxStatus.PENDING)
                ).one()
            if not pending:
                return
            await asyncio.sleep(0.05)

    def _result(self, seconds: float) -> DemoResult:
        assert self.svc is not None
        with Session(self.svc.engine) as session:
            game = get_game(session, GAME)
            state = load_state(game)
            winner = ""
            for p in players_of(session, game):
                if p.seat == state.winner:
                    winner = f"{p.name} ({colour_name(p.colour or '', self.lang)})"
            mails_in = session.exec(select(func.count()).select_from(InboundMail)).one()
            mails_out = session.exec(
                select(func.count()).select_from(Outbox).where(Outbox.status == OutboxStatus.SENT)
            ).one()
        return DemoResult(
            winner, state.round, int(mails_in), int(mails_out), str(self.dir), round(seconds, 1)
        )

    def _export(self) -> int:
        """Every mail as .eml, every report as .html, and an index.html linking them."""
        assert self.svc is not None
        out = self.dir / "mails"
        private_dir(out)
        links: list[str] = []
        with Session(self.svc.engine) as session:
            for m in session.exec(select(InboundMail).order_by(col(InboundMail.id))):
                name = f"in-{m.id:04d}.eml"
                write_private(out / name, m.raw)
                links.append(
                    f'<li><a href="mails/{name}">in {m.id}</a> '
                    f"{html.escape(m.sender)}: {html.escape(m.subject)}</li>"
                )
            for o in session.exec(select(Outbox).order_by(col(Outbox.id))):
                from .mail.outgoing import attach, build_message
                from .reports import report_json
                from .service.secrets import MASK
                from .service.sending import stored_attachment

                # A sent welcome mail's password is gone from its row (it went out with
                # the mail); the copy here shows it masked.
                msg = build_message(
                    from_address=GM,
                    from_name="pbm demo",
                    recipients=o.recipients.split(","),
                    subject=o.subject,
                    body=o.body,
                    html=o.html,
                    message_id=o.message_id,
                    in_reply_to=o.in_reply_to,
                    date=o.created_at,
                    image=o.image,
                    chart=o.chart,
                    secret=o.secret or MASK,
                )
                # As the sender sends it: the first recipient's JSON file attached (each
                # recipient gets their own; the copy here is the first one's).
                files = stored_attachment(o.id or 0, o.attachment)
                if files is not None:
                    attach(msg, *report_json.for_recipient(files, o.recipients.split(",")[0]))
                name = f"out-{o.id:04d}.eml"
                write_private(out / name, msg.as_bytes())
                extra = ""
                if o.kind in ("report", "end", "placed", "preview"):
                    page = f"out-{o.id:04d}.html"
                    write_private(
                        out / page, _report_page(o.subject, o.html, o.body, o.image, o.chart)
                    )
                    extra = f' — <a href="mails/{page}">report</a>'
                links.append(
                    f'<li><a href="mails/{name}">out {o.id}</a> {o.kind} to '
                    f"{html.escape(o.recipients)}: {html.escape(o.subject)}{extra}</li>"
                )
        write_private(
            self.dir / "index.html",
            _html_page("pbm demo", "<ul>" + "\n".join(links) + "</ul>", raw=True),
        )
        return len(links)


def _report_page(
    subject: str, html_part: str, text: str, image: bytes | None, chart: bytes | None = None
) -> str:
    """The mail's own HTML page, its inline pictures (the board, the VP chart) as data: URIs
    (no cid: in a browser)."""
    if not html_part:
        return _html_page(subject, text)
    for data, cid in ((image, "board@pbm"), (chart, "vpchart@pbm")):
        if data:
            uri = "data:image/png;base64," + base64.b64encode(data).decode()
            html_part = html_part.replace(f"cid:{cid}", uri)
    return html_part


def _html_page(title: str, body: str, raw: bool = False) -> str:
    content = body if raw or body.lstrip().startswith("<") else f"<pre>{html.escape(body)}</pre>"
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}'
        f"</title></head><body><h1>{html.escape(title)}</h1>{content}</body></html>\n"
    )


def run_demo(
    players: int = 4,
    seed: int = 1,
    workdir: str | None = None,
    progress: Any = None,
    scenario: str | None = None,
    kronlande: bool = False,
    lang: str = "de",
) -> DemoResult:
    """`scenario`: a Seafarers scenario (3 or 4 players) instead of the base game;
    `kronlande`: Kronlande on the large island; `lang`: the game language (`i18n.languages`)."""
    # The folder, and everything in it, is the GM's alone: its pbm.toml, its database (the
    # seed, the codebooks) and its mails (docs/security.md, "File modes").
    path = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="pbm-demo-"))
    private_dir(path)
    return asyncio.run(Demo(path, players, seed, progress, scenario, kronlande, lang).run())


def result_json(result: DemoResult) -> str:
    return json.dumps(
        {
            "winner": result.winner,
            "rounds": result.rounds,
            "mails_in": result.mails_in,
            "mails_out": result.mails_out,
            "dir": result.dir,
            "seconds": result.seconds,
        }
    )
