import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LinkPacket(_message.Message):
    __slots__ = ("session", "peer_session", "seq", "ack", "hello", "payload")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    PEER_SESSION_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ACK_FIELD_NUMBER: _ClassVar[int]
    HELLO_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    session: int
    peer_session: int
    seq: int
    ack: int
    hello: bool
    payload: bytes
    def __init__(self, session: _Optional[int] = ..., peer_session: _Optional[int] = ..., seq: _Optional[int] = ..., ack: _Optional[int] = ..., hello: _Optional[bool] = ..., payload: _Optional[bytes] = ...) -> None: ...

class DeviceIdentity(_message.Message):
    __slots__ = ("model", "serial_number", "firmware")
    MODEL_FIELD_NUMBER: _ClassVar[int]
    SERIAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    FIRMWARE_FIELD_NUMBER: _ClassVar[int]
    model: str
    serial_number: str
    firmware: str
    def __init__(self, model: _Optional[str] = ..., serial_number: _Optional[str] = ..., firmware: _Optional[str] = ...) -> None: ...

class DeviceStatusRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AcknowledgeEvents(_message.Message):
    __slots__ = ("up_to_event_id",)
    UP_TO_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    up_to_event_id: int
    def __init__(self, up_to_event_id: _Optional[int] = ...) -> None: ...

class EscrowItem(_message.Message):
    __slots__ = ("note_value", "ticket_number")
    NOTE_VALUE_FIELD_NUMBER: _ClassVar[int]
    TICKET_NUMBER_FIELD_NUMBER: _ClassVar[int]
    note_value: int
    ticket_number: str
    def __init__(self, note_value: _Optional[int] = ..., ticket_number: _Optional[str] = ...) -> None: ...

class Tally(_message.Message):
    __slots__ = ("count", "value")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    count: int
    value: int
    def __init__(self, count: _Optional[int] = ..., value: _Optional[int] = ...) -> None: ...

class DeviceRecordRequest(_message.Message):
    __slots__ = ("request_id",)
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    def __init__(self, request_id: _Optional[int] = ...) -> None: ...

class ValidatorBaseline(_message.Message):
    __slots__ = ("terminal_notes", "terminal_tickets", "device_notes", "device_tickets", "journal_epoch")
    TERMINAL_NOTES_FIELD_NUMBER: _ClassVar[int]
    TERMINAL_TICKETS_FIELD_NUMBER: _ClassVar[int]
    DEVICE_NOTES_FIELD_NUMBER: _ClassVar[int]
    DEVICE_TICKETS_FIELD_NUMBER: _ClassVar[int]
    JOURNAL_EPOCH_FIELD_NUMBER: _ClassVar[int]
    terminal_notes: Tally
    terminal_tickets: Tally
    device_notes: Tally
    device_tickets: Tally
    journal_epoch: int
    def __init__(self, terminal_notes: _Optional[_Union[Tally, _Mapping]] = ..., terminal_tickets: _Optional[_Union[Tally, _Mapping]] = ..., device_notes: _Optional[_Union[Tally, _Mapping]] = ..., device_tickets: _Optional[_Union[Tally, _Mapping]] = ..., journal_epoch: _Optional[int] = ...) -> None: ...

class PrinterBaseline(_message.Message):
    __slots__ = ("terminal_vouchers", "device_vouchers", "journal_epoch")
    TERMINAL_VOUCHERS_FIELD_NUMBER: _ClassVar[int]
    DEVICE_VOUCHERS_FIELD_NUMBER: _ClassVar[int]
    JOURNAL_EPOCH_FIELD_NUMBER: _ClassVar[int]
    terminal_vouchers: Tally
    device_vouchers: Tally
    journal_epoch: int
    def __init__(self, terminal_vouchers: _Optional[_Union[Tally, _Mapping]] = ..., device_vouchers: _Optional[_Union[Tally, _Mapping]] = ..., journal_epoch: _Optional[int] = ...) -> None: ...

