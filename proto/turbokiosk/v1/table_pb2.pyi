from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SeatRequest(_message.Message):
    __slots__ = ("join", "wager", "decision", "leave")
    JOIN_FIELD_NUMBER: _ClassVar[int]
    WAGER_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    LEAVE_FIELD_NUMBER: _ClassVar[int]
    join: JoinTable
    wager: ReportWager
    decision: ReportDecision
    leave: LeaveTable
    def __init__(self, join: _Optional[_Union[JoinTable, _Mapping]] = ..., wager: _Optional[_Union[ReportWager, _Mapping]] = ..., decision: _Optional[_Union[ReportDecision, _Mapping]] = ..., leave: _Optional[_Union[LeaveTable, _Mapping]] = ...) -> None: ...

class JoinTable(_message.Message):
    __slots__ = ("table_id", "seat", "last_settled_game", "pending_game")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LAST_SETTLED_GAME_FIELD_NUMBER: _ClassVar[int]
    PENDING_GAME_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    last_settled_game: int
    pending_game: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., last_settled_game: _Optional[int] = ..., pending_game: _Optional[int] = ...) -> None: ...

class Wager(_message.Message):
    __slots__ = ("spot", "cents")
    SPOT_FIELD_NUMBER: _ClassVar[int]
    CENTS_FIELD_NUMBER: _ClassVar[int]
    spot: str
    cents: int
    def __init__(self, spot: _Optional[str] = ..., cents: _Optional[int] = ...) -> None: ...

class ReportWager(_message.Message):
    __slots__ = ("table_id", "game_number", "seat", "wagers", "positions")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    WAGERS_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    game_number: int
    seat: int
    wagers: _containers.RepeatedCompositeFieldContainer[Wager]
    positions: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, table_id: _Optional[str] = ..., game_number: _Optional[int] = ..., seat: _Optional[int] = ..., wagers: _Optional[_Iterable[_Union[Wager, _Mapping]]] = ..., positions: _Optional[_Iterable[int]] = ...) -> None: ...

class ReportDecision(_message.Message):
    __slots__ = ("table_id", "game_number", "seat", "choice")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    game_number: int
    seat: int
    choice: str
    def __init__(self, table_id: _Optional[str] = ..., game_number: _Optional[int] = ..., seat: _Optional[int] = ..., choice: _Optional[str] = ...) -> None: ...

class LeaveTable(_message.Message):
    __slots__ = ("table_id", "seat")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class SeatResponse(_message.Message):
    __slots__ = ("table_id", "game_number", "seat", "journal_seq", "round_opened", "wager_accepted", "bets_closed", "first_dealt", "decision_accepted", "decisions_closed", "second_dealt", "seat_settled", "round_closed", "round_voided", "refused", "pack_laid", "table_paused", "table_resumed", "finished_round", "progressive_hit", "bets_closing")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    JOURNAL_SEQ_FIELD_NUMBER: _ClassVar[int]
    ROUND_OPENED_FIELD_NUMBER: _ClassVar[int]
    WAGER_ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    BETS_CLOSED_FIELD_NUMBER: _ClassVar[int]
    FIRST_DEALT_FIELD_NUMBER: _ClassVar[int]
    DECISION_ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_CLOSED_FIELD_NUMBER: _ClassVar[int]
    SECOND_DEALT_FIELD_NUMBER: _ClassVar[int]
    SEAT_SETTLED_FIELD_NUMBER: _ClassVar[int]
    ROUND_CLOSED_FIELD_NUMBER: _ClassVar[int]
    ROUND_VOIDED_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    PACK_LAID_FIELD_NUMBER: _ClassVar[int]
    TABLE_PAUSED_FIELD_NUMBER: _ClassVar[int]
    TABLE_RESUMED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_ROUND_FIELD_NUMBER: _ClassVar[int]
    PROGRESSIVE_HIT_FIELD_NUMBER: _ClassVar[int]
    BETS_CLOSING_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    game_number: int
    seat: int
    journal_seq: int
    round_opened: RoundOpened
    wager_accepted: WagerAccepted
    bets_closed: BetsClosed
    first_dealt: FirstDealt
    decision_accepted: DecisionAccepted
    decisions_closed: DecisionsClosed
    second_dealt: SecondDealt
    seat_settled: SeatSettled
    round_closed: RoundClosed
    round_voided: RoundVoided
    refused: Refused
    pack_laid: PackLaid
    table_paused: TablePaused
    table_resumed: TableResumed
    finished_round: FinishedRound
    progressive_hit: SeatProgressiveHit
    bets_closing: BetsClosing
    def __init__(self, table_id: _Optional[str] = ..., game_number: _Optional[int] = ..., seat: _Optional[int] = ..., journal_seq: _Optional[int] = ..., round_opened: _Optional[_Union[RoundOpened, _Mapping]] = ..., wager_accepted: _Optional[_Union[WagerAccepted, _Mapping]] = ..., bets_closed: _Optional[_Union[BetsClosed, _Mapping]] = ..., first_dealt: _Optional[_Union[FirstDealt, _Mapping]] = ..., decision_accepted: _Optional[_Union[DecisionAccepted, _Mapping]] = ..., decisions_closed: _Optional[_Union[DecisionsClosed, _Mapping]] = ..., second_dealt: _Optional[_Union[SecondDealt, _Mapping]] = ..., seat_settled: _Optional[_Union[SeatSettled, _Mapping]] = ..., round_closed: _Optional[_Union[RoundClosed, _Mapping]] = ..., round_voided: _Optional[_Union[RoundVoided, _Mapping]] = ..., refused: _Optional[_Union[Refused, _Mapping]] = ..., pack_laid: _Optional[_Union[PackLaid, _Mapping]] = ..., table_paused: _Optional[_Union[TablePaused, _Mapping]] = ..., table_resumed: _Optional[_Union[TableResumed, _Mapping]] = ..., finished_round: _Optional[_Union[FinishedRound, _Mapping]] = ..., progressive_hit: _Optional[_Union[SeatProgressiveHit, _Mapping]] = ..., bets_closing: _Optional[_Union[BetsClosing, _Mapping]] = ...) -> None: ...

