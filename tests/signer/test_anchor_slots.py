"""The signer's anchor file: two checksummed slots written in turn, so a torn write keeps the
anchor before it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.terminal.signer.records import Anchor
from kiosk.terminal.signer.state import (
    ANCHOR_NAME,
    SLOT_SIZE,
    SignerStateError,
    load_anchor,
    save_anchor,
)
from tests.helpers.signer_anchor import anchor


def test_the_newest_anchor_is_read_back(tmp_path: Path) -> None:
    assert load_anchor(tmp_path) == Anchor()  # no file: no epoch started
    for seq in range(1, 6):
        save_anchor(tmp_path, anchor(seq))
        assert load_anchor(tmp_path) == anchor(seq)
    assert (tmp_path / ANCHOR_NAME).stat().st_size == 2 * SLOT_SIZE


@pytest.mark.parametrize("cut", [1, 20, 100, SLOT_SIZE - 1])
def test_a_torn_write_leaves_the_anchor_before_it(tmp_path: Path, cut: int) -> None:
    save_anchor(tmp_path, anchor(7))
    save_anchor(tmp_path, anchor(8))
    path = tmp_path / ANCHOR_NAME
    data = bytearray(path.read_bytes())
    # the write of anchor 8 went to slot 0 (generation 2); tear it after `cut` bytes
    data[cut:SLOT_SIZE] = bytes(SLOT_SIZE - cut)
    path.write_bytes(bytes(data))
    assert load_anchor(tmp_path) == anchor(7)
    save_anchor(tmp_path, anchor(9))  # and the next write goes on from there
    assert load_anchor(tmp_path) == anchor(9)


def test_both_slots_damaged_is_one_line(tmp_path: Path) -> None:
    save_anchor(tmp_path, anchor(2))
    save_anchor(tmp_path, anchor(3))
    (tmp_path / ANCHOR_NAME).write_bytes(b"\xff" * (2 * SLOT_SIZE))
    with pytest.raises(SignerStateError, match="no slot passes its checksum"):
        load_anchor(tmp_path)


def test_writers_in_turn_from_two_processes_never_overwrite_the_newest(tmp_path: Path) -> None:
    save_anchor(tmp_path, anchor(1))
    save_anchor(tmp_path, anchor(2))
    # another process writes anchor 3 (into the slot after anchor 2's), unknown to this one
    other = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[2]);"
        "from tests.helpers.signer_anchor import anchor;"
        "from kiosk.terminal.signer.state import save_anchor;"
        "save_anchor(Path(sys.argv[1]), anchor(3))"
    )
    repo = str(Path(__file__).resolve().parents[2])
    subprocess.run([sys.executable, "-c", other, str(tmp_path), repo], check=True)
    # this process's next write must go after anchor 3, not over it (the slot of anchor 2 is
    # the older one now): both are there to be read, the newest wins
    save_anchor(tmp_path, anchor(4))
    assert load_anchor(tmp_path) == anchor(4)
    data = (tmp_path / ANCHOR_NAME).read_bytes()
    assert b'"seq":3' in data and b'"seq":4' in data
