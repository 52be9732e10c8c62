"""AFT, legacy bonusing and the other issue-28 polls against a real terminal's journal.

Each answer is checked to the cent against the journal: ``FundsTransferred`` rows, the lifetime
meters and the credits.  The host's side (``kiosk/host/sas/funds.py``) builds the polls.
"""

from __future__ import annotations

import time

from kiosk.host.sas import funds as host
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import Phase
from kiosk.terminal.sas import status as sas_status
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.aft import receipt_lines
from kiosk.terminal.sas.link import AFT_LOCK_REASON
from kiosk.terminal.sas.machine import CHIRP_EVERY_S, CHIRP_SILENCE_S
from kiosk.terminal.sas.wire import ExceptionCode as X
from kiosk.terminal.sas.wire import LongPoll as P
from kiosk.terminal.sas.wire import from_bcd, to_bcd
from tests.helpers.sas_rig import ADDRESS, SasRig

KEY = bytes(range(1, 21))


def _send(rig: SasRig, poll: host.HostPoll) -> bytes | None:
    reply = rig.poll(poll.frame(ADDRESS))
    if reply is None or len(reply) == 1:
        return reply
    return wire.parse_response(reply, poll.code)


def _transfer(rig: SasRig, poll: host.HostPoll) -> host.TransferReply:
    body = _send(rig, poll)
    assert body is not None
    return host.transfer_reply(body)


def _pump(rig: SasRig) -> None:
    rig.terminal.runtime.pump()


def _transfers(rig: SasRig) -> list[e.FundsTransferred]:
    return [
        row.event
        for row in rig.terminal.runtime.journal.rows(after=0)
        if isinstance(row.event, e.FundsTransferred)
    ]


def test_a_transfer_in_is_made_once_whatever_the_host_repeats(rig: SasRig) -> None:
    rig.drain()
    runtime = rig.terminal.runtime
    request = host.transfer("in", 2500, "T-0001", asset=ADDRESS)
    first = _transfer(rig, request)
    assert first.status == 0x40 and first.transaction_id == "T-0001"  # pending
    _pump(rig)
    assert runtime.state.credits[0] == 2500
    done = _transfer(rig, host.interrogate())
    assert (done.status, done.cashable, done.meter) == (0x00, 2500, 2500)
    again = _transfer(rig, request)  # the same id again: its record, no second credit
    assert (again.status, again.cashable) == (0x00, 2500)
    _pump(rig)
    assert runtime.state.credits[0] == 2500
    assert [(t.kind, t.cashable, t.transaction_id) for t in _transfers(rig)] == [
        ("aft_in", 2500, "T-0001")
    ]
    assert runtime.state.lifetime["aft_in"] == 2500
    assert rig.drain() == [X.AFT_TRANSFER_COMPLETE]
    assert rig.terminal.runtime.core.audit_credits() is None
    # the meters: current credits, electronic transfers in (17), AFT cashable in (A0, A1)
    assert from_bcd(rig.long(P.SEND_CURRENT_CREDITS)) == 2500
    ext = rig.m_poll(P.SEND_EXTENDED_METERS_ALT, b"\x00\x00" + b"\xa0\x00\xa1\x00\x17\x00")
    assert from_bcd(ext[6:12]) == 2500 and from_bcd(ext[15:21]) == 1
    assert from_bcd(ext[24:30]) == 2500


def test_a_transfer_out_and_its_refusals(rig: SasRig) -> None:
    runtime = rig.terminal.runtime
    rig.play("bill 20")
    too_much = _transfer(rig, host.transfer("out", 5000, "O1", asset=ADDRESS))
    assert too_much.status == 0x40
    _pump(rig)
    refused = _transfer(rig, host.interrogate())
    assert refused.status == 0x83 and runtime.state.credits[0] == 2000  # full only: refused
    partial = _transfer(rig, host.transfer("out", 5000, "O2", asset=ADDRESS, partial=True))
    assert partial.status == 0x40
    _pump(rig)
    made = _transfer(rig, host.interrogate())
    assert (made.status, made.cashable, made.meter) == (0x01, 2000, 2000)  # partial
    assert runtime.state.credits[0] == 0 and runtime.state.lifetime["aft_out"] == 2000
    # refused on the link at once: asset, amount type, limit
    other = _transfer(rig, host.transfer("in", 100, "X1", asset=ADDRESS + 9))
    assert other.status == 0x93
    over = _transfer(rig, host.transfer("in", 10**7, "X2", asset=ADDRESS))
    assert over.status == 0x84
    assert _transfer(rig, host.transfer("in", 0, "X3", asset=ADDRESS)).status == 0x83
    unlocked = host.transfer("in", 100, "X4", asset=ADDRESS, only_if_locked=True)
    assert _transfer(rig, unlocked).status == 0x94
    _pump(rig)
    assert len(_transfers(rig)) == 1 and runtime.core.audit_credits() is None


