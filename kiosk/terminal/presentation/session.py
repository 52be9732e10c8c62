"""A player at the terminal: touches become commands, the terminal's events become notices.

:class:`PlayerSession` is what any player-facing front end drives (the Kivy app does): it sends
the terminal's commands, shows the terminal's refusals as notices in the player's language, and
keeps what is only the player's business — language, chosen chip, session clock and the
session-time reminder, the voucher on show.  It decides nothing about money or rules; the
terminal does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from kiosk.kernel.clock import wall_clock_ms
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.state import Phase
from kiosk.terminal.devices.ports import PrinterPaperLow
from kiosk.terminal.presentation.chips import chip_values
from kiosk.terminal.presentation.families import table_family
from kiosk.terminal.presentation.help import HelpPage, help_page
from kiosk.terminal.presentation.i18n import check_language, text
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.overlays import LockupView, VoucherView, lockup_view, voucher_view
from kiosk.terminal.presentation.recall import RecallView, recall_view
from kiosk.terminal.presentation.table import SEAT, TableView, table_view
from kiosk.terminal.presentation.words import GameWords
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.seat.runtime import SeatRuntime
from kiosk.terminal.store.journal import StoreError

NOTICE_MS = 4_000
#: idle time (no credits, no touch) after which the attract mode returns
ATTRACT_AFTER_MS = 90_000
REMINDER_CHOICES = (0, 15, 30, 60)  # minutes; 0 is off

#: the terminal's refusals a player commonly meets, as catalogue keys (amounts in cents)
_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"not enough credits"), "err_credits"),
    (re.compile(r"place a wager first"), "err_no_wager"),
    (re.compile(r"the least on one spot is (\d+) cents"), "err_min"),
    (re.compile(r"the most on one spot is (\d+) cents"), "err_max"),
    (re.compile(r"the most on one round is (\d+) cents"), "err_table"),
    (re.compile(r"exceed the table maximum of (\d+) cents"), "err_table"),
    (re.compile(r"no previous wager of this game"), "err_repeat"),
    (re.compile(r"choose exactly 3 distinct positions"), "err_positions"),
    (re.compile(r"is mandatory"), "err_mandatory"),
    (re.compile(r"whole number of credits of (\d+) cents"), "err_denomination"),
    (re.compile(r"not allowed: terminal locked"), "err_locked"),
)


@dataclass(frozen=True)
class Notice:
    """A short message over the table: a note credited or returned, a refusal."""

    text: str
    kind: str  # "credit", "error" or "info"
    until: int  # epoch ms


def _words(key: str, **params: str) -> Callable[[str], str]:
    """A notice's words in whichever language the player picks (now or later)."""
    return lambda language: text(language, key, **params)


def player_error(language: str, message: str) -> str:
    """A terminal refusal in the player's words (and language), amounts in dollars."""
    for pattern, key in _ERRORS:
        match = pattern.search(message)
        if match is not None:
            amount = dollars(int(match[1])) if match.groups() else ""
            return text(language, key, amount=amount)
    return text(language, "err_not_now")  # never the terminal's own words ("Deal ... while idle")


