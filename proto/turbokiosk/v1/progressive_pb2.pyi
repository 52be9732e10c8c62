from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ProgressiveWager(_message.Message):
    __slots__ = ("seat", "spot", "cents", "won")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SPOT_FIELD_NUMBER: _ClassVar[int]
    CENTS_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    spot: str
    cents: int
    won: bool
    def __init__(self, seat: _Optional[int] = ..., spot: _Optional[str] = ..., cents: _Optional[int] = ..., won: _Optional[bool] = ...) -> None: ...

class BookRoundRequest(_message.Message):
    __slots__ = ("game_number", "wagers", "handpay_limit_cents")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    WAGERS_FIELD_NUMBER: _ClassVar[int]
    HANDPAY_LIMIT_CENTS_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    wagers: _containers.RepeatedCompositeFieldContainer[ProgressiveWager]
    handpay_limit_cents: int
    def __init__(self, game_number: _Optional[int] = ..., wagers: _Optional[_Iterable[_Union[ProgressiveWager, _Mapping]]] = ..., handpay_limit_cents: _Optional[int] = ...) -> None: ...

class ProgressiveContribution(_message.Message):
    __slots__ = ("key", "wager_cents", "to_meter", "to_hidden", "to_overflow")
    KEY_FIELD_NUMBER: _ClassVar[int]
    WAGER_CENTS_FIELD_NUMBER: _ClassVar[int]
    TO_METER_FIELD_NUMBER: _ClassVar[int]
    TO_HIDDEN_FIELD_NUMBER: _ClassVar[int]
    TO_OVERFLOW_FIELD_NUMBER: _ClassVar[int]
    key: str
    wager_cents: int
    to_meter: int
    to_hidden: int
    to_overflow: int
    def __init__(self, key: _Optional[str] = ..., wager_cents: _Optional[int] = ..., to_meter: _Optional[int] = ..., to_hidden: _Optional[int] = ..., to_overflow: _Optional[int] = ...) -> None: ...

class ProgressiveHit(_message.Message):
    __slots__ = ("key", "award_cents", "from_hidden", "seeded", "from_overflow", "handpay")
    KEY_FIELD_NUMBER: _ClassVar[int]
    AWARD_CENTS_FIELD_NUMBER: _ClassVar[int]
    FROM_HIDDEN_FIELD_NUMBER: _ClassVar[int]
    SEEDED_FIELD_NUMBER: _ClassVar[int]
    FROM_OVERFLOW_FIELD_NUMBER: _ClassVar[int]
    HANDPAY_FIELD_NUMBER: _ClassVar[int]
    key: str
    award_cents: int
    from_hidden: int
    seeded: int
    from_overflow: int
    handpay: bool
    def __init__(self, key: _Optional[str] = ..., award_cents: _Optional[int] = ..., from_hidden: _Optional[int] = ..., seeded: _Optional[int] = ..., from_overflow: _Optional[int] = ..., handpay: _Optional[bool] = ...) -> None: ...

class ProgressiveMeters(_message.Message):
    __slots__ = ("name", "meter_cents", "meter", "hidden", "overflow", "contributed", "seeded", "paid_cents", "hits", "wagers")
    NAME_FIELD_NUMBER: _ClassVar[int]
    METER_CENTS_FIELD_NUMBER: _ClassVar[int]
    METER_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    OVERFLOW_FIELD_NUMBER: _ClassVar[int]
    CONTRIBUTED_FIELD_NUMBER: _ClassVar[int]
    SEEDED_FIELD_NUMBER: _ClassVar[int]
    PAID_CENTS_FIELD_NUMBER: _ClassVar[int]
    HITS_FIELD_NUMBER: _ClassVar[int]
    WAGERS_FIELD_NUMBER: _ClassVar[int]
    name: str
    meter_cents: int
    meter: int
    hidden: int
    overflow: int
    contributed: int
    seeded: int
    paid_cents: int
    hits: int
    wagers: int
    def __init__(self, name: _Optional[str] = ..., meter_cents: _Optional[int] = ..., meter: _Optional[int] = ..., hidden: _Optional[int] = ..., overflow: _Optional[int] = ..., contributed: _Optional[int] = ..., seeded: _Optional[int] = ..., paid_cents: _Optional[int] = ..., hits: _Optional[int] = ..., wagers: _Optional[int] = ...) -> None: ...

class BookRoundResponse(_message.Message):
    __slots__ = ("contributions", "hits", "meters")
    CONTRIBUTIONS_FIELD_NUMBER: _ClassVar[int]
    HITS_FIELD_NUMBER: _ClassVar[int]
    METERS_FIELD_NUMBER: _ClassVar[int]
    contributions: _containers.RepeatedCompositeFieldContainer[ProgressiveContribution]
    hits: _containers.RepeatedCompositeFieldContainer[ProgressiveHit]
    meters: ProgressiveMeters
    def __init__(self, contributions: _Optional[_Iterable[_Union[ProgressiveContribution, _Mapping]]] = ..., hits: _Optional[_Iterable[_Union[ProgressiveHit, _Mapping]]] = ..., meters: _Optional[_Union[ProgressiveMeters, _Mapping]] = ...) -> None: ...

class MetersRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class MetersResponse(_message.Message):
    __slots__ = ("meters", "last_game")
    METERS_FIELD_NUMBER: _ClassVar[int]
    LAST_GAME_FIELD_NUMBER: _ClassVar[int]
    meters: ProgressiveMeters
    last_game: int
    def __init__(self, meters: _Optional[_Union[ProgressiveMeters, _Mapping]] = ..., last_game: _Optional[int] = ...) -> None: ...
