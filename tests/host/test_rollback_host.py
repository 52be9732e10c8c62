"""The host's side of a rolled-back card (issue 23, part 4; decision 0038).

- A terminal checks the host's anchor before its first game after power-up: play is disabled
  from the link's start until the first hello compared the store with the host's acknowledged
  head, so a whole card rolled back (store and signer state) never deals a game before it locks
  up.
- A device records dispute ends on the host's confirmation (``host send ... confirm-records``,
  recorded in the host's commands), which the terminal journals with the operator's name; a
  confirmation of another reason than the dispute's is refused and the host records why.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable

import pytest

from kiosk.cli import main
from kiosk.host.accounting.db import SqliteHostDb
from kiosk.host.accounting.records import CommandRecord
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import CommandError, TerminalLockedError
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.hostlink.anchor import ANCHOR_WAIT_REASON
from kiosk.terminal.signer.client import development_dir
from tests.helpers.host_anchor import acknowledged, own, play
from tests.helpers.host_rig import HostRig, TerminalRig

MakeTerminal = Callable[..., TerminalRig]


def _wager(rig: TerminalRig) -> None:
    """Wager and deal at once (no pump: nothing posted by the link has run yet)."""
    rt = rig.runtime
    rt.execute(c.SelectEdition("icon-v2"))
    rt.execute(c.PlaceWager("bet_a", 100))
    rt.execute(c.Deal())


def test_no_game_before_the_hosts_anchor_is_checked(
    host: HostRig, make_terminal: MakeTerminal
) -> None:
    rig = make_terminal(host.endpoint("TK-A")).start()
    play(rig, 2)
    assert rig.validator.insert(2000)
    rig.runtime.pump()
    acknowledged(rig, host)
    rig.close()
    # an image of the card: the store and the signer's state (and the in-process devices'
    # memories with them: the devices tell nothing here, as when they cannot be read)
    card = rig.data_dir.with_name("card-image")
    shutil.copytree(rig.data_dir, card)
    shutil.copytree(development_dir(rig.data_dir), card.with_name("card-image-signer"))

    rig.boot()
    rig.start()
    play(rig, 3)
    acknowledged(rig, host)
    anchor = own(rig)
    rig.close()
    shutil.rmtree(rig.data_dir)  # the whole card written back
    shutil.copytree(card, rig.data_dir)
    shutil.rmtree(development_dir(rig.data_dir))
    shutil.copytree(card.with_name("card-image-signer"), development_dir(rig.data_dir))

    rig.boot()
    assert rig.runtime.state.critical is None  # consistent with itself
    assert rig.runtime.state.credits[0] >= 2000
    games = rig.runtime.state.lifetime["games_played"]
    rig.start(wait=False)
    with pytest.raises(TerminalLockedError):  # no game before the anchor is checked
        _wager(rig)
    assert rig.runtime.state.lifetime["games_played"] == games
    assert rig.runtime.state.disabled == ANCHOR_WAIT_REASON
    # nor does anyone else's enable (the SAS host's, a simulator's) lift the wait
    with pytest.raises(CommandError, match="host's anchor"):
        rig.runtime.execute(c.SetEnabled(enabled=True))
    rig.pump_until(lambda: rig.runtime.state.critical is not None)
    reason = rig.runtime.state.critical
    assert reason is not None and str(anchor) in reason and "behind" in reason
    assert rig.runtime.state.disabled == ANCHOR_WAIT_REASON
    with pytest.raises(TerminalLockedError):
        _wager(rig)


def test_a_terminal_in_line_with_the_anchor_plays_once_checked(
    host: HostRig, make_terminal: MakeTerminal
) -> None:
    rig = make_terminal(host.endpoint("TK-A")).start(wait=False)
    assert rig.runtime.state.disabled == ANCHOR_WAIT_REASON
    rig.pump_until(lambda: rig.runtime.state.disabled is None)
    assert rig.validator.insert(2000)
    rig.runtime.pump()
    _wager(rig)
    assert rig.runtime.state.round is not None and rig.runtime.state.critical is None


def _dispute(rig: TerminalRig) -> str:
    """A voucher in the printer's record that the journal never saw: the printer's dispute."""
    rig.pump_until(lambda: rig.runtime.state.disabled is None)
    memory = rig.data_dir / "devices" / "printer.json"
    data = json.loads(memory.read_text())
    data["printed"]["9" * 18] = {"value": 5000}
    memory.write_text(json.dumps(data))
    rig.close()
    rig.boot()
    rig.start()
    rig.pump_until(lambda: TiltCode.PRINTER_RECONCILE in rig.runtime.state.tilts)
    return rig.runtime.state.tilts[TiltCode.PRINTER_RECONCILE].reason


def _finished(host: HostRig, rig: TerminalRig, command_id: int) -> CommandRecord:
    assert host.db is not None
    db = host.db

    def done() -> bool:
        record = db.command(command_id)
        return record is not None and record.state in ("done", "failed")

    rig.pump_until(done)
    record = db.command(command_id)
    assert record is not None
    return record


def test_the_hosts_confirmation_ends_a_device_records_dispute(
    host: HostRig, make_terminal: MakeTerminal
) -> None:
    rig = make_terminal(host.endpoint("TK-A")).start()
    reason = _dispute(rig)
    assert host.server is not None
    code = TiltCode.PRINTER_RECONCILE
    wrong = host.server.send(
        "TK-A", "confirm_device_records", {"tilt": code, "operator": "ann", "reason": "x"}
    )
    record = _finished(host, rig, wrong)
    assert record.state == "failed" and "no longer the one confirmed" in str(record.result)
    assert code in rig.runtime.state.tilts
    ok = host.server.send(
        "TK-A", "confirm_device_records", {"tilt": code, "operator": "ann", "reason": reason}
    )
    assert _finished(host, rig, ok).state == "done"
    assert code not in rig.runtime.state.tilts
    cleared = [r.event for r in rig.runtime.journal.rows() if isinstance(r.event, e.TiltCleared)]
    assert cleared[-1].by == f"host operator ann (command {ok})"
    rig.close()
    rig.boot()  # reconciled from the new baseline: no dispute at the next power-up
    rig.start()
    rig.pump_until(lambda: rig.runtime.state.disabled is None)
    time.sleep(0.05)
    rig.runtime.pump()
    assert rig.runtime.state.tilts == {}


def test_host_send_confirm_records_on_the_command_line(
    host: HostRig, capsys: pytest.CaptureFixture[str]
) -> None:
    assert isinstance(host.db, SqliteHostDb)
    where = ["--db", str(host.db.path)]
    assert main(["host", "send", "TK-A", "confirm-records", *where]) == 2
    assert "confirm-records needs --tilt and --operator" in capsys.readouterr().err
    args = ["--tilt", "printer_reconcile", "--operator", "ann", "--reason", "why"]
    assert main(["host", "send", "TK-A", "confirm-records", *args, *where]) == 0
    assert "queued for TK-A: confirm-records" in capsys.readouterr().out
