"""The terminal's link to a real host on loopback: delivery, de-dup, restarts, loss, commands."""

from __future__ import annotations

import hashlib
import hmac
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.kernel import integrity
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import EditionConfig, TerminalConfig
from kiosk.terminal.core.state import Phase
from kiosk.terminal.hostlink.anchor import ANCHOR_WAIT_REASON
from kiosk.terminal.hostlink.client import HostClient
from kiosk.terminal.hostlink.link import HOST_DISABLED_REASON, LINK_LOST_REASON
from kiosk.terminal.hostlink.messages import outbox_message
from kiosk.terminal.robot import Robot
from tests.helpers.host_checks import disagreements
from tests.helpers.host_rig import HostRig, Pki, TerminalRig

MakeTerminal = Callable[..., TerminalRig]


def _play(rig: TerminalRig, games: int, seed: int = 1) -> Robot:
    robot = Robot(rig.runtime, rig.validator, rig.printer, random.Random(seed), fault_rate=0.05)
    for _ in range(games):
        robot.play_game()
    return robot


def _settle(rig: TerminalRig, host: HostRig) -> None:
    rig.pump_until(lambda: rig.outbox_empty() and rig.link.connected)
    assert host.db is not None
    problems = disagreements(
        rig.data_dir, host.db, rig.endpoint.terminal_id, rig.runtime.state.lifetime.as_dict()
    )
    assert problems == []


def test_events_meters_and_vouchers_reach_the_host(host: HostRig, make_terminal: MakeTerminal):
    rig = make_terminal(host.endpoint("TK-A")).start()
    robot = _play(rig, 25)
    _settle(rig, host)
    assert host.db is not None
    kinds = {r.kind for r in host.db.events("TK-A", last=10_000)}
    assert {"power_up", "bill_stacked", "game_played"} <= kinds
    (terminal,) = host.db.terminals()
    assert terminal.software_signature == integrity.manifest().digest
    assert robot.stats.cashouts > 0
    printed = [r.event for r in rig.runtime.journal.rows() if isinstance(r.event, e.VoucherPrinted)]
    assert printed and all(
        host.db.voucher(v.validation_number).state == "issued"  # type: ignore[union-attr]
        for v in printed
    )


def test_a_resent_batch_is_recorded_once(host: HostRig, make_terminal: MakeTerminal) -> None:
    rig = make_terminal(host.endpoint("TK-A"))
    _play(rig, 5)
    rows = rig.runtime.journal.outbox(1000)
    epoch = rig.runtime.journal.created_at()
    batch = [outbox_message("TK-A", epoch, row) for row in rows]
    client = rig.wiring.client
    client.hello("0.1.0", "sig", 0)
    first = client.report(batch)  # delivered, but the terminal never saw the answer
    assert (first.accepted, first.duplicates) == (len(batch), 0)
    rig.start()
    _settle(rig, host)
    assert rig.link.delivered >= len(batch)  # sent again, and recorded once


def test_outbox_survives_a_host_restart(host: HostRig, make_terminal: MakeTerminal) -> None:
    rig = make_terminal(host.endpoint("TK-A")).start()
    _play(rig, 3)
    rig.pump_until(rig.outbox_empty)
    host.stop()
    _play(rig, 10, seed=2)  # the terminal keeps playing (the timeout is 30 s)
    assert not rig.outbox_empty()
    host.start()
    _settle(rig, host)


def test_outbox_survives_a_terminal_power_cut(host: HostRig, make_terminal: MakeTerminal) -> None:
    rig = make_terminal(host.endpoint("TK-A"))
    _play(rig, 6)
    rig.link.stop()
    rig.runtime.journal.db.close()  # power cut: nothing flushed, nothing said
    rig.boot()
    rig.start()
    _settle(rig, host)


def _stadium_rig(host: HostRig, make_terminal: MakeTerminal) -> TerminalRig:
    config = TerminalConfig(
        terminal_id="TK-A", editions=(EditionConfig("stadium-3cp"),), host_timeout_seconds=1
    )
    return make_terminal(host.endpoint("TK-A"), config=config).start()