def test_registration_key_lock_and_status(rig: SasRig) -> None:
    read = _send(rig, host.register(0xFF, 0))
    assert read is not None and read[1] == 0x80  # not registered
    assert _send(rig, host.register(0x00, ADDRESS, KEY, 77))[1] == 0x00  # type: ignore[index]
    registered = _send(rig, host.register(0x01, ADDRESS, KEY, 77))
    assert registered is not None and registered[1] == 0x01 and registered[6:26] == KEY
    assert int.from_bytes(registered[26:30], "little") == 77
    wrong = _transfer(rig, host.transfer("in", 100, "R1", asset=ADDRESS, key=bytes(20)))
    assert wrong.status == 0x89
    status = _send(rig, host.lock(0x00, 0x01, 500))  # lock while a transfer in is possible
    assert status is not None and status[0] == 0x23
    assert int.from_bytes(status[1:5], "little") == ADDRESS and status[5] == 0x00  # locked
    assert status[8] & 0x08  # registered
    assert from_bcd(status[25:30]) == 100_000  # the transfer limit (the credit limit allows it)
    _pump(rig)
    state = rig.terminal.runtime.state
    assert state.disabled == AFT_LOCK_REASON  # the game lock stops play
    locked = host.transfer("in", 700, "R2", asset=ADDRESS, key=KEY, only_if_locked=True)
    assert _transfer(rig, locked).status == 0x40
    _pump(rig)
    assert state.credits[0] == 700
    rig.play("bet first_down 5")
    assert state.pending_wagers == {}  # refused: locked
    assert _transfer(rig, host.interrogate(0x81)).transaction_id == "R2"  # the newest
    status = _send(rig, host.lock(0x80))
    assert status is not None and status[5] == 0xFF and from_bcd(status[10:15]) == 700
    _pump(rig)
    assert state.disabled is None  # unlocked: play again
    # a lock ends by itself at its timeout
    assert _send(rig, host.lock(0x00, 0x01, 1))[5] == 0x00
    _pump(rig)
    assert state.disabled == AFT_LOCK_REASON
    time.sleep(0.02)
    assert _send(rig, host.lock(0xFF))[5] == 0xFF
    _pump(rig)
    assert state.disabled is None
    gone = _send(rig, host.register(0x80, 0))
    assert gone is not None and gone[1] == 0x80
    # kept across restarts: the SAS store
    assert rig.link.funds.registration().status == 0x80


def test_receipt_data_is_kept(rig: SasRig) -> None:
    assert rig.poll(
        host.receipt_data({0x00: "TURBO CASINO", 0x10: "THANK YOU"}).frame(ADDRESS)
    ) == bytes([ADDRESS])
    assert rig.link.funds.receipt_data() == {"00": "TURBO CASINO", "10": "THANK YOU"}
    _transfer(rig, host.transfer("in", 2500, "RC-1", asset=ADDRESS))
    _pump(rig)
    record = rig.terminal.runtime.state.transfers[-1]
    lines = receipt_lines(record, rig.link.funds.receipt_data(), rig.link.funds.asset)
    assert lines == [
        "TURBO CASINO",
        "TRANSFER TO MACHINE",
        f"ASSET {ADDRESS}",
        "ID RC-1",
        "AMOUNT $25.00",
        "THANK YOU",
    ]
    assert record.meter == rig.terminal.runtime.state.lifetime["aft_in"] == 2500
    bad = host.receipt_data({0x77: "X"})
    assert rig.poll(bad.frame(ADDRESS)) == bytes([ADDRESS | 0x80])


