"""The live feed: what changed on the floor since a cursor, as Server-Sent Events."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from kiosk.web.floor import Alarm, Floor, now_ms


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
        if len(parts) != 2 or not all(p.isdigit() and len(p) < 19 for p in parts):
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
        "online": online,
        "offline": len(terminals) - online,
        "disabled": sum(not t.enabled for t in terminals),
        "terminals": [t.as_json() for t in terminals],
    }


def message(event: str, data: dict[str, Any], event_id: str | None = None) -> str:
    """One Server-Sent Event."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, sort_keys=True)}\n\n"


def tick(floor: Floor, cursor: AlarmCursor) -> str:
    """The events of one round: the new alarms, then the floor."""
    at = now_ms()
    out = [message("alarm", a.as_json(), cursor.text()) for a in new_alarms(floor, cursor, at)]
    out.append(message("floor", floor_event(floor, at), cursor.text()))
    return "".join(out)
