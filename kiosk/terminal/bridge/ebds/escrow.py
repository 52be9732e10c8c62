"""Where the item in an EBDS acceptor is, as the host follows it from omnibus replies (a table).

Each reply becomes tokens: the one-shot events first (stacked, returned, rejected), then the
state the device is in.  :data:`TABLE` maps (state, token) to the next state and the host's
action; a pair not listed changes nothing.
"""

from __future__ import annotations

import enum

from kiosk.terminal.bridge.ebds.codes import S0, S1


class State(enum.Enum):
    IDLE = "idle"
    ACCEPTING = "accepting"
    ESCROW = "escrow"
    STACKING = "stacking"
    RETURNING = "returning"


class Token(enum.Enum):
    IDLING = "idling"
    ACCEPTING = "accepting"
    ESCROWED = "escrowed"
    STACKING = "stacking"
    RETURNING = "returning"
    STACKED = "stacked"
    RETURNED = "returned"
    REJECTED = "rejected"


class Action(enum.Enum):
    NONE = "none"
    ESCROWED = "report the item in escrow"
    STACKED = "report the item stacked"
    RETURNED = "report the item returned"
    REJECTED = "report the item rejected"


def tokens(s0: int, s1: int) -> list[Token]:
    """The tokens of one reply's status bytes, events first."""
    out: list[Token] = []
    if s0 & S0.STACKED:
        out.append(Token.STACKED)
    if s0 & S0.RETURNED:
        out.append(Token.RETURNED)
    if s1 & S1.REJECTED:
        out.append(Token.REJECTED)
    for bit, tok in (
        (S0.ESCROWED, Token.ESCROWED),
        (S0.STACKING, Token.STACKING),
        (S0.RETURNING, Token.RETURNING),
        (S0.ACCEPTING, Token.ACCEPTING),
        (S0.IDLING, Token.IDLING),
    ):
        if s0 & bit:
            out.append(tok)
            break
    return out


S, T, A = State, Token, Action
_BEFORE = (S.IDLE, S.ACCEPTING)
_OUT = (S.ESCROW, S.STACKING, S.RETURNING)

TABLE: dict[tuple[State, Token], tuple[State, Action]] = {
    **{(s, T.IDLING): (S.IDLE, A.NONE) for s in _BEFORE},
    **{(s, T.ACCEPTING): (S.ACCEPTING, A.NONE) for s in _BEFORE},
    **{(s, T.ESCROWED): (S.ESCROW, A.ESCROWED) for s in _BEFORE},
    **{(s, T.STACKING): (S.STACKING, A.NONE) for s in (S.ESCROW, S.STACKING)},
    **{(s, T.RETURNING): (S.RETURNING, A.NONE) for s in (S.ESCROW, S.RETURNING)},
    **{(s, T.STACKED): (S.IDLE, A.STACKED) for s in _OUT},
    **{(s, T.RETURNED): (S.IDLE, A.RETURNED) for s in _OUT},
    **{(s, T.REJECTED): (S.IDLE, A.REJECTED) for s in _BEFORE},
}

#: what the host reports of an item it never saw, in the first replies after its link came up
#: (e.g. the bridge restarted while the acceptor was stacking)
UNSEEN_ITEM: dict[Token, Action] = {T.STACKED: A.STACKED, T.RETURNED: A.RETURNED}


def step(state: State, tok: Token) -> tuple[State, Action]:
    """The transition for ``tok`` in ``state`` (unchanged and no action when none is listed)."""
    return TABLE.get((state, tok), (state, A.NONE))
