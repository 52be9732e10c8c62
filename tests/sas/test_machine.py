"""The SAS gaming machine against a real terminal (journal, runtime, in-process devices).

Every figure a poll returns is checked against the journal's own meters to the cent.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

from kiosk.kernel.games.registry import edition_ids
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.crc import with_crc
from kiosk.terminal.sas.signature import BackgroundSignatures, rom_signature
from kiosk.terminal.sas.wire import ExceptionCode as X
from kiosk.terminal.sas.wire import LongPoll as P
from kiosk.terminal.sas.wire import from_bcd, to_bcd
from tests.helpers.sas_rig import ADDRESS, SasRig


def _meters_list(data: bytes, size: int = 4) -> list[int]:
    return [from_bcd(data[i : i + size]) for i in range(0, len(data), size)]


def test_power_up_notes_and_doors_are_reported_by_priority(rig: SasRig) -> None:
    assert rig.drain() == [X.AC_POWER_APPLIED]
    rig.play("bill 20")
    rig.play("door open", "door close")
    # doors (priority 2) before the note (priority 3), each kind in the order it happened
    assert rig.drain() == [X.SLOT_DOOR_OPENED, X.SLOT_DOOR_CLOSED, X.BILL_ACCEPTED_20]
    assert rig.general() == X.NO_ACTIVITY
    assert rig.link.queue.depth() == 0


def test_meters_match_the_journal_to_the_cent(rig: SasRig) -> None:
    rig.play("bill 20", "bill 5", "bet first_down 5", "deal", "noraise", "bet first_down 1")
    rig.play("deal", "raise")
    lifetime = rig.terminal.runtime.state.lifetime
    credits = rig.terminal.runtime.state.credits[0]
    assert lifetime["games_played"] == 2

    assert from_bcd(rig.long(P.SEND_COIN_IN)) == lifetime["coin_in"]
    assert from_bcd(rig.long(P.SEND_COIN_OUT)) == lifetime["coin_out"]
    assert from_bcd(rig.long(P.SEND_CURRENT_CREDITS)) == credits
    assert from_bcd(rig.long(P.SEND_GAMES_PLAYED)) == 2
    won, lost = from_bcd(rig.long(P.SEND_GAMES_WON)), from_bcd(rig.long(P.SEND_GAMES_LOST))
    assert (won, lost) == (lifetime["games_won"], lifetime["games_lost"])
    assert _meters_list(rig.long(P.SEND_METERS_10_TO_15)) == [
        0,
        lifetime["coin_in"],
        lifetime["coin_out"],
        2500,
        0,
        2,
    ]
    assert _meters_list(rig.long(P.SEND_METERS))[6:] == [0, lifetime["power_resets"]]
    assert from_bcd(rig.long(P.SEND_TOTAL_BILLS)) == 25  # dollars
    assert from_bcd(rig.long(P.SEND_CREDIT_AMOUNT_OF_BILLS)) == 2500
    assert _meters_list(rig.long(P.SEND_BILL_METERS)) == [0, 1, 0, 1, 0, 0]
    assert from_bcd(rig.long(P.SEND_BILL_METER_5)) == 1
    last = rig.long(P.SEND_LAST_ACCEPTED_BILL)
    assert last[:2] == bytes([wire.COUNTRY_CODE_USD, 0x02]) and from_bcd(last[2:]) == 1

    # selected meters (2F) for the machine: coin in, current credits, ticket in cents (5 bytes)
    data = rig.m_poll(P.SEND_SELECTED_METERS, b"\x00\x00" + bytes([0x00, 0x0C, 0x0D, 0x99]))
    assert data[0] == len(data) - 1 and data[1:3] == b"\x00\x00"
    assert data[3] == 0x00 and from_bcd(data[4:8]) == lifetime["coin_in"]
    assert data[8] == 0x0C and from_bcd(data[9:13]) == credits
    assert data[13] == 0x0D and from_bcd(data[14:19]) == 0
    assert len(data) == 19  # 0x99 is not kept: left out

    # one game's own meters: Turbo Football's number
    number = edition_ids().index("turbo-football") + 1
    game = rig.m_poll(P.SEND_SELECTED_METERS, to_bcd(number, 2) + bytes([0x00, 0x05]))
    game_in = sum(
        v
        for k, v in lifetime.as_dict().items()
        if k.startswith("game.turbo-football.") and k.endswith(".in")
    )
    assert from_bcd(game[4:8]) == game_in == lifetime["coin_in"]
    assert from_bcd(game[9:13]) == 2

    # extended meters (6F and AF): two-byte codes, a size each, 0 for one not kept
    ext = rig.m_poll(P.SEND_EXTENDED_METERS, b"\x00\x00" + b"\x00\x00" + b"\x34\x12")
    assert ext[3:6] == b"\x00\x00\x04" and from_bcd(ext[6:10]) == lifetime["coin_in"]
    assert ext[10:13] == b"\x34\x12\x00"
    alt = rig.m_poll(P.SEND_EXTENDED_METERS_ALT, b"\x00\x00" + b"\x0c\x00")
    assert alt[3:6] == b"\x0c\x00\x06" and from_bcd(alt[6:12]) == credits


def test_games_identity_and_configuration(rig: SasRig) -> None:
    editions = edition_ids()
    assert from_bcd(rig.long(P.SEND_NUMBER_OF_GAMES)) == len(editions)
    enabled = rig.long(P.SEND_ENABLED_GAME_NUMBERS)
    count = enabled[1]
    numbers = [from_bcd(enabled[2 + 2 * i : 4 + 2 * i]) for i in range(count)]
    config = rig.terminal.runtime.state.config
    assert sorted(editions[n - 1] for n in numbers) == sorted(e.edition for e in config.editions)
    stadium = editions.index("stadium-3cp") + 1
    conf = rig.long(P.SEND_GAME_N_CONFIGURATION, to_bcd(stadium, 2))
    assert from_bcd(conf[:2]) == stadium and conf[7] == wire.DENOMINATION_CODE_1_CENT
    info = rig.long(P.SEND_MACHINE_INFORMATION)
    assert info[:2] == b"TK" and info[5] == wire.DENOMINATION_CODE_1_CENT
    version = rig.long(P.SEND_SAS_VERSION_AND_SERIAL)
    assert version[1:4] == b"602" and version[4:].decode() == config.terminal_id
    assert rig.poll(wire.long_poll(ADDRESS, P.SEND_GAME_N_CONFIGURATION, to_bcd(99, 2))) is None


def test_bad_input_gets_no_answer_and_changes_nothing(rig: SasRig) -> None:
    rig.play("bill 20")
    rig.drain()
    runtime = rig.terminal.runtime
    head, credits = runtime.journal.head(), list(runtime.state.credits)
    shutdown = wire.long_poll(ADDRESS, P.SHUTDOWN)
    assert rig.poll(shutdown[:-1] + bytes([shutdown[-1] ^ 0x40])) is None  # wrong CRC
    assert rig.poll(wire.long_poll(ADDRESS + 1, P.SHUTDOWN)) is None  # another machine
    assert rig.poll(wire.general_poll(ADDRESS + 1)) is None
    assert rig.poll(shutdown[:3]) is None  # truncated: the line goes quiet
    assert rig.poll(with_crc(bytes([ADDRESS, 0x2F, 0xFF]))) is None  # overlong length
    redeem = bytes([ADDRESS, 0x71, 3, 0, 0, 0])  # a length that disagrees with its body
    assert rig.poll(with_crc(redeem)) is None
    assert rig.poll(bytes([ADDRESS, 0xEE, 1, 2, 3])) is None  # no such long poll
    assert rig.poll(bytes([ADDRESS, 0x49])) is None  # a known poll this machine does not keep
    assert rig.poll(wire.long_poll(ADDRESS, P.SEND_CURRENT_DATE_TIME)[:1]) is None
    assert rig.poll(wire.long_poll(0, P.SHUTDOWN)) is None  # broadcast: never answered
    garbage = random.Random(16).randbytes(6_000)
    for start in range(0, len(garbage), 7):
        rig.send(garbage[start : start + 7])
    runtime.pump()
    assert runtime.state.disabled is None and runtime.state.credits == credits
    assert runtime.journal.head() == head  # no command reached the terminal
    # and the machine still answers
    assert from_bcd(rig.long(P.SEND_CURRENT_CREDITS)) == credits[0]
    stats = rig.link.machine.stats
    assert stats.unanswered["crc"] >= 1 and stats.unanswered["truncated"] >= 1
    assert stats.unanswered["overlong"] >= 1 and stats.unanswered["unknown_command"] >= 1


def test_enable_disable_play_and_the_bill_acceptor(rig: SasRig) -> None:
    runtime = rig.terminal.runtime
    assert rig.poll(wire.long_poll(ADDRESS, P.SHUTDOWN)) == bytes([ADDRESS])
    runtime.pump()
    assert runtime.state.disabled == "disabled by the SAS host"
    assert rig.poll(wire.long_poll(ADDRESS, P.STARTUP)) == bytes([ADDRESS])
    runtime.pump()
    assert runtime.state.disabled is None
    assert rig.poll(wire.long_poll(ADDRESS, P.DISABLE_BILL_ACCEPTOR)) == bytes([ADDRESS])
    runtime.pump()
    rig.play("bill 20")
    assert runtime.state.credits[0] == 0  # the validator was off: the note came back
    assert rig.poll(wire.long_poll(ADDRESS, P.ENABLE_BILL_ACCEPTOR)) == bytes([ADDRESS])
    runtime.pump()
    rig.play("bill 20")
    assert runtime.state.credits[0] == 2000


def test_handpay_information_and_remote_reset(rig: SasRig) -> None:
    runtime = rig.terminal.runtime
    rig.play("bill 20", "printer out", "cashout")
    assert runtime.state.handpay is not None
    assert X.HANDPAY_PENDING in rig.drain()
    info = rig.long(P.SEND_HANDPAY_INFORMATION)
    assert info[1] == 0x80 and from_bcd(info[2:7]) == 2000
    reset = wire.long_poll(ADDRESS, P.REMOTE_HANDPAY_RESET)
    assert wire.parse_response(rig.poll(reset) or b"", P.REMOTE_HANDPAY_RESET) == b"\x00"
    # the host did not hear it and asks again at once: the same answer, nothing done twice
    assert wire.parse_response(rig.poll(reset) or b"", P.REMOTE_HANDPAY_RESET) == b"\x00"
    runtime.pump()
    assert runtime.state.handpay is None
    assert runtime.state.lifetime["handpaid_cancelled_credits"] == 2000
    assert rig.drain() == [X.HANDPAY_RESET]
    assert rig.long(P.REMOTE_HANDPAY_RESET) == b"\x02"  # none pending now


def test_system_validation_cash_out_and_enhanced_validation_record(rig: SasRig) -> None:
    runtime = rig.terminal.runtime
    rig.play("bill 20")
    rig.drain()
    number = 1234_5678_9012_3456
    seen: dict[str, object] = {}

    def host() -> None:  # the SAS host, on its own thread, while the terminal waits
        deadline = time.monotonic() + 5
        while rig.link.bridge.pending_cashout() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        seen["exceptions"] = rig.drain()
        seen["pending"] = rig.long(P.SEND_PENDING_CASHOUT_INFORMATION)
        seen["status"] = rig.long(P.RECEIVE_VALIDATION_NUMBER, to_bcd(1, 1) + to_bcd(number, 8))

    poller = threading.Thread(target=host)
    poller.start()
    runtime.cash_out()  # waits for the host's number
    poller.join(5)
    assert seen["exceptions"] == [X.SYSTEM_VALIDATION_REQUEST]
    pending = seen["pending"]
    assert isinstance(pending, bytes) and pending[0] == 0x00 and from_bcd(pending[1:]) == 2000
    assert seen["status"] == b"\x00"
    runtime.pump()
    assert runtime.state.credits[0] == 0
    assert runtime.state.lifetime["tickets_out"] == 2000
    assert rig.drain() == [X.CASHOUT_TICKET_PRINTED]
    record = rig.long(P.SEND_ENHANCED_VALIDATION_INFORMATION, b"\x00")
    assert from_bcd(record[9:17]) == number and from_bcd(record[17:22]) == 2000
    assert from_bcd(record[24:25]) == 1  # the validation system id: the number's first digits
    assert rig.long(P.SEND_ENHANCED_VALIDATION_INFORMATION, b"\x00") == record  # implied NACK
    assert rig.general() == X.NO_ACTIVITY
    assert rig.long(P.SEND_ENHANCED_VALIDATION_INFORMATION, b"\x00") == bytes(31)  # all read
    back = rig.long(P.SEND_ENHANCED_VALIDATION_INFORMATION, b"\x01")  # look back: the newest
    assert back[1] == 1 and back[2:] == record[2:]
    assert rig.long(P.SEND_PENDING_CASHOUT_INFORMATION)[0] == 0x80  # none waiting


def test_cash_out_becomes_a_handpay_when_the_host_gives_no_number(rig: SasRig) -> None:
    rig.link.bridge.wait = 0.05
    rig.play("bill 20", "cashout")
    assert rig.terminal.runtime.state.handpay is not None
    assert X.HANDPAY_PENDING in rig.drain()


def test_ticket_redemption_through_the_bridge(rig: SasRig) -> None:
    bridge = rig.link.bridge
    rig.drain()
    number = "012345678901234567"
    verdict: list[tuple[bool, int, str]] = []
    waiter = threading.Thread(target=lambda: verdict.append(bridge.request_ticket(number)))
    waiter.start()
    deadline = time.monotonic() + 5
    while bridge.ticket_in_escrow() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert rig.drain() == [X.TICKET_INSERTED]
    data = rig.long(P.SEND_TICKET_VALIDATION_DATA)
    assert data[1] == 0x00 and f"{from_bcd(data[8:17]):018d}" == number
    wrong = rig.m_poll(P.REDEEM_TICKET, b"\x00" + to_bcd(1500, 5) + b"\x00" + to_bcd(1, 9))
    assert wrong[1] == 0x81  # not the ticket in escrow
    body = b"\x00" + to_bcd(1500, 5) + b"\x00" + to_bcd(int(number), 9)
    answer = rig.m_poll(P.REDEEM_TICKET, body)
    assert answer[1] == 0x40 and from_bcd(answer[2:7]) == 1500  # pending: being stacked
    waiter.join(5)
    assert verdict == [(True, 1500, "")]
    bridge.ticket_done(number, 1500, redeemed=True)  # what the journal's TicketRedeemed does
    status = rig.m_poll(P.REDEEM_TICKET, b"\xff")
    assert status[1] == 0x00 and from_bcd(status[2:7]) == 1500
    assert f"{from_bcd(status[8:17]):018d}" == number


def test_rom_signature_is_answered_to_a_later_general_poll(rig: SasRig, tmp_path: Path) -> None:
    files = []
    for name, text in (("kiosk/a.py", b"print(1)\n"), ("kiosk/b.py", b"x = 2\n")):
        path = tmp_path / name.replace("/", "_")
        path.write_bytes(text)
        files.append((name, path))
    signatures = BackgroundSignatures(lambda: files)
    rig.link.machine.signatures = signatures
    rig.drain()
    seed = 0xBEEF
    assert rig.poll(wire.long_poll(ADDRESS, P.ROM_SIGNATURE, seed.to_bytes(2, "little"))) is None
    expected = signatures.wait(seed)
    assert expected == rom_signature(seed, files)
    reply = rig.poll(wire.general_poll(ADDRESS)) or b""
    assert int.from_bytes(wire.parse_response(reply, P.ROM_SIGNATURE), "little") == expected
    files[1][1].write_bytes(b"x = 3\n")
    assert rom_signature(seed, files) != expected
    assert rom_signature(0x1234, files) != rom_signature(seed, files)


def test_date_and_time_read_and_set(rig: SasRig) -> None:
    date_time = to_bcd(12_25_2030, 4) + to_bcd(10_20_30, 3)
    assert rig.poll(wire.long_poll(ADDRESS, P.RECEIVE_DATE_TIME, date_time)) == bytes([ADDRESS])
    now = rig.long(P.SEND_CURRENT_DATE_TIME)
    assert now[:4] == date_time[:4] and from_bcd(now[4:7]) - 10_20_30 in range(3)
    bad = to_bcd(13_45_2030, 4) + to_bcd(10_20_30, 3)
    assert rig.poll(wire.long_poll(ADDRESS, P.RECEIVE_DATE_TIME, bad)) == bytes([ADDRESS | 0x80])


def test_real_time_event_reporting(rig: SasRig) -> None:
    rig.drain()
    assert rig.poll(wire.long_poll(ADDRESS, P.ENABLE_REAL_TIME_EVENTS, b"\x01")) == bytes([ADDRESS])
    rig.play("bill 20", "bet first_down 5", "deal", "noraise")

    def event() -> bytes:
        reply = rig.poll(wire.general_poll(ADDRESS)) or b""
        rig.acknowledge()
        return wire.parse_response(reply, 0xFF)

    data = event()
    assert data[0] == X.BILL_ACCEPTED and data[1:3] == b"\x00\x04" and from_bcd(data[3:7]) == 1
    started = event()
    assert started[0] == X.GAME_STARTED and from_bcd(started[1:3]) == 500
    ended = event()
    assert ended[0] == X.GAME_ENDED
    assert rig.poll(wire.long_poll(ADDRESS, P.ENABLE_REAL_TIME_EVENTS, b"\x00")) == bytes([ADDRESS])
    rig.play("bet first_down 5", "deal", "noraise")
    assert rig.drain() == []  # game started/ended are real-time events only


def test_implied_acknowledgement_of_an_exception(rig: SasRig) -> None:
    rig.drain()
    rig.play("door open", "door close")
    # the host did not hear the answer and polls again: the same exception, again
    replies = rig.send(wire.general_poll(ADDRESS) * 3)
    assert [r.data for r in replies] == [b"\x11", b"\x11", b"\x11"]
    assert rig.link.machine.stats.repeated == 2
    rig.acknowledge()  # a poll to another address: heard
    assert rig.general() == X.SLOT_DOOR_CLOSED
    # a long poll acknowledges too
    rig.play("door open")
    assert rig.poll(wire.general_poll(ADDRESS)) == b"\x11"
    rig.long(P.SEND_CURRENT_CREDITS)
    assert rig.general() == X.NO_ACTIVITY
    # in a burst with the sync poll between, each general poll gets the next one
    rig.play("door close", "door open")
    burst = (wire.general_poll(ADDRESS) + b"\x80") * 3
    assert [r.data for r in rig.send(burst)] == [b"\x12", b"\x11", b"\x00"]


def test_service_menu_shows_the_link_and_sets_the_address(rig: SasRig) -> None:
    from kiosk.terminal.sas import status

    data_dir = rig.terminal.runtime.data_dir
    assert status.read_status(data_dir)["address"] is None  # the settings' address, not kept
    status.set_address(data_dir, 42)
    rig.link._housekeeping()  # what the running link does once a second
    rig.link.queue.flush()  # the figures reach the store through its writer thread
    assert rig.link.machine.address == 42
    shown = status.read_status(data_dir)
    assert shown["address"] == 42 and shown["queue_depth"] == rig.link.queue.depth()
    assert "polls_per_second" in shown and "errors" in shown
    assert rig.poll(wire.general_poll(ADDRESS)) is None  # the old address is not answered
    assert rig.poll(wire.general_poll(42)) is not None


def test_a_ram_clear_is_followed_into_the_new_journal(rig: SasRig) -> None:
    runtime = rig.terminal.runtime
    rig.play("door open", "door close", "door open", "door close")
    rig.drain()
    old_head = runtime.journal.head()[0]
    runtime.ram_clear(by="operator", reason="test")
    assert runtime.journal.head()[0] < old_head  # a new journal, rows from 1 again
    rig.play("door open")
    assert rig.drain() == [X.MEMORY_ERROR_RESET, X.SLOT_DOOR_OPENED]
