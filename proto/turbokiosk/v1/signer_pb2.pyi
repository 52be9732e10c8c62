from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SignerHead(_message.Message):
    __slots__ = ("epoch", "seq", "chain_hash")
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    CHAIN_HASH_FIELD_NUMBER: _ClassVar[int]
    epoch: int
    seq: int
    chain_hash: bytes
    def __init__(self, epoch: _Optional[int] = ..., seq: _Optional[int] = ..., chain_hash: _Optional[bytes] = ...) -> None: ...

class SignerAnchor(_message.Message):
    __slots__ = ("epoch", "seq", "chain_hash", "has_previous", "previous_seq", "previous_hash", "withdrawn_ms")
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    CHAIN_HASH_FIELD_NUMBER: _ClassVar[int]
    HAS_PREVIOUS_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SEQ_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_HASH_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_MS_FIELD_NUMBER: _ClassVar[int]
    epoch: int
    seq: int
    chain_hash: bytes
    has_previous: bool
    previous_seq: int
    previous_hash: bytes
    withdrawn_ms: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, epoch: _Optional[int] = ..., seq: _Optional[int] = ..., chain_hash: _Optional[bytes] = ..., has_previous: _Optional[bool] = ..., previous_seq: _Optional[int] = ..., previous_hash: _Optional[bytes] = ..., withdrawn_ms: _Optional[_Iterable[int]] = ...) -> None: ...

class RoundSeal(_message.Message):
    __slots__ = ("epoch", "game_number", "cards", "dealt", "decisions", "opening")
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    DEALT_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    OPENING_FIELD_NUMBER: _ClassVar[int]
    epoch: int
    game_number: int
    cards: bytes
    dealt: int
    decisions: _containers.RepeatedScalarFieldContainer[str]
    opening: str
    def __init__(self, epoch: _Optional[int] = ..., game_number: _Optional[int] = ..., cards: _Optional[bytes] = ..., dealt: _Optional[int] = ..., decisions: _Optional[_Iterable[str]] = ..., opening: _Optional[str] = ...) -> None: ...

class SignerRequest(_message.Message):
    __slots__ = ("status", "sign_commit", "sign_snapshot", "start_epoch", "withdraw")
    class Status(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class SignCommit(_message.Message):
        __slots__ = ("head", "snapshot_hash", "round")
        HEAD_FIELD_NUMBER: _ClassVar[int]
        SNAPSHOT_HASH_FIELD_NUMBER: _ClassVar[int]
        ROUND_FIELD_NUMBER: _ClassVar[int]
        head: SignerHead
        snapshot_hash: bytes
        round: RoundSeal
        def __init__(self, head: _Optional[_Union[SignerHead, _Mapping]] = ..., snapshot_hash: _Optional[bytes] = ..., round: _Optional[_Union[RoundSeal, _Mapping]] = ...) -> None: ...
    class SignSnapshot(_message.Message):
        __slots__ = ("head", "snapshot_hash")
        HEAD_FIELD_NUMBER: _ClassVar[int]
        SNAPSHOT_HASH_FIELD_NUMBER: _ClassVar[int]
        head: SignerHead
        snapshot_hash: bytes
        def __init__(self, head: _Optional[_Union[SignerHead, _Mapping]] = ..., snapshot_hash: _Optional[bytes] = ...) -> None: ...
    class StartEpoch(_message.Message):
        __slots__ = ("current_epoch", "reason")
        CURRENT_EPOCH_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        current_epoch: int
        reason: str
        def __init__(self, current_epoch: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...
    class Withdraw(_message.Message):
        __slots__ = ("to", "at_ms")
        TO_FIELD_NUMBER: _ClassVar[int]
        AT_MS_FIELD_NUMBER: _ClassVar[int]
        to: SignerHead
        at_ms: int
        def __init__(self, to: _Optional[_Union[SignerHead, _Mapping]] = ..., at_ms: _Optional[int] = ...) -> None: ...
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SIGN_COMMIT_FIELD_NUMBER: _ClassVar[int]
    SIGN_SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    START_EPOCH_FIELD_NUMBER: _ClassVar[int]
    WITHDRAW_FIELD_NUMBER: _ClassVar[int]
    status: SignerRequest.Status
    sign_commit: SignerRequest.SignCommit
    sign_snapshot: SignerRequest.SignSnapshot
    start_epoch: SignerRequest.StartEpoch
    withdraw: SignerRequest.Withdraw
    def __init__(self, status: _Optional[_Union[SignerRequest.Status, _Mapping]] = ..., sign_commit: _Optional[_Union[SignerRequest.SignCommit, _Mapping]] = ..., sign_snapshot: _Optional[_Union[SignerRequest.SignSnapshot, _Mapping]] = ..., start_epoch: _Optional[_Union[SignerRequest.StartEpoch, _Mapping]] = ..., withdraw: _Optional[_Union[SignerRequest.Withdraw, _Mapping]] = ...) -> None: ...

class SignerResponse(_message.Message):
    __slots__ = ("status", "signed", "anchor", "refused")
    class Status(_message.Message):
        __slots__ = ("public_key", "anchor", "round")
        PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
        ANCHOR_FIELD_NUMBER: _ClassVar[int]
        ROUND_FIELD_NUMBER: _ClassVar[int]
        public_key: bytes
        anchor: SignerAnchor
        round: RoundSeal
        def __init__(self, public_key: _Optional[bytes] = ..., anchor: _Optional[_Union[SignerAnchor, _Mapping]] = ..., round: _Optional[_Union[RoundSeal, _Mapping]] = ...) -> None: ...
    class Signed(_message.Message):
        __slots__ = ("head_signature", "snapshot_signature")
        HEAD_SIGNATURE_FIELD_NUMBER: _ClassVar[int]
        SNAPSHOT_SIGNATURE_FIELD_NUMBER: _ClassVar[int]
        head_signature: bytes
        snapshot_signature: bytes
        def __init__(self, head_signature: _Optional[bytes] = ..., snapshot_signature: _Optional[bytes] = ...) -> None: ...
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SIGNED_FIELD_NUMBER: _ClassVar[int]
    ANCHOR_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    status: SignerResponse.Status
    signed: SignerResponse.Signed
    anchor: SignerAnchor
    refused: str
    def __init__(self, status: _Optional[_Union[SignerResponse.Status, _Mapping]] = ..., signed: _Optional[_Union[SignerResponse.Signed, _Mapping]] = ..., anchor: _Optional[_Union[SignerAnchor, _Mapping]] = ..., refused: _Optional[str] = ...) -> None: ...
