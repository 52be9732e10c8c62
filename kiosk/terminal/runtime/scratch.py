"""A fast independent copy of the terminal state, so a step is computed off the live state.

The runtime computes a step (its events, the cards they call for, the projections) on a
scratch copy and makes the copy the live state only once the journal commit has returned
(decision 0007): a failed commit leaves the live state exactly as the journal has it.

:func:`clone` copies the state's JSON-like data (dicts, lists, mutable dataclasses, meters)
and shares what cannot change (numbers, strings, enums, frozen dataclasses such as the
configuration).  It walks every attribute, so a field added to the state later is copied too;
a type it does not know falls back to :func:`copy.deepcopy`.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

from kiosk.terminal.core.meters import Meters

T = TypeVar("T")

_ATOMS: frozenset[type] = frozenset({int, str, bool, float, bytes, type(None)})


def clone(value: T) -> T:
    """An independent copy of ``value`` (a state, a round, or any of their contents)."""
    return _clone(value)  # type: ignore[no-any-return]


def _clone(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:  # the most common container, copied here without a further call
        return {k: v if type(v) in _ATOMS else _clone(v) for k, v in value.items()}
    copier = _COPIERS.get(kind)
    if copier is None:
        copier = _COPIERS[kind] = _copier(kind)
    return copier(value)


def _same(value: Any) -> Any:
    return value


def _dict(value: dict[Any, Any]) -> dict[Any, Any]:
    return {k: v if type(v) in _ATOMS else _clone(v) for k, v in value.items()}


def _list(value: list[Any]) -> list[Any]:
    return [v if type(v) in _ATOMS else _clone(v) for v in value]


def _tuple(value: tuple[Any, ...]) -> tuple[Any, ...]:
    return value if all(type(v) in _ATOMS for v in value) else tuple(map(_clone, value))


def _meters(value: Meters) -> Meters:
    meters = object.__new__(Meters)  # its values are already in range: no re-check
    meters._values = dict(value._values)
    return meters


def _instance(value: Any) -> Any:
    """A mutable dataclass: its attributes copied."""
    new = object.__new__(type(value))
    attributes = getattr(value, "__dict__", None)
    if attributes is not None:  # the common case: one dict comprehension
        new.__dict__.update(_dict(attributes))
        return new
    for f in dataclasses.fields(value):  # a dataclass with __slots__
        object.__setattr__(new, f.name, _clone(getattr(value, f.name)))
    return new


#: per type, how a value of it is copied (found once per type by :func:`_copier`)
_COPIERS: dict[type, Callable[[Any], Any]] = {
    dict: _dict,
    list: _list,
    tuple: _tuple,
    Meters: _meters,
}


def _copier(kind: type) -> Callable[[Any], Any]:
    if issubclass(kind, Enum):
        return _same
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None:
        return _same if params.frozen else _instance  # frozen (the configuration): shared
    return copy.deepcopy