def test_legacy_bonus_is_paid_once_and_metered(rig: SasRig) -> None:
    runtime = rig.terminal.runtime
    rig.drain()
    real_time = wire.long_poll(ADDRESS, P.ENABLE_REAL_TIME_EVENTS, b"\x01")
    assert rig.poll(real_time) == bytes([ADDRESS])
    bonus = host.legacy_bonus(1234, tax_status=1)
    assert rig.poll(bonus.frame(ADDRESS)) == bytes([ADDRESS])
    assert rig.poll(bonus.frame(ADDRESS)) == bytes([ADDRESS])  # repeated at once: from memory
    _pump(rig)
    assert runtime.state.credits[0] == 1234 and len(_transfers(rig)) == 1
    win = rig.long(P.SEND_LEGACY_BONUS_WIN)
    assert win[5] == 1 and from_bcd(win[6:10]) == 1234
    meters = rig.long(P.SEND_LEGACY_BONUS_METERS, to_bcd(0, 2))
    assert [from_bcd(meters[i : i + 4]) for i in (2, 6, 10)] == [0, 1234, 0]
    assert runtime.state.lifetime["legacy_bonus.1"] == 1234
    # real-time reporting: 7C with its data (multiplier, multiplied win, tax status, bonus)
    reply = rig.poll(wire.general_poll(ADDRESS))
    assert reply is not None and reply[:3] == bytes([ADDRESS, 0xFF, X.LEGACY_BONUS_AWARDED])
    assert reply[3:13] == b"\x00" + bytes(4) + b"\x01" + to_bcd(1234, 4)
    rig.acknowledge()
    assert runtime.core.audit_credits() is None
    # a bonus during a round waits for its end (a round the cards settle at once has no
    # decision to wait in: deal again until one asks for the raise)
    for _ in range(50):
        rig.play("bet first_down 5", "deal")
        if runtime.state.phase is Phase.DECISION:
            break
    assert runtime.state.phase is Phase.DECISION
    assert rig.poll(host.legacy_bonus(100).frame(ADDRESS)) == bytes([ADDRESS])
    _pump(rig)
    assert len(_transfers(rig)) == 1
    rig.play("noraise")
    _pump(rig)
    _pump(rig)
    assert [t.cashable for t in _transfers(rig)] == [1234, 100]


def test_validation_meters_status_game_meters_and_features(rig: SasRig) -> None:
    rig.play("bill 20", "bet first_down 5", "deal", "noraise")
    lifetime = rig.terminal.runtime.state.lifetime
    redeemed = rig.long(P.SEND_VALIDATION_METERS, b"\x80")
    assert redeemed[0] == 0x80 and from_bcd(redeemed[1:5]) == lifetime["tickets_in_count"]
    printed = rig.long(P.SEND_VALIDATION_METERS, b"\x00")
    assert from_bcd(printed[5:10]) == lifetime["tickets_out"]
    assert rig.poll(wire.long_poll(ADDRESS, P.SEND_VALIDATION_METERS, b"\x55")) is None
    game = rig.long(P.SEND_GAME_N_METERS, to_bcd(0, 2))
    values = [from_bcd(game[i : i + 4]) for i in (2, 6, 10, 14)]
    assert values == [lifetime["coin_in"], lifetime["coin_out"], 0, lifetime["games_played"]]
    status = rig.m_poll(P.EXTENDED_VALIDATION_STATUS, bytes(4) + to_bcd(0, 2) + to_bcd(0, 2))
    assert status[0] == 10 and int.from_bytes(status[1:5], "little") == ADDRESS
    days = rig.terminal.runtime.state.config.voucher_expiry_days
    assert from_bcd(status[7:9]) == days
    features = rig.long(P.SEND_ENABLED_FEATURES, to_bcd(0, 2))
    assert features[2] & 0x04 and features[3] & 0x40  # legacy bonus, AFT


def test_the_machine_chirps_when_nobody_polls(rig: SasRig) -> None:
    machine = rig.link.machine
    start = rig.now
    assert machine.chirp(start) is None
    rig.send(wire.general_poll(ADDRESS))
    polled = rig.now
    assert machine.chirp(polled + CHIRP_SILENCE_S - 0.1) is None
    assert machine.chirp(polled + CHIRP_SILENCE_S + 0.01) == bytes([ADDRESS])
    assert machine.chirp(polled + CHIRP_SILENCE_S + 0.02) is None  # not before 200 ms
    later = polled + CHIRP_SILENCE_S + 0.02 + CHIRP_EVERY_S
    assert machine.chirp(later) == bytes([ADDRESS])
    rig.now = later
    rig.send(wire.general_poll(ADDRESS))  # polled again: quiet
    assert machine.chirp(rig.now + 1) is None


def test_registration_waits_for_the_operators_acknowledgement(rig: SasRig) -> None:
    rig.drain()
    asked = _send(rig, host.register(0x40, ADDRESS, KEY, 5))
    assert asked is not None and asked[1] == 0x40  # pending: the operator must agree
    assert rig.drain() == [X.AFT_REQUEST_REGISTRATION]
    early = _send(rig, host.register(0x01, ADDRESS, KEY, 5))
    assert early is not None and early[1] == 0x40  # not before the operator
    data_dir = rig.terminal.runtime.journal.path.parent
    rig.link.queue.flush()
    assert sas_status.read_aft_registration(data_dir)["status"] == 0x40
    sas_status.acknowledge_aft_registration(data_dir, "ack-1")  # the service menu's function
    rig.link._housekeeping()
    assert rig.drain() == [X.AFT_REGISTRATION_ACKNOWLEDGED]
    registered = _send(rig, host.register(0x01, ADDRESS, KEY, 5))
    assert registered is not None and registered[1] == 0x01
    rig.link._housekeeping()  # the same acknowledgement is not taken twice
    assert rig.drain() == []
