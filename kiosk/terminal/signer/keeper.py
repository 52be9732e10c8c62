"""The signer's state directory behind its rules: every changed anchor is durable before the
answer leaves (used by the socket server and by the in-process development signer alike)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from kiosk.terminal.signer.background_sync import PendingSync
from kiosk.terminal.signer.core import SignerCore, SignerRefusalError
from kiosk.terminal.signer.records import Anchor, Head, RoundSeal
from kiosk.terminal.signer.state import AnchorFile, OpenAnchor, load_key
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

    def begin_sign_commit(
        self, head: Head, snapshot_hash: bytes, seal: RoundSeal | None
    ) -> Callable[[], tuple[bytes, bytes | None]] | None:
        """:meth:`sign_commit` with the anchor read again first (:meth:`reload`), in two
        halves: the anchor file is opened once, read, and the new anchor written now, its
        ``fdatasync`` started on the sync thread; the returned function signs (while the
        disk syncs), waits for the sync and gives the signatures (SignerRefusalError when
        refused or the anchor cannot be kept: the core goes back to the anchor before).  It
        must be called, once; the keeper is the request's until then.  None (nothing done)
        when there is no anchor file or it cannot be opened for writing: :meth:`reload` and
        :meth:`sign_commit` then say why, as ever."""
        self._lock.acquire()
        try:
            try:
                opened = self.anchor_file.open()
            except OSError:
                opened = None
            if opened is None:
                self._lock.release()
                return None
        except BaseException:
            self._lock.release()
            raise
        try:
            self.core.anchor = opened.anchor  # SignerStateError: damaged
            before = self.core.anchor
            anchor = self.core.advance(head, snapshot_hash, seal)  # SignerRefusalError
            sync: PendingSync | None = None
            if anchor is not None and anchor != before:
                try:
                    opened.write(anchor)
                except (OSError, ValueError) as exc:
                    self.core.anchor = before
                    raise SignerRefusalError(_cannot_keep(exc)) from None
                sync = opened.start_sync()
        except BaseException:
            opened.close()
            self._lock.release()
            raise
        answer: list[tuple[bytes, bytes | None] | BaseException] = []

        def signed() -> tuple[bytes, bytes | None]:
            if not answer:
                try:
                    answer.append(self._finish(opened, sync, before, head, snapshot_hash))
                except BaseException as exc:
                    answer.append(exc)
                    raise
                finally:
                    opened.close()
                    self._lock.release()
            given = answer[0]
            if isinstance(given, BaseException):
                raise given
            return given

        return signed

    def _finish(
        self,
        opened: OpenAnchor,
        sync: PendingSync | None,
        before: Anchor,
        head: Head,
        snapshot_hash: bytes,
    ) -> tuple[bytes, bytes | None]:
        """The second half of :meth:`begin_sign_commit`: sign while the disk syncs, then wait
        for the anchor to be durable."""
        signatures = self.core.signatures(head, snapshot_hash)
        if sync is not None:
            try:
                sync.wait()
            except OSError as exc:
                self.core.anchor = before
                raise SignerRefusalError(_cannot_keep(exc)) from None
            opened.synced()
        return signatures

    def _keep(self, anchor: Anchor, before: Anchor) -> str | None:
        """Make ``anchor`` durable; the refusal when it cannot be (the core keeps ``before``)."""
        try:
            self.anchor_file.save(anchor)
        except (OSError, ValueError) as exc:  # ValueError: more than a slot holds
            self.core.anchor = before
            return _cannot_keep(exc)
        return None


def _cannot_keep(exc: OSError | ValueError) -> str:
    """The refusal of an anchor that cannot be made durable."""
    if isinstance(exc, OSError):
        return f"cannot keep the anchor: {exc.strerror}"
    return f"cannot keep the anchor: {exc}"
