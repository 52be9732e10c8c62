"""Progressives over SAS against a real journal: a hit reported by 84, 85 and 87 equals the
progressive journal to the cent, exception 56 (and 54) once per win across a restart, 85 never
repeats a win, and the level broadcasts 80 and 86 are kept and never answered."""

from __future__ import annotations

from pathlib import Path

from kiosk.terminal.progressive.controller import JournalWins, ProgressiveController, WagerIn
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.crc import with_crc
from kiosk.terminal.sas.framing import WakeupMode
from kiosk.terminal.sas.machine import SasMachine
from kiosk.terminal.sas.meters import MachineSnapshot
from kiosk.terminal.sas.progressive import ProgressiveLink
from kiosk.terminal.sas.queue import ExceptionQueue
from kiosk.terminal.sas.wire import ExceptionCode as X
from tests.helpers.progressive import frequent

ADDRESS = 1
SPOT = "six_card_bonus"


class _Controls:
    def enable_play(self, enabled: bool) -> None:
        return None

    def enable_bills(self, enabled: bool) -> None:
        return None

    def reset_handpay(self) -> int:
        return 2

    def set_time(self, epoch_ms: int) -> bool:
        return True

    def now_ms(self) -> int:
        return 0


class _Validation:
    def pending_cashout(self) -> int | None:
        return None

    def give_validation_number(self, system_id: int, number: int) -> int:
        return 0

    def ticket_in_escrow(self) -> str | None:
        return None

    def redeem(self, transfer_code: int, amount: int, number: str) -> int:
        return 0

    def ticket_status(self) -> tuple[int, int, str]:
        return 0, 0, ""


class _Signatures:
    def request(self, seed: int) -> int | None:
        return 0


class Rig:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.now = 10.0
        self.open()

    def open(self) -> None:
        self.controller = ProgressiveController(frequent(), self.tmp / "progressive.sqlite3")
        self.queue = ExceptionQueue(self.tmp)
        self.link = ProgressiveLink(JournalWins(self.controller, "TK-0001/"))
        self.machine = SasMachine(
            ADDRESS,
            snapshot=lambda: MachineSnapshot(meters={}, credits=0, games=(), max_bet=100),
            queue=self.queue,
            controls=_Controls(),
            validation=_Validation(),
            signatures=_Signatures(),
            serial_number="TK-0001",
            mode=WakeupMode.GAP,
            progressives=self.link,
        )

    def close(self) -> None:
        self.queue.close()
        self.controller.close()

    def send(self, data: bytes) -> bytes | None:
        self.now += 0.05
        replies = self.machine.feed(data, self.now)
        for reply in replies:
            self.queue.mark_sent(reply.exceptions)
        return replies[0].data if replies else None

    def long(self, command: int) -> bytes:
        reply = self.send(wire.long_poll(ADDRESS, command))
        assert reply is not None
        return wire.parse_response(reply, command)

    def drain(self) -> list[int]:
        codes: list[int] = []
        while True:
            reply = self.send(wire.general_poll(ADDRESS))
            assert reply is not None
            if reply[0] == 0:
                return codes
            codes.append(reply[0])
            assert self.send(b"\x80") is None  # the sync poll acknowledges it


def play(rig: Rig, game: int, won: bool, cents: int = 500) -> None:
    rig.controller.book_round("TK-0001", game, [WagerIn(0, SPOT, cents, won)], 700)


def amount(data: bytes) -> tuple[int, int, int]:
    return data[0], data[1], wire.from_bcd(data[2:7])


def test_a_hit_over_sas_equals_the_journal(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    assert amount(rig.long(0x84)) == (0, 0, 0)
    for game in range(1, 40):
        play(rig, game, won=game in (17, 31))
    hits = [h for row in rig.controller.rounds() for h in row.hits]
    assert len(hits) == 2 and hits[0].award_cents != hits[1].award_cents
    assert rig.drain() == [X.SAS_PROGRESSIVE_LEVEL_HIT, X.SAS_PROGRESSIVE_LEVEL_HIT]  # handpays
    assert amount(rig.long(0x84)) == (1, 1, hits[1].award_cents)  # the last win
    assert amount(rig.long(0x85)) == (1, 1, hits[0].award_cents)  # the oldest not sent
    # repeated at once (the host did not hear it): the same win again, none skipped
    assert amount(rig.long(0x85)) == (1, 1, hits[0].award_cents)
    assert rig.drain() == []  # another poll: the host heard it
    assert amount(rig.long(0x85)) == (1, 1, hits[1].award_cents)
    rig.drain()
    assert amount(rig.long(0x85)) == (0, 0, 0)  # none left
    rig.close()
    rig.open()  # a restart: nothing announced or sent again
    assert rig.drain() == []
    assert amount(rig.long(0x85)) == (0, 0, 0)
    play(rig, 40, won=True, cents=100)  # a small win paid as credits: 56 then 54
    assert rig.drain() == [X.SAS_PROGRESSIVE_LEVEL_HIT, X.PROGRESSIVE_WIN]
    data = rig.long(0x87)
    assert data[0] == len(data) - 1 and data[1:3] == bytes([1, 1])
    (last,) = rig.controller.rounds()[-1].hits
    assert data[3] == 1 and wire.from_bcd(data[4:9]) == last.award_cents
    rig.drain()
    assert rig.long(0x87)[1:] == bytes([0, 0])
    rig.close()


def test_level_broadcasts_are_kept_and_never_answered(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    single = with_crc(bytes([0, 0x80, 1, 1]) + wire.to_bcd(1_234_567, 5))
    assert rig.send(single) is None
    body = bytes([2]) + bytes([1]) + wire.to_bcd(500, 5) + bytes([2]) + wire.to_bcd(99_999, 5)
    multiple = with_crc(bytes([0, 0x86, len(body)]) + body)
    assert rig.send(multiple) is None
    assert {k: v[0] for k, v in rig.link.broadcasts.items()} == {
        (1, 1): 1_234_567,
        (2, 1): 500,
        (2, 2): 99_999,
    }
    bad = with_crc(bytes([0, 0x80, 1, 40]) + wire.to_bcd(5, 5))  # level 40: ignored
    assert rig.send(bad) is None and (1, 40) not in rig.link.broadcasts
    rig.close()
