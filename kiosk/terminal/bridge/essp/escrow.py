"""Where the item in an SSP validator is, as the host follows it from poll events (a table).

Poll events become :class:`Token`s; :data:`TABLE` maps (state, token) to the next state and
what the host must do.  A pair not in the table leaves the state as it is and does nothing
(a device repeating itself, or an event that does not concern the item).
"""

from __future__ import annotations

import enum

from kiosk.terminal.bridge.essp.codes import Event


class State(enum.Enum):
    """The item's place."""

    IDLE = "idle"
    READING = "reading"
    NOTE_ESCROW = "note in escrow"
    TICKET_ESCROW = "ticket in escrow"
    STACKING = "stacking"
    CREDITED = "credited"
    REJECTING = "rejecting"
    RETURNING = "returning"


class Token(enum.Enum):
    """A poll event as the escrow table sees it."""

    READING = "read, no value yet"
    NOTE_HELD = "read, note in escrow"
    TICKET_HELD = "ticket in escrow"
    STACKING = "stacking"
    CREDIT = "credit"
    TICKET_STACKED = "ticket stacked"
    STACKED = "stacked"
    REJECTING = "rejecting"
    REJECTED = "rejected"
    CLEARED_FRONT = "cleared from front"
    CLEARED_CASHBOX = "cleared into cash box"
    RESET = "device reset"


class Action(enum.Enum):
    """What a transition asks of the host."""

    NONE = "none"
    NOTE_ESCROWED = "report the note in escrow"
    ASK_BARCODE = "ask for the ticket's barcode"
    STACKED = "report the item stacked"
    RETURNED = "report the item returned"
    ASK_REJECT_REASON = "ask why the item was rejected"


def token(event: int, channel: int) -> Token | None:
    """The token for a poll event, or None for events the table ignores."""
    if event == Event.READ:
        return Token.NOTE_HELD if channel else Token.READING
    return _TOKENS.get(event)


_TOKENS: dict[int, Token] = {
    Event.TICKET_ESCROW: Token.TICKET_HELD,
    Event.STACKING: Token.STACKING,
    Event.CREDIT: Token.CREDIT,
    Event.TICKET_STACKED: Token.TICKET_STACKED,
    Event.STACKED: Token.STACKED,
    Event.REJECTING: Token.REJECTING,
    Event.REJECTED: Token.REJECTED,
    Event.CLEARED_FROM_FRONT: Token.CLEARED_FRONT,
    Event.CLEARED_INTO_CASHBOX: Token.CLEARED_CASHBOX,
    Event.SLAVE_RESET: Token.RESET,
}

S, T, A = State, Token, Action
_HELD = (S.NOTE_ESCROW, S.TICKET_ESCROW)
_BEFORE = (S.IDLE, S.READING)

TABLE: dict[tuple[State, Token], tuple[State, Action]] = {
    **{(s, T.READING): (S.READING, A.NONE) for s in _BEFORE},
    **{(s, T.NOTE_HELD): (S.NOTE_ESCROW, A.NOTE_ESCROWED) for s in _BEFORE},
    **{(s, T.TICKET_HELD): (S.TICKET_ESCROW, A.ASK_BARCODE) for s in _BEFORE},
    **{(s, T.STACKING): (S.STACKING, A.NONE) for s in _HELD},
    (S.NOTE_ESCROW, T.CREDIT): (S.CREDITED, A.STACKED),
    (S.STACKING, T.CREDIT): (S.CREDITED, A.STACKED),
    (S.TICKET_ESCROW, T.TICKET_STACKED): (S.IDLE, A.STACKED),
    (S.STACKING, T.TICKET_STACKED): (S.IDLE, A.STACKED),
    (S.CREDITED, T.STACKED): (S.IDLE, A.NONE),
    **{(s, T.REJECTING): (S.REJECTING, A.NONE) for s in _BEFORE},
    **{(s, T.REJECTING): (S.RETURNING, A.NONE) for s in _HELD},
    **{(s, T.REJECTED): (S.IDLE, A.ASK_REJECT_REASON) for s in (*_BEFORE, S.REJECTING)},
    **{(s, T.REJECTED): (S.IDLE, A.RETURNED) for s in (*_HELD, S.RETURNING)},
    **{(s, T.CLEARED_FRONT): (S.IDLE, A.RETURNED) for s in (*_HELD, S.STACKING, S.RETURNING)},
    **{(s, T.CLEARED_CASHBOX): (S.IDLE, A.STACKED) for s in (*_HELD, S.STACKING, S.RETURNING)},
    # a reset leaves an item in the path where it was: the device clears it (front or box)
    **{(s, T.RESET): (S.IDLE, A.NONE) for s in (*_BEFORE, S.REJECTING, S.CREDITED)},
}

#: what the host reports of an item it never saw, at the first polls after its link came up
#: (e.g. the bridge restarted, and its first POLL accepted the note the device held)
UNSEEN_ITEM: dict[Token, Action] = {
    T.CREDIT: A.STACKED,
    T.TICKET_STACKED: A.STACKED,
    T.CLEARED_CASHBOX: A.STACKED,
    T.CLEARED_FRONT: A.RETURNED,
}


def step(state: State, tok: Token) -> tuple[State, Action]:
    """The transition for ``tok`` in ``state`` (unchanged and no action when none is listed)."""
    return TABLE.get((state, tok), (state, A.NONE))
