"""TCL: messages, the status flags, the job table as a table, a decoder that never raises
and finds its way back after noise, and the host against the simulated printer in memory."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.terminal.bridge.tcl.codec import COMMAND, RESPONSE, Decoder, Message, clean, encode
from kiosk.terminal.bridge.tcl.device import TclPrinterDevice
from kiosk.terminal.bridge.tcl.host import (
    JOB_TABLE,
    JobFailed,
    JobPrinted,
    JobStarted,
    PrinterCondition,
    PrinterLinkChanged,
    Stage,
    TclPrinter,
    judge,
)
from kiosk.terminal.bridge.tcl.status import TclStatus, encode_status, parse_status


def test_published_message_shapes() -> None:
    assert encode(Message("S")) == b"^S|^"  # the status request
    assert encode(Message("P", ("0", "1", "A", "B"))) == b"^P|0|1|A|B|^"  # print template 0
    answer = encode_status(TclStatus(firmware="GURSV1"))
    assert answer == b"*S|0|GURSV1|@|@|@|@|@|P0|*"  # all clear: every flag byte is "@"
    assert Decoder(RESPONSE).feed(answer) == [
        Message("S", ("0", "GURSV1", "@", "@", "@", "@", "@", "P0"))
    ]


def test_fields_are_cleaned_of_the_delimiters() -> None:
    assert clean("A|B^C*D\x00é") == "A B C D??"


flags = st.builds(
    TclStatus,
    busy=st.booleans(),
    system_error=st.booleans(),
    head_open=st.booleans(),
    paper_out=st.booleans(),
    head_error=st.booleans(),
    command_error=st.booleans(),
    paper_in_chute=st.booleans(),
    offline=st.booleans(),
    jammed=st.booleans(),
    paper_low=st.booleans(),
    reset=st.booleans(),
    firmware=st.text("ABCDEFV0123456789. -", max_size=20),
)


@given(flags)
def test_status_flags_round_trip(status: TclStatus) -> None:
    (message,) = Decoder(RESPONSE).feed(encode_status(status))
    assert parse_status(message.raw) == status


@given(st.binary(max_size=800))
def test_the_decoders_never_raise(noise: bytes) -> None:
    Decoder(RESPONSE).feed(noise)
    Decoder(COMMAND).feed(noise)


@given(st.binary(max_size=300), st.data())
def test_noise_then_messages_in_any_split(noise: bytes, data: st.DataObject) -> None:
    sent = [Message("S", TclStatus(paper_low=True).fields())] * 3
    wire = noise.replace(b"*", b"") + encode_status(TclStatus(paper_low=True)) * 3
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=8)))
    decoder, got, start = Decoder(RESPONSE), [], 0
    for cut in [*cuts, len(wire)]:
        got += decoder.feed(wire[start:cut])
        start = cut
    assert got == sent


@pytest.mark.parametrize(("key", "outcome"), list(JOB_TABLE.items()))
def test_job_table(key: tuple[Stage, bool, bool, bool, bool], outcome: object) -> None:
    stage, busy, fault, chute, waited_out = key
    status = TclStatus(busy=busy, paper_out=fault, paper_in_chute=chute)
    assert judge(stage, status, waited_out=waited_out) is outcome


def test_a_reset_while_printing_is_a_lost_job() -> None:
    for busy in (True, False):
        assert judge(Stage.RESUMED, TclStatus(busy=busy, reset=True), waited_out=False).value == (
            "failed partial"
        )
        outcome = judge(Stage.STARTED, TclStatus(busy=busy, reset=True), waited_out=False)
        assert outcome.value == "failed partial"


class Pair:
    def __init__(self, state: Path) -> None:
        self.now = 0
        self.state = state
        self.device = TclPrinterDevice(state, 0, print_ms=300, take_ms=500)
        self.host = TclPrinter()
        self.events: list[object] = []
        self.cut = False

    def run(self, ms: int) -> None:
        for _ in range(ms // 5):
            self.now += 5
            self.device.tick(self.now)
            out = self.host.transmit(self.now)
            if out and not self.cut:
                self.device.receive(out, self.now)
            back = self.device.take_output()
            if back and not self.cut:
                self.host.receive(back, self.now)
            self.events += self.host.events()

    def take(self) -> list[object]:
        out, self.events = self.events, []
        return [ev for ev in out if not isinstance(ev, PrinterCondition)]


LINES = ("VENUE", "CASHOUT TICKET", "VALIDATION 12-3456", "DATE", "$1.00", "ONE", "T", "VOID")
NUMBER = "123456789012345678"


def test_a_job_is_started_and_printed(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.run(300)
    assert pair.take()[0] == PrinterLinkChanged(up=True)
    pair.host.print_job(NUMBER, "0", (*LINES, NUMBER))
    pair.run(1000)
    assert pair.take() == [JobStarted(NUMBER), JobPrinted(NUMBER)]
    assert (tmp_path / "vouchers" / f"{NUMBER}.png").exists()


@pytest.mark.parametrize("fault", ["paper-out", "jam", "head-open"])
def test_a_fault_during_a_job_fails_it_partially(tmp_path: Path, fault: str) -> None:
    pair = Pair(tmp_path)
    pair.run(300)
    pair.take()
    pair.device.control(["fail-next-print", fault], pair.now)
    pair.host.print_job(NUMBER, "0", (*LINES, NUMBER))
    pair.run(1000)
    failure = {"paper-out": "paper_out", "jam": "jammed", "head-open": "head_open"}[fault]
    assert pair.take() == [JobStarted(NUMBER), JobFailed(NUMBER, failure, partial=True)]
    assert pair.device.mem.data["voided"] == [NUMBER]


def test_a_job_sent_to_a_printer_out_of_paper_is_not_printed(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.device.control(["fault", "paper-out"], 0)
    pair.run(300)
    pair.take()
    pair.host.print_job(NUMBER, "0", (*LINES, NUMBER))
    pair.run(500)
    assert pair.take() == [JobFailed(NUMBER, "paper_out", partial=False)]


def test_a_host_restarted_during_a_job_learns_its_fate(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.run(300)
    pair.host.print_job(NUMBER, "0", (*LINES, NUMBER))
    pair.run(100)
    pair.host = TclPrinter()  # the bridge restarted; its journal says "started"
    pair.host.resume(NUMBER, started=True)
    pair.take()
    pair.run(1000)
    assert JobPrinted(NUMBER) in pair.take()


def test_a_printer_restarted_during_a_job_voids_it(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.run(300)
    pair.host.print_job(NUMBER, "0", (*LINES, NUMBER))
    pair.run(100)
    pair.take()
    pair.device = TclPrinterDevice(tmp_path, pair.now, print_ms=300)  # power cut and back
    pair.run(500)
    assert pair.take() == [JobFailed(NUMBER, "power_lost", partial=True)]
    assert (tmp_path / "vouchers" / f"{NUMBER}-void.png").exists()


def test_the_line_lost_and_back(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.run(300)
    pair.take()
    pair.cut = True
    pair.run(2500)
    assert pair.take() == [PrinterLinkChanged(up=False)]
    pair.cut = False
    pair.run(500)
    assert pair.take() == [PrinterLinkChanged(up=True)]