def _deal(rig: TerminalRig) -> None:
    rt = rig.runtime
    rt.execute(c.SelectPositions((0, 4, 8)))
    rt.execute(c.PlaceWager(spot="ante", amount=500))
    rt.execute(c.Deal())


def test_link_loss_disables_play_at_the_end_of_the_game(
    host: HostRig, make_terminal: MakeTerminal
) -> None:
    rig = _stadium_rig(host, make_terminal)
    rt = rig.runtime
    rig.pump_until(lambda: rig.link.connected)
    rig.validator.insert(10_000)
    rig.pump_until(lambda: rt.state.credits[0] == 10_000)
    _deal(rig)
    assert rt.state.phase is Phase.DECISION
    host.stop()
    rig.pump_until(lambda: rt.state.disabled == LINK_LOST_REASON, timeout=15)
    rt.execute(c.Decide(choice=rt.state.round.offers[0].decision.take))  # type: ignore[union-attr]
    assert rt.state.phase is Phase.RESULT  # the game in progress finished
    with pytest.raises(c.CommandError, match="disabled"):
        rt.execute(c.PlaceWager(spot="ante", amount=500))
    host.start()
    rig.pump_until(lambda: rt.state.disabled is None, timeout=15)
    _deal(rig)
    _settle(rig, host)
    reasons = [r.body["reason"] for r in host.db.events("TK-A", "enable")]
    assert reasons == [
        "host link back",
        LINK_LOST_REASON,
        "host's anchor checked",
        ANCHOR_WAIT_REASON,
    ]


def test_a_host_disable_outlives_a_link_loss(host: HostRig, make_terminal: MakeTerminal) -> None:
    rig = _stadium_rig(host, make_terminal)
    rt = rig.runtime
    rig.pump_until(lambda: rig.link.connected)
    assert host.server is not None
    host.server.send("TK-A", "set_enabled", {"enabled": False, "reason": ""})
    rig.pump_until(lambda: rt.state.disabled == HOST_DISABLED_REASON)
    host.stop()
    time.sleep(1.5)
    rt.pump()
    host.start()
    rig.pump_until(lambda: rig.link.connected, timeout=15)
    rt.pump()
    assert rt.state.disabled == HOST_DISABLED_REASON
    host.server.send("TK-A", "set_enabled", {"enabled": True})
    rig.pump_until(lambda: rt.state.disabled is None)


