"""A terminal with its own (standalone) progressive, playing until it is killed.

    python -m tests.progressive.terminal_child DATA_DIR [GAMES]

It powers up from its journal (booking the games its meter lacks and paying the hits it has not
paid), prints ``ready``, then plays Three Card Poker with a Pairs Plus wager on the frequent
pair progressive; a hit at the handpay limit locks and the attendant's key pays it.  Notes go in
before ``ready`` only (a kill in a note's escrow is the bill validator's campaign, not this
one).  ``GAMES``: that many games, then it closes and exits; otherwise until killed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kiosk.kernel.games import progressive
from kiosk.terminal.app.progressive_wiring import attach_progressive
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.textui.session import PlaySession
from tests.helpers.progressive import FREQUENT

#: a progressive on Pairs Plus's pair (about one game in six)
PAIR = progressive.parse({**FREQUENT, "wager": "pairs_plus", "outcome": "Pair"}, "test")
#: hits from $5.40 lock for the attendant (the meter starts at $5.00; about 6 cents a game)
HANDPAY_LIMIT = 540
GAME = ("bet ante 1", "bet pairs_plus 2", "positions 1 5 9", "deal", "play")


def main(data_dir: str, *rest: str) -> None:
    terminal = build_terminal(Path(data_dir))
    session = PlaySession(terminal, lambda line: None)
    session.start()
    meter = attach_progressive(terminal, PAIR, terminal_id="TK-0001", handpay_limit=HANDPAY_LIMIT)
    session.pump()  # what power-up posted
    runtime = terminal.runtime
    if "head_withdrawn" in runtime.state.tilts:
        # a kill between the signer's head and the commit, the second in a day: the operator
        # clears it (decision 0037; this campaign is about hits, not that tilt)
        runtime.execute(c.ClearTilt("head_withdrawn", by="operator"))
    for _ in range(3):
        if runtime.state.credits[0] < 20_000:
            session.handle("bill 100")
    session.handle("game stadium-3cp")
    print("ready", flush=True)
    played, games = 0, int(rest[0]) if rest else -1
    while played != games:
        state = runtime.state
        if state.handpay is not None or state.tilts:
            session.handle("attendant")
        if state.credits[0] < 1_000:
            break  # out of money: the campaign's run ends here
        for line in GAME:
            try:
                session.handle(line)
            except CommandError:
                break
        session.pump()
        played += 1
    session.handle("attendant")  # the last handpay, paid
    session.pump()
    terminal.close()
    meter.close()


if __name__ == "__main__":
    main(*sys.argv[1:])
