"""The typed items a line of a mail reads as besides the orders of `pbm.rules.orders`:
headers (password, game, round), table lines (message, absence, time zone), commands, headings,
passing, alternatives on their own line, and several builds on one line (`Item`, the union)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from pbm.rules.orders import (
    Alternatives,
    BuildAction,
    DiscardPreference,
    GoldPreference,
    Knight,
    Monopoly,
    RobberOrder,
    SetupPlacement,
    TradeOffer,
)


@dataclass(frozen=True)
class Password:
    secret: str


@dataclass(frozen=True)
class Confirmation:
    """`Bestätigen: <code>` / `Confirm: <code>`: the code of a confirmation mail, sent back."""

    token: str


@dataclass(frozen=True)
class Press:
    """`Nachricht an gelb: …` / `Message to yellow: …`, `Nachricht an alle`, `An Spielleitung:` /
    `To GM:`: the rest of the mail goes to that colour (canonical name), to "all" or to "gm";
    `first` is what the line says after the colon. `anonymous`: `Anonyme Nachricht an …`."""

    to: str
    first: str = ""
    anonymous: bool = False


@dataclass(frozen=True)
class Away:
    """`Urlaub bis 2026-12-24` / `Away until 2026-12-24`: the last day of an absence.
    `Ferie til 20. marts` / `Urlaub bis 20.3.` name no year (`year_given` false): `until`
    then holds the day and month in the leap year `YEARLESS` (a 29 February too), and the
    service takes the such day nearest to today (`meant`)."""

    until: date
    year_given: bool = True

    def meant(self, today: date) -> date:
        """The last day of the absence: the date written; without a year, the day and month
        written in the year that puts it nearest to `today` (a day five days ago is a day
        that passed, not one a year ahead; 29 February only in a leap year)."""
        if self.year_given:
            return self.until
        such: list[date] = []
        for year in range(today.year - 4, today.year + 5):
            try:
                such.append(date(year, self.until.month, self.until.day))
            except ValueError:  # 29 February outside a leap year
                continue
        # The nearest; of two as near, the one ahead.
        return min(such, key=lambda d: (abs((d - today).days), d < today))


#: The year a date written without one is kept in (a leap year, for 29 February).
YEARLESS = 2000


@dataclass(frozen=True)
class TimeZone:
    """`Zeitzone: Europe/Berlin` / `Time zone: …`: an IANA time zone name as the player wrote it
    (checked against the system's zone database)."""

    name: str


@dataclass(frozen=True)
class GameName:
    name: str


@dataclass(frozen=True)
class RoundGuard:
    round: int


@dataclass(frozen=True)
class Command:
    """A command that is not an order: join, help, status, players, history, resign, back,
    observe, unobserve. `topic`: what `Hilfe Schiffe` asks help for (folded; "" for the
    overview)."""

    name: str
    topic: str = ""


@dataclass(frozen=True)
class PlayerName:
    name: str


@dataclass(frozen=True)
class ColourPreference:
    colours: tuple[str, ...]
    #: Words of the line that are not colours, as written (only `scan_line` keeps them; a
    #: full reading refuses the line): a signup keeps the colours and its answer names these.
    unknown: tuple[str, ...] = ()


@dataclass(frozen=True)
class Builds:
    """Several builds on one line (`Straße … und Siedlung …`, `2 Entwicklungskarten`), in the
    order written: each is a build line of its own."""

    actions: tuple[BuildAction, ...]


@dataclass(frozen=True)
class SubstituteHeader:
    """`Ersatzbau:` and its family (`Ersatzzüge:`, `Falls das nicht klappt:`, `Fallback:`): the
    build lines after it are substitutes. `build`: a build written on the heading's own line
    (`Ersatz: Entwicklungskarte`)."""

    build: BuildAction | Alternatives | Builds | None = None
    #: A build the heading names (`Falls die Burg nicht klappt:`: `burg`), "" for none: the
    #: substitutes run when any main build fails, so it is read only over a single main build.
    names: str = ""


@dataclass(frozen=True)
class Heading:
    """A line that only announces the orders below it (`Meine Züge:`): not an order."""


@dataclass(frozen=True)
class LaterPlacement:
    """Setup: placements the writer labels as their second (`Zweite Siedlung: …`, `Second
    settlement: …`, `Andet hus: …`, or lines under such a heading): kept for their second turn
    to place, not read as choices for the next one."""

    placements: tuple[SetupPlacement, ...]


@dataclass(frozen=True)
class PlacementHeading:
    """Setup: a heading that says which of the writer's placements the lines below are
    (`Zweite Siedlung:`: the second; `Erste Siedlung:`: the next one, as without a heading)."""

    second: bool


@dataclass(frozen=True)
class Pass:
    """`Ich passe`, `nichts`, `keine Züge`, `pass`: an explicit empty order set."""


@dataclass(frozen=True)
class OrElse:
    """`oder …` / `sonst …` on a line of its own: one more option of the build line above."""

    option: BuildAction | Alternatives


Item = (
    Password
    | Press
    | Away
    | TimeZone
    | Confirmation
    | GameName
    | RoundGuard
    | Command
    | PlayerName
    | ColourPreference
    | SubstituteHeader
    | Heading
    | Pass
    | OrElse
    | Builds
    | RobberOrder
    | DiscardPreference
    | GoldPreference
    | Knight
    | Monopoly
    | TradeOffer
    | BuildAction
    | Alternatives
    | SetupPlacement
    | tuple[SetupPlacement, ...]
    | LaterPlacement
    | PlacementHeading
)
