from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ShufflerCommand(_message.Message):
    __slots__ = ("start_round", "take_pack", "read_again", "end_round")
    START_ROUND_FIELD_NUMBER: _ClassVar[int]
    TAKE_PACK_FIELD_NUMBER: _ClassVar[int]
    READ_AGAIN_FIELD_NUMBER: _ClassVar[int]
    END_ROUND_FIELD_NUMBER: _ClassVar[int]
    start_round: StartRound
    take_pack: TakePack
    read_again: ReadAgain
    end_round: EndRound
    def __init__(self, start_round: _Optional[_Union[StartRound, _Mapping]] = ..., take_pack: _Optional[_Union[TakePack, _Mapping]] = ..., read_again: _Optional[_Union[ReadAgain, _Mapping]] = ..., end_round: _Optional[_Union[EndRound, _Mapping]] = ...) -> None: ...

class StartRound(_message.Message):
    __slots__ = ("game_number", "next_pack")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    NEXT_PACK_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    next_pack: int
    def __init__(self, game_number: _Optional[int] = ..., next_pack: _Optional[int] = ...) -> None: ...

class TakePack(_message.Message):
    __slots__ = ("game_number", "pack")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    PACK_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    pack: int
    def __init__(self, game_number: _Optional[int] = ..., pack: _Optional[int] = ...) -> None: ...

class ReadAgain(_message.Message):
    __slots__ = ("game_number", "pack")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    PACK_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    pack: int
    def __init__(self, game_number: _Optional[int] = ..., pack: _Optional[int] = ...) -> None: ...

class EndRound(_message.Message):
    __slots__ = ("game_number",)
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    def __init__(self, game_number: _Optional[int] = ...) -> None: ...

class ShufflerReport(_message.Message):
    __slots__ = ("deck_read", "pack_presented", "fault")
    DECK_READ_FIELD_NUMBER: _ClassVar[int]
    PACK_PRESENTED_FIELD_NUMBER: _ClassVar[int]
    FAULT_FIELD_NUMBER: _ClassVar[int]
    deck_read: DeckRead
    pack_presented: PackPresented
    fault: ShufflerFault
    def __init__(self, deck_read: _Optional[_Union[DeckRead, _Mapping]] = ..., pack_presented: _Optional[_Union[PackPresented, _Mapping]] = ..., fault: _Optional[_Union[ShufflerFault, _Mapping]] = ...) -> None: ...

class DeckRead(_message.Message):
    __slots__ = ("game_number", "shuffle", "cards")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SHUFFLE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    shuffle: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, game_number: _Optional[int] = ..., shuffle: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...

class PackPresented(_message.Message):
    __slots__ = ("game_number", "shuffle", "pack", "cards")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SHUFFLE_FIELD_NUMBER: _ClassVar[int]
    PACK_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    shuffle: int
    pack: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, game_number: _Optional[int] = ..., shuffle: _Optional[int] = ..., pack: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...

class ShufflerFault(_message.Message):
    __slots__ = ("game_number", "pack", "kind", "detail")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[ShufflerFault.Kind]
        KIND_JAM: _ClassVar[ShufflerFault.Kind]
        KIND_EMPTY: _ClassVar[ShufflerFault.Kind]
    KIND_UNSPECIFIED: ShufflerFault.Kind
    KIND_JAM: ShufflerFault.Kind
    KIND_EMPTY: ShufflerFault.Kind
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    PACK_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    pack: int
    kind: ShufflerFault.Kind
    detail: str
    def __init__(self, game_number: _Optional[int] = ..., pack: _Optional[int] = ..., kind: _Optional[_Union[ShufflerFault.Kind, str]] = ..., detail: _Optional[str] = ...) -> None: ...