def clock_text(ms: int, language: str = "en") -> str:
    """A duration in minutes with its unit, ``"2 min"``, ``"1 h 02 min"`` (the session clock
    changes once a minute: a software-rendered screen is redrawn for every change)."""
    minutes = max(0, ms) // 60_000
    if minutes < 60:
        return text(language, "session_minutes", minutes=minutes)
    return text(language, "session_hours", hours=minutes // 60, minutes=f"{minutes % 60:02d}")


class PlayerSession:
    """The player's side of one terminal."""

    def __init__(
        self,
        runtime: TerminalRuntime,
        *,
        language: str = "en",
        clock: Callable[[], int] = wall_clock_ms,
    ) -> None:
        self.rt = runtime
        #: seated at a table (``run --table``): bets and decisions go through the seat
        self.seat: SeatRuntime | None = None
        self.clock = clock
        self.language = check_language(language)
        self.chip = 0
        self.notice: Notice | None = None
        self._notice_words: Callable[[str], str] | None = None
        self.session_started: int | None = None
        self.reminder_minutes = 0
        self._reminder_at: int | None = None
        self.reminder_due = False
        self.last_activity = clock() - ATTRACT_AFTER_MS  # no player since power-up: attract
        self.revision = 0  # bumped on every committed step: the screen redraws
        self._voucher: dict[str, Any] | None = None
        self.rt.subscribe(self._on_events)

    # --- the terminal's events ---------------------------------------------------------------

    def _on_events(self, events: list[e.Event]) -> None:
        self.revision += 1
        for event in events:
            if isinstance(event, e.BillStacked | e.TicketRedeemed):
                self._say(_words("note_in", amount=dollars(event.value)), "credit")
                self.last_activity = self.clock()
                if self.session_started is None:
                    self.start_session()
            elif isinstance(event, e.BillReturned):
                words = _words("note_returned", amount=dollars(event.value), reason=event.reason)
                self._say(words, "info")
            elif isinstance(event, e.CashoutStarted):
                self._voucher = {
                    "value": event.value,
                    "validation_number": event.validation_number,
                    "issued_at": event.at,
                    "sequence": self.rt.voucher_sequence,
                    "printing": True,
                }
            elif isinstance(event, e.VoucherPrinted):
                if self._voucher is not None:
                    self._voucher["printing"] = False
                self._end_session_if_empty()
            elif isinstance(event, e.VoucherFailed):
                self._voucher = None
                self._say(_words("voucher_failed", reason=event.reason), "error")
            elif isinstance(event, e.HandpayReset):
                self._end_session_if_empty()

    def _say(self, words: Callable[[str], str], kind: str) -> None:
        """Show a notice; ``words`` gives it in a language, so a change of language re-words it."""
        self.notice = Notice(words(self.language), kind, self.clock() + NOTICE_MS)
        self._notice_words = words
        self.revision += 1

    def dismiss_notice(self) -> None:
        """Take the notice away now (the visit's screenshots, whose clock stands still)."""
        self.notice = None
        self._notice_words = None
        self.revision += 1

    # --- the player's session ----------------------------------------------------------------

    def start_session(self) -> None:
        """The session clock starts (first credit or first touch of a game)."""
        self.session_started = self.clock()
        self._arm_reminder()

    def _end_session_if_empty(self) -> None:
        if self.rt.state.credits[SEAT] == 0:
            self.session_started = None
            self._reminder_at = None
            self.reminder_due = False

    def responsible_gaming_text(self) -> str:
        """Attract mode's responsible-gaming line: the operator's words in the player's
        language (``responsible_gaming_en``/``_es``), else the built-in line."""
        config = self.rt.state.config
        own = str(getattr(config, f"responsible_gaming_{self.language}", ""))
        return own or text(self.language, "attract_responsible")

    def session_text(self) -> str:
        """The session clock, ``"Session 12 min"`` (empty when no session runs)."""
        if self.session_started is None:
            return ""
        elapsed = clock_text(self.clock() - self.session_started, self.language)
        return text(self.language, "session", time=elapsed)

    def set_reminder(self, minutes: int) -> None:
        """Remind the player every ``minutes`` of play (0: never)."""
        if minutes not in REMINDER_CHOICES:
            raise ValueError(f"reminder minutes must be one of {REMINDER_CHOICES}")
        self.reminder_minutes = minutes
        self.reminder_due = False
        self._arm_reminder()

    def _arm_reminder(self) -> None:
        if self.reminder_minutes and self.session_started is not None:
            elapsed = self.clock() - self.session_started
            period = self.reminder_minutes * 60_000
            self._reminder_at = self.session_started + (elapsed // period + 1) * period
        else:
            self._reminder_at = None

    def reminder_text(self) -> str:
        """What the reminder says now."""
        minutes = (self.clock() - (self.session_started or self.clock())) // 60_000
        return text(self.language, "reminder_text", minutes=minutes)

    def dismiss_reminder(self) -> None:
        """The player read the reminder; the next one is one period later."""
        self.reminder_due = False
        self._arm_reminder()

    def touched(self) -> None:
        """The player touched the screen (keeps attract mode away)."""
        self.last_activity = self.clock()

    def attract_due(self) -> bool:
        """Whether the terminal is idle enough for attract mode."""
        s = self.rt.state
        idle = s.phase in (Phase.IDLE, Phase.RESULT) and not s.pending_wagers.get(SEAT)
        quiet = self.clock() - self.last_activity >= ATTRACT_AFTER_MS
        return idle and quiet and s.credits[SEAT] == 0 and not s.lockups()

    def set_language(self, language: str) -> None:
        """The player's language for every text on screen."""
        self.language = check_language(language)
        if self.notice is not None and self._notice_words is not None:
            self.notice = replace(self.notice, text=self._notice_words(self.language))
        self.revision += 1

    # --- the event loop ----------------------------------------------------------------------

    def tick(self) -> None:
        """Timed duties of the player's side: notices expire, the reminder falls due."""
        now = self.clock()
        if self.notice is not None and now >= self.notice.until:
            self.notice = None
            self.revision += 1
        printer = self.rt.printer
        if self.notice is None and isinstance(printer, PrinterPaperLow) and printer.paper_low:
            self._say(_words("paper_low"), "info")  # again while it lasts, between notices
        if self._reminder_at is not None and now >= self._reminder_at and not self.reminder_due:
            self.reminder_due = True
            self.revision += 1

    # --- what the player sees ----------------------------------------------------------------

    def chip_value(self) -> int:
        """The chip a touch on a wager spot places (the rack's second chip to start with)."""
        values = chip_values(self.rt.state.config)
        if self.chip not in values:
            self.chip = values[1] if len(values) > 1 else values[0]
        return self.chip

    def view(self, revealed: int | None = None, *, in_flight: bool = False) -> TableView:
        """The table of the selected game (``revealed``: cards the deal animation has dealt;
        ``in_flight``: some are still on their way, what follows from them waits)."""
        return table_view(
            self.rt.state,
            self.rt.core.game,
            self.language,
            now=self.clock(),
            deadline=self.rt.decision_deadline(SEAT),
            revealed=revealed,
            in_flight=in_flight,
        )

    def lockup(self) -> LockupView | None:
        """The lockup covering the table, if any."""
        return lockup_view(self.rt.state, self.language, cash_out_handpay=self.cash_out_by_hand())

    def cash_out_by_hand(self) -> bool:
        """Whether CASH OUT would now be paid by an attendant rather than by a voucher (the
        printer cannot print, or the credits are above the voucher limit): the terminal's own
        rule (:meth:`TerminalCore._cash_out`), so the button can say so before it is touched."""
        s = self.rt.state
        credits = s.credits[SEAT]
        return credits > 0 and (credits > s.config.ticket_out_limit or not self.rt.printer.ready())

    def voucher(self) -> VoucherView | None:
        """The voucher being printed or just printed, until the player dismisses it."""
        v = self._voucher
        if v is None:
            return None
        return voucher_view(
            value=v["value"],
            validation_number=v["validation_number"],
            issued_at=v["issued_at"],
            sequence=v["sequence"],
            state=self.rt.state,
            printing=v["printing"],
            language=self.language,
        )

    def dismiss_voucher(self) -> None:
        """The player took the voucher."""
        self._voucher = None
        self.revision += 1

    def help(self, edition: str | None = None) -> HelpPage:
        """Rules and pays of an enabled edition (the selected one by default)."""
        return help_page(self.rt.core.game(edition), self.rt.state.config, self.language)

    def history(self, last: int = 10) -> list[RecallView]:
        """The last games, newest first."""
        return [recall_view(r, self.language) for r in self.rt.journal.recall(last)]

    def editions(self) -> list[tuple[str, str, str, str]]:
        """Every enabled game: (edition id, title, icon, one-line description)."""
        out = []
        for ed in self.rt.state.config.editions:
            game = self.rt.core.game(ed.edition)
            words = GameWords(game, self.language)
            family = table_family(game)
            icon, desc = family.tile_icon(game), family.menu_text(game, words)
            out.append((ed.edition, words.title, icon, desc))
        return out

    # --- touches -----------------------------------------------------------------------------

    def _run(self, command: c.Command) -> bool:
        return self._attempt(lambda: self.rt.execute(command))

    def _attempt(self, act: Callable[[], object]) -> bool:
        self.touched()
        try:
            act()
        except CommandError as exc:
            message = str(exc)
            self._say(lambda lang: player_error(lang, message), "error")
            return False
        except StoreError:
            return False  # the terminal locked itself up (critical); the lockup shows why
        self.revision += 1
        return True

    def select_edition(self, edition: str) -> bool:
        """Choose a game (between games)."""
        if edition == self.rt.state.selected_edition and self.rt.state.phase is Phase.WAGERING:
            return True  # already at that table with wagers placed
        return self._run(c.SelectEdition(edition))

    def select_chip(self, value: int) -> None:
        """Choose the chip value the next touches on spots place."""
        if value not in chip_values(self.rt.state.config):
            raise ValueError(f"no {value} cent chip in the rack")
        self.chip = value
        self.touched()
        self.revision += 1

    def place_chip(self, spot: str) -> bool:
        """Put the chosen chip on a wager spot."""
        if self.session_started is None:
            self.start_session()
        return self._run(c.PlaceWager(spot=spot, amount=self.chip_value()))

    def toggle_position(self, position: int) -> bool:
        """Stadium: add an array position to the hand, or take it out (a fourth replaces the
        first chosen)."""
        chosen = list(self.rt.state.pending_positions.get(SEAT, ()))
        if position in chosen:
            chosen.remove(position)
        else:
            chosen = [*chosen[-2:], position] if len(chosen) >= 3 else [*chosen, position]
        return self._run(c.SelectPositions(tuple(chosen)))

    def clear(self) -> bool:
        """Take the placed wagers back."""
        return self._run(c.ClearWagers())

    def repeat(self) -> bool:
        """Place the last game's wagers again."""
        return self._run(c.RepeatWagers())

    def deal(self) -> bool:
        """Commit the wagers and deal (seated at a table: for its open round, then report)."""
        if self.seat is not None:
            return self._attempt(self.seat.bet)
        return self._run(c.Deal())

    def decide(self, take: bool) -> bool:
        """Answer the decision offered: take it (raise / play) or decline it."""
        rnd = self.rt.state.round
        offer = rnd.offers.get(SEAT) if rnd is not None else None
        if offer is None:
            self._say(_words("err_no_decision"), "error")
            return False
        decision = offer.decision
        choice = decision.take if take else next(x for x in decision.choices if x != decision.take)
        if self.seat is not None:  # journaled when the table has journaled it
            seat = self.seat
            return self._attempt(lambda: seat.decide(choice))
        return self._run(c.Decide(choice=choice))

    def cash_out(self) -> bool:
        """Print a voucher for the credits (a handpay when the printer cannot)."""
        self.touched()
        try:
            self.rt.cash_out()
        except CommandError as exc:
            message = str(exc)
            self._say(lambda lang: player_error(lang, message), "error")
            return False
        except StoreError:
            return False
        self.rt.pump()
        self.revision += 1
        return True
