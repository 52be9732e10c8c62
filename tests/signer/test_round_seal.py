"""The round seal at the signer: a round's cards, wagers and decisions only grow; withdrawals keep
it and are counted; the anchor file of the previous release is read and upgraded safely."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kiosk.terminal.signer.core import SignerCore, head_to, seal_to
from kiosk.terminal.signer.records import Anchor, Head, RoundSeal
from kiosk.terminal.signer.state import (
    ANCHOR_NAME,
    OLD_MAGIC,
    OLD_SLOT_SIZE,
    SLOT_SIZE,
    load_anchor,
    save_anchor,
)
from proto.turbokiosk.v1 import signer_pb2 as pb

CARDS = tuple(range(12))
SEAL = RoundSeal(3, 7, CARDS, 9, (), '{"edition":"stadium-3cp"}')


def core() -> SignerCore:
    return SignerCore(Ed25519PrivateKey.generate(), Anchor(3, 10, b"\x01" * 32, None))


def sign(signer: SignerCore, seq: int, seal: RoundSeal | None) -> pb.SignerResponse:
    body = pb.SignerRequest.SignCommit(head=head_to(Head(3, seq, bytes([seq]) * 32)))
    if seal is not None:
        body.round.CopyFrom(seal_to(seal))
    return signer.handle(pb.SignerRequest(sign_commit=body)).response


@pytest.mark.parametrize(
    ("later", "why"),
    [
        (RoundSeal(3, 7, (*CARDS[1:], 40), 9, (), SEAL.opening), "cards were sealed"),
        (RoundSeal(3, 7, CARDS, 9, (), '{"edition":"other"}'), "wagers were sealed"),
        (RoundSeal(3, 7, CARDS, 3, (), SEAL.opening), "9 cards were dealt"),
        (RoundSeal(3, 6, CARDS, 9, (), SEAL.opening), "before the sealed game 7"),
        (RoundSeal(4, 8, CARDS, 9, (), ""), "a seal of epoch 4"),
        (RoundSeal(3, 8, (1, 1, 2), 0, (), ""), "distinct card codes"),
        (RoundSeal(3, 8, (1, 2), 3, (), ""), "cannot have dealt 3"),
    ],
)
def test_a_sealed_round_only_grows(later: RoundSeal, why: str) -> None:
    signer = core()
    assert sign(signer, 11, SEAL).WhichOneof("body") == "signed"
    assert signer.anchor.seal == SEAL
    response = sign(signer, 12, later)
    assert response.WhichOneof("body") == "refused" and why in response.refused
    assert signer.anchor.seq == 11 and signer.anchor.seal == SEAL  # nothing changed


def test_the_seal_grows_survives_a_withdrawal_and_ends_with_the_epoch() -> None:
    signer = core()
    sign(signer, 11, SEAL)
    grown = RoundSeal(3, 7, CARDS, 12, ("0:play",), SEAL.opening)
    assert sign(signer, 12, grown).WhichOneof("body") == "signed"
    assert sign(signer, 13, None).WhichOneof("body") == "signed"  # no seal: the held one stands
    assert signer.anchor.seal == grown
    back = pb.SignerRequest.Withdraw(to=head_to(Head(3, 12, bytes([12]) * 32)), at_ms=5_000)
    assert signer.handle(pb.SignerRequest(withdraw=back)).response.WhichOneof("body") == "anchor"
    assert signer.anchor.seal == grown and signer.anchor.withdrawn_at == (5_000,)
    status = signer.handle(pb.SignerRequest(status=pb.SignerRequest.Status())).response.status
    assert status.HasField("round") and bytes(status.round.cards) == bytes(CARDS)
    assert list(status.anchor.withdrawn_ms) == [5_000]
    new = pb.SignerRequest(start_epoch=pb.SignerRequest.StartEpoch(current_epoch=3))
    signer.handle(new)
    assert signer.anchor.seal is None and signer.anchor.withdrawn_at == ()


def test_the_anchor_keeps_the_seal_and_the_withdrawals(tmp_path: Path) -> None:
    decisions = tuple(f"{seat}:play:auto" for seat in range(8))
    opening = "x" * 2048  # the longest opening the signer takes
    anchor = Anchor(3, 12, b"\x0c" * 32, Head(3, 11, b"\x0b" * 32), None, (1, 2, 3, 4))
    big = RoundSeal(3, 7, tuple(range(52)), 52, decisions, opening)
    for value in (anchor, Anchor(3, 13, b"\x0d" * 32, None, big, (1, 2, 3, 4))):
        save_anchor(tmp_path, value)
        assert load_anchor(tmp_path) == value


def _old_slots(tmp_path: Path) -> Anchor:
    """An anchor file of the previous release (two 512-byte slots), written by its format."""
    import hashlib
    import json

    anchor = Anchor(2, 40, b"\x28" * 32, Head(2, 39, b"\x27" * 32))
    data = {
        "epoch": 2,
        "seq": 40,
        "chain_hash": anchor.chain_hash.hex(),
        "previous": {"seq": 39, "chain_hash": (b"\x27" * 32).hex()},
    }
    payload = json.dumps(data, sort_keys=True).encode()
    body = OLD_MAGIC + (5).to_bytes(8, "big") + len(payload).to_bytes(2, "big") + payload
    slot = body + bytes(OLD_SLOT_SIZE - len(body) - 32) + hashlib.sha256(body).digest()
    (tmp_path / ANCHOR_NAME).write_bytes(slot + bytes(OLD_SLOT_SIZE))  # generation 5 in slot 0
    return anchor


def test_the_previous_anchor_file_is_read_and_upgraded(tmp_path: Path) -> None:
    old = _old_slots(tmp_path)
    assert load_anchor(tmp_path) == old
    seal = RoundSeal(2, 7, CARDS, 9, (), SEAL.opening)  # (a seal is of its anchor's epoch)
    new = Anchor(2, 41, b"\x29" * 32, old.head, seal)
    save_anchor(tmp_path, new)
    data = (tmp_path / ANCHOR_NAME).read_bytes()
    assert data.startswith(OLD_MAGIC) and len(data) == 2 * SLOT_SIZE  # old slots left intact
    assert load_anchor(tmp_path) == new
    # a power cut tearing that first new write leaves the previous release's anchor
    torn = bytearray(data)
    torn[SLOT_SIZE + 100 :] = bytes(SLOT_SIZE - 100)
    (tmp_path / ANCHOR_NAME).write_bytes(bytes(torn))
    assert load_anchor(tmp_path) == old
    (tmp_path / ANCHOR_NAME).write_bytes(data)
    newer = Anchor(2, 42, b"\x2a" * 32, new.head, seal)
    save_anchor(tmp_path, newer)  # now over the old slots
    assert load_anchor(tmp_path) == newer
    assert not (tmp_path / ANCHOR_NAME).read_bytes().startswith(OLD_MAGIC)
