from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HelloRequest(_message.Message):
    __slots__ = ("terminal_id", "software_version", "software_signature", "terminal_time_ms")
    TERMINAL_ID_FIELD_NUMBER: _ClassVar[int]
    SOFTWARE_VERSION_FIELD_NUMBER: _ClassVar[int]
    SOFTWARE_SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    TERMINAL_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    terminal_id: str
    software_version: str
    software_signature: str
    terminal_time_ms: int
    def __init__(self, terminal_id: _Optional[str] = ..., software_version: _Optional[str] = ..., software_signature: _Optional[str] = ..., terminal_time_ms: _Optional[int] = ...) -> None: ...

class HelloResponse(_message.Message):
    __slots__ = ("host_time_ms", "meter_period_seconds", "acknowledged_head")
    HOST_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    METER_PERIOD_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ACKNOWLEDGED_HEAD_FIELD_NUMBER: _ClassVar[int]
    host_time_ms: int
    meter_period_seconds: int
    acknowledged_head: JournalHead
    def __init__(self, host_time_ms: _Optional[int] = ..., meter_period_seconds: _Optional[int] = ..., acknowledged_head: _Optional[_Union[JournalHead, _Mapping]] = ...) -> None: ...

class JournalHead(_message.Message):
    __slots__ = ("epoch", "seq", "hash")
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    HASH_FIELD_NUMBER: _ClassVar[int]
    epoch: int
    seq: int
    hash: bytes
    def __init__(self, epoch: _Optional[int] = ..., seq: _Optional[int] = ..., hash: _Optional[bytes] = ...) -> None: ...