def _independent_hmac(seed: bytes) -> bytes:
    """HMAC per docs/host.md, written without kiosk.kernel.integrity."""
    import importlib.util

    files = []
    for package in integrity.PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations
        root = Path(next(iter(spec.submodule_search_locations)))
        for path in root.rglob("*"):
            if (
                path.is_file()
                and "__pycache__" not in path.parts
                and path.suffix
                not in (
                    ".pyc",
                    ".pyo",
                )
            ):
                name = f"{package}/{path.relative_to(root).as_posix()}"
                # the terminal's files alone: not the table's, host's or tools' (decision 0044)
                if not name.startswith(
                    ("kiosk/table/", "kiosk/host/", "kiosk/tools/", "ui/table/")
                ):
                    files.append((name, path.read_bytes()))
    mac = hmac.new(seed, digestmod=hashlib.sha256)
    for name, data in sorted(files):
        mac.update(name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return mac.digest()


def test_host_commands(host: HostRig, make_terminal: MakeTerminal) -> None:
    rig = make_terminal(host.endpoint("TK-A")).start()
    rt, server, db = rig.runtime, host.server, host.db
    assert server is not None and db is not None
    rig.pump_until(lambda: rig.link.connected)

    seed = bytes(range(32))
    command = server.send("TK-A", "authenticate_software", {"seed": seed.hex()})
    rig.pump_until(lambda: db.command(command).state == "done")  # type: ignore[union-attr]
    assert db.command(command).result == "match"  # type: ignore[union-attr]
    rig.pump_until(lambda: rig.link.last_authentication is not None)  # the answer is back
    assert rig.link.last_authentication is True
    assert db.terminals()[0].auth_result == "match"
    assert rig.link.seeded_hmac(seed) == _independent_hmac(seed)

    command = server.send("TK-A", "request_meters")
    rig.pump_until(lambda: any(s.reason == "requested" for s in db.meter_history("TK-A", 50)))
    assert db.latest_meters("TK-A") == rt.state.lifetime.as_dict()

    target = rt.clock() + 3_600_000
    server.send("TK-A", "set_time", {"epoch_ms": target})
    rig.pump_until(lambda: abs(rt.clock() - target) < 60_000)

    server.send("TK-A", "player_message", {"text": "Happy hour at the bar", "seconds": 60})
    rig.pump_until(lambda: rig.link.player_message() == "Happy hour at the bar")


def test_a_wrong_software_answer_is_a_mismatch(host: HostRig, make_terminal: MakeTerminal):
    rig = make_terminal(host.endpoint("TK-A"))
    rig.link.seeded_hmac = lambda seed: b"\x00" * 32  # tampered software
    rig.start()
    assert host.server is not None and host.db is not None
    db = host.db
    rig.pump_until(lambda: rig.link.connected)
    command = host.server.send("TK-A", "authenticate_software")
    rig.pump_until(lambda: db.command(command).state == "done")  # type: ignore[union-attr]
    assert db.command(command).result.startswith("MISMATCH")  # type: ignore[union-attr]
    rig.pump_until(lambda: rig.link.last_authentication is not None)
    assert rig.link.last_authentication is False
    assert db.terminals()[0].auth_result == "mismatch"


def _cash_out(rig: TerminalRig, dollars: int) -> str:
    rt = rig.runtime
    rig.validator.insert(dollars * 100)
    rig.pump_until(lambda: rt.state.credits[0] == dollars * 100)
    rt.cash_out()
    rig.pump_until(lambda: rt.state.phase is not Phase.CASHOUT)
    printed = [r.event for r in rt.journal.rows() if isinstance(r.event, e.VoucherPrinted)]
    return printed[-1].validation_number


def test_a_voucher_is_redeemed_once_when_terminals_race(
    host: HostRig, pki_set: Pki, make_terminal: MakeTerminal
) -> None:
    a = make_terminal(host.endpoint("TK-A")).start()
    b = make_terminal(host.endpoint("TK-B")).start()
    number = _cash_out(a, 20)
    a.pump_until(a.outbox_empty)  # printed: the host now knows the voucher
    rivals = [HostClient(host.address, pki_set.terminal(t), t, timeout=5) for t in ("TK-A", "TK-B")]
    barrier = threading.Barrier(len(rivals))
    answers: dict[str, bool] = {}

    def insert(client: HostClient) -> None:
        barrier.wait()
        answers[client.terminal_id] = client.validate_ticket(number).accepted

    threads = [threading.Thread(target=insert, args=(r,)) for r in rivals]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers.values()) == [False, True]
    winner = next(t for t, ok in answers.items() if ok)
    loser = next(r for r in rivals if r.terminal_id != winner)
    assert loser.validate_ticket(number).reason == "in use at another terminal"
    for client in rivals:
        client.close()
    # the winning terminal completes the redemption the way the ticket-in path does
    rig = a if winner == "TK-A" else b
    # the escrow path a voucher takes: the host's answer, then stacked
    rig.runtime.execute(c.InsertTicket(validation_number=number, value=2000))
    rig.runtime.execute(c.TicketStackedReport(validation_number=number))
    rig.wiring.client.ticket_stacked(number)
    _settle(rig, host)
    assert host.db is not None and host.db.voucher(number).state == "redeemed"  # type: ignore[union-attr]


def test_cash_out_without_the_host_becomes_a_handpay(
    host: HostRig, make_terminal: MakeTerminal
) -> None:
    rig = make_terminal(host.endpoint("TK-A")).start()
    rt = rig.runtime
    number = _cash_out(rig, 5)
    assert host.db is not None and host.db.voucher(number) is not None
    host.stop()
    rig.validator.insert(1000)
    rig.pump_until(lambda: rt.state.credits[0] == 1000)
    events = rt.cash_out()
    assert [type(x) for x in events] == [e.HandpayLocked]
    assert rt.state.handpay is not None and rt.state.handpay.kind == "cancelled_credits"
