"""The live feed: what changed on the floor since a cursor, as Server-Sent Events."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from kiosk.host.web.floor import OPEN_SHOWN, Alarm, Floor, now_ms


@dataclass
class AlarmCursor:
    """How far a browser has seen the alarm tables; ``'t,v'`` in an event's ``id``."""

    terminal: int = 0
    voucher: int = 0
    sent: set[str] = field(default_factory=set)  # communication-loss keys already sent

    @classmethod
    def parse(cls, text: str | None) -> AlarmCursor | None:
        """From ``'12,7'``; None when absent or malformed."""
        if not text:
            return None
        parts = text.split(",")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) < 19 for p in parts):
            return None
        return cls(int(parts[0]), int(parts[1]))

    def text(self) -> str:
        """The cursor as an event id."""
        return f"{self.terminal},{self.voucher}"


def new_alarms(floor: Floor, cursor: AlarmCursor, at: int) -> list[Alarm]:
    """Alarms past ``cursor``, oldest first, moving the cursor on."""
    out = floor.terminal_alarms_after(cursor.terminal) + floor.voucher_alarms_after(cursor.voucher)
    for alarm in out:
        number = int(alarm.key[2:])
        if alarm.key.startswith("t:"):
            cursor.terminal = max(cursor.terminal, number)
        else:
            cursor.voucher = max(cursor.voucher, number)
    for alarm in floor.communication_loss(at):
        if alarm.key not in cursor.sent:
            cursor.sent.add(alarm.key)
            out.append(alarm)
    out.sort(key=lambda a: (a.at_ms, a.key))
    return out


def floor_event(floor: Floor, at: int) -> dict[str, Any]:
    """The floor's terminals and counts (the ``floor`` event)."""
    terminals = floor.terminals(at)
    online = sum(t.online for t in terminals)
    return {
        "now_ms": at,
        "alarms": min(sum(floor.open_counts(at).values()), OPEN_SHOWN),
        "online": online,
        "offline": len(terminals) - online,
        "disabled": sum(not t.enabled for t in terminals),
        "terminals": [t.as_json() for t in terminals],
    }


class SharedFloor:
    """The ``floor`` event computed once per interval for every open stream (a floor of
    thousands of terminals is one query a second however many browsers watch it)."""

    def __init__(self, floor: Floor, max_age_seconds: float) -> None:
        self.floor = floor
        self.max_age = max_age_seconds
        self._lock = threading.Lock()
        self._made = -1e9
        self._data: dict[str, Any] = {}

    def get(self) -> dict[str, Any]:
        """The newest ``floor`` event, made again when older than the interval."""
        with self._lock:
            if time.monotonic() - self._made >= self.max_age:
                self._data = floor_event(self.floor, now_ms())
                self._made = time.monotonic()
            return self._data


def message(event: str, data: dict[str, Any], event_id: str | None = None) -> str:
    """One Server-Sent Event."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, sort_keys=True)}\n\n"


def tick(shared: SharedFloor, cursor: AlarmCursor) -> str:
    """The events of one round: the new alarms, then the floor."""
    alarms = new_alarms(shared.floor, cursor, now_ms())
    out = [message("alarm", a.as_json(), cursor.text()) for a in alarms]
    out.append(message("floor", shared.get(), cursor.text()))
    return "".join(out)