class TerminalMessage(_message.Message):
    __slots__ = ("message_id", "journal_seq", "at_ms", "game_played", "bill_stacked", "cashout_started", "voucher_printed", "voucher_voided", "voucher_redeemed", "handpay_locked", "handpay_reset", "door", "tilt", "power_up", "enable", "service", "config", "period_meters_reset", "ram_cleared", "head_withdrawn", "progressive", "progressive_awarded", "meters")
    class VoucherRef(_message.Message):
        __slots__ = ("validation_number", "value_cents", "seat")
        VALIDATION_NUMBER_FIELD_NUMBER: _ClassVar[int]
        VALUE_CENTS_FIELD_NUMBER: _ClassVar[int]
        SEAT_FIELD_NUMBER: _ClassVar[int]
        validation_number: str
        value_cents: int
        seat: int
        def __init__(self, validation_number: _Optional[str] = ..., value_cents: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...
    class SpotResult(_message.Message):
        __slots__ = ("spot", "stake_cents", "paid_cents", "outcome")
        SPOT_FIELD_NUMBER: _ClassVar[int]
        STAKE_CENTS_FIELD_NUMBER: _ClassVar[int]
        PAID_CENTS_FIELD_NUMBER: _ClassVar[int]
        OUTCOME_FIELD_NUMBER: _ClassVar[int]
        spot: str
        stake_cents: int
        paid_cents: int
        outcome: str
        def __init__(self, spot: _Optional[str] = ..., stake_cents: _Optional[int] = ..., paid_cents: _Optional[int] = ..., outcome: _Optional[str] = ...) -> None: ...
    class SeatResult(_message.Message):
        __slots__ = ("seat", "stake_cents", "paid_cents", "handpay", "spots")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        STAKE_CENTS_FIELD_NUMBER: _ClassVar[int]
        PAID_CENTS_FIELD_NUMBER: _ClassVar[int]
        HANDPAY_FIELD_NUMBER: _ClassVar[int]
        SPOTS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        stake_cents: int
        paid_cents: int
        handpay: bool
        spots: _containers.RepeatedCompositeFieldContainer[TerminalMessage.SpotResult]
        def __init__(self, seat: _Optional[int] = ..., stake_cents: _Optional[int] = ..., paid_cents: _Optional[int] = ..., handpay: _Optional[bool] = ..., spots: _Optional[_Iterable[_Union[TerminalMessage.SpotResult, _Mapping]]] = ...) -> None: ...
    class GamePlayed(_message.Message):
        __slots__ = ("game_number", "edition", "seats")
        GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
        EDITION_FIELD_NUMBER: _ClassVar[int]
        SEATS_FIELD_NUMBER: _ClassVar[int]
        game_number: int
        edition: str
        seats: _containers.RepeatedCompositeFieldContainer[TerminalMessage.SeatResult]
        def __init__(self, game_number: _Optional[int] = ..., edition: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[TerminalMessage.SeatResult, _Mapping]]] = ...) -> None: ...
    class BillStacked(_message.Message):
        __slots__ = ("seat", "value_cents", "device", "device_count")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        VALUE_CENTS_FIELD_NUMBER: _ClassVar[int]
        DEVICE_FIELD_NUMBER: _ClassVar[int]
        DEVICE_COUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        value_cents: int
        device: str
        device_count: int
        def __init__(self, seat: _Optional[int] = ..., value_cents: _Optional[int] = ..., device: _Optional[str] = ..., device_count: _Optional[int] = ...) -> None: ...
    class HandpayLocked(_message.Message):
        __slots__ = ("seat", "value_cents", "kind")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        VALUE_CENTS_FIELD_NUMBER: _ClassVar[int]
        KIND_FIELD_NUMBER: _ClassVar[int]
        seat: int
        value_cents: int
        kind: str
        def __init__(self, seat: _Optional[int] = ..., value_cents: _Optional[int] = ..., kind: _Optional[str] = ...) -> None: ...
    class HandpayReset(_message.Message):
        __slots__ = ("seat", "value_cents", "kind", "by")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        VALUE_CENTS_FIELD_NUMBER: _ClassVar[int]
        KIND_FIELD_NUMBER: _ClassVar[int]
        BY_FIELD_NUMBER: _ClassVar[int]
        seat: int
        value_cents: int
        kind: str
        by: str
        def __init__(self, seat: _Optional[int] = ..., value_cents: _Optional[int] = ..., kind: _Optional[str] = ..., by: _Optional[str] = ...) -> None: ...
    class DoorChanged(_message.Message):
        __slots__ = ("door", "open")
        DOOR_FIELD_NUMBER: _ClassVar[int]
        OPEN_FIELD_NUMBER: _ClassVar[int]
        door: str
        open: bool
        def __init__(self, door: _Optional[str] = ..., open: _Optional[bool] = ...) -> None: ...
    class TiltChanged(_message.Message):
        __slots__ = ("code", "raised", "reason", "needs_attendant", "by")
        CODE_FIELD_NUMBER: _ClassVar[int]
        RAISED_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        NEEDS_ATTENDANT_FIELD_NUMBER: _ClassVar[int]
        BY_FIELD_NUMBER: _ClassVar[int]
        code: str
        raised: bool
        reason: str
        needs_attendant: bool
        by: str
        def __init__(self, code: _Optional[str] = ..., raised: _Optional[bool] = ..., reason: _Optional[str] = ..., needs_attendant: _Optional[bool] = ..., by: _Optional[str] = ...) -> None: ...
    class PowerUp(_message.Message):
        __slots__ = ("software_version", "recovered")
        SOFTWARE_VERSION_FIELD_NUMBER: _ClassVar[int]
        RECOVERED_FIELD_NUMBER: _ClassVar[int]
        software_version: str
        recovered: str
        def __init__(self, software_version: _Optional[str] = ..., recovered: _Optional[str] = ...) -> None: ...
    class EnableChanged(_message.Message):
        __slots__ = ("enabled", "reason")
        ENABLED_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        enabled: bool
        reason: str
        def __init__(self, enabled: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...
    class ServiceChanged(_message.Message):
        __slots__ = ("active", "role")
        ACTIVE_FIELD_NUMBER: _ClassVar[int]
        ROLE_FIELD_NUMBER: _ClassVar[int]
        active: bool
        role: str
        def __init__(self, active: _Optional[bool] = ..., role: _Optional[str] = ...) -> None: ...
    class ConfigChanged(_message.Message):
        __slots__ = ("by", "config_json")
        BY_FIELD_NUMBER: _ClassVar[int]
        CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
        by: str
        config_json: str
        def __init__(self, by: _Optional[str] = ..., config_json: _Optional[str] = ...) -> None: ...
    class PeriodMetersReset(_message.Message):
        __slots__ = ("by",)
        BY_FIELD_NUMBER: _ClassVar[int]
        by: str
        def __init__(self, by: _Optional[str] = ...) -> None: ...
    class Meter(_message.Message):
        __slots__ = ("name", "value")
        NAME_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        name: str
        value: int
        def __init__(self, name: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class RamCleared(_message.Message):
        __slots__ = ("previous_epoch", "previous_seq", "previous_hash", "by", "cleared_ms", "reason", "signer_epoch")
        PREVIOUS_EPOCH_FIELD_NUMBER: _ClassVar[int]
        PREVIOUS_SEQ_FIELD_NUMBER: _ClassVar[int]
        PREVIOUS_HASH_FIELD_NUMBER: _ClassVar[int]
        BY_FIELD_NUMBER: _ClassVar[int]
        CLEARED_MS_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        SIGNER_EPOCH_FIELD_NUMBER: _ClassVar[int]
        previous_epoch: int
        previous_seq: int
        previous_hash: bytes
        by: str
        cleared_ms: int
        reason: str
        signer_epoch: int
        def __init__(self, previous_epoch: _Optional[int] = ..., previous_seq: _Optional[int] = ..., previous_hash: _Optional[bytes] = ..., by: _Optional[str] = ..., cleared_ms: _Optional[int] = ..., reason: _Optional[str] = ..., signer_epoch: _Optional[int] = ...) -> None: ...
    class HeadWithdrawn(_message.Message):
        __slots__ = ("signer_epoch", "seq", "chain_hash", "store_seq", "game_number")
        SIGNER_EPOCH_FIELD_NUMBER: _ClassVar[int]
        SEQ_FIELD_NUMBER: _ClassVar[int]
        CHAIN_HASH_FIELD_NUMBER: _ClassVar[int]
        STORE_SEQ_FIELD_NUMBER: _ClassVar[int]
        GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
        signer_epoch: int
        seq: int
        chain_hash: str
        store_seq: int
        game_number: int
        def __init__(self, signer_epoch: _Optional[int] = ..., seq: _Optional[int] = ..., chain_hash: _Optional[str] = ..., store_seq: _Optional[int] = ..., game_number: _Optional[int] = ...) -> None: ...
    class ProgressiveMeter(_message.Message):
        __slots__ = ("name", "mode", "meter_cents", "reset_cents", "hits", "last_hit_cents", "hits_known", "source")
        NAME_FIELD_NUMBER: _ClassVar[int]
        MODE_FIELD_NUMBER: _ClassVar[int]
        METER_CENTS_FIELD_NUMBER: _ClassVar[int]
        RESET_CENTS_FIELD_NUMBER: _ClassVar[int]
        HITS_FIELD_NUMBER: _ClassVar[int]
        LAST_HIT_CENTS_FIELD_NUMBER: _ClassVar[int]
        HITS_KNOWN_FIELD_NUMBER: _ClassVar[int]
        SOURCE_FIELD_NUMBER: _ClassVar[int]
        name: str
        mode: str
        meter_cents: int
        reset_cents: int
        hits: int
        last_hit_cents: int
        hits_known: bool
        source: str
        def __init__(self, name: _Optional[str] = ..., mode: _Optional[str] = ..., meter_cents: _Optional[int] = ..., reset_cents: _Optional[int] = ..., hits: _Optional[int] = ..., last_hit_cents: _Optional[int] = ..., hits_known: _Optional[bool] = ..., source: _Optional[str] = ...) -> None: ...
    class ProgressiveAwarded(_message.Message):
        __slots__ = ("seat", "key", "progressive", "outcome", "award_cents", "handpay")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        KEY_FIELD_NUMBER: _ClassVar[int]
        PROGRESSIVE_FIELD_NUMBER: _ClassVar[int]
        OUTCOME_FIELD_NUMBER: _ClassVar[int]
        AWARD_CENTS_FIELD_NUMBER: _ClassVar[int]
        HANDPAY_FIELD_NUMBER: _ClassVar[int]
        seat: int
        key: str
        progressive: str
        outcome: str
        award_cents: int
        handpay: bool
        def __init__(self, seat: _Optional[int] = ..., key: _Optional[str] = ..., progressive: _Optional[str] = ..., outcome: _Optional[str] = ..., award_cents: _Optional[int] = ..., handpay: _Optional[bool] = ...) -> None: ...
    class MeterSnapshot(_message.Message):
        __slots__ = ("reason", "meters")
        REASON_FIELD_NUMBER: _ClassVar[int]
        METERS_FIELD_NUMBER: _ClassVar[int]
        reason: str
        meters: _containers.RepeatedCompositeFieldContainer[TerminalMessage.Meter]
        def __init__(self, reason: _Optional[str] = ..., meters: _Optional[_Iterable[_Union[TerminalMessage.Meter, _Mapping]]] = ...) -> None: ...
    MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    JOURNAL_SEQ_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    GAME_PLAYED_FIELD_NUMBER: _ClassVar[int]
    BILL_STACKED_FIELD_NUMBER: _ClassVar[int]
    CASHOUT_STARTED_FIELD_NUMBER: _ClassVar[int]
    VOUCHER_PRINTED_FIELD_NUMBER: _ClassVar[int]
    VOUCHER_VOIDED_FIELD_NUMBER: _ClassVar[int]
    VOUCHER_REDEEMED_FIELD_NUMBER: _ClassVar[int]
    HANDPAY_LOCKED_FIELD_NUMBER: _ClassVar[int]
    HANDPAY_RESET_FIELD_NUMBER: _ClassVar[int]
    DOOR_FIELD_NUMBER: _ClassVar[int]
    TILT_FIELD_NUMBER: _ClassVar[int]
    POWER_UP_FIELD_NUMBER: _ClassVar[int]
    ENABLE_FIELD_NUMBER: _ClassVar[int]
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    PERIOD_METERS_RESET_FIELD_NUMBER: _ClassVar[int]
    RAM_CLEARED_FIELD_NUMBER: _ClassVar[int]
    HEAD_WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    PROGRESSIVE_FIELD_NUMBER: _ClassVar[int]
    PROGRESSIVE_AWARDED_FIELD_NUMBER: _ClassVar[int]
    METERS_FIELD_NUMBER: _ClassVar[int]
    message_id: str
    journal_seq: int
    at_ms: int
    game_played: TerminalMessage.GamePlayed
    bill_stacked: TerminalMessage.BillStacked
    cashout_started: TerminalMessage.VoucherRef
    voucher_printed: TerminalMessage.VoucherRef
    voucher_voided: TerminalMessage.VoucherRef
    voucher_redeemed: TerminalMessage.VoucherRef
    handpay_locked: TerminalMessage.HandpayLocked
    handpay_reset: TerminalMessage.HandpayReset
    door: TerminalMessage.DoorChanged
    tilt: TerminalMessage.TiltChanged
    power_up: TerminalMessage.PowerUp
    enable: TerminalMessage.EnableChanged
    service: TerminalMessage.ServiceChanged
    config: TerminalMessage.ConfigChanged
    period_meters_reset: TerminalMessage.PeriodMetersReset
    ram_cleared: TerminalMessage.RamCleared
    head_withdrawn: TerminalMessage.HeadWithdrawn
    progressive: TerminalMessage.ProgressiveMeter
    progressive_awarded: TerminalMessage.ProgressiveAwarded
    meters: TerminalMessage.MeterSnapshot
    def __init__(self, message_id: _Optional[str] = ..., journal_seq: _Optional[int] = ..., at_ms: _Optional[int] = ..., game_played: _Optional[_Union[TerminalMessage.GamePlayed, _Mapping]] = ..., bill_stacked: _Optional[_Union[TerminalMessage.BillStacked, _Mapping]] = ..., cashout_started: _Optional[_Union[TerminalMessage.VoucherRef, _Mapping]] = ..., voucher_printed: _Optional[_Union[TerminalMessage.VoucherRef, _Mapping]] = ..., voucher_voided: _Optional[_Union[TerminalMessage.VoucherRef, _Mapping]] = ..., voucher_redeemed: _Optional[_Union[TerminalMessage.VoucherRef, _Mapping]] = ..., handpay_locked: _Optional[_Union[TerminalMessage.HandpayLocked, _Mapping]] = ..., handpay_reset: _Optional[_Union[TerminalMessage.HandpayReset, _Mapping]] = ..., door: _Optional[_Union[TerminalMessage.DoorChanged, _Mapping]] = ..., tilt: _Optional[_Union[TerminalMessage.TiltChanged, _Mapping]] = ..., power_up: _Optional[_Union[TerminalMessage.PowerUp, _Mapping]] = ..., enable: _Optional[_Union[TerminalMessage.EnableChanged, _Mapping]] = ..., service: _Optional[_Union[TerminalMessage.ServiceChanged, _Mapping]] = ..., config: _Optional[_Union[TerminalMessage.ConfigChanged, _Mapping]] = ..., period_meters_reset: _Optional[_Union[TerminalMessage.PeriodMetersReset, _Mapping]] = ..., ram_cleared: _Optional[_Union[TerminalMessage.RamCleared, _Mapping]] = ..., head_withdrawn: _Optional[_Union[TerminalMessage.HeadWithdrawn, _Mapping]] = ..., progressive: _Optional[_Union[TerminalMessage.ProgressiveMeter, _Mapping]] = ..., progressive_awarded: _Optional[_Union[TerminalMessage.ProgressiveAwarded, _Mapping]] = ..., meters: _Optional[_Union[TerminalMessage.MeterSnapshot, _Mapping]] = ...) -> None: ...

class ReportRequest(_message.Message):
    __slots__ = ("terminal_id", "messages", "head")
    TERMINAL_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    HEAD_FIELD_NUMBER: _ClassVar[int]
    terminal_id: str
    messages: _containers.RepeatedCompositeFieldContainer[TerminalMessage]
    head: JournalHead
    def __init__(self, terminal_id: _Optional[str] = ..., messages: _Optional[_Iterable[_Union[TerminalMessage, _Mapping]]] = ..., head: _Optional[_Union[JournalHead, _Mapping]] = ...) -> None: ...

class ReportResponse(_message.Message):
    __slots__ = ("accepted", "duplicates", "acknowledged_head")
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    DUPLICATES_FIELD_NUMBER: _ClassVar[int]
    ACKNOWLEDGED_HEAD_FIELD_NUMBER: _ClassVar[int]
    accepted: int
    duplicates: int
    acknowledged_head: JournalHead
    def __init__(self, accepted: _Optional[int] = ..., duplicates: _Optional[int] = ..., acknowledged_head: _Optional[_Union[JournalHead, _Mapping]] = ...) -> None: ...

class CommandsRequest(_message.Message):
    __slots__ = ("terminal_id",)
    TERMINAL_ID_FIELD_NUMBER: _ClassVar[int]
    terminal_id: str
    def __init__(self, terminal_id: _Optional[str] = ...) -> None: ...

class HostCommand(_message.Message):
    __slots__ = ("command_id", "set_enabled", "request_meters", "authenticate_software", "set_time", "player_message", "confirm_device_records")
    class SetEnabled(_message.Message):
        __slots__ = ("enabled", "reason")
        ENABLED_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        enabled: bool
        reason: str
        def __init__(self, enabled: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...
    class RequestMeters(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class AuthenticateSoftware(_message.Message):
        __slots__ = ("seed",)
        SEED_FIELD_NUMBER: _ClassVar[int]
        seed: bytes
        def __init__(self, seed: _Optional[bytes] = ...) -> None: ...
    class SetTime(_message.Message):
        __slots__ = ("epoch_ms",)
        EPOCH_MS_FIELD_NUMBER: _ClassVar[int]
        epoch_ms: int
        def __init__(self, epoch_ms: _Optional[int] = ...) -> None: ...
    class PlayerMessage(_message.Message):
        __slots__ = ("text", "seconds")
        TEXT_FIELD_NUMBER: _ClassVar[int]
        SECONDS_FIELD_NUMBER: _ClassVar[int]
        text: str
        seconds: int
        def __init__(self, text: _Optional[str] = ..., seconds: _Optional[int] = ...) -> None: ...
    class ConfirmDeviceRecords(_message.Message):
        __slots__ = ("tilt", "reason", "operator")
        TILT_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        OPERATOR_FIELD_NUMBER: _ClassVar[int]
        tilt: str
        reason: str
        operator: str
        def __init__(self, tilt: _Optional[str] = ..., reason: _Optional[str] = ..., operator: _Optional[str] = ...) -> None: ...
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    SET_ENABLED_FIELD_NUMBER: _ClassVar[int]
    REQUEST_METERS_FIELD_NUMBER: _ClassVar[int]
    AUTHENTICATE_SOFTWARE_FIELD_NUMBER: _ClassVar[int]
    SET_TIME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_DEVICE_RECORDS_FIELD_NUMBER: _ClassVar[int]
    command_id: int
    set_enabled: HostCommand.SetEnabled
    request_meters: HostCommand.RequestMeters
    authenticate_software: HostCommand.AuthenticateSoftware
    set_time: HostCommand.SetTime
    player_message: HostCommand.PlayerMessage
    confirm_device_records: HostCommand.ConfirmDeviceRecords
    def __init__(self, command_id: _Optional[int] = ..., set_enabled: _Optional[_Union[HostCommand.SetEnabled, _Mapping]] = ..., request_meters: _Optional[_Union[HostCommand.RequestMeters, _Mapping]] = ..., authenticate_software: _Optional[_Union[HostCommand.AuthenticateSoftware, _Mapping]] = ..., set_time: _Optional[_Union[HostCommand.SetTime, _Mapping]] = ..., player_message: _Optional[_Union[HostCommand.PlayerMessage, _Mapping]] = ..., confirm_device_records: _Optional[_Union[HostCommand.ConfirmDeviceRecords, _Mapping]] = ...) -> None: ...

class CommandsResponse(_message.Message):
    __slots__ = ("command",)
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    command: HostCommand
    def __init__(self, command: _Optional[_Union[HostCommand, _Mapping]] = ...) -> None: ...

class CompleteCommandRequest(_message.Message):
    __slots__ = ("terminal_id", "command_id", "error", "software_hmac")
    TERMINAL_ID_FIELD_NUMBER: _ClassVar[int]
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SOFTWARE_HMAC_FIELD_NUMBER: _ClassVar[int]
    terminal_id: str
    command_id: int
    error: str
    software_hmac: bytes
    def __init__(self, terminal_id: _Optional[str] = ..., command_id: _Optional[int] = ..., error: _Optional[str] = ..., software_hmac: _Optional[bytes] = ...) -> None: ...

class CompleteCommandResponse(_message.Message):
    __slots__ = ("software_match",)
    SOFTWARE_MATCH_FIELD_NUMBER: _ClassVar[int]
    software_match: bool
    def __init__(self, software_match: _Optional[bool] = ...) -> None: ...

class IssueValidationNumberRequest(_message.Message):
    __slots__ = ("terminal_id", "value_cents")
    TERMINAL_ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_CENTS_FIELD_NUMBER: _ClassVar[int]
    terminal_id: str
    value_cents: int
    def __init__(self, terminal_id: _Optional[str] = ..., value_cents: _Optional[int] = ...) -> None: ...

class IssueValidationNumberResponse(_message.Message):
    __slots__ = ("validation_number",)
    VALIDATION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    validation_number: str
    def __init__(self, validation_number: _Optional[str] = ...) -> None: ...

class ValidateTicketRequest(_message.Message):
    __slots__ = ("terminal_id", "validation_number")
    TERMINAL_ID_FIELD_NUMBER: _ClassVar[int]
    VALIDATION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    terminal_id: str
    validation_number: str
    def __init__(self, terminal_id: _Optional[str] = ..., validation_number: _Optional[str] = ...) -> None: ...

class ValidateTicketResponse(_message.Message):
    __slots__ = ("accepted", "value_cents", "reason")
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    VALUE_CENTS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    accepted: bool
    value_cents: int
    reason: str
    def __init__(self, accepted: _Optional[bool] = ..., value_cents: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class FinishTicketRequest(_message.Message):
    __slots__ = ("terminal_id", "validation_number", "stacked")
    TERMINAL_ID_FIELD_NUMBER: _ClassVar[int]
    VALIDATION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    STACKED_FIELD_NUMBER: _ClassVar[int]
    terminal_id: str
    validation_number: str
    stacked: bool
    def __init__(self, terminal_id: _Optional[str] = ..., validation_number: _Optional[str] = ..., stacked: _Optional[bool] = ...) -> None: ...

class FinishTicketResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class LinkRequest(_message.Message):
    __slots__ = ("number", "hello", "report")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    HELLO_FIELD_NUMBER: _ClassVar[int]
    REPORT_FIELD_NUMBER: _ClassVar[int]
    number: int
    hello: HelloRequest
    report: ReportRequest
    def __init__(self, number: _Optional[int] = ..., hello: _Optional[_Union[HelloRequest, _Mapping]] = ..., report: _Optional[_Union[ReportRequest, _Mapping]] = ...) -> None: ...

class LinkAck(_message.Message):
    __slots__ = ("number", "response", "status", "details", "retry_ms")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    RETRY_MS_FIELD_NUMBER: _ClassVar[int]
    number: int
    response: ReportResponse
    status: int
    details: str
    retry_ms: int
    def __init__(self, number: _Optional[int] = ..., response: _Optional[_Union[ReportResponse, _Mapping]] = ..., status: _Optional[int] = ..., details: _Optional[str] = ..., retry_ms: _Optional[int] = ...) -> None: ...

class LinkResponse(_message.Message):
    __slots__ = ("hello", "ack", "command")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    ACK_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    hello: HelloResponse
    ack: LinkAck
    command: HostCommand
    def __init__(self, hello: _Optional[_Union[HelloResponse, _Mapping]] = ..., ack: _Optional[_Union[LinkAck, _Mapping]] = ..., command: _Optional[_Union[HostCommand, _Mapping]] = ...) -> None: ...
