"""The eSSP host machine against the simulated ITL validator over a real pty (pyserial)."""

from __future__ import annotations

from pathlib import Path

from kiosk.terminal.bridge.cashbox import CashboxRecord
from kiosk.terminal.bridge.essp.host import EsspValidator
from kiosk.terminal.bridge.native import (
    Identified,
    ItemRejected,
    ItemReturned,
    ItemStacked,
    LinkChanged,
    NoteEscrowed,
    RejectCause,
    TicketEscrowed,
)
from kiosk.terminal.bridge.sim.essp import run_simulator
from tests.bridge.pty_rig import pty_rig


def test_key_exchange_then_encrypted_traffic_for_every_case(tmp_path: Path) -> None:
    record = tmp_path / "cashbox.json"
    host = EsspValidator(poll_interval_ms=50, reply_timeout_ms=300)
    with pty_rig(host, run_simulator, record) as rig:
        assert isinstance(rig.until(Identified), Identified)
        assert rig.until(LinkChanged) == LinkChanged(up=True)  # after the key exchange
        assert host._cipher is not None  # everything from here travels encrypted
        host.enable((500, 1000, 2000), tickets=True)
        rig.condition(enabled=True)
        # note in, escrow, stack
        rig.act("note", "2000")
        assert rig.until(NoteEscrowed) == NoteEscrowed(2000)
        host.stack()
        assert isinstance(rig.until(ItemStacked), ItemStacked)
        # note in, escrow, return
        rig.act("note", "500")
        assert rig.until(NoteEscrowed) == NoteEscrowed(500)
        host.return_item()
        assert isinstance(rig.until(ItemReturned), ItemReturned)
        # rejects, with the device's reason
        rig.act("note", "5000")  # a channel the host inhibited
        assert rig.until(ItemRejected) == ItemRejected(RejectCause.NOT_ACCEPTED)
        rig.act("reject", "0x02")
        assert rig.until(ItemRejected) == ItemRejected(RejectCause.NOT_RECOGNISED)
        # a barcode ticket
        rig.act("ticket", "001234567890123456")
        assert rig.until(TicketEscrowed) == TicketEscrowed("001234567890123456")
        host.stack()
        assert isinstance(rig.until(ItemStacked), ItemStacked)
        # faults, each reported and cleared
        rig.act("jam")
        rig.condition(jammed=True)
        rig.act("clear-jam")
        rig.condition(jammed=False)
        rig.act("full")
        rig.condition(cashbox_full=True)
        rig.act("not-full")
        rig.condition(cashbox_full=False)
        rig.act("remove-box")
        rig.condition(cashbox_removed=True)
        rig.act("cheat")
        rig.condition(cheated=True)
        rig.act("noise")  # a reply with a bad CRC: the host resends, the link stays up
        boxed = CashboxRecord.from_json(record.read_text())
        assert boxed == CashboxRecord(notes=(2000,), tickets=("001234567890123456",))
        rig.act("replace-box")  # emptied
        rig.condition(cashbox_removed=False)
        assert LinkChanged(up=False) not in rig.seen
    assert (
        CashboxRecord.from_json(record.read_text())
        == CashboxRecord(notes=(2000,), tickets=("001234567890123456",))
        or CashboxRecord.from_json(record.read_text()) == CashboxRecord()
    )
