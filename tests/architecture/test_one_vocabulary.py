"""One error vocabulary and one table phase (decision 0048): each is defined once, in the
shared kernel, and every layer uses that one."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from kiosk.host.web.commands import checked
from kiosk.kernel import errors
from kiosk.kernel.games.table_phase import TablePhase
from kiosk.table.core import core
from kiosk.table.presentation.dealer import PHASE_TITLES
from kiosk.table.presentation.i18n_dealer import text
from kiosk.terminal.core import commands as c
from kiosk.terminal.presentation.table_status import phase_word
from kiosk.terminal.seat import status as seat_status
from kiosk.terminal.service.shell import command_of

ROOT = Path(__file__).resolve().parents[2]
PHASE_VALUES = {"idle", "betting", "bets_closed", "deciding", "dealing", "settled"}


@functools.cache
def _classes() -> tuple[tuple[str, ast.ClassDef], ...]:
    """Every class of the product, with its file (parsed once for both tests)."""
    found = []
    for path in sorted([*ROOT.joinpath("kiosk").rglob("*.py"), *ROOT.joinpath("ui").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = str(path.relative_to(ROOT))
        found += [(rel, n) for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    return tuple(found)


def test_command_and_usage_errors_are_defined_once() -> None:
    where = {name: [p for p, n in _classes() if n.name == name] for name in errors.__all__}
    assert where == {
        "CommandError": ["kiosk/kernel/errors.py"],
        "UsageError": ["kiosk/kernel/errors.py"],
    }


#: enums that share some of the phases' words but are not the table's phase
NOT_PHASES = {
    "kiosk/table/core/dealer_records.py:SeatState",  # one seat in the round (dealer.proto)
    # the bar's step: a phase, the link or a pause
    "kiosk/terminal/presentation/table_bar.py:TableStep",
}


def test_one_table_phase_enum() -> None:
    """No class but TablePhase spells the controller's phases as its members' values."""
    spelled = []
    for path, node in _classes():
        values = {
            stmt.value.value
            for stmt in node.body
            if isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)
        }
        if len(values & PHASE_VALUES) >= 3:
            spelled.append(f"{path}:{node.name}")
    assert sorted(set(spelled) - NOT_PHASES) == ["kiosk/kernel/games/table_phase.py:TablePhase"]


def test_every_layer_uses_the_one_vocabulary() -> None:
    assert c.CommandError is errors.CommandError
    for kind in (c.IllegalCommandError, c.TerminalLockedError, c.InvalidArgumentError):
        assert issubclass(kind, errors.CommandError)  # decision 0013's typed kinds kept
    with pytest.raises(errors.CommandError, match="no terminal 'T9' on this host"):
        checked("T9", "enable", "", ["T1"])
    with pytest.raises(errors.UsageError, match="unknown command 'frobnicate'"):
        command_of(["frobnicate"])
    assert core.Phase is TablePhase and seat_status.TablePhase is TablePhase


def test_the_wire_values_and_the_words_are_unchanged() -> None:
    assert {p.value for p in TablePhase} == PHASE_VALUES | {"voided"}
    assert set(PHASE_TITLES) == PHASE_VALUES  # the Dealer Terminal's wire strings
    assert text("en", PHASE_TITLES[TablePhase.BETS_CLOSED]) == "DEALING"
    # the seat's text line says what it said before the seat used the controller's phases
    assert [phase_word(p) for p in TablePhase] == [
        "idle",
        "betting",
        "dealing",
        "deciding",
        "settling",
        "settled",
        "voided",
    ]
