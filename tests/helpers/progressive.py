"""Progressives for the tests: a frequent one (three of a kind on the 6-Card Bonus) so hits happen,
tables betting it, and the PKI of a progressive controller and its tables."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kiosk.kernel.games import progressive
from kiosk.kernel.games.progressive import ProgressiveSettings
from kiosk.table.core import commands as c
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import Phase, TableConfig
from kiosk.table.core.events import Bet
from kiosk.terminal.hostlink import pki
from tests.helpers.table import config

#: a progressive on the 6-Card Bonus's three of a kind (1 in 28): hits in every short run
FREQUENT = {
    "name": "test-6cb-trips",
    "family": "stadium",
    "wager": "six_card_bonus",
    "outcome": "Three of a kind",
    "qualify_cents": 100,
    "mode": "linked",
    "meter": {
        "reset_cents": 500,
        "rate_ppm": 30_000,
        "hidden_ppm": 7_000,
        "ceiling_cents": 2_000,
        "overflow": "carry",
    },
}


def frequent(**meter: object) -> ProgressiveSettings:
    """The frequent progressive, some meter settings changed."""
    data = {**FREQUENT, "meter": {**FREQUENT["meter"], **meter}}  # type: ignore[dict-item]
    return progressive.parse(data, "test")


def write_frequent(path: Path, **meter: object) -> Path:
    """The frequent progressive as a file."""
    m = {**FREQUENT["meter"], **meter}  # type: ignore[dict-item]
    lines = [
        f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}"
        for k, v in FREQUENT.items()
        if k != "meter"
    ]
    lines.append("[meter]")
    lines += [f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in m.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def bet(seat: int) -> Bet:
    """Ante and a 6-Card Bonus (seat 0 bets below the qualifying wager: contributes, never hits)."""
    six = 50 if seat == 0 else 100 + 25 * seat
    return Bet((("ante", 100), ("six_card_bonus", six)), (0, 4, 8))


def play_rounds(ctl: TableController, table_id: str, rounds: int, seats: int = 4) -> None:
    """``rounds`` Stadium rounds on ``ctl`` (the clock from its journal), every seat betting."""
    now = max((ev.at for ev in ctl.journal.events()), default=0) + 1
    ctl.resume(now)
    for seat in range(seats):
        ctl.execute(c.Join(seat), now)
    done = 0
    while done < rounds:
        now += 1
        phase = ctl.state.phase
        if phase is Phase.IDLE:
            ctl.execute(c.OpenRound(), now)
            game = ctl.state.last_game
            for seat in range(seats):
                ctl.execute(c.ReportWager(table_id, game, seat, bet(seat)), now)
        elif phase is Phase.SETTLED:
            ctl.execute(c.CloseRound(), now)
            done += 1
            continue
        else:
            now += 1000
        ctl.execute(c.Tick(), now)


def table_config(table_id: str) -> TableConfig:
    """A Stadium table ``table_id`` with quick timers."""
    return replace(config(), table_id=table_id)


def pki_dir(root: Path, tables: tuple[str, ...]) -> Path:
    """A CA, the progressive controller's certificate and one per table (``table-<id>``)."""
    pki.init_ca(root)
    pki.issue_cert(root, "table-progressive", root)
    for table in tables:
        pki.issue_cert(root, f"table-{table}", root)
    pki.issue_cert(root, "seat-1", root)
    return root
