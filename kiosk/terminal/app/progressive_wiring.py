"""A terminal's own progressive (standalone mode, decisions 0060 and 0066): its meter on a
journal in the terminal's data directory, fed by the terminal's settled games; its hits paid on
the terminal (credits, or a handpay lock at the handpay limit) and reported over its SAS link
from the terminal's own journal."""

from __future__ import annotations

from pathlib import Path

from kiosk.kernel.games.progressive import ProgressiveSettings
from kiosk.terminal.app.wiring import Terminal
from kiosk.terminal.progressive.controller import ProgressiveController
from kiosk.terminal.progressive.terminal_feed import TerminalFeed
from kiosk.terminal.runtime.progressive_pay import HitPayer, PaidWins
from kiosk.terminal.sas.progressive import ProgressiveLink


def journal_path(data_dir: Path, settings: ProgressiveSettings) -> Path:
    """``DATA_DIR/progressive-<name>.sqlite3``."""
    return Path(data_dir) / f"progressive-{settings.name}.sqlite3"


def attach_progressive(
    terminal: Terminal, settings: ProgressiveSettings, *, terminal_id: str, handpay_limit: int
) -> ProgressiveController:
    """Run ``settings``'s meter on ``terminal`` (powered up): book the journal's settled games
    it lacks and pay the hits the terminal has not paid, then book and pay every game as
    committed; give its SAS link the wins as paid.  The controller (its owner closes it after
    the terminal)."""
    runtime = terminal.runtime
    controller = ProgressiveController(settings, journal_path(runtime.data_dir, settings))
    payer = HitPayer(runtime, settings, terminal_id, controller.rounds)
    feed = TerminalFeed(controller, terminal_id, settings, handpay_limit, payer.booked)
    feed.catch_up(row.event for row in runtime.journal.rows())
    payer.scan()
    payer.pay_due()
    runtime.subscribe(feed.after)
    runtime.subscribe(payer.observe)
    if terminal.sas_link is not None:
        terminal.sas_link.machine.progressives = ProgressiveLink(PaidWins(runtime, settings.name))
    return controller