class PrintedVoucher(_message.Message):
    __slots__ = ("validation_number", "value")
    VALIDATION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    validation_number: str
    value: int
    def __init__(self, validation_number: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...

class ValidatorCommand(_message.Message):
    __slots__ = ("set_acceptance", "stack", "return_escrow", "acknowledge", "status_request", "record_request", "set_baseline")
    class SetAcceptance(_message.Message):
        __slots__ = ("enabled", "note_values", "tickets", "acceptance_id")
        ENABLED_FIELD_NUMBER: _ClassVar[int]
        NOTE_VALUES_FIELD_NUMBER: _ClassVar[int]
        TICKETS_FIELD_NUMBER: _ClassVar[int]
        ACCEPTANCE_ID_FIELD_NUMBER: _ClassVar[int]
        enabled: bool
        note_values: _containers.RepeatedScalarFieldContainer[int]
        tickets: bool
        acceptance_id: int
        def __init__(self, enabled: _Optional[bool] = ..., note_values: _Optional[_Iterable[int]] = ..., tickets: _Optional[bool] = ..., acceptance_id: _Optional[int] = ...) -> None: ...
    class Stack(_message.Message):
        __slots__ = ("escrow_event_id",)
        ESCROW_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
        escrow_event_id: int
        def __init__(self, escrow_event_id: _Optional[int] = ...) -> None: ...
    class Return(_message.Message):
        __slots__ = ("escrow_event_id", "reason")
        ESCROW_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        escrow_event_id: int
        reason: str
        def __init__(self, escrow_event_id: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...
    SET_ACCEPTANCE_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    RETURN_ESCROW_FIELD_NUMBER: _ClassVar[int]
    ACKNOWLEDGE_FIELD_NUMBER: _ClassVar[int]
    STATUS_REQUEST_FIELD_NUMBER: _ClassVar[int]
    RECORD_REQUEST_FIELD_NUMBER: _ClassVar[int]
    SET_BASELINE_FIELD_NUMBER: _ClassVar[int]
    set_acceptance: ValidatorCommand.SetAcceptance
    stack: ValidatorCommand.Stack
    return_escrow: ValidatorCommand.Return
    acknowledge: AcknowledgeEvents
    status_request: DeviceStatusRequest
    record_request: DeviceRecordRequest
    set_baseline: ValidatorBaseline
    def __init__(self, set_acceptance: _Optional[_Union[ValidatorCommand.SetAcceptance, _Mapping]] = ..., stack: _Optional[_Union[ValidatorCommand.Stack, _Mapping]] = ..., return_escrow: _Optional[_Union[ValidatorCommand.Return, _Mapping]] = ..., acknowledge: _Optional[_Union[AcknowledgeEvents, _Mapping]] = ..., status_request: _Optional[_Union[DeviceStatusRequest, _Mapping]] = ..., record_request: _Optional[_Union[DeviceRecordRequest, _Mapping]] = ..., set_baseline: _Optional[_Union[ValidatorBaseline, _Mapping]] = ...) -> None: ...

class ValidatorEvent(_message.Message):
    __slots__ = ("event_id", "identity", "escrowed", "stacked", "returned", "rejected", "status", "refused", "cashbox_record")
    class ReturnReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        RETURN_REASON_UNSPECIFIED: _ClassVar[ValidatorEvent.ReturnReason]
        RETURN_REASON_COMMANDED: _ClassVar[ValidatorEvent.ReturnReason]
        RETURN_REASON_ESCROW_TIMEOUT: _ClassVar[ValidatorEvent.ReturnReason]
        RETURN_REASON_POWER_UP: _ClassVar[ValidatorEvent.ReturnReason]
        RETURN_REASON_CASHBOX_FULL: _ClassVar[ValidatorEvent.ReturnReason]
    RETURN_REASON_UNSPECIFIED: ValidatorEvent.ReturnReason
    RETURN_REASON_COMMANDED: ValidatorEvent.ReturnReason
    RETURN_REASON_ESCROW_TIMEOUT: ValidatorEvent.ReturnReason
    RETURN_REASON_POWER_UP: ValidatorEvent.ReturnReason
    RETURN_REASON_CASHBOX_FULL: ValidatorEvent.ReturnReason
    class RejectReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        REJECT_REASON_UNSPECIFIED: _ClassVar[ValidatorEvent.RejectReason]
        REJECT_REASON_DISABLED: _ClassVar[ValidatorEvent.RejectReason]
        REJECT_REASON_NOT_ACCEPTED: _ClassVar[ValidatorEvent.RejectReason]
        REJECT_REASON_NOT_RECOGNISED: _ClassVar[ValidatorEvent.RejectReason]
        REJECT_REASON_ESCROW_BUSY: _ClassVar[ValidatorEvent.RejectReason]
        REJECT_REASON_FAULT: _ClassVar[ValidatorEvent.RejectReason]
    REJECT_REASON_UNSPECIFIED: ValidatorEvent.RejectReason
    REJECT_REASON_DISABLED: ValidatorEvent.RejectReason
    REJECT_REASON_NOT_ACCEPTED: ValidatorEvent.RejectReason
    REJECT_REASON_NOT_RECOGNISED: ValidatorEvent.RejectReason
    REJECT_REASON_ESCROW_BUSY: ValidatorEvent.RejectReason
    REJECT_REASON_FAULT: ValidatorEvent.RejectReason
    class Escrowed(_message.Message):
        __slots__ = ("item", "acceptance_id")
        ITEM_FIELD_NUMBER: _ClassVar[int]
        ACCEPTANCE_ID_FIELD_NUMBER: _ClassVar[int]
        item: EscrowItem
        acceptance_id: int
        def __init__(self, item: _Optional[_Union[EscrowItem, _Mapping]] = ..., acceptance_id: _Optional[int] = ...) -> None: ...
    class Stacked(_message.Message):
        __slots__ = ("escrow_event_id", "item")
        ESCROW_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
        ITEM_FIELD_NUMBER: _ClassVar[int]
        escrow_event_id: int
        item: EscrowItem
        def __init__(self, escrow_event_id: _Optional[int] = ..., item: _Optional[_Union[EscrowItem, _Mapping]] = ...) -> None: ...
    class Returned(_message.Message):
        __slots__ = ("escrow_event_id", "item", "reason")
        ESCROW_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
        ITEM_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        escrow_event_id: int
        item: EscrowItem
        reason: ValidatorEvent.ReturnReason
        def __init__(self, escrow_event_id: _Optional[int] = ..., item: _Optional[_Union[EscrowItem, _Mapping]] = ..., reason: _Optional[_Union[ValidatorEvent.ReturnReason, str]] = ...) -> None: ...
    class Rejected(_message.Message):
        __slots__ = ("item", "reason", "detail")
        ITEM_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        DETAIL_FIELD_NUMBER: _ClassVar[int]
        item: EscrowItem
        reason: ValidatorEvent.RejectReason
        detail: str
        def __init__(self, item: _Optional[_Union[EscrowItem, _Mapping]] = ..., reason: _Optional[_Union[ValidatorEvent.RejectReason, str]] = ..., detail: _Optional[str] = ...) -> None: ...
    class Status(_message.Message):
        __slots__ = ("enabled", "jammed", "cashbox_full", "cashbox_removed", "escrow_event_id", "cheated", "failure")
        ENABLED_FIELD_NUMBER: _ClassVar[int]
        JAMMED_FIELD_NUMBER: _ClassVar[int]
        CASHBOX_FULL_FIELD_NUMBER: _ClassVar[int]
        CASHBOX_REMOVED_FIELD_NUMBER: _ClassVar[int]
        ESCROW_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
        CHEATED_FIELD_NUMBER: _ClassVar[int]
        FAILURE_FIELD_NUMBER: _ClassVar[int]
        enabled: bool
        jammed: bool
        cashbox_full: bool
        cashbox_removed: bool
        escrow_event_id: int
        cheated: bool
        failure: str
        def __init__(self, enabled: _Optional[bool] = ..., jammed: _Optional[bool] = ..., cashbox_full: _Optional[bool] = ..., cashbox_removed: _Optional[bool] = ..., escrow_event_id: _Optional[int] = ..., cheated: _Optional[bool] = ..., failure: _Optional[str] = ...) -> None: ...
    class CommandRefused(_message.Message):
        __slots__ = ("reason",)
        REASON_FIELD_NUMBER: _ClassVar[int]
        reason: str
        def __init__(self, reason: _Optional[str] = ...) -> None: ...
    class CashboxRecord(_message.Message):
        __slots__ = ("request_id", "notes_by_value", "tickets", "lifetime_notes", "lifetime_tickets", "baseline", "cashbox_removals")
        class NotesByValueEntry(_message.Message):
            __slots__ = ("key", "value")
            KEY_FIELD_NUMBER: _ClassVar[int]
            VALUE_FIELD_NUMBER: _ClassVar[int]
            key: int
            value: int
            def __init__(self, key: _Optional[int] = ..., value: _Optional[int] = ...) -> None: ...
        REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
        NOTES_BY_VALUE_FIELD_NUMBER: _ClassVar[int]
        TICKETS_FIELD_NUMBER: _ClassVar[int]
        LIFETIME_NOTES_FIELD_NUMBER: _ClassVar[int]
        LIFETIME_TICKETS_FIELD_NUMBER: _ClassVar[int]
        BASELINE_FIELD_NUMBER: _ClassVar[int]
        CASHBOX_REMOVALS_FIELD_NUMBER: _ClassVar[int]
        request_id: int
        notes_by_value: _containers.ScalarMap[int, int]
        tickets: int
        lifetime_notes: Tally
        lifetime_tickets: Tally
        baseline: ValidatorBaseline
        cashbox_removals: int
        def __init__(self, request_id: _Optional[int] = ..., notes_by_value: _Optional[_Mapping[int, int]] = ..., tickets: _Optional[int] = ..., lifetime_notes: _Optional[_Union[Tally, _Mapping]] = ..., lifetime_tickets: _Optional[_Union[Tally, _Mapping]] = ..., baseline: _Optional[_Union[ValidatorBaseline, _Mapping]] = ..., cashbox_removals: _Optional[int] = ...) -> None: ...
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    ESCROWED_FIELD_NUMBER: _ClassVar[int]
    STACKED_FIELD_NUMBER: _ClassVar[int]
    RETURNED_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    CASHBOX_RECORD_FIELD_NUMBER: _ClassVar[int]
    event_id: int
    identity: DeviceIdentity
    escrowed: ValidatorEvent.Escrowed
    stacked: ValidatorEvent.Stacked
    returned: ValidatorEvent.Returned
    rejected: ValidatorEvent.Rejected
    status: ValidatorEvent.Status
    refused: ValidatorEvent.CommandRefused
    cashbox_record: ValidatorEvent.CashboxRecord
    def __init__(self, event_id: _Optional[int] = ..., identity: _Optional[_Union[DeviceIdentity, _Mapping]] = ..., escrowed: _Optional[_Union[ValidatorEvent.Escrowed, _Mapping]] = ..., stacked: _Optional[_Union[ValidatorEvent.Stacked, _Mapping]] = ..., returned: _Optional[_Union[ValidatorEvent.Returned, _Mapping]] = ..., rejected: _Optional[_Union[ValidatorEvent.Rejected, _Mapping]] = ..., status: _Optional[_Union[ValidatorEvent.Status, _Mapping]] = ..., refused: _Optional[_Union[ValidatorEvent.CommandRefused, _Mapping]] = ..., cashbox_record: _Optional[_Union[ValidatorEvent.CashboxRecord, _Mapping]] = ...) -> None: ...

class PrinterCommand(_message.Message):
    __slots__ = ("print_voucher", "voucher_status_request", "status_request", "acknowledge", "print_test_voucher", "record_request", "set_baseline", "print_receipt", "receipt_status_request")
    class PrintVoucher(_message.Message):
        __slots__ = ("validation_number", "value", "terminal_id", "venue", "issued_at", "expires_days", "sequence")
        VALIDATION_NUMBER_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        TERMINAL_ID_FIELD_NUMBER: _ClassVar[int]
        VENUE_FIELD_NUMBER: _ClassVar[int]
        ISSUED_AT_FIELD_NUMBER: _ClassVar[int]
        EXPIRES_DAYS_FIELD_NUMBER: _ClassVar[int]
        SEQUENCE_FIELD_NUMBER: _ClassVar[int]
        validation_number: str
        value: int
        terminal_id: str
        venue: str
        issued_at: _timestamp_pb2.Timestamp
        expires_days: int
        sequence: int
        def __init__(self, validation_number: _Optional[str] = ..., value: _Optional[int] = ..., terminal_id: _Optional[str] = ..., venue: _Optional[str] = ..., issued_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expires_days: _Optional[int] = ..., sequence: _Optional[int] = ...) -> None: ...
    class VoucherStatusRequest(_message.Message):
        __slots__ = ("validation_number",)
        VALIDATION_NUMBER_FIELD_NUMBER: _ClassVar[int]
        validation_number: str
        def __init__(self, validation_number: _Optional[str] = ...) -> None: ...
    class PrintTestVoucher(_message.Message):
        __slots__ = ("test_id", "terminal_id", "venue", "printed_at")
        TEST_ID_FIELD_NUMBER: _ClassVar[int]
        TERMINAL_ID_FIELD_NUMBER: _ClassVar[int]
        VENUE_FIELD_NUMBER: _ClassVar[int]
        PRINTED_AT_FIELD_NUMBER: _ClassVar[int]
        test_id: int
        terminal_id: str
        venue: str
        printed_at: _timestamp_pb2.Timestamp
        def __init__(self, test_id: _Optional[int] = ..., terminal_id: _Optional[str] = ..., venue: _Optional[str] = ..., printed_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
    class PrintReceipt(_message.Message):
        __slots__ = ("receipt_id", "lines", "printed_at")
        RECEIPT_ID_FIELD_NUMBER: _ClassVar[int]
        LINES_FIELD_NUMBER: _ClassVar[int]
        PRINTED_AT_FIELD_NUMBER: _ClassVar[int]
        receipt_id: str
        lines: _containers.RepeatedScalarFieldContainer[str]
        printed_at: _timestamp_pb2.Timestamp
        def __init__(self, receipt_id: _Optional[str] = ..., lines: _Optional[_Iterable[str]] = ..., printed_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
    class ReceiptStatusRequest(_message.Message):
        __slots__ = ("receipt_id",)
        RECEIPT_ID_FIELD_NUMBER: _ClassVar[int]
        receipt_id: str
        def __init__(self, receipt_id: _Optional[str] = ...) -> None: ...
    PRINT_VOUCHER_FIELD_NUMBER: _ClassVar[int]
    VOUCHER_STATUS_REQUEST_FIELD_NUMBER: _ClassVar[int]
    STATUS_REQUEST_FIELD_NUMBER: _ClassVar[int]
    ACKNOWLEDGE_FIELD_NUMBER: _ClassVar[int]
    PRINT_TEST_VOUCHER_FIELD_NUMBER: _ClassVar[int]
    RECORD_REQUEST_FIELD_NUMBER: _ClassVar[int]
    SET_BASELINE_FIELD_NUMBER: _ClassVar[int]
    PRINT_RECEIPT_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_STATUS_REQUEST_FIELD_NUMBER: _ClassVar[int]
    print_voucher: PrinterCommand.PrintVoucher
    voucher_status_request: PrinterCommand.VoucherStatusRequest
    status_request: DeviceStatusRequest
    acknowledge: AcknowledgeEvents
    print_test_voucher: PrinterCommand.PrintTestVoucher
    record_request: DeviceRecordRequest
    set_baseline: PrinterBaseline
    print_receipt: PrinterCommand.PrintReceipt
    receipt_status_request: PrinterCommand.ReceiptStatusRequest
    def __init__(self, print_voucher: _Optional[_Union[PrinterCommand.PrintVoucher, _Mapping]] = ..., voucher_status_request: _Optional[_Union[PrinterCommand.VoucherStatusRequest, _Mapping]] = ..., status_request: _Optional[_Union[DeviceStatusRequest, _Mapping]] = ..., acknowledge: _Optional[_Union[AcknowledgeEvents, _Mapping]] = ..., print_test_voucher: _Optional[_Union[PrinterCommand.PrintTestVoucher, _Mapping]] = ..., record_request: _Optional[_Union[DeviceRecordRequest, _Mapping]] = ..., set_baseline: _Optional[_Union[PrinterBaseline, _Mapping]] = ..., print_receipt: _Optional[_Union[PrinterCommand.PrintReceipt, _Mapping]] = ..., receipt_status_request: _Optional[_Union[PrinterCommand.ReceiptStatusRequest, _Mapping]] = ...) -> None: ...

class PrinterEvent(_message.Message):
    __slots__ = ("event_id", "identity", "status", "voucher_printed", "voucher_failed", "voucher_status", "test_voucher_done", "printed_record", "receipt_done", "receipt_status")
    class Failure(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        FAILURE_UNSPECIFIED: _ClassVar[PrinterEvent.Failure]
        FAILURE_PAPER_OUT: _ClassVar[PrinterEvent.Failure]
        FAILURE_JAM: _ClassVar[PrinterEvent.Failure]
        FAILURE_HEAD_OPEN: _ClassVar[PrinterEvent.Failure]
        FAILURE_POWER_LOST: _ClassVar[PrinterEvent.Failure]
        FAILURE_BUSY: _ClassVar[PrinterEvent.Failure]
        FAILURE_BAD_REQUEST: _ClassVar[PrinterEvent.Failure]
    FAILURE_UNSPECIFIED: PrinterEvent.Failure
    FAILURE_PAPER_OUT: PrinterEvent.Failure
    FAILURE_JAM: PrinterEvent.Failure
    FAILURE_HEAD_OPEN: PrinterEvent.Failure
    FAILURE_POWER_LOST: PrinterEvent.Failure
    FAILURE_BUSY: PrinterEvent.Failure
    FAILURE_BAD_REQUEST: PrinterEvent.Failure
    class VoucherState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        VOUCHER_STATE_UNSPECIFIED: _ClassVar[PrinterEvent.VoucherState]
        VOUCHER_STATE_PRINTED: _ClassVar[PrinterEvent.VoucherState]
        VOUCHER_STATE_NOT_PRINTED: _ClassVar[PrinterEvent.VoucherState]
    VOUCHER_STATE_UNSPECIFIED: PrinterEvent.VoucherState
    VOUCHER_STATE_PRINTED: PrinterEvent.VoucherState
    VOUCHER_STATE_NOT_PRINTED: PrinterEvent.VoucherState
    class Status(_message.Message):
        __slots__ = ("paper_low", "paper_out", "jammed", "head_open", "busy")
        PAPER_LOW_FIELD_NUMBER: _ClassVar[int]
        PAPER_OUT_FIELD_NUMBER: _ClassVar[int]
        JAMMED_FIELD_NUMBER: _ClassVar[int]
        HEAD_OPEN_FIELD_NUMBER: _ClassVar[int]
        BUSY_FIELD_NUMBER: _ClassVar[int]
        paper_low: bool
        paper_out: bool
        jammed: bool
        head_open: bool
        busy: bool
        def __init__(self, paper_low: _Optional[bool] = ..., paper_out: _Optional[bool] = ..., jammed: _Optional[bool] = ..., head_open: _Optional[bool] = ..., busy: _Optional[bool] = ...) -> None: ...
    class VoucherPrinted(_message.Message):
        __slots__ = ("validation_number",)
        VALIDATION_NUMBER_FIELD_NUMBER: _ClassVar[int]
        validation_number: str
        def __init__(self, validation_number: _Optional[str] = ...) -> None: ...
    class VoucherFailed(_message.Message):
        __slots__ = ("validation_number", "failure", "partial")
        VALIDATION_NUMBER_FIELD_NUMBER: _ClassVar[int]
        FAILURE_FIELD_NUMBER: _ClassVar[int]
        PARTIAL_FIELD_NUMBER: _ClassVar[int]
        validation_number: str
        failure: PrinterEvent.Failure
        partial: bool
        def __init__(self, validation_number: _Optional[str] = ..., failure: _Optional[_Union[PrinterEvent.Failure, str]] = ..., partial: _Optional[bool] = ...) -> None: ...
    class VoucherStatusReply(_message.Message):
        __slots__ = ("validation_number", "state")
        VALIDATION_NUMBER_FIELD_NUMBER: _ClassVar[int]
        STATE_FIELD_NUMBER: _ClassVar[int]
        validation_number: str
        state: PrinterEvent.VoucherState
        def __init__(self, validation_number: _Optional[str] = ..., state: _Optional[_Union[PrinterEvent.VoucherState, str]] = ...) -> None: ...
    class TestVoucherDone(_message.Message):
        __slots__ = ("test_id", "printed", "failure")
        TEST_ID_FIELD_NUMBER: _ClassVar[int]
        PRINTED_FIELD_NUMBER: _ClassVar[int]
        FAILURE_FIELD_NUMBER: _ClassVar[int]
        test_id: int
        printed: bool
        failure: PrinterEvent.Failure
        def __init__(self, test_id: _Optional[int] = ..., printed: _Optional[bool] = ..., failure: _Optional[_Union[PrinterEvent.Failure, str]] = ...) -> None: ...
    class ReceiptDone(_message.Message):
        __slots__ = ("receipt_id", "printed", "failure")
        RECEIPT_ID_FIELD_NUMBER: _ClassVar[int]
        PRINTED_FIELD_NUMBER: _ClassVar[int]
        FAILURE_FIELD_NUMBER: _ClassVar[int]
        receipt_id: str
        printed: bool
        failure: PrinterEvent.Failure
        def __init__(self, receipt_id: _Optional[str] = ..., printed: _Optional[bool] = ..., failure: _Optional[_Union[PrinterEvent.Failure, str]] = ...) -> None: ...
    class ReceiptStatusReply(_message.Message):
        __slots__ = ("receipt_id", "printed")
        RECEIPT_ID_FIELD_NUMBER: _ClassVar[int]
        PRINTED_FIELD_NUMBER: _ClassVar[int]
        receipt_id: str
        printed: bool
        def __init__(self, receipt_id: _Optional[str] = ..., printed: _Optional[bool] = ...) -> None: ...
    class PrintedRecord(_message.Message):
        __slots__ = ("request_id", "lifetime_vouchers", "last_printed", "baseline")
        REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
        LIFETIME_VOUCHERS_FIELD_NUMBER: _ClassVar[int]
        LAST_PRINTED_FIELD_NUMBER: _ClassVar[int]
        BASELINE_FIELD_NUMBER: _ClassVar[int]
        request_id: int
        lifetime_vouchers: Tally
        last_printed: _containers.RepeatedCompositeFieldContainer[PrintedVoucher]
        baseline: PrinterBaseline
        def __init__(self, request_id: _Optional[int] = ..., lifetime_vouchers: _Optional[_Union[Tally, _Mapping]] = ..., last_printed: _Optional[_Iterable[_Union[PrintedVoucher, _Mapping]]] = ..., baseline: _Optional[_Union[PrinterBaseline, _Mapping]] = ...) -> None: ...
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VOUCHER_PRINTED_FIELD_NUMBER: _ClassVar[int]
    VOUCHER_FAILED_FIELD_NUMBER: _ClassVar[int]
    VOUCHER_STATUS_FIELD_NUMBER: _ClassVar[int]
    TEST_VOUCHER_DONE_FIELD_NUMBER: _ClassVar[int]
    PRINTED_RECORD_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_DONE_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_STATUS_FIELD_NUMBER: _ClassVar[int]
    event_id: int
    identity: DeviceIdentity
    status: PrinterEvent.Status
    voucher_printed: PrinterEvent.VoucherPrinted
    voucher_failed: PrinterEvent.VoucherFailed
    voucher_status: PrinterEvent.VoucherStatusReply
    test_voucher_done: PrinterEvent.TestVoucherDone
    printed_record: PrinterEvent.PrintedRecord
    receipt_done: PrinterEvent.ReceiptDone
    receipt_status: PrinterEvent.ReceiptStatusReply
    def __init__(self, event_id: _Optional[int] = ..., identity: _Optional[_Union[DeviceIdentity, _Mapping]] = ..., status: _Optional[_Union[PrinterEvent.Status, _Mapping]] = ..., voucher_printed: _Optional[_Union[PrinterEvent.VoucherPrinted, _Mapping]] = ..., voucher_failed: _Optional[_Union[PrinterEvent.VoucherFailed, _Mapping]] = ..., voucher_status: _Optional[_Union[PrinterEvent.VoucherStatusReply, _Mapping]] = ..., test_voucher_done: _Optional[_Union[PrinterEvent.TestVoucherDone, _Mapping]] = ..., printed_record: _Optional[_Union[PrinterEvent.PrintedRecord, _Mapping]] = ..., receipt_done: _Optional[_Union[PrinterEvent.ReceiptDone, _Mapping]] = ..., receipt_status: _Optional[_Union[PrinterEvent.ReceiptStatusReply, _Mapping]] = ...) -> None: ...
