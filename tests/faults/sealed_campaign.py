"""SIGKILL a real terminal process between signing and committing a deal, many times over, and
compare every round's cards in the store with the cards first drawn for it (issue 23).

A worker (``python -m tests.faults.sealed_campaign DATA_DIR LOG SEED KILL_AT``) powers the
terminal up (recovering what the last kill left), then plays Stadium with the soak robot.  It
writes every deal to ``LOG`` (game, position in the round, cards; fsync'd) before anyone could
see it, and SIGKILLs itself right after the signer has signed the ``KILL_AT``-th commit that
deals cards, before SQLite commits it (``KILL_AT`` 0: the last run, which ends the round in play
and stops): the commit never reaches the store, the signer's anchor
is ahead of it, and the next power-up withdraws it and resumes the round.

The campaign then reads the store's journal: every dealt card must be the card first drawn at
that position of that round (the first line of the log for it).  The default run has a few
kills; ``tox -e sealed`` has the 200 (``-m sealed``).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.helpers.campaign_progress import campaign_progress

REPO = Path(__file__).resolve().parents[2]


@dataclass
class SealedCampaign:
    """What a campaign saw."""

    kills: int = 0
    interrupted_rounds: int = 0  # rounds in play when a kill came
    rounds: int = 0  # rounds in the store at the end
    compared: int = 0  # deals compared with the cards first drawn
    differences: list[str] = field(default_factory=list)
    recoveries: dict[str, int] = field(default_factory=dict)


def _dealt(rnd: Any) -> int:
    return len(rnd.first) + sum(len(x) for x in rnd.seat_cards) + len(rnd.second_shared)


def _append(log: Path, record: dict[str, Any]) -> None:
    with log.open("a") as out:
        out.write(json.dumps(record) + "\n")
        out.flush()
        os.fsync(out.fileno())


def worker(data_dir: Path, log: Path, seed: int, kill_at: int) -> None:
    """Power up, play, and die between the signature and the commit of the kill_at-th deal."""
    from kiosk.terminal.app.wiring import build_terminal
    from kiosk.terminal.robot import Robot
    from kiosk.terminal.runtime.terminal import TerminalRuntime
    from kiosk.terminal.store import critmem

    dealing: list[tuple[int, int]] = []
    draw: Callable[..., tuple[int, ...]] = TerminalRuntime._draw

    def logged_draw(self: TerminalRuntime, n: int) -> tuple[int, ...]:
        cards = draw(self, n)
        rnd = self.state.round
        assert rnd is not None
        at = _dealt(rnd)
        _append(log, {"game": rnd.game_number, "at": at, "cards": list(cards)})
        dealing.append((rnd.game_number, at))
        return cards

    begin: Callable[..., Any] = critmem.StoreSigner.begin
    signed_deals = [0]
    playing: list[bool] = []  # the kills come in play, once power-up has recovered

    def begin_then_die(self: critmem.StoreSigner, *args: Any, **kwargs: Any) -> Any:
        answer = begin(self, *args, **kwargs)

        def signed_then_die() -> Any:
            # the signer's answer is in (its anchor durable), the commit's rows are written,
            # its transaction not committed
            out = answer()
            if dealing and playing:
                game, at = dealing[-1]
                dealing.clear()
                signed_deals[0] += 1
                if kill_at and signed_deals[0] >= kill_at:
                    _append(log, {"killed": game, "at": at})
                    os.kill(os.getpid(), signal.SIGKILL)
            return out

        return signed_then_die

    TerminalRuntime._draw = logged_draw  # type: ignore[method-assign]
    critmem.StoreSigner.begin = begin_then_die  # type: ignore[method-assign]
    terminal = build_terminal(data_dir, snapshot_every=7)
    report = terminal.runtime.power_up()
    _append(log, {"recovered": report.actions, "critical": report.critical})
    if report.critical is not None:
        raise SystemExit(f"locked at power-up: {report.critical}")
    dealing.clear()
    playing.append(True)
    robot = Robot(
        terminal.runtime,
        terminal.simulated.validator,
        terminal.simulated.printer,
        random.Random(seed),
        editions=["stadium-3cp"],
        fault_rate=0.0,
    )
    if kill_at == 0:  # the last power-up: end the round the last kill interrupted
        robot.settle_lockups()
        robot.finish_round()
        terminal.close()
        return
    while True:
        robot.play_game()


def _classify(action: str) -> str:
    for words, key in (
        ("signed head row", "head withdrawn"),
        ("made again", "sealed decision made again"),
        ("opened again", "sealed wagers placed again"),
        ("decision offered again", "decision offered again"),
        ("dealing completed", "deal completed"),
    ):
        if words in action:
            return key
    return "other"


def run_sealed_campaign(root: Path, kills: int, seed: int) -> SealedCampaign:
    """``kills`` SIGKILLs between signing and committing a deal; the store compared after."""
    rand = random.Random(seed)
    data_dir, log = root / "terminal", root / "draws.jsonl"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("TURBOKIOSK_SIGNER", None)
    campaign = SealedCampaign()
    progress = campaign_progress("sealed kill campaign", kills, "kills")
    for n in range(kills + 1):  # the last run is not killed: it ends the round in play
        kill_at = rand.randint(1, 4) if n < kills else 0
        args = [str(data_dir), str(log), str(rand.randrange(2**31)), str(kill_at)]
        proc = subprocess.run(
            [sys.executable, "-m", "tests.faults.sealed_campaign", *args],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            cwd=REPO,
            check=False,
        )
        if kill_at == 0:
            assert proc.returncode == 0, proc.stderr[-2000:]
            break
        assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
        campaign.kills += 1
        progress.update(campaign.kills)
    progress.close()
    return _compare(data_dir, log, campaign)


def _compare(data_dir: Path, log: Path, campaign: SealedCampaign) -> SealedCampaign:
    from kiosk.terminal.core import events as ev
    from kiosk.terminal.store.journal import Journal

    first: dict[tuple[int, int], list[int]] = {}
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if "cards" in record:
            first.setdefault((record["game"], record["at"]), record["cards"])
        elif "killed" in record:
            campaign.interrupted_rounds += 1
        else:
            for action in record["recovered"]:
                key = _classify(action)
                campaign.recoveries[key] = campaign.recoveries.get(key, 0) + 1
    journal = Journal(data_dir, readonly=True)
    try:
        game, at = 0, 0
        for row in journal.rows():
            event = row.event
            if isinstance(event, ev.RoundStarted):
                game, at = event.game_number, 0
                campaign.rounds += 1
            elif isinstance(event, ev.CardsDealt):
                cards = [*event.shared] if event.stage == "first" else []
                if event.stage != "first":
                    cards = [x for seat in event.per_seat for x in seat] + list(event.shared)
                drawn = first.get((game, at))
                campaign.compared += 1
                if drawn != cards:
                    campaign.differences.append(
                        f"game {game} at card {at}: first drawn {drawn}, in the store {cards}"
                    )
                at += len(cards)
    finally:
        journal.close()
    return campaign


def summary(campaign: SealedCampaign) -> str:
    """One paragraph for logs and notes."""
    return (
        f"{campaign.kills} SIGKILLs between signing and committing a deal, "
        f"{campaign.interrupted_rounds} rounds interrupted; {campaign.rounds} rounds and "
        f"{campaign.compared} deals in the store compared with the cards first drawn: "
        f"{len(campaign.differences)} differences; recoveries {campaign.recoveries}"
    )


if __name__ == "__main__":
    worker(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