class SeatProgressiveHit(_message.Message):
    __slots__ = ("key", "progressive", "outcome", "award_cents", "handpay")
    KEY_FIELD_NUMBER: _ClassVar[int]
    PROGRESSIVE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    AWARD_CENTS_FIELD_NUMBER: _ClassVar[int]
    HANDPAY_FIELD_NUMBER: _ClassVar[int]
    key: str
    progressive: str
    outcome: str
    award_cents: int
    handpay: bool
    def __init__(self, key: _Optional[str] = ..., progressive: _Optional[str] = ..., outcome: _Optional[str] = ..., award_cents: _Optional[int] = ..., handpay: _Optional[bool] = ...) -> None: ...

class FinishedRound(_message.Message):
    __slots__ = ("played", "first_cards", "choice", "seat_cards", "shared_cards", "settled", "voided")
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    FIRST_CARDS_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    SEAT_CARDS_FIELD_NUMBER: _ClassVar[int]
    SHARED_CARDS_FIELD_NUMBER: _ClassVar[int]
    SETTLED_FIELD_NUMBER: _ClassVar[int]
    VOIDED_FIELD_NUMBER: _ClassVar[int]
    played: bool
    first_cards: _containers.RepeatedScalarFieldContainer[int]
    choice: str
    seat_cards: _containers.RepeatedScalarFieldContainer[int]
    shared_cards: _containers.RepeatedScalarFieldContainer[int]
    settled: SeatSettled
    voided: RoundVoided
    def __init__(self, played: _Optional[bool] = ..., first_cards: _Optional[_Iterable[int]] = ..., choice: _Optional[str] = ..., seat_cards: _Optional[_Iterable[int]] = ..., shared_cards: _Optional[_Iterable[int]] = ..., settled: _Optional[_Union[SeatSettled, _Mapping]] = ..., voided: _Optional[_Union[RoundVoided, _Mapping]] = ...) -> None: ...

class RoundOpened(_message.Message):
    __slots__ = ("betting_deadline_ms", "now_ms", "seats_in", "progressive")
    BETTING_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    SEATS_IN_FIELD_NUMBER: _ClassVar[int]
    PROGRESSIVE_FIELD_NUMBER: _ClassVar[int]
    betting_deadline_ms: int
    now_ms: int
    seats_in: int
    progressive: SeatProgressive
    def __init__(self, betting_deadline_ms: _Optional[int] = ..., now_ms: _Optional[int] = ..., seats_in: _Optional[int] = ..., progressive: _Optional[_Union[SeatProgressive, _Mapping]] = ...) -> None: ...

class SeatProgressive(_message.Message):
    __slots__ = ("name", "outcome", "meter_cents")
    NAME_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    METER_CENTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    outcome: str
    meter_cents: int
    def __init__(self, name: _Optional[str] = ..., outcome: _Optional[str] = ..., meter_cents: _Optional[int] = ...) -> None: ...

class WagerAccepted(_message.Message):
    __slots__ = ("wagers", "positions")
    WAGERS_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    wagers: _containers.RepeatedCompositeFieldContainer[Wager]
    positions: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, wagers: _Optional[_Iterable[_Union[Wager, _Mapping]]] = ..., positions: _Optional[_Iterable[int]] = ...) -> None: ...

class BetsClosing(_message.Message):
    __slots__ = ("betting_deadline_ms", "now_ms")
    BETTING_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    betting_deadline_ms: int
    now_ms: int
    def __init__(self, betting_deadline_ms: _Optional[int] = ..., now_ms: _Optional[int] = ...) -> None: ...

