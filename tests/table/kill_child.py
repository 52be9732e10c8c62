"""A table controller process that plays rounds until it is killed (for the kill tests).

    python -m tests.table.kill_child JOURNAL EDITION MODE

It recovers from the journal it finds, prints ``ready``, then plays rounds with six seats as
fast as it can: every seat wagers, half of them decide, the timers run out.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kiosk.table.core import commands as c
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import DealMode, Phase
from kiosk.terminal.runtime.deck import RngDeckFactory
from rng import Csprng
from tests.helpers.table import STADIUM, config, stadium_bet, turbo_bet


def main(path: str, edition: str, mode: str) -> None:
    cfg = config(edition, DealMode(mode))
    ctl = TableController(cfg, Path(path), RngDeckFactory(Csprng()))
    now = max((ev.at for ev in ctl.journal.events()), default=0) + 1
    ctl.resume(now)
    print("ready", flush=True)
    for seat in range(6):
        ctl.execute(c.Join(seat), now)
    while True:
        now += 1
        if ctl.state.phase is Phase.IDLE:
            ctl.execute(c.OpenRound(), now)
            game = ctl.state.last_game
            for seat in range(6):
                bet = stadium_bet(100 + seat) if edition == STADIUM else turbo_bet(100 + seat, 5)
                ctl.execute(c.ReportWager(cfg.table_id, game, seat, bet), now)
        elif ctl.state.phase is Phase.DECIDING and ctl.state.round is not None:
            rnd = ctl.state.round
            for seat, offer in sorted(rnd.offers.items())[::2]:
                if seat not in rnd.decisions:
                    ctl.execute(
                        c.ReportDecision(cfg.table_id, rnd.game_number, seat, offer.take), now
                    )
            now += cfg.decision_ms
        elif ctl.state.phase is Phase.SETTLED:
            ctl.execute(c.CloseRound(), now)
        else:
            now += cfg.betting_ms
        ctl.execute(c.Tick(), now)


if __name__ == "__main__":
    main(*sys.argv[1:4])
