"""The kiosk's side of the signer: over its Unix socket (production) or in-process (development).

Which signer a terminal uses (:func:`signer_for`):

- ``--signer PATH`` (or ``$TURBOKIOSK_SIGNER``): the signer program's socket;
- otherwise the **development signer**: the same rules in this process, its key and anchor in
  ``DATA_DIR.signer/`` beside the data directory (never inside it, so wiping the data directory
  does not wipe the anchor).  It protects nothing against whoever can write that directory: it
  is for development, tests and ``deploy/tox -e kiosk`` only.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from google.protobuf.message import DecodeError

from kiosk.kernel.faults import StoreError
from kiosk.terminal.signer.core import (
    SignerRefusalError,
    anchor_from,
    checked_seal,
    head_to,
    seal_from,
    seal_to,
)
from kiosk.terminal.signer.framing import FramingError, recv_frame, send_frame
from kiosk.terminal.signer.keeper import Keeper
from kiosk.terminal.signer.records import Anchor, Head, RoundSeal, fingerprint
from kiosk.terminal.signer.state import SignerStateError, create_key
from proto.turbokiosk.v1 import signer_pb2 as pb

#: environment variable naming the signer's socket (what ``--signer PATH`` sets)
SIGNER_ENV = "TURBOKIOSK_SIGNER"
_configured: Path | None = None


class SignerUnavailableError(StoreError):
    """The signer cannot be reached or its state cannot be used."""


class SignerRefusedError(StoreError):
    """The signer refused the request (its reason is the message); nothing was signed."""


@dataclass(frozen=True)
class SignerStatus:
    """The signer's public key and anchor."""

    public_key: bytes
    anchor: Anchor
    where: str
    #: the newest round's seal the signer holds (its cards as drawn), None before any round
    seal: RoundSeal | None = None

    @property
    def fingerprint(self) -> str:
        """The public key's fingerprint."""
        return fingerprint(self.public_key)


@dataclass(frozen=True)
class CommitSignatures:
    """A head's signature and that of the snapshot committed with it."""

    head: bytes
    snapshot: bytes | None


class PendingSignatures:
    """A SignCommit sent (:meth:`Signer.begin_sign_commit`): its answer, taken once."""

    def __init__(self, answer: CommitSignatures | StoreError | Callable[[], CommitSignatures]):
        self._answer = answer

    def result(self) -> CommitSignatures:
        """The signatures, once the signer's anchor is durable (waiting for them); the
        signer's refusal or unavailability as :class:`StoreError`.  Again the same answer."""
        answer = self._answer
        if callable(answer):
            try:
                answer = answer()
            except StoreError as exc:
                answer = exc
            self._answer = answer
        if isinstance(answer, StoreError):
            raise answer
        return answer


