"""``turbokiosk play``: the whole game over a text stream, one command a line.

Each line is one step: the terminal's device reports and decision timers are processed
(:meth:`TerminalRuntime.pump`), the command runs, and the reports it caused are processed
again.  An illegal command prints the terminal's own refusal and changes nothing.  Everything
the terminal commits is narrated as it happens (cards by name, offers, results, credits).
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from kiosk.kernel.errors import CommandError, UsageError
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import Phase
from kiosk.terminal.core.tilts import DISPUTE_TILTS
from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.terminal.presentation.money import dollars, parse_dollars
from kiosk.terminal.presentation.table_status import table_status
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.seat.runtime import SeatRuntime
from kiosk.terminal.store.journal import StoreError
from kiosk.terminal.textui.narrate import Narrator, deadline_text
from kiosk.terminal.textui.rules import rules_lines
from kiosk.terminal.textui.show import (
    offer_text,
    positions_text,
    round_lines,
    title_of,
    wagers_text,
)
from kiosk.terminal.textui.table_lines import table_line
from kiosk.terminal.textui.wording import ODD_CENTS, bet_refusal, refusal
from rng import BackgroundCycler

#: typed decision -> the game's choice
DECISIONS = {"raise": "raise", "noraise": "no_raise", "play": "play", "fold": "fold"}


@dataclass(frozen=True)
class TextCommand:
    """One command a player can type."""

    usage: str
    help: str
    run: Callable[[PlaySession, list[str]], None]


class SimulatedDevices(Protocol):
    """The in-process devices a text session works (the player's notes, the printed voucher)."""

    @property
    def validator(self) -> InProcessBillValidator: ...

    @property
    def printer(self) -> InProcessPrinter: ...


class PlayedTerminal(Protocol):
    """What a text session plays on: a wired terminal with in-process devices (the composition
    root, :func:`kiosk.terminal.app.wiring.build_terminal`, makes one)."""

    @property
    def runtime(self) -> TerminalRuntime: ...

    @property
    def simulated(self) -> SimulatedDevices: ...

    @property
    def cycler(self) -> BackgroundCycler: ...


class PlaySession:
    """A player (and attendant) at a terminal, in text."""

    def __init__(self, terminal: PlayedTerminal, write: Callable[[str], None]) -> None:
        self.terminal = terminal
        self.rt = terminal.runtime
        self.write = write
        self.narrator = Narrator(lambda: self.rt.state, self.rt.clock)
        self.rt.subscribe(self._on_events)
        #: seated at a table (``play --table``): bets and decisions go through the seat
        self.table: SeatRuntime | None = None
        self._table_shown = ""

    # --- the loop -----------------------------------------------------------------------------

    def start(self, edition: str | None = None) -> None:
        """Power the terminal up (recovering what a stop interrupted) and show where it stands.

        Raises ConfigError when ``edition`` is not enabled on the terminal; when it is but
        cannot be chosen now (a round in progress, a lockup) the refusal is shown.
        """
        self.rt.power_up()
        self.pump()
        if edition is not None:
            self.rt.state.config.edition(edition)  # the configuration the journal holds
        if edition is not None and edition != self.rt.state.selected_edition:
            try:
                self.rt.execute(c.SelectEdition(edition))
            except CommandError as exc:
                self.write(f"! {refusal(exc)}")
        self.write(f"Game: {self._title()}. Type 'help' for the commands, rules and pays.")
        self.show_status()

    def run(self, lines: Iterable[str], echo: bool = False) -> None:
        """Handle lines until ``quit`` or the end of the input."""
        for line in lines:
            if echo and line.strip():
                self.write(f"> {line.strip()}")
            if not self.handle(line):
                break
        self.write(f"Bye. Credits on the terminal: {dollars(sum(self.rt.state.credits))}.")

    def handle(self, line: str) -> bool:
        """One line: timers and devices first, then the command; False after ``quit``."""
        self.pump()
        words = line.split("#", 1)[0].split()
        if not words:
            return True
        name, args = words[0].lower(), words[1:]
        if name in ("quit", "exit"):
            return False
        command = COMMANDS.get(name)
        try:
            if command is None:
                raise UsageError(f"unknown command {name!r}; type 'help'")
            command.run(self, args)
        except UsageError as exc:
            self.write(f"? {exc}")
        except CommandError as exc:
            self.write(f"! {refusal(exc)}")
        except StoreError:  # nothing of the command happened; the terminal locked itself up
            s = self.rt.state
            title = "STORAGE FULL" if s.storage_full and not s.critical else "CRITICAL MEMORY ERROR"
            self.write(f"! {title}: {s.critical or s.storage_full}. The terminal is locked.")
        self.pump()
        return True

    def pump(self) -> None:
        """Device reports and decision timers; the RNG cycles while no round is in play."""
        try:
            self.rt.pump()
        except (CommandError, StoreError) as exc:  # an RNG or store failure: now a lockup
            self.write(f"! {exc}")
        if self.table is not None:
            self.table.pump()
            shown = table_line(table_status(self.table))
            if shown.split(";")[0] != self._table_shown.split(";")[0]:  # a new phase or link
                self.write(shown)
            self._table_shown = shown
        cycler = self.terminal.cycler
        if self.rt.state.phase in (Phase.IDLE, Phase.WAGERING, Phase.RESULT):
            cycler.resume()
            cycler.step()
        else:
            cycler.pause()

    def _on_events(self, events: list[e.Event]) -> None:
        for text in self.narrator.lines(events):
            self.write(text)

    # --- what is shown --------------------------------------------------------------------------

    def _title(self) -> str:
        return title_of(self.rt.core.game(), self.rt.state.selected_edition)

    def status_line(self) -> str:
        """Credits, game, wagers placed, phase and lockups, in one line."""
        s = self.rt.state
        parts = [f"Credits {dollars(s.credits[0])}", s.selected_edition]
        if s.pending_wagers.get(0):
            parts.append(f"wagers {wagers_text(self.rt.core.game(), s.pending_wagers[0])}")
        if s.pending_positions.get(0):
            parts.append(f"positions {positions_text(s.pending_positions[0])}")
        if s.phase not in (Phase.IDLE, Phase.WAGERING, Phase.RESULT):
            parts.append(s.phase.value)
        lockups = s.lockups()
        if lockups:
            parts.append("LOCKED: " + ", ".join(lock.value for lock in lockups))
        return " | ".join(parts)

    def show_status(self) -> None:
        """Everything a technician needs to see at a glance."""
        s = self.rt.state
        if s.round is not None:
            for line in round_lines(s.round):
                self.write(line)
        if s.phase is Phase.DECISION and s.round is not None:
            offer = s.round.offers.get(0)
            if offer is not None and 0 not in s.round.choices:
                game = self.rt.core.game(s.round.edition)
                self.write(f"  {offer_text(game, offer.decision)}")
                deadline = self.rt.decision_deadline(0)
                if deadline is not None:
                    self.write(f"  {deadline_text(deadline, self.rt.clock())}")
        for code, tilt in s.tilts.items():
            self.write(f"Tilt {code}: {tilt.reason}")
        if s.handpay is not None:
            hp = s.handpay
            self.write(
                f"Handpay {dollars(hp.value)} ({hp.kind.replace('_', ' ')}) waits for an attendant."
            )
        if s.doors_open:
            self.write(f"Doors open: {', '.join(s.doors_open)}")
        if s.disabled is not None:
            self.write(f"Disabled: {s.disabled}")
        if s.critical is not None:
            self.write(f"Critical memory error: {s.critical}")
        if s.storage_full is not None:
            self.write(f"Storage full: {s.storage_full}")
        self.write(self.status_line())

    # --- commands -----------------------------------------------------------------------------

    def cmd_help(self, args: list[str]) -> None:
        """Commands, then the rules and pays of the game chosen."""
        width = max(len(cmd.usage) for cmd in COMMANDS.values())
        self.write("Commands (amounts in dollars):")
        seen: set[int] = set()
        for command in COMMANDS.values():
            if id(command) not in seen:
                seen.add(id(command))
                self.write(f"  {command.usage:<{width}}  {command.help}")
        self.write(f"  {'quit':<{width}}  leave (credits stay on the terminal)")
        self.write("")
        for line in [*rules_lines(self.rt.core.game(), self.rt.state.config), ODD_CENTS]:
            for part in textwrap.wrap(line, width=100, subsequent_indent="    "):
                self.write(part)

    def cmd_status(self, args: list[str]) -> None:
        """Show the status."""
        self.show_status()

    def cmd_bill(self, args: list[str]) -> None:
        """Insert a note through the bill validator."""
        value = _amount(args, "bill DOLLARS")
        if not self.terminal.simulated.validator.insert(value):
            cfg = self.rt.state.config
            if value not in cfg.accepted_notes:
                notes = ", ".join(dollars(n) for n in cfg.accepted_notes)
                reason = f"not a note this terminal takes ({notes})"
            else:
                reason = self.rt.core.money_refusal(0, value) or "the bill validator refused it"
            self.write(f"{dollars(value)} note returned: {reason}.")
        self.pump()

    def cmd_game(self, args: list[str]) -> None:
        """List the games, or choose one."""
        if not args:
            for ed in self.rt.state.config.editions:
                mark = "*" if ed.edition == self.rt.state.selected_edition else " "
                self.write(f" {mark} {title_of(self.rt.core.game(ed.edition), ed.edition)}")
            return
        self.rt.execute(c.SelectEdition(_one(args, "game EDITION")))
        self.write(f"Game: {self._title()}.")

    def cmd_bet(self, args: list[str]) -> None:
        """Add to a wager spot."""
        if len(args) != 2:
            raise UsageError("usage: bet SPOT DOLLARS")
        spot, amount = args[0], _amount(args[1:], "bet SPOT DOLLARS")
        game = self.rt.core.game()
        if spot not in {s.id for s in game.spots}:
            raise UsageError(
                f"no wager spot {spot!r} in {game.title}; spots: "
                + ", ".join(s.id for s in game.spots)
            )
        problem = bet_refusal(self.rt.state, game, spot, amount)
        if problem is not None:  # what the deal would refuse is refused now
            self.write(f"! {problem}")
            return
        self.rt.execute(c.PlaceWager(spot=spot, amount=amount))
        self.write(self.status_line())

    def cmd_positions(self, args: list[str]) -> None:
        """Choose the Stadium hand's three array locations (none: take them back)."""
        game = self.rt.core.game()
        if args and not game.positions:
            raise UsageError(f"{game.title} has no positions to choose")
        try:
            locations = [int(a) for a in args]
        except ValueError:
            locations = [0]
        if any(not 1 <= x <= 9 for x in locations):
            raise UsageError(
                "usage: positions A B C with locations 1..9 (row by row: 1 2 3 / 4 5 6 / 7 8 9)"
            )
        self.rt.execute(c.SelectPositions(tuple(x - 1 for x in locations)))
        self.write(self.status_line())

    def cmd_clear(self, args: list[str]) -> None:
        """Take back the wagers placed."""
        self.rt.execute(c.ClearWagers())
        self.write(self.status_line())

    def cmd_repeat(self, args: list[str]) -> None:
        """Place the last round's wagers again."""
        self.rt.execute(c.RepeatWagers())
        self.write(self.status_line())

    def cmd_deal(self, args: list[str]) -> None:
        """Commit the wagers and deal (at a table: for its open round)."""
        if self.table is not None:
            self.table.bet()
            return
        self.rt.execute(c.Deal())

    def cmd_decide(self, choice: str) -> None:
        """Answer the decision offered."""
        if self.table is not None:
            self.table.decide(DECISIONS[choice])
            self.write(f"{choice}: sent to the table (journaled when the table has it)")
            return
        self.rt.execute(c.Decide(choice=DECISIONS[choice]))

    def cmd_wait(self, args: list[str]) -> None:
        """Let the table play on for SECONDS (default 1), showing its steps."""
        try:
            seconds = float(args[0]) if args else 1.0
        except ValueError as exc:
            raise UsageError("wait SECONDS (a number)") from exc
        if not 0 <= seconds <= 600:
            raise UsageError("wait 0 to 600 seconds")
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump()
            time.sleep(0.02)

    def cmd_table(self, args: list[str]) -> None:
        """The table's status."""
        if self.table is None:
            raise UsageError("this terminal is not seated at a table (play --table ADDR)")
        self.write(table_line(table_status(self.table)))

    def cmd_cashout(self, args: list[str]) -> None:
        """Cash the credits out to a voucher."""
        self.rt.cash_out()
        self.pump()

    def cmd_attendant(self, args: list[str]) -> None:
        """Pay the handpay by hand and clear the tilts (the attendant's key)."""
        s = self.rt.state
        if s.handpay is None and not s.tilts:
            self.write("Nothing for an attendant to do.")
            return
        if s.handpay is not None:
            self.rt.execute(c.AttendantReset(by="attendant"))
        for code in list(s.tilts):
            if code in DISPUTE_TILTS:  # no key ends a device records dispute
                self.write(f"Tilt {code} needs the host's confirmation or a RAM clear.")
                continue
            self.rt.execute(c.ClearTilt(code=code, by="attendant"))

    def cmd_door(self, args: list[str]) -> None:
        """Open or close a cabinet door."""
        if not args or args[0] not in ("open", "close") or len(args) > 2:
            raise UsageError("usage: door open|close [DOOR]  (DOOR: main unless named)")
        door = args[1] if len(args) == 2 else "main"
        self.rt.execute(c.SetDoor(door=door, open=args[0] == "open"))

    def cmd_printer(self, args: list[str]) -> None:
        """Simulate the printer: ready, out of paper or jammed."""
        state = _one(args, "printer ok|out|jam")
        printer = self.terminal.simulated.printer
        if state == "ok":
            printer.paper, printer.fault = True, None
        elif state == "out":
            printer.paper = False
        elif state == "jam":
            printer.fault = "jam"
        else:
            raise UsageError("usage: printer ok|out|jam")
        self.write(f"Printer: {'ready' if printer.ready() else 'not ready'}.")


def _one(args: list[str], usage: str) -> str:
    if len(args) != 1:
        raise UsageError(f"usage: {usage}")
    return args[0]


def _amount(args: list[str], usage: str) -> int:
    try:
        return parse_dollars(_one(args, usage))
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def _decision(choice: str) -> TextCommand:
    def run(session: PlaySession, args: list[str]) -> None:
        if args:
            raise UsageError(f"usage: {choice}")
        session.cmd_decide(choice)

    help_text = {
        "raise": "Turbo: take the raise (double)",
        "noraise": "Turbo: decline it",
        "play": "Stadium: play (a wager equal to the ante)",
        "fold": "Stadium: fold",
    }
    return TextCommand(choice, help_text[choice], run)


COMMANDS: dict[str, TextCommand] = {
    "bill": TextCommand("bill DOLLARS", "insert a note (bill 20)", PlaySession.cmd_bill),
    "game": TextCommand("game [EDITION]", "list the games, or choose one", PlaySession.cmd_game),
    "bet": TextCommand(
        "bet SPOT DOLLARS", "add to a wager spot (bet first_down 5)", PlaySession.cmd_bet
    ),
    "positions": TextCommand(
        "positions [A B C]",
        "Stadium: your three locations 1..9 (none: take them back)",
        PlaySession.cmd_positions,
    ),
    "clear": TextCommand("clear", "take back the wagers", PlaySession.cmd_clear),
    "repeat": TextCommand("repeat", "place the last game's wagers again", PlaySession.cmd_repeat),
    "deal": TextCommand("deal", "commit the wagers and deal", PlaySession.cmd_deal),
    **{name: _decision(name) for name in ("raise", "noraise", "play", "fold")},
    "cashout": TextCommand("cashout", "print a voucher for the credits", PlaySession.cmd_cashout),
    "status": TextCommand(
        "status", "credits, wagers, the game on show, lockups", PlaySession.cmd_status
    ),
    "attendant": TextCommand(
        "attendant", "pay a handpay, clear tilts (attendant key)", PlaySession.cmd_attendant
    ),
    "door": TextCommand(
        "door open|close [DOOR]", "open or close a cabinet door", PlaySession.cmd_door
    ),
    "printer": TextCommand("printer ok|out|jam", "simulate the printer", PlaySession.cmd_printer),
    "help": TextCommand("help", "the commands, rules and pays", PlaySession.cmd_help),
    "wait": TextCommand("wait [SECONDS]", "let the table play on", PlaySession.cmd_wait),
    "table": TextCommand("table", "the table's status (play --table)", PlaySession.cmd_table),
}
