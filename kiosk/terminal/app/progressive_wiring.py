"""A terminal's own progressive (standalone mode, decision 0060): its meter on a journal in the
terminal's data directory, fed by the terminal's settled games, reported over its SAS link."""

from __future__ import annotations

from pathlib import Path

from kiosk.kernel.games.progressive import ProgressiveSettings
from kiosk.terminal.app.wiring import Terminal
from kiosk.terminal.progressive.controller import JournalWins, ProgressiveController
from kiosk.terminal.progressive.terminal_feed import TerminalFeed
from kiosk.terminal.sas.progressive import ProgressiveLink


def journal_path(data_dir: Path, settings: ProgressiveSettings) -> Path:
    """``DATA_DIR/progressive-<name>.sqlite3``."""
    return Path(data_dir) / f"progressive-{settings.name}.sqlite3"


def attach_progressive(
    terminal: Terminal, settings: ProgressiveSettings, *, terminal_id: str, handpay_limit: int
) -> ProgressiveController:
    """Run ``settings``'s meter on ``terminal`` (powered up): book the journal's settled games
    it lacks, then every game as committed; give its SAS link the wins.  The controller (its
    owner closes it after the terminal)."""
    runtime = terminal.runtime
    controller = ProgressiveController(settings, journal_path(runtime.data_dir, settings))
    feed = TerminalFeed(controller, terminal_id, settings, handpay_limit)
    feed.catch_up(row.event for row in runtime.journal.rows())
    runtime.subscribe(feed.after)
    if terminal.sas_link is not None:
        terminal.sas_link.machine.progressives = ProgressiveLink(
            JournalWins(controller, f"{terminal_id}/")
        )
    return controller
