"""The signer's state directory behind its rules: every changed anchor is durable before the
answer leaves (used by the socket server and by the in-process development signer alike)."""

from __future__ import annotations

import threading
from pathlib import Path

from kiosk.terminal.signer.core import SignerCore, SignerRefusalError
from kiosk.terminal.signer.records import Anchor, Head, RoundSeal
from kiosk.terminal.signer.state import AnchorFile, load_key
from proto.turbokiosk.v1 import signer_pb2 as pb


class Keeper:
    """A state directory's key and anchor; :meth:`answer` is safe from several threads."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = Path(state_dir)
        self.anchor_file = AnchorFile(self.state_dir)
        self.core = SignerCore(load_key(self.state_dir), self.anchor_file.load())
        self._lock = threading.Lock()

    def reload(self) -> None:
        """Read the anchor again (another process of the same directory may have moved it)."""
        with self._lock:
            self.core.anchor = self.anchor_file.load()

    def answer(self, request: pb.SignerRequest) -> pb.SignerResponse:
        """Apply the rules; a new anchor is written and fsync'd before the answer is given."""
        with self._lock:
            before = self.core.anchor
            outcome = self.core.handle(request)
            if outcome.anchor is not None and outcome.anchor != before:
                refused = self._keep(outcome.anchor, before)
                if refused is not None:
                    return pb.SignerResponse(refused=refused)
            return outcome.response

    def sign_commit(
        self, head: Head, snapshot_hash: bytes, seal: RoundSeal | None
    ) -> tuple[bytes, bytes | None]:
        """:meth:`answer` to a SignCommit, without its messages (the in-process signer): the
        head's and the snapshot's signatures, given once the new anchor is durable;
        SignerRefusalError with the reason when refused."""
        with self._lock:
            before = self.core.anchor
            signed, anchor = self.core.sign_commit(head, snapshot_hash, seal)
            if anchor is not None and anchor != before:
                refused = self._keep(anchor, before)
                if refused is not None:
                    raise SignerRefusalError(refused)
            return signed

    def _keep(self, anchor: Anchor, before: Anchor) -> str | None:
        """Make ``anchor`` durable; the refusal when it cannot be (the core keeps ``before``)."""
        try:
            self.anchor_file.save(anchor)
        except OSError as exc:
            self.core.anchor = before
            return f"cannot keep the anchor: {exc.strerror}"
        except ValueError as exc:  # more than a slot holds
            self.core.anchor = before
            return f"cannot keep the anchor: {exc}"
        return None