class Signer:
    """Requests to a signer; subclasses carry them (:meth:`_exchange`)."""

    where = "signer"

    def _exchange(self, request: pb.SignerRequest) -> pb.SignerResponse:
        raise NotImplementedError

    def _ask(self, request: pb.SignerRequest, expect: str) -> pb.SignerResponse:
        return self._expect(self._exchange(request), expect)

    def _expect(self, response: pb.SignerResponse, expect: str) -> pb.SignerResponse:
        which = response.WhichOneof("body")
        if which == "refused":
            raise SignerRefusedError(f"the signer refused: {response.refused}")
        if which != expect:
            raise SignerUnavailableError(
                f"the signer ({self.where}) answered {which}, not {expect}"
            )
        return response

    def status(self) -> SignerStatus:
        """The public key and the anchor."""
        response = self._ask(pb.SignerRequest(status=pb.SignerRequest.Status()), "status")
        seal = None
        if response.status.HasField("round"):
            try:
                seal = seal_from(response.status.round)
            except SignerRefusalError as exc:
                raise SignerUnavailableError(f"the signer ({self.where}) holds {exc}") from None
        return SignerStatus(
            bytes(response.status.public_key),
            anchor_from(response.status.anchor),
            self.where,
            seal,
        )

    def sign_commit(
        self, head: Head, snapshot_hash: bytes | None, seal: RoundSeal | None = None
    ) -> CommitSignatures:
        """Sign a new head (the anchor moves to it) and the snapshot committed with it; with
        ``seal``, the signer keeps the round's seal with the anchor (refused if it would
        change a sealed round's cards or take anything back)."""
        return self._signed(
            self._ask(self._sign_commit_request(head, snapshot_hash, seal), "signed")
        )

    def begin_sign_commit(
        self, head: Head, snapshot_hash: bytes | None, seal: RoundSeal | None = None
    ) -> PendingSignatures:
        """:meth:`sign_commit` in two halves: the request goes now, and the answer (given once
        the signer's anchor is durable) is :meth:`PendingSignatures.result`.  The caller may
        work in between, never commit; it must take the answer (the connection is the
        request's until then).  This one signs now; the signer program's works meanwhile."""
        try:
            signed = self.sign_commit(head, snapshot_hash, seal)
        except StoreError as exc:
            return PendingSignatures(exc)
        return PendingSignatures(signed)

    @staticmethod
    def _sign_commit_request(
        head: Head, snapshot_hash: bytes | None, seal: RoundSeal | None
    ) -> pb.SignerRequest:
        body = pb.SignerRequest.SignCommit(head=head_to(head), snapshot_hash=snapshot_hash or b"")
        if seal is not None:
            body.round.CopyFrom(seal_to(seal))
        return pb.SignerRequest(sign_commit=body)

    @staticmethod
    def _signed(response: pb.SignerResponse) -> CommitSignatures:
        signed = response.signed
        return CommitSignatures(
            bytes(signed.head_signature), bytes(signed.snapshot_signature) or None
        )

    def sign_snapshot(self, head: Head, snapshot_hash: bytes) -> bytes:
        """Sign a snapshot of a head already anchored."""
        body = pb.SignerRequest.SignSnapshot(head=head_to(head), snapshot_hash=snapshot_hash)
        return bytes(
            self._ask(pb.SignerRequest(sign_snapshot=body), "signed").signed.head_signature
        )

    def start_epoch(self, current_epoch: int, reason: str) -> Anchor:
        """Start the next store epoch (row 0)."""
        body = pb.SignerRequest.StartEpoch(current_epoch=current_epoch, reason=reason)
        return anchor_from(self._ask(pb.SignerRequest(start_epoch=body), "anchor").anchor)

    def withdraw(self, to: Head, at_ms: int = 0) -> Anchor:
        """Go back to the head signed before the last one (the last never reached the store);
        ``at_ms``: a power-up's withdrawal, whose time the signer keeps (0: not counted)."""
        body = pb.SignerRequest.Withdraw(to=head_to(to), at_ms=at_ms)
        return anchor_from(self._ask(pb.SignerRequest(withdraw=body), "anchor").anchor)

    def close(self) -> None:
        """Let go of the connection, if any."""


