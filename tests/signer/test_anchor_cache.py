"""The anchor file remembers the slots it last read or wrote (issue 23's cost per commit): what
is on disk still decides, whatever another process or an attacker did to the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kiosk.terminal.signer.core import (
    SignerCore,
    SignerRefusalError,
    checked_seal,
    head_to,
    seal_to,
)
from kiosk.terminal.signer.records import Anchor, Head, RoundSeal
from kiosk.terminal.signer.state import (
    ANCHOR_NAME,
    SLOT_SIZE,
    AnchorFile,
    SignerStateError,
    _read_slot,
    _slot,
    save_anchor,
)
from proto.turbokiosk.v1 import signer_pb2 as pb
from tests.helpers.signer_anchor import anchor


def test_a_write_by_another_writer_is_read(tmp_path: Path) -> None:
    mine = AnchorFile(tmp_path)
    mine.save(anchor(1))
    assert mine.load() == anchor(1)
    save_anchor(tmp_path, anchor(2))  # another process of the directory
    assert mine.load() == anchor(2)
    mine.save(anchor(3))  # after it, not over it
    assert AnchorFile(tmp_path).load() == anchor(3) == mine.load()


def test_damage_after_a_read_is_seen(tmp_path: Path) -> None:
    mine = AnchorFile(tmp_path)
    mine.save(anchor(4))
    mine.save(anchor(5))
    assert mine.load() == anchor(5)
    path = tmp_path / ANCHOR_NAME
    data = bytearray(path.read_bytes())
    data[100] ^= 1  # the newest slot (generation 2, the first) fails its checksum now
    path.write_bytes(bytes(data))
    assert mine.load() == anchor(4)
    path.write_bytes(b"\x00" * (2 * SLOT_SIZE))
    with pytest.raises(SignerStateError, match="no slot passes its checksum"):
        mine.load()
    path.unlink()
    assert mine.load() == Anchor()


def sealed(seq: int) -> Anchor:
    seal = RoundSeal(3, 7, (5, 9, 51, 0), 2, ("0:play",), '{"bets":[],"edition":"x"}')
    return Anchor(3, seq, bytes([seq]) * 32, Head(3, seq - 1, b"\x02" * 32), seal, (17,))


@pytest.mark.parametrize("value", [Anchor(), anchor(9), sealed(4), Anchor(2, 0, b"\x03" * 32)])
def test_what_is_remembered_is_what_the_slot_reads_back(tmp_path: Path, value: Anchor) -> None:
    assert _read_slot(_slot(6, value)) == (6, value)
    mine = AnchorFile(tmp_path)
    mine.save(value)
    assert mine.load() == value == AnchorFile(tmp_path).load()


def test_the_typed_sign_commit_is_the_request_s(tmp_path: Path) -> None:
    """The in-process signer's typed SignCommit and the signer program's message: the same
    rules, signatures and anchor."""
    key = Ed25519PrivateKey.generate()
    start = Anchor(3, 10, b"\x01" * 32, None)
    typed, wired = SignerCore(key, start), SignerCore(key, start)
    seal = RoundSeal(3, 2, (1, 2, 3, 4, 5, 6), 3, (), "{}")
    for seq, snapshot in ((11, b"\x05" * 32), (12, b"")):
        head = Head(3, seq, bytes([seq]) * 32)
        signed, moved = typed.sign_commit(head, snapshot, seal)
        body = pb.SignerRequest.SignCommit(head=head_to(head), snapshot_hash=snapshot)
        body.round.CopyFrom(seal_to(seal))
        outcome = wired.handle(pb.SignerRequest(sign_commit=body))
        assert signed == (
            outcome.response.signed.head_signature,
            outcome.response.signed.snapshot_signature or None,
        )
        assert moved == outcome.anchor == typed.anchor == wired.anchor
    with pytest.raises(SignerRefusalError, match="not after the last signed head"):
        typed.sign_commit(Head(3, 11, b"\x0b" * 32), b"", None)
    with pytest.raises(SignerRefusalError, match="32 bytes"):
        typed.sign_commit(Head(3, 13, b"\x0b" * 31), b"", None)
    assert typed.anchor == wired.anchor  # a refusal changes nothing


@pytest.mark.parametrize(
    "seal",
    [
        RoundSeal(3, 2, (), 0),
        RoundSeal(3, 2, (1, 1, 2), 0),
        RoundSeal(3, 2, (1, 52), 0),
        RoundSeal(3, 2, (-1, 2), 0),
        RoundSeal(3, 2, (1, 2), 3),
        RoundSeal(3, 2, (1, 2), 0, (), "x" * 2049),
    ],
)
def test_a_seal_that_is_none_is_refused_in_process_too(seal: RoundSeal) -> None:
    with pytest.raises(SignerRefusalError):
        checked_seal(seal)
