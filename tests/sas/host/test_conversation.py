"""The host tool's poller and casino logic against sas16's gaming machine, both sans-IO.

The bytes the host's :class:`HostPoller` writes are fed to a real :class:`SasMachine` (with its
hash-chained exception queue and the system-validation/ticket bridge on real SQLite files);
the machine's replies are fed back.  No line: a clock in milliseconds that both share.  This
is where the two sides' framing, BCD layouts and ticket flows are held to each other.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from kiosk.host.sas import polls
from kiosk.host.sas.casino import CasinoHost
from kiosk.host.sas.poller import HostPoller
from kiosk.host.sas.tickets import TicketDb, TicketState
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.framing import WakeupMode
from kiosk.terminal.sas.link import SasBridge
from kiosk.terminal.sas.machine import SasMachine
from kiosk.terminal.sas.meters import GameEntry, MachineSnapshot
from kiosk.terminal.sas.queue import ExceptionQueue, NewException
from kiosk.terminal.sas.wire import ExceptionCode as X
from kiosk.terminal.sas.wire import LongPoll as Code


class _Controls:
    """What the host may change: recorded (the terminal's side of it is sas16's e2e)."""

    def __init__(self) -> None:
        self.play: list[bool] = []
        self.time_set: list[int] = []

    def enable_play(self, enabled: bool) -> None:
        self.play.append(enabled)

    def enable_bills(self, enabled: bool) -> None:
        return None

    def reset_handpay(self) -> int:
        return 2

    def set_time(self, epoch_ms: int) -> bool:
        self.time_set.append(epoch_ms)
        return True

    def now_ms(self) -> int:
        return 1_764_158_400_000  # 2025-11-26 12:00:00 UTC


class _Signatures:
    def request(self, seed: int) -> int | None:
        return seed ^ 0xBEEF


SNAPSHOT = MachineSnapshot(
    meters={
        "coin_in": 123_456,
        "coin_out": 98_765,
        "games_played": 321,
        "games_won": 120,
        "games_lost": 190,
        "bills_in": 50_000,
        "bills_in.2000": 20,
        "bills_in.10000": 1,
        "tickets_in": 4_500,
        "tickets_in_count": 2,
        "tickets_out": 7_700,
        "tickets_out_count": 3,
        "handpaid_jackpots": 150_000,
        "door_opens": 4,
        "power_resets": 2,
    },
    credits=2_500,
    games=(
        GameEntry(1, "turbo-football", "Turbo Football", "TFB001", True),
        GameEntry(2, "stadium-3cp", "Stadium", "S3C001", True),
    ),
    max_bet=100,
)


class Wire:
    """A host and a machine joined by a byte pipe and one clock (milliseconds)."""

    def __init__(self, tmp_path: Path, tickets: TicketDb | None, name: str = "m") -> None:
        data_dir = tmp_path / name
        data_dir.mkdir()
        self.queue = ExceptionQueue(data_dir)
        self.bridge = SasBridge(self.queue, wait=5.0)
        self.snapshot = SNAPSHOT
        self.controls = _Controls()
        self.machine = SasMachine(
            1,
            snapshot=lambda: self.snapshot,
            queue=self.queue,
            controls=self.controls,
            validation=self.bridge,
            signatures=_Signatures(),
            serial_number=f"TK-{name}",
            mode=WakeupMode.GAP,
        )
        self.now = 0.0
        self.poller = HostPoller(1, start_ms=0)
        self.host = CasinoHost(self.poller, name, lambda: int(self.now), tickets, 42)

    def run(self, ms: float) -> None:
        """Let ``ms`` milliseconds pass: polls out, replies back, exceptions marked sent."""
        end = self.now + ms
        while self.now < end:
            self.host.handle(self.poller.expire(self.now))
            sent = self.poller.tick(self.now)
            if sent is not None:
                at = self.now / 1000
                for reply in self.machine.feed(sent.data, at):
                    self.queue.mark_sent(reply.exceptions)
                    self.host.handle(self.poller.receive(reply.data, self.now + 1))
            self.now += 1
            self.machine.expire(self.now / 1000)

    def values(self, code: int) -> dict[str, int | str]:
        return {f.name: f.value for f in self.host.answered[code]}

    def close(self) -> None:
        self.queue.close()


@pytest.fixture
def tickets(tmp_path: Path) -> Iterator[TicketDb]:
    db = TicketDb(tmp_path / "tickets.sqlite3", lambda: 0)
    yield db
    db.close()


def test_a_sweep_reads_the_snapshot_to_the_cent(tmp_path: Path) -> None:
    line = Wire(tmp_path, None)
    line.host.sweep(rom_seed=0x1234)
    line.run(8_000)
    assert line.host.idle and line.host.stats["bad"] == line.host.stats["timeouts"] == 0
    assert line.values(Code.SEND_METERS_11_TO_15) == {
        "coin_in": 123_456,
        "coin_out": 98_765,
        "drop": 54_500,
        "jackpot": 150_000,
        "games_played": 321,
    }
    assert line.values(Code.SEND_CURRENT_CREDITS) == {"current_credits": 2_500}
    assert line.values(Code.SEND_BILL_METERS)["bills_20"] == 20
    assert line.values(Code.SEND_SAS_VERSION_AND_SERIAL) == {
        "sas_version": "602",
        "serial_number": "TK-m",
    }
    assert line.values(Code.ROM_SIGNATURE) == {"rom_signature": f"{0x1234 ^ 0xBEEF:04x}"}
    assert line.values(Code.SEND_CURRENT_DATE_TIME) == {"date_time": "2025-11-26T12:00:00"}
    extended = line.values(Code.SEND_EXTENDED_METERS)  # the last 6F read: game 2's
    assert extended["game_number"] == 2
    games = [
        f.value for f in line.host.answered[Code.SEND_ENABLED_GAME_NUMBERS] if f.name == "game"
    ]
    assert games == [1, 2]
    fields = {(r.source, r.name): r.value for r in line.host.records if r.kind == "meter"}
    assert fields[("send_selected_meters", "total_cashable_ticket_in_cents")] == 4_500
    assert fields[("send_selected_meters", "total_cashable_ticket_out_count")] == 3
    line.close()


def test_exceptions_in_order_each_once(tmp_path: Path) -> None:
    line = Wire(tmp_path, None)
    codes = [X.SLOT_DOOR_OPENED, X.SLOT_DOOR_CLOSED, X.GAME_STARTED, X.GAME_ENDED]
    line.queue.push([NewException(code) for code in codes])
    line.run(3_000)
    assert line.host.exceptions == codes
    assert line.queue.depth() == 0


def test_enable_disable_and_set_time_are_acknowledged(tmp_path: Path) -> None:
    line = Wire(tmp_path, None)
    line.host.ask(polls.poll(Code.SHUTDOWN))
    line.host.ask(polls.poll(Code.STARTUP))
    line.host.ask(polls.set_date_time(2026, 11, 26, 14, 30, 5))
    line.run(1_000)
    acks = [(r.source, r.name) for r in line.host.records if r.kind == "ack"]
    assert acks == [("shutdown", "ack"), ("startup", "ack"), ("receive_date_time", "ack")]
    assert line.controls.play == [False, True]
    assert len(line.controls.time_set) == 1
    line.close()


def test_cashout_validated_by_the_host_then_redeemed_once_elsewhere(
    tmp_path: Path, tickets: TicketDb
) -> None:
    first, second = Wire(tmp_path, tickets, "a"), Wire(tmp_path, tickets, "b")
    numbers: list[str] = []
    asking = threading.Thread(
        target=lambda: numbers.append(first.bridge.request_validation_number(2_000))
    )
    asking.start()
    for _ in range(50):
        first.run(100)
        if numbers:
            break
    asking.join(5)
    (number,) = numbers
    assert number.startswith("42") and tickets.get(number).state is TicketState.ISSUED  # type: ignore[union-attr]
    # the printer printed it: the journal's VoucherPrinted becomes 3D and a 4D record
    first.queue._add_printed(number, 2_000, 1_764_158_400_000)
    first.queue.push([NewException(X.CASHOUT_TICKET_PRINTED)])
    first.run(1_000)
    assert tickets.get(number).state is TicketState.PRINTED  # type: ignore[union-attr]

    verdicts: list[tuple[bool, int, str]] = []
    inserting = threading.Thread(
        target=lambda: verdicts.append(second.bridge.request_ticket(number))
    )
    inserting.start()
    for _ in range(50):
        second.run(100)
        if verdicts:
            break
    inserting.join(5)
    assert verdicts == [(True, 2_000, "")]
    assert tickets.get(number).state is TicketState.PENDING  # type: ignore[union-attr]
    second.bridge.ticket_done(number, 2_000, True)  # the journal's TicketRedeemed
    second.queue.push([NewException(X.TICKET_TRANSFER_COMPLETE)])
    second.run(1_000)
    assert tickets.get(number).state is TicketState.REDEEMED  # type: ignore[union-attr]

    again: list[tuple[bool, int, str]] = []
    retry = threading.Thread(target=lambda: again.append(first.bridge.request_ticket(number)))
    retry.start()
    for _ in range(50):
        first.run(100)
        if again:
            break
    retry.join(5)
    assert again and again[0][0] is False  # refused: already redeemed
    assert [a for _m, a, _c in tickets.log(number)][-1] == "refused-redeemed"
    first.close()
    second.close()


def test_snapshot_changes_are_read_fresh(tmp_path: Path) -> None:
    line = Wire(tmp_path, None)
    line.host.ask(polls.poll(Code.SEND_CURRENT_CREDITS))
    line.run(300)
    line.snapshot = replace(SNAPSHOT, credits=9_999)
    line.host.ask(polls.poll(Code.SEND_CURRENT_CREDITS))
    line.run(300)
    assert line.values(Code.SEND_CURRENT_CREDITS) == {"current_credits": 9_999}
    assert wire.RESPONSE_LENGTH[Code.SEND_CURRENT_CREDITS] == 8
    line.close()


def test_a_host_restarted_mid_redemption_asks_the_machine_first(
    tmp_path: Path, tickets: TicketDb
) -> None:
    number = tickets.issue("a", 1_500, 42)
    tickets.printed(number, "a", 1_500)
    assert tickets.reserve(number, "m").accepted  # the old host process sent 71, then died
    line = Wire(tmp_path, None)
    line.bridge.ticket_done(number, 1_500, True)  # meanwhile the machine stacked it
    line.host = CasinoHost(line.poller, "m", lambda: int(line.now), tickets, 42)  # restarted
    assert line.host.outstanding == 1  # the 71 status query, before anything else
    line.run(500)
    assert tickets.get(number).state is TicketState.REDEEMED  # type: ignore[union-attr]
    assert [a for _m, a, _c in tickets.log(number)][-1] == "redeemed"
    line.close()