class SocketSigner(Signer):
    """The signer program, over its Unix socket (one connection, reopened once if it broke)."""

    def __init__(self, path: Path, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.where = f"socket {self.path}"
        self.timeout = timeout
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    def _connect(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(str(self.path))
        except OSError as exc:
            sock.close()
            raise SignerUnavailableError(
                f"the signer at {self.path} cannot be reached: {exc.strerror or exc}"
            ) from None
        return sock

    def _exchange(self, request: pb.SignerRequest) -> pb.SignerResponse:
        return self._send(request)()

    def begin_sign_commit(
        self, head: Head, snapshot_hash: bytes | None, seal: RoundSeal | None = None
    ) -> PendingSignatures:
        """:meth:`Signer.begin_sign_commit`: the request is on its way when this returns."""
        answer = self._send(self._sign_commit_request(head, snapshot_hash, seal))

        def signed() -> CommitSignatures:
            return self._signed(self._expect(answer(), "signed"))

        return PendingSignatures(signed)

    def _send(self, request: pb.SignerRequest) -> Callable[[], pb.SignerResponse]:
        """Send ``request``; the connection is then its own until the returned function has
        read the answer (on a broken connection, sent once more on a new one)."""
        payload = request.SerializeToString()
        self._lock.acquire()
        try:
            if self._sock is None:
                self._sock = self._connect()
            send_frame(self._sock, payload)
            sent = True
        except (OSError, FramingError):
            self._drop()
            sent = False
        except BaseException:
            self._lock.release()
            raise
        frame: list[bytes] = []
        waiting = [True]

        def answer() -> pb.SignerResponse:
            if waiting[0]:
                waiting[0] = False
                try:
                    frame.append(self._receive(payload, sent))
                finally:
                    self._lock.release()
            if not frame:
                raise SignerUnavailableError(f"the signer at {self.path}: its answer was lost")
            return self._parse(frame[0])

        return answer

    def _receive(self, payload: bytes, sent: bool) -> bytes:
        """The answer to ``payload`` (sent already when ``sent``); once more on a new
        connection if the first one broke.  Holding the lock."""
        if sent:
            assert self._sock is not None
            try:
                return recv_frame(self._sock)
            except (OSError, FramingError):
                self._drop()
        try:
            if self._sock is None:
                self._sock = self._connect()
            send_frame(self._sock, payload)
            return recv_frame(self._sock)
        except (OSError, FramingError) as exc:
            self._drop()
            raise SignerUnavailableError(
                f"the signer at {self.path} did not answer: {exc}"
            ) from None

    def _drop(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _parse(self, frame: bytes) -> pb.SignerResponse:
        response = pb.SignerResponse()
        try:
            response.ParseFromString(frame)
        except DecodeError:
            raise SignerUnavailableError(f"the signer at {self.path} answered garbage") from None
        return response

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            if self._sock is not None:
                self._sock.close()
                self._sock = None


class LocalSigner(Signer):
    """The development signer: the same rules and files, in this process."""

    def __init__(self, state_dir: Path, *, create: bool = True) -> None:
        self.state_dir = Path(state_dir)
        self.where = f"development signer {self.state_dir}"
        self._create = create
        self._keeper: Keeper | None = None

    def _exchange(self, request: pb.SignerRequest) -> pb.SignerResponse:
        try:
            return self._ready().answer(request)
        except (SignerStateError, OSError) as exc:
            raise SignerUnavailableError(f"{self.where}: {exc}") from None

    def sign_commit(
        self, head: Head, snapshot_hash: bytes | None, seal: RoundSeal | None = None
    ) -> CommitSignatures:
        """:meth:`Signer.sign_commit` by the same rules, without encoding a request and its
        answer (the seal is checked as the signer program checks the one it receives)."""
        try:
            if seal is not None:
                seal = checked_seal(seal)
            signed = self._ready().sign_commit(head, snapshot_hash or b"", seal)
        except SignerRefusalError as exc:
            raise SignerRefusedError(f"the signer refused: {exc}") from None
        except (SignerStateError, OSError) as exc:
            raise SignerUnavailableError(f"{self.where}: {exc}") from None
        return CommitSignatures(*signed)

    def begin_sign_commit(
        self, head: Head, snapshot_hash: bytes | None, seal: RoundSeal | None = None
    ) -> PendingSignatures:
        """:meth:`Signer.begin_sign_commit` by the same rules (:meth:`sign_commit`), the anchor
        file opened once: read (another process may have moved it), the new anchor written
        now and its ``fdatasync`` run on the sync thread while the caller writes its rows; the
        answer signs meanwhile, then waits for the anchor to be durable
        (:meth:`Keeper.begin_sign_commit`)."""
        try:
            if seal is not None:
                seal = checked_seal(seal)
            finish = self._keeper_now().begin_sign_commit(head, snapshot_hash or b"", seal)
        except SignerRefusalError as exc:
            return PendingSignatures(SignerRefusedError(f"the signer refused: {exc}"))
        except (SignerStateError, OSError) as exc:
            return PendingSignatures(SignerUnavailableError(f"{self.where}: {exc}"))
        if finish is None:  # no anchor file to open: the signer says why, as ever
            return super().begin_sign_commit(head, snapshot_hash, seal)

        def signed() -> CommitSignatures:
            try:
                return CommitSignatures(*finish())
            except SignerRefusalError as exc:
                raise SignerRefusedError(f"the signer refused: {exc}") from None
            except (SignerStateError, OSError) as exc:
                raise SignerUnavailableError(f"{self.where}: {exc}") from None

        return PendingSignatures(signed)

    def _ready(self) -> Keeper:
        """The keeper, its anchor read again (another process may have moved it)."""
        if self._keeper is None:
            return self._keeper_now()
        self._keeper.reload()
        return self._keeper

    def _keeper_now(self) -> Keeper:
        """The keeper (made, with its key and anchor read, on first use)."""
        if self._keeper is None:
            if self._create:
                create_key(self.state_dir)
            self._keeper = Keeper(self.state_dir)
        return self._keeper


def development_dir(data_dir: Path) -> Path:
    """``DATA_DIR.signer``: the development signer's state, beside the data directory."""
    resolved = Path(os.path.abspath(data_dir))
    return resolved.parent / f"{resolved.name}.signer"


def configure(socket_path: Path | None) -> None:
    """Use the signer program at ``socket_path`` in this process (``--signer PATH``)."""
    global _configured
    _configured = socket_path


def configured_socket() -> Path | None:
    """The signer socket named by ``--signer`` or ``$TURBOKIOSK_SIGNER``, if any."""
    if _configured is not None:
        return _configured
    value = os.environ.get(SIGNER_ENV, "").strip()
    return Path(value) if value else None


def signer_for(data_dir: Path, *, create: bool = True) -> Signer:
    """The signer of a data directory's terminal (see the module docstring)."""
    path = configured_socket()
    if path is not None:
        return SocketSigner(path)
    return LocalSigner(development_dir(data_dir), create=create)
