"""A terminal process wired to a host, played by the robot with notes *and* tickets.

    python -m tests.helpers.robot_terminal --data-dir D --host ADDR --pki DIR [--drain]

The robot keeps the vouchers its terminal prints in a wallet (``D/wallet.json``, written with
fsync) and feeds them back in as tickets, through the host's ticket-in validation.  A ticket in
the acceptor when the process dies is settled at the next start the way a real bill acceptor's
non-volatile memory and the terminal's journal settle it: credited (the journal has its
TicketRedeemed) means it is in the cash box; otherwise it is handed back.

``--drain``: power up, recover, deliver the whole outbox, print ``drained`` and exit.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.anchor import ANCHOR_WAIT_REASON
from kiosk.terminal.hostlink.ports import HostUnavailableError
from kiosk.terminal.hostlink.wiring import HostEndpoint
from kiosk.terminal.robot import Robot


class Wallet:
    """The player's vouchers: number -> {"value", "inserted"}; plus how far the journal was read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data: dict[str, Any] = {"tickets": {}, "scanned": 0}
        if path.exists():
            self.data = json.loads(path.read_text())

    def save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(self.data, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)

    @property
    def tickets(self) -> dict[str, dict[str, Any]]:
        tickets: dict[str, dict[str, Any]] = self.data["tickets"]
        return tickets


class TicketPlayer:
    """Collects printed vouchers and inserts them as tickets."""

    def __init__(self, terminal: Terminal, wallet: Wallet, rand: random.Random) -> None:
        self.terminal = terminal
        self.rt = terminal.runtime
        self.host = self.rt.host
        assert self.host is not None
        self.wallet = wallet
        self.rand = rand
        self.redeemed = 0

    def recover(self) -> None:
        """Settle a ticket that was in the acceptor when the process died."""
        credited = {
            r.event.validation_number
            for r in self.rt.journal.rows()
            if isinstance(r.event, e.TicketRedeemed)
        }
        for number, ticket in list(self.wallet.tickets.items()):
            if not ticket["inserted"]:
                continue
            if number in credited:
                del self.wallet.tickets[number]
                self._tell(self.host.ticket_stacked, number)  # type: ignore[union-attr]
            elif any(t.validation_number == number for t in self.rt.state.ticket_escrow.values()):
                # journaled in escrow: the acceptor stacks it now (credited, host told)
                self.rt.execute(c.TicketStackedReport(validation_number=number))
                del self.wallet.tickets[number]
            else:
                ticket["inserted"] = False
                self._tell(self.host.ticket_returned, number)  # type: ignore[union-attr]
        self.wallet.save()

    @staticmethod
    def _tell(call: Any, number: str) -> None:
        # when the host is unreachable, the journal's TicketRedeemed (or the same terminal's
        # next validation) settles the reservation later
        with contextlib.suppress(HostUnavailableError):
            call(number)

    def collect(self) -> None:
        """Take the vouchers printed since the last look."""
        last = self.wallet.data["scanned"]
        for row in self.rt.journal.rows(after=last):
            if isinstance(row.event, e.VoucherPrinted):
                self.wallet.tickets[row.event.validation_number] = {
                    "value": row.event.value,
                    "inserted": False,
                }
            last = row.seq
        if last != self.wallet.data["scanned"]:
            self.wallet.data["scanned"] = last
            self.wallet.save()

    def maybe_insert(self) -> None:
        """Sometimes insert a ticket from the wallet."""
        held = [n for n, t in self.wallet.tickets.items() if not t["inserted"]]
        if not held or self.rand.random() > 0.4 or self.rt.state.phase.value == "cashout":
            return
        number = self.rand.choice(held)
        self.wallet.tickets[number]["inserted"] = True
        self.wallet.save()
        host = self.host
        assert host is not None
        try:
            answer = host.validate_ticket(number)
        except HostUnavailableError:
            answer = None
        if answer is None or not answer.accepted:
            self.wallet.tickets[number]["inserted"] = False
            self.wallet.save()
            if answer is not None and answer.reason.startswith("already redeemed"):
                raise SystemExit(f"ticket {number} refused: {answer.reason}")
            return
        # the escrow path a voucher takes: the host's answer, then stacked
        escrowed = self.rt.execute(c.InsertTicket(validation_number=number, value=answer.value))
        if not any(isinstance(x, e.TicketEscrowAccepted) for x in escrowed):
            self.wallet.tickets[number]["inserted"] = False  # returned (the host was told)
            self.wallet.save()
            return
        self.rt.execute(c.TicketStackedReport(validation_number=number))
        self._tell(host.ticket_stacked, number)
        del self.wallet.tickets[number]
        self.wallet.save()
        self.redeemed += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="robot_terminal")
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--host", required=True, help="host address")
    parser.add_argument("--pki", type=Path, required=True)
    parser.add_argument("--terminal", default="TK-A")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--drain", action="store_true")
    args = parser.parse_args(argv)
    endpoint = HostEndpoint(args.host, pki.credentials(args.pki, args.terminal), args.terminal)
    config = TerminalConfig(terminal_id=args.terminal, host_timeout_seconds=5)
    terminal = build_terminal(args.data_dir, config=config, host=endpoint)
    report = terminal.runtime.power_up()
    if report.critical:
        print(f"critical: {report.critical}", flush=True)
        return 3
    link = terminal.host_link
    assert link is not None
    link.start()
    deadline = time.monotonic() + 100  # play is held until the link checked the host's anchor
    while terminal.runtime.state.disabled == ANCHOR_WAIT_REASON and time.monotonic() < deadline:
        terminal.runtime.pump()
        time.sleep(0.02)
    rand = random.Random(args.seed)
    player = TicketPlayer(terminal, Wallet(args.data_dir / "wallet.json"), rand)
    player.recover()
    print("ready", flush=True)
    rt = terminal.runtime
    if args.drain:
        deadline = time.monotonic() + 100  # generous: a loaded machine, a host just restarted
        while rt.journal.outbox(1) or not link.connected:
            if time.monotonic() > deadline:
                owed = len(rt.journal.outbox(10_000))
                alive = [t.name for t in link._threads if t.is_alive()]
                print(f"not drained: {owed} owed, link {link.status()}, threads {alive}")
                return 1
            rt.pump()
            time.sleep(0.02)
        link.stop()
        print("drained", flush=True)
        return 0
    robot = Robot(
        rt, terminal.simulated.validator, terminal.simulated.printer, rand, fault_rate=0.03
    )
    while True:
        robot.play_game()
        player.collect()
        player.maybe_insert()
        robot.check_invariants()


if __name__ == "__main__":
    sys.exit(main())