class BetsClosed(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seats: _Optional[_Iterable[int]] = ...) -> None: ...

class FirstDealt(_message.Message):
    __slots__ = ("cards", "offer", "decision_deadline_ms", "now_ms")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    DECISION_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    offer: Offer
    decision_deadline_ms: int
    now_ms: int
    def __init__(self, cards: _Optional[_Iterable[int]] = ..., offer: _Optional[_Union[Offer, _Mapping]] = ..., decision_deadline_ms: _Optional[int] = ..., now_ms: _Optional[int] = ...) -> None: ...

class Offer(_message.Message):
    __slots__ = ("choices", "default_choice", "take", "extra_wager_cents")
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_CHOICE_FIELD_NUMBER: _ClassVar[int]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    EXTRA_WAGER_CENTS_FIELD_NUMBER: _ClassVar[int]
    choices: _containers.RepeatedScalarFieldContainer[str]
    default_choice: str
    take: str
    extra_wager_cents: int
    def __init__(self, choices: _Optional[_Iterable[str]] = ..., default_choice: _Optional[str] = ..., take: _Optional[str] = ..., extra_wager_cents: _Optional[int] = ...) -> None: ...

class DecisionAccepted(_message.Message):
    __slots__ = ("choice",)
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    choice: str
    def __init__(self, choice: _Optional[str] = ...) -> None: ...

class DecisionsClosed(_message.Message):
    __slots__ = ("choice", "defaulted")
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    DEFAULTED_FIELD_NUMBER: _ClassVar[int]
    choice: str
    defaulted: bool
    def __init__(self, choice: _Optional[str] = ..., defaulted: _Optional[bool] = ...) -> None: ...

class SecondDealt(_message.Message):
    __slots__ = ("seat_cards", "shared_cards")
    SEAT_CARDS_FIELD_NUMBER: _ClassVar[int]
    SHARED_CARDS_FIELD_NUMBER: _ClassVar[int]
    seat_cards: _containers.RepeatedScalarFieldContainer[int]
    shared_cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat_cards: _Optional[_Iterable[int]] = ..., shared_cards: _Optional[_Iterable[int]] = ...) -> None: ...

class SeatSettled(_message.Message):
    __slots__ = ("results", "stake_cents", "paid_cents")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    STAKE_CENTS_FIELD_NUMBER: _ClassVar[int]
    PAID_CENTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[WagerResult]
    stake_cents: int
    paid_cents: int
    def __init__(self, results: _Optional[_Iterable[_Union[WagerResult, _Mapping]]] = ..., stake_cents: _Optional[int] = ..., paid_cents: _Optional[int] = ...) -> None: ...

class WagerResult(_message.Message):
    __slots__ = ("spot", "stake_cents", "paid_cents", "outcome", "odds_numerator", "odds_denominator")
    SPOT_FIELD_NUMBER: _ClassVar[int]
    STAKE_CENTS_FIELD_NUMBER: _ClassVar[int]
    PAID_CENTS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    ODDS_NUMERATOR_FIELD_NUMBER: _ClassVar[int]
    ODDS_DENOMINATOR_FIELD_NUMBER: _ClassVar[int]
    spot: str
    stake_cents: int
    paid_cents: int
    outcome: str
    odds_numerator: int
    odds_denominator: int
    def __init__(self, spot: _Optional[str] = ..., stake_cents: _Optional[int] = ..., paid_cents: _Optional[int] = ..., outcome: _Optional[str] = ..., odds_numerator: _Optional[int] = ..., odds_denominator: _Optional[int] = ...) -> None: ...

class RoundClosed(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RoundVoided(_message.Message):
    __slots__ = ("reason", "returned_cents")
    REASON_FIELD_NUMBER: _ClassVar[int]
    RETURNED_CENTS_FIELD_NUMBER: _ClassVar[int]
    reason: str
    returned_cents: int
    def __init__(self, reason: _Optional[str] = ..., returned_cents: _Optional[int] = ...) -> None: ...

class Refused(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class PackLaid(_message.Message):
    __slots__ = ("pack", "location", "cards")
    PACK_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    pack: int
    location: str
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, pack: _Optional[int] = ..., location: _Optional[str] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...

class TablePaused(_message.Message):
    __slots__ = ("reason", "time_left_ms")
    REASON_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    reason: str
    time_left_ms: int
    def __init__(self, reason: _Optional[str] = ..., time_left_ms: _Optional[int] = ...) -> None: ...

class TableResumed(_message.Message):
    __slots__ = ("betting_deadline_ms", "decision_deadline_ms", "now_ms")
    BETTING_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    DECISION_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    betting_deadline_ms: int
    decision_deadline_ms: int
    now_ms: int
    def __init__(self, betting_deadline_ms: _Optional[int] = ..., decision_deadline_ms: _Optional[int] = ..., now_ms: _Optional[int] = ...) -> None: ...
