from . import table_pb2 as _table_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DealerRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEALER_ROLE_UNSPECIFIED: _ClassVar[DealerRole]
    DEALER_ROLE_DEALER: _ClassVar[DealerRole]
    DEALER_ROLE_SUPERVISOR: _ClassVar[DealerRole]

class SeatRoundState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_ROUND_STATE_UNSPECIFIED: _ClassVar[SeatRoundState]
    SEAT_ROUND_STATE_WATCHING: _ClassVar[SeatRoundState]
    SEAT_ROUND_STATE_BETTING: _ClassVar[SeatRoundState]
    SEAT_ROUND_STATE_BET: _ClassVar[SeatRoundState]
    SEAT_ROUND_STATE_DECIDING: _ClassVar[SeatRoundState]
    SEAT_ROUND_STATE_DECIDED: _ClassVar[SeatRoundState]
    SEAT_ROUND_STATE_TIMED_OUT: _ClassVar[SeatRoundState]
    SEAT_ROUND_STATE_SETTLED: _ClassVar[SeatRoundState]
    SEAT_ROUND_STATE_VOIDED: _ClassVar[SeatRoundState]
DEALER_ROLE_UNSPECIFIED: DealerRole
DEALER_ROLE_DEALER: DealerRole
DEALER_ROLE_SUPERVISOR: DealerRole
SEAT_ROUND_STATE_UNSPECIFIED: SeatRoundState
SEAT_ROUND_STATE_WATCHING: SeatRoundState
SEAT_ROUND_STATE_BETTING: SeatRoundState
SEAT_ROUND_STATE_BET: SeatRoundState
SEAT_ROUND_STATE_DECIDING: SeatRoundState
SEAT_ROUND_STATE_DECIDED: SeatRoundState
SEAT_ROUND_STATE_TIMED_OUT: SeatRoundState
SEAT_ROUND_STATE_SETTLED: SeatRoundState
SEAT_ROUND_STATE_VOIDED: SeatRoundState

class DealerRequest(_message.Message):
    __slots__ = ("request_id", "sign_in", "sign_out", "change_pin", "new_game", "close_bets", "lay_pack", "confirm", "pause", "resume", "void_round", "reread", "recall")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SIGN_IN_FIELD_NUMBER: _ClassVar[int]
    SIGN_OUT_FIELD_NUMBER: _ClassVar[int]
    CHANGE_PIN_FIELD_NUMBER: _ClassVar[int]
    NEW_GAME_FIELD_NUMBER: _ClassVar[int]
    CLOSE_BETS_FIELD_NUMBER: _ClassVar[int]
    LAY_PACK_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_FIELD_NUMBER: _ClassVar[int]
    PAUSE_FIELD_NUMBER: _ClassVar[int]
    RESUME_FIELD_NUMBER: _ClassVar[int]
    VOID_ROUND_FIELD_NUMBER: _ClassVar[int]
    REREAD_FIELD_NUMBER: _ClassVar[int]
    RECALL_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    sign_in: SignIn
    sign_out: SignOut
    change_pin: ChangeDealerPin
    new_game: NewGame
    close_bets: CloseBets
    lay_pack: LayPack
    confirm: ConfirmRound
    pause: PauseTable
    resume: ResumeTable
    void_round: VoidRoundRequest
    reread: ReRead
    recall: RecallRequest
    def __init__(self, request_id: _Optional[int] = ..., sign_in: _Optional[_Union[SignIn, _Mapping]] = ..., sign_out: _Optional[_Union[SignOut, _Mapping]] = ..., change_pin: _Optional[_Union[ChangeDealerPin, _Mapping]] = ..., new_game: _Optional[_Union[NewGame, _Mapping]] = ..., close_bets: _Optional[_Union[CloseBets, _Mapping]] = ..., lay_pack: _Optional[_Union[LayPack, _Mapping]] = ..., confirm: _Optional[_Union[ConfirmRound, _Mapping]] = ..., pause: _Optional[_Union[PauseTable, _Mapping]] = ..., resume: _Optional[_Union[ResumeTable, _Mapping]] = ..., void_round: _Optional[_Union[VoidRoundRequest, _Mapping]] = ..., reread: _Optional[_Union[ReRead, _Mapping]] = ..., recall: _Optional[_Union[RecallRequest, _Mapping]] = ...) -> None: ...

