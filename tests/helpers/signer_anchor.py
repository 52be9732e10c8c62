"""Signer anchors built by number."""

from __future__ import annotations

from kiosk.terminal.signer.records import Anchor, Head


def anchor(seq: int) -> Anchor:
    return Anchor(3, seq, bytes([seq % 256]) * 32, Head(3, seq - 1, bytes([(seq - 1) % 256]) * 32))
