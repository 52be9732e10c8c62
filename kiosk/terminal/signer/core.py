"""The signer's rules, sans-IO: a request in, a response and the anchor to keep out.

=================  ==============================================  =========================
request            accepted when                                   anchor afterwards
=================  ==============================================  =========================
Status             always                                          unchanged
SignCommit(head)   head.epoch == anchor.epoch > 0 and              head (previous: the old
                   head.seq > anchor.seq                           anchor head)
                   head == anchor head (answered again)            unchanged
  with a seal      as above, and the seal is of the head's epoch   the seal too
                   and a new round (a later game number) or grows
                   the held one (same cards, no fewer dealt, no
                   decision dropped)
SignSnapshot       head.epoch == anchor.epoch and                  unchanged
                   head.seq <= anchor.seq
StartEpoch(e)      e == anchor.epoch                               epoch e + 1, row 0, no seal
Withdraw(head)     head == anchor.previous                         head (no previous);
                                                                   the seal is kept, the
                                                                   time (at_ms) added
                   head == anchor head                             unchanged
=================  ==============================================  =========================

Anything else is refused with one line and changes nothing.  The caller (the socket server or
the in-process signer) must make the returned anchor durable *before* it sends the response:
that is what makes the anchor a monotonic counter outside the store.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from kiosk.terminal.signer.records import (
    GENESIS_HASH,
    WITHDRAWALS_KEPT,
    Anchor,
    Head,
    RoundSeal,
    head_message,
    snapshot_message,
)
from proto.turbokiosk.v1 import signer_pb2 as pb

#: the longest round opening a seal keeps (it fits the anchor's slot with everything else)
MAX_OPENING = 2048


class SignerRefusalError(Exception):
    """A request the signer refuses (the message is the one-line reason)."""


@dataclass(frozen=True)
class Outcome:
    """A response, and the anchor to make durable first (None: unchanged)."""

    response: pb.SignerResponse
    anchor: Anchor | None = None


def head_from(msg: pb.SignerHead) -> Head:
    """A head from its message (the hash must be 32 bytes)."""
    if len(msg.chain_hash) != 32:
        raise SignerRefusalError(f"a chain hash has 32 bytes, not {len(msg.chain_hash)}")
    return Head(msg.epoch, msg.seq, bytes(msg.chain_hash))


def head_to(head: Head) -> pb.SignerHead:
    """The message of a head."""
    return pb.SignerHead(epoch=head.epoch, seq=head.seq, chain_hash=head.chain_hash)


def anchor_to(anchor: Anchor) -> pb.SignerAnchor:
    """The message of an anchor."""
    msg = pb.SignerAnchor(epoch=anchor.epoch, seq=anchor.seq, chain_hash=anchor.chain_hash)
    if anchor.previous is not None:
        msg.has_previous = True
        msg.previous_seq = anchor.previous.seq
        msg.previous_hash = anchor.previous.chain_hash
    msg.withdrawn_ms.extend(anchor.withdrawn_at)
    return msg


def seal_to(seal: RoundSeal) -> pb.RoundSeal:
    """The message of a round seal."""
    return pb.RoundSeal(
        epoch=seal.epoch,
        game_number=seal.game_number,
        cards=bytes(seal.cards),
        dealt=seal.dealt,
        decisions=list(seal.decisions),
        opening=seal.opening,
    )


def seal_from(msg: pb.RoundSeal) -> RoundSeal:
    """A round seal from its message (refused when it is not one)."""
    return checked_seal(
        RoundSeal(
            msg.epoch,
            msg.game_number,
            tuple(msg.cards),
            msg.dealt,
            tuple(msg.decisions),
            msg.opening,
        )
    )


def checked_seal(seal: RoundSeal) -> RoundSeal:
    """``seal`` when it is one a signer keeps (else refused)."""
    cards = seal.cards
    if not cards or len(set(cards)) != len(cards) or min(cards) < 0 or max(cards) > 51:
        raise SignerRefusalError("a round seal holds distinct card codes 0..51")
    if seal.dealt > len(cards):
        raise SignerRefusalError(f"a round of {len(cards)} cards cannot have dealt {seal.dealt}")
    if len(seal.opening) > MAX_OPENING:
        raise SignerRefusalError(f"a round's opening has at most {MAX_OPENING} characters")
    return seal


def anchor_from(msg: pb.SignerAnchor) -> Anchor:
    """An anchor from its message."""
    previous = (
        Head(msg.epoch, msg.previous_seq, bytes(msg.previous_hash)) if msg.has_previous else None
    )
    return Anchor(
        msg.epoch,
        msg.seq,
        bytes(msg.chain_hash) or GENESIS_HASH,
        previous,
        withdrawn_at=tuple(msg.withdrawn_ms),
    )


class SignerCore:
    """One terminal's key and anchor; :meth:`handle` applies the table above."""

    def __init__(self, key: Ed25519PrivateKey, anchor: Anchor) -> None:
        self.key = key
        self.anchor = anchor
        self.public_key = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def handle(self, request: pb.SignerRequest) -> Outcome:
        """Answer one request; a refusal is an answer too (nothing changes)."""
        try:
            outcome = self._dispatch(request)
        except SignerRefusalError as exc:
            return Outcome(pb.SignerResponse(refused=str(exc)))
        if outcome.anchor is not None:
            self.anchor = outcome.anchor
        return outcome

    def _dispatch(self, request: pb.SignerRequest) -> Outcome:
        which = request.WhichOneof("body")
        if which == "status":
            status = pb.SignerResponse.Status(
                public_key=self.public_key, anchor=anchor_to(self.anchor)
            )
            if self.anchor.seal is not None:
                status.round.CopyFrom(seal_to(self.anchor.seal))
            return Outcome(pb.SignerResponse(status=status))
        if which == "sign_commit":
            body = request.sign_commit
            seal = seal_from(body.round) if body.HasField("round") else None
            signed, anchor = self.sign_commit(head_from(body.head), bytes(body.snapshot_hash), seal)
            response = pb.SignerResponse.Signed(head_signature=signed[0])
            if signed[1] is not None:
                response.snapshot_signature = signed[1]
            return Outcome(pb.SignerResponse(signed=response), anchor)
        if which == "sign_snapshot":
            return self._sign_snapshot(
                head_from(request.sign_snapshot.head), bytes(request.sign_snapshot.snapshot_hash)
            )
        if which == "start_epoch":
            return self._start_epoch(request.start_epoch.current_epoch)
        if which == "withdraw":
            return self._withdraw(head_from(request.withdraw.to), request.withdraw.at_ms)
        raise SignerRefusalError("empty request")

    def sign_commit(
        self, head: Head, snapshot_hash: bytes, seal: RoundSeal | None
    ) -> tuple[tuple[bytes, bytes | None], Anchor | None]:
        """SignCommit (the table above) without its message: ((the head's signature, the
        snapshot's or None), the anchor to make durable first or None when unchanged); the
        core holds that anchor from now on.  SignerRefusalError when refused (nothing
        changes).  ``seal`` must have passed :func:`checked_seal`."""
        moved = self.advance(head, snapshot_hash, seal)
        return self.signatures(head, snapshot_hash), moved

    def advance(self, head: Head, snapshot_hash: bytes, seal: RoundSeal | None) -> Anchor | None:
        """:meth:`sign_commit`'s rules and anchor without its signatures (:meth:`signatures`,
        which cannot fail once this accepted): the anchor to make durable first, or None when
        unchanged.  SignerRefusalError when refused (nothing changes)."""
        anchor = self.anchor
        if len(head.chain_hash) != 32:
            raise SignerRefusalError(f"a chain hash has 32 bytes, not {len(head.chain_hash)}")
        if anchor.epoch == 0:
            raise SignerRefusalError("no store epoch started yet")
        if head.epoch != anchor.epoch:
            raise SignerRefusalError(
                f"head of epoch {head.epoch}, the signer is at epoch {anchor.epoch}"
            )
        if head.seq < anchor.seq or (head.seq == anchor.seq and head != anchor.head):
            raise SignerRefusalError(
                f"head row {head.seq} is not after the last signed head row {anchor.seq}"
            )
        seal = anchor.seal if seal is None else self._new_seal(head, seal)
        if snapshot_hash and len(snapshot_hash) != 32:
            raise SignerRefusalError(
                f"snapshot hash: a 32-byte hash was expected, not {len(snapshot_hash)} bytes"
            )
        if head == anchor.head:
            if seal == anchor.seal:
                return None
            moved = replace(anchor, seal=seal)
        else:
            moved = Anchor(
                head.epoch, head.seq, head.chain_hash, anchor.head, seal, anchor.withdrawn_at
            )
        self.anchor = moved
        return moved

    def signatures(self, head: Head, snapshot_hash: bytes) -> tuple[bytes, bytes | None]:
        """The head's signature and the snapshot's (None without ``snapshot_hash``), for a
        head :meth:`advance` accepted."""
        signature = self.key.sign(head_message(head))
        snapshot = self._snapshot_signature(head, snapshot_hash) if snapshot_hash else None
        return signature, snapshot

    def _new_seal(self, head: Head, seal: RoundSeal) -> RoundSeal:
        """The round seal a commit brings, checked against the one held."""
        if seal.epoch != head.epoch:
            raise SignerRefusalError(f"a seal of epoch {seal.epoch} with a head of {head.epoch}")
        held = self.anchor.seal
        if held is None or held.epoch != seal.epoch or seal.game_number > held.game_number:
            return seal
        if seal.game_number < held.game_number:
            raise SignerRefusalError(
                f"game {seal.game_number} is before the sealed game {held.game_number}"
            )
        why = held.grows_into(seal)
        if why is not None:
            raise SignerRefusalError(why)
        return seal

    def _sign_snapshot(self, head: Head, snapshot_hash: bytes) -> Outcome:
        anchor = self.anchor
        if anchor.epoch == 0 or head.epoch != anchor.epoch or head.seq > anchor.seq:
            raise SignerRefusalError(
                f"snapshot at {head.short()}: only heads already signed "
                f"(up to epoch {anchor.epoch} row {anchor.seq})"
            )
        signature = self._snapshot_signature(head, snapshot_hash)
        return Outcome(pb.SignerResponse(signed=pb.SignerResponse.Signed(head_signature=signature)))

    def _snapshot_signature(self, head: Head, snapshot_hash: bytes) -> bytes:
        try:
            return self.key.sign(snapshot_message(head, snapshot_hash))
        except ValueError as exc:
            raise SignerRefusalError(f"snapshot hash: {exc}") from None

    def _start_epoch(self, current: int) -> Outcome:
        anchor = self.anchor
        if current != anchor.epoch:
            raise SignerRefusalError(
                f"a new epoch must follow the current one ({anchor.epoch}), not {current}"
            )
        fresh = Anchor(anchor.epoch + 1, 0, GENESIS_HASH, None)
        return Outcome(pb.SignerResponse(anchor=anchor_to(fresh)), fresh)

    def _withdraw(self, to: Head, at_ms: int) -> Outcome:
        anchor = self.anchor
        if to == anchor.head:
            return Outcome(pb.SignerResponse(anchor=anchor_to(anchor)))
        if anchor.previous is None or to != anchor.previous:
            raise SignerRefusalError(
                f"cannot go back to {to.short()}: only to the head signed before the last one"
            )
        times = anchor.withdrawn_at
        if at_ms > 0:
            times = (*times, at_ms)[-WITHDRAWALS_KEPT:]
        back = Anchor(to.epoch, to.seq, to.chain_hash, None, anchor.seal, times)
        return Outcome(pb.SignerResponse(anchor=anchor_to(back)), back)
