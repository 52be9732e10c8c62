"""Sign, then commit: a power cut between the two is no false lockup; the signer's rules."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kiosk.terminal.signer.core import SignerCore, anchor_from, head_to
from kiosk.terminal.signer.records import Anchor, Head
from kiosk.terminal.store.audit import audit
from proto.turbokiosk.v1 import signer_pb2 as pb
from tests.helpers.terminal_rig import Rig


def test_a_cut_between_signing_and_committing_is_withdrawn_once(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "t")
    rig.insert(20)
    rt = rig.runtime
    seq, _ = rt.journal.head()
    epoch = rt.journal.epoch()
    assert epoch == 1
    # the signer signed the next head, then the power went before the commit
    rt.signer.sign_commit(Head(epoch, seq + 2, os.urandom(32)), None)
    assert not audit(rig.data_dir).problems  # audit sees the same: not a fault
    rt = rig.power_cut()
    report = rt.last_recovery
    assert report.critical is None
    assert any("never reached the store" in action for action in report.actions)
    assert rt.state.credits == [2000]
    anchor = rt.signer.status().anchor
    assert anchor.seq == rt.journal.head()[0]  # the PoweredUp commit was signed after it
    rt.close()


def test_two_commits_cut_is_behind_the_anchor(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "t")
    rt = rig.runtime
    seq, _ = rt.journal.head()
    epoch = rt.journal.epoch() or 0
    rt.signer.sign_commit(Head(epoch, seq + 1, os.urandom(32)), None)
    rt.signer.sign_commit(Head(epoch, seq + 2, os.urandom(32)), None)
    rt = rig.power_cut()
    assert rt.state.critical is not None and "behind the signer's anchor" in rt.state.critical
    rt.close()


def core_at(seq: int) -> SignerCore:
    return SignerCore(Ed25519PrivateKey.generate(), Anchor(3, seq, b"\x01" * 32, None))


def sign(core: SignerCore, head: Head) -> pb.SignerResponse:
    request = pb.SignerRequest(sign_commit=pb.SignerRequest.SignCommit(head=head_to(head)))
    return core.handle(request).response


@pytest.mark.parametrize(
    ("head", "signed"),
    [
        (Head(3, 11, b"\x02" * 32), True),  # after the anchor
        (Head(3, 10, b"\x01" * 32), True),  # the anchor itself: answered again
        (Head(3, 10, b"\x02" * 32), False),  # the anchor's row with another hash
        (Head(3, 9, b"\x02" * 32), False),  # before the anchor
        (Head(4, 11, b"\x02" * 32), False),  # another epoch
        (Head(2, 11, b"\x02" * 32), False),
    ],
)
def test_sign_commit_table(head: Head, signed: bool) -> None:
    core = core_at(10)
    response = sign(core, head)
    assert (response.WhichOneof("body") == "signed") is signed
    if not signed:
        assert core.anchor == Anchor(3, 10, b"\x01" * 32, None)  # nothing changed


def test_start_epoch_and_withdraw_rules() -> None:
    core = core_at(10)
    wrong = pb.SignerRequest(start_epoch=pb.SignerRequest.StartEpoch(current_epoch=2))
    assert core.handle(wrong).response.WhichOneof("body") == "refused"
    sign(core, Head(3, 12, b"\x03" * 32))
    back = pb.SignerRequest(
        withdraw=pb.SignerRequest.Withdraw(to=head_to(Head(3, 10, b"\x01" * 32)))
    )
    outcome = core.handle(back)
    assert anchor_from(outcome.response.anchor) == Anchor(3, 10, b"\x01" * 32, None)
    assert outcome.anchor == core.anchor
    assert core.handle(back).anchor is None  # to the anchor itself: nothing to change
    further = pb.SignerRequest(
        withdraw=pb.SignerRequest.Withdraw(to=head_to(Head(3, 9, b"\x09" * 32)))
    )
    assert core.handle(further).response.WhichOneof("body") == "refused"
    new = pb.SignerRequest(start_epoch=pb.SignerRequest.StartEpoch(current_epoch=3))
    assert core.handle(new).anchor == Anchor(4, 0, b"\x00" * 32, None)