class SignIn(_message.Message):
    __slots__ = ("role", "pin")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    PIN_FIELD_NUMBER: _ClassVar[int]
    role: DealerRole
    pin: str
    def __init__(self, role: _Optional[_Union[DealerRole, str]] = ..., pin: _Optional[str] = ...) -> None: ...

class SignOut(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChangeDealerPin(_message.Message):
    __slots__ = ("new_pin",)
    NEW_PIN_FIELD_NUMBER: _ClassVar[int]
    new_pin: str
    def __init__(self, new_pin: _Optional[str] = ...) -> None: ...

class NewGame(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class CloseBets(_message.Message):
    __slots__ = ("game_number",)
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    def __init__(self, game_number: _Optional[int] = ...) -> None: ...

class LayPack(_message.Message):
    __slots__ = ("game_number", "pack", "cards")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    PACK_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    pack: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, game_number: _Optional[int] = ..., pack: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...

class ConfirmRound(_message.Message):
    __slots__ = ("game_number",)
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    def __init__(self, game_number: _Optional[int] = ...) -> None: ...

class PauseTable(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class ResumeTable(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class VoidRoundRequest(_message.Message):
    __slots__ = ("game_number", "reason")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    reason: str
    def __init__(self, game_number: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class ReRead(_message.Message):
    __slots__ = ("game_number", "pack")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    PACK_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    pack: int
    def __init__(self, game_number: _Optional[int] = ..., pack: _Optional[int] = ...) -> None: ...

class RecallRequest(_message.Message):
    __slots__ = ("game_number", "count")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    count: int
    def __init__(self, game_number: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class DealerResponse(_message.Message):
    __slots__ = ("journal_seq", "result", "table", "recall")
    JOURNAL_SEQ_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    RECALL_FIELD_NUMBER: _ClassVar[int]
    journal_seq: int
    result: DealerResult
    table: TableView
    recall: RecallAnswer
    def __init__(self, journal_seq: _Optional[int] = ..., result: _Optional[_Union[DealerResult, _Mapping]] = ..., table: _Optional[_Union[TableView, _Mapping]] = ..., recall: _Optional[_Union[RecallAnswer, _Mapping]] = ...) -> None: ...

class DealerResult(_message.Message):
    __slots__ = ("request_id", "ok", "repeated", "error", "reason", "role", "must_change_pin", "locked_until_ms")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    REPEATED_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    MUST_CHANGE_PIN_FIELD_NUMBER: _ClassVar[int]
    LOCKED_UNTIL_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    ok: bool
    repeated: bool
    error: str
    reason: str
    role: DealerRole
    must_change_pin: bool
    locked_until_ms: int
    def __init__(self, request_id: _Optional[int] = ..., ok: _Optional[bool] = ..., repeated: _Optional[bool] = ..., error: _Optional[str] = ..., reason: _Optional[str] = ..., role: _Optional[_Union[DealerRole, str]] = ..., must_change_pin: _Optional[bool] = ..., locked_until_ms: _Optional[int] = ...) -> None: ...

class DealerSeat(_message.Message):
    __slots__ = ("seat", "state", "online", "stake_cents", "choice", "paid_cents", "cards", "positions", "returned_cents")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    ONLINE_FIELD_NUMBER: _ClassVar[int]
    STAKE_CENTS_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    PAID_CENTS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    RETURNED_CENTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    state: SeatRoundState
    online: bool
    stake_cents: int
    choice: str
    paid_cents: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    positions: _containers.RepeatedScalarFieldContainer[int]
    returned_cents: int
    def __init__(self, seat: _Optional[int] = ..., state: _Optional[_Union[SeatRoundState, str]] = ..., online: _Optional[bool] = ..., stake_cents: _Optional[int] = ..., choice: _Optional[str] = ..., paid_cents: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., positions: _Optional[_Iterable[int]] = ..., returned_cents: _Optional[int] = ...) -> None: ...

class DealStep(_message.Message):
    __slots__ = ("pack", "packs_in_deal", "packs_in_round", "location", "presented", "cards")
    PACK_FIELD_NUMBER: _ClassVar[int]
    PACKS_IN_DEAL_FIELD_NUMBER: _ClassVar[int]
    PACKS_IN_ROUND_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    PRESENTED_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    pack: int
    packs_in_deal: int
    packs_in_round: int
    location: str
    presented: bool
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, pack: _Optional[int] = ..., packs_in_deal: _Optional[int] = ..., packs_in_round: _Optional[int] = ..., location: _Optional[str] = ..., presented: _Optional[bool] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...

class LaidPack(_message.Message):
    __slots__ = ("pack", "location", "cards")
    PACK_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    pack: int
    location: str
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, pack: _Optional[int] = ..., location: _Optional[str] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...

class DeckCheck(_message.Message):
    __slots__ = ("shuffle", "cards_read", "passed", "digest")
    SHUFFLE_FIELD_NUMBER: _ClassVar[int]
    CARDS_READ_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    shuffle: int
    cards_read: int
    passed: bool
    digest: str
    def __init__(self, shuffle: _Optional[int] = ..., cards_read: _Optional[int] = ..., passed: _Optional[bool] = ..., digest: _Optional[str] = ...) -> None: ...

class CardTilt(_message.Message):
    __slots__ = ("reason", "pack", "cards", "at_ms")
    REASON_FIELD_NUMBER: _ClassVar[int]
    PACK_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    reason: str
    pack: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    at_ms: int
    def __init__(self, reason: _Optional[str] = ..., pack: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., at_ms: _Optional[int] = ...) -> None: ...

class TableView(_message.Message):
    __slots__ = ("table_id", "edition", "card_source", "phase", "game_number", "now_ms", "betting_deadline_ms", "decision_deadline_ms", "paused", "pause_reason", "paused_time_left_ms", "seats_in", "seats_bet", "seats", "next_step", "packs", "first_cards", "shared_cards", "tilt", "deck_check", "role", "auto_deal", "voided_reason", "choices", "progressive")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    EDITION_FIELD_NUMBER: _ClassVar[int]
    CARD_SOURCE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    BETTING_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    DECISION_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    PAUSE_REASON_FIELD_NUMBER: _ClassVar[int]
    PAUSED_TIME_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    SEATS_IN_FIELD_NUMBER: _ClassVar[int]
    SEATS_BET_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    NEXT_STEP_FIELD_NUMBER: _ClassVar[int]
    PACKS_FIELD_NUMBER: _ClassVar[int]
    FIRST_CARDS_FIELD_NUMBER: _ClassVar[int]
    SHARED_CARDS_FIELD_NUMBER: _ClassVar[int]
    TILT_FIELD_NUMBER: _ClassVar[int]
    DECK_CHECK_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    AUTO_DEAL_FIELD_NUMBER: _ClassVar[int]
    VOIDED_REASON_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    PROGRESSIVE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    edition: str
    card_source: str
    phase: str
    game_number: int
    now_ms: int
    betting_deadline_ms: int
    decision_deadline_ms: int
    paused: bool
    pause_reason: str
    paused_time_left_ms: int
    seats_in: int
    seats_bet: int
    seats: _containers.RepeatedCompositeFieldContainer[DealerSeat]
    next_step: DealStep
    packs: _containers.RepeatedCompositeFieldContainer[LaidPack]
    first_cards: _containers.RepeatedScalarFieldContainer[int]
    shared_cards: _containers.RepeatedScalarFieldContainer[int]
    tilt: CardTilt
    deck_check: DeckCheck
    role: DealerRole
    auto_deal: bool
    voided_reason: str
    choices: _containers.RepeatedScalarFieldContainer[str]
    progressive: ProgressiveDisplay
    def __init__(self, table_id: _Optional[str] = ..., edition: _Optional[str] = ..., card_source: _Optional[str] = ..., phase: _Optional[str] = ..., game_number: _Optional[int] = ..., now_ms: _Optional[int] = ..., betting_deadline_ms: _Optional[int] = ..., decision_deadline_ms: _Optional[int] = ..., paused: _Optional[bool] = ..., pause_reason: _Optional[str] = ..., paused_time_left_ms: _Optional[int] = ..., seats_in: _Optional[int] = ..., seats_bet: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[DealerSeat, _Mapping]]] = ..., next_step: _Optional[_Union[DealStep, _Mapping]] = ..., packs: _Optional[_Iterable[_Union[LaidPack, _Mapping]]] = ..., first_cards: _Optional[_Iterable[int]] = ..., shared_cards: _Optional[_Iterable[int]] = ..., tilt: _Optional[_Union[CardTilt, _Mapping]] = ..., deck_check: _Optional[_Union[DeckCheck, _Mapping]] = ..., role: _Optional[_Union[DealerRole, str]] = ..., auto_deal: _Optional[bool] = ..., voided_reason: _Optional[str] = ..., choices: _Optional[_Iterable[str]] = ..., progressive: _Optional[_Union[ProgressiveDisplay, _Mapping]] = ...) -> None: ...

class ProgressiveDisplay(_message.Message):
    __slots__ = ("name", "outcome", "meter_cents")
    NAME_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    METER_CENTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    outcome: str
    meter_cents: int
    def __init__(self, name: _Optional[str] = ..., outcome: _Optional[str] = ..., meter_cents: _Optional[int] = ...) -> None: ...

class RecalledSeat(_message.Message):
    __slots__ = ("seat", "wagers", "positions", "choice", "cards", "results", "stake_cents", "paid_cents", "returned_cents")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    WAGERS_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    STAKE_CENTS_FIELD_NUMBER: _ClassVar[int]
    PAID_CENTS_FIELD_NUMBER: _ClassVar[int]
    RETURNED_CENTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    wagers: _containers.RepeatedCompositeFieldContainer[_table_pb2.Wager]
    positions: _containers.RepeatedScalarFieldContainer[int]
    choice: str
    cards: _containers.RepeatedScalarFieldContainer[int]
    results: _containers.RepeatedCompositeFieldContainer[_table_pb2.WagerResult]
    stake_cents: int
    paid_cents: int
    returned_cents: int
    def __init__(self, seat: _Optional[int] = ..., wagers: _Optional[_Iterable[_Union[_table_pb2.Wager, _Mapping]]] = ..., positions: _Optional[_Iterable[int]] = ..., choice: _Optional[str] = ..., cards: _Optional[_Iterable[int]] = ..., results: _Optional[_Iterable[_Union[_table_pb2.WagerResult, _Mapping]]] = ..., stake_cents: _Optional[int] = ..., paid_cents: _Optional[int] = ..., returned_cents: _Optional[int] = ...) -> None: ...

class RecalledRound(_message.Message):
    __slots__ = ("game_number", "first_cards", "shared_cards", "seats", "voided_reason", "card_source", "deck_check", "packs")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    FIRST_CARDS_FIELD_NUMBER: _ClassVar[int]
    SHARED_CARDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    VOIDED_REASON_FIELD_NUMBER: _ClassVar[int]
    CARD_SOURCE_FIELD_NUMBER: _ClassVar[int]
    DECK_CHECK_FIELD_NUMBER: _ClassVar[int]
    PACKS_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    first_cards: _containers.RepeatedScalarFieldContainer[int]
    shared_cards: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[RecalledSeat]
    voided_reason: str
    card_source: str
    deck_check: DeckCheck
    packs: _containers.RepeatedCompositeFieldContainer[LaidPack]
    def __init__(self, game_number: _Optional[int] = ..., first_cards: _Optional[_Iterable[int]] = ..., shared_cards: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[RecalledSeat, _Mapping]]] = ..., voided_reason: _Optional[str] = ..., card_source: _Optional[str] = ..., deck_check: _Optional[_Union[DeckCheck, _Mapping]] = ..., packs: _Optional[_Iterable[_Union[LaidPack, _Mapping]]] = ...) -> None: ...

class RecallAnswer(_message.Message):
    __slots__ = ("request_id", "rounds")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    rounds: _containers.RepeatedCompositeFieldContainer[RecalledRound]
    def __init__(self, request_id: _Optional[int] = ..., rounds: _Optional[_Iterable[_Union[RecalledRound, _Mapping]]] = ...) -> None: ...
