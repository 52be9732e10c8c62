"""The exception queue: priorities, the bound, the chain, the journal cursor."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kiosk.terminal.sas.queue import ExceptionQueue, NewException, QueueError, RowEffects
from kiosk.terminal.sas.wire import ExceptionCode as X


def _drain(queue: ExceptionQueue, rte: bool = False) -> list[int]:
    codes = []
    while (item := queue.next(rte)) is not None:
        codes.append(item.code)
        queue.mark_sent([item.id])
    return codes


def test_highest_priority_first_then_in_order(tmp_path: Path) -> None:
    queue = ExceptionQueue(tmp_path)
    queue.push(NewException(c) for c in (X.BILL_ACCEPTED_5, X.SLOT_DOOR_OPENED, X.HANDPAY_PENDING))
    queue.push([NewException(X.GAME_STARTED, rte_only=True), NewException(X.SLOT_DOOR_CLOSED)])
    assert _drain(queue) == [
        X.HANDPAY_PENDING,
        X.SLOT_DOOR_OPENED,
        X.SLOT_DOOR_CLOSED,
        X.BILL_ACCEPTED_5,
    ]
    assert _drain(queue, rte=True) == [X.GAME_STARTED]


def test_bounded_with_one_overflow_and_money_never_dropped(tmp_path: Path) -> None:
    queue = ExceptionQueue(tmp_path, capacity=5)
    queue.push([NewException(X.HANDPAY_PENDING)])
    queue.push(NewException(X.BILL_ACCEPTED_1) for _ in range(10))
    queue.push([NewException(X.TICKET_TRANSFER_COMPLETE)])
    codes = _drain(queue)
    assert codes[:3] == [X.HANDPAY_PENDING, X.TICKET_TRANSFER_COMPLETE, X.EXCEPTION_BUFFER_OVERFLOW]
    assert codes.count(X.EXCEPTION_BUFFER_OVERFLOW) == 1
    assert len(codes) == 2 + 5  # the money ones, then the bound (the overflow included)


def test_cursor_takes_each_journal_row_once_and_survives_reopening(tmp_path: Path) -> None:
    queue = ExceptionQueue(tmp_path)
    rows = [(5, RowEffects((NewException(X.SLOT_DOOR_OPENED),))), (6, RowEffects())]
    assert queue.take_events(rows) == 6
    assert queue.take_events(rows) == 6  # the same rows again: nothing new
    queue.push([NewException(X.TICKET_INSERTED, volatile=True)])
    queue.close()
    again = ExceptionQueue(tmp_path)
    assert again.cursor == 6
    assert _drain(again) == [X.SLOT_DOOR_OPENED]  # the volatile one did not survive


def test_a_changed_row_breaks_the_chain(tmp_path: Path) -> None:
    queue = ExceptionQueue(tmp_path)
    queue.push(NewException(c) for c in (X.SLOT_DOOR_OPENED, X.SLOT_DOOR_CLOSED))
    queue.close()
    with sqlite3.connect(tmp_path / "sas.sqlite3") as db:
        db.execute("UPDATE exceptions SET code = ? WHERE id = 1", (X.BILL_ACCEPTED_100,))
    with pytest.raises(QueueError, match="row 1 altered"):
        ExceptionQueue(tmp_path)


def test_pruning_keeps_the_chain_verifiable(tmp_path: Path) -> None:
    queue = ExceptionQueue(tmp_path, keep=10)
    queue.push(NewException(X.SLOT_DOOR_OPENED) for _ in range(50))
    queue.mark_sent(range(1, 51))
    queue.flush()
    assert queue.verify() == 10  # the 40 oldest forgotten, the chain goes on from them
    queue.push([NewException(X.SLOT_DOOR_CLOSED)])
    queue.close()
    again = ExceptionQueue(tmp_path, keep=10)
    assert again.verify() == 11
    assert _drain(again) == [X.SLOT_DOOR_CLOSED]


def test_the_sent_log_wins_over_a_store_the_writer_never_reached(tmp_path: Path) -> None:
    queue = ExceptionQueue(tmp_path)
    queue.push([NewException(X.SLOT_DOOR_OPENED), NewException(X.SLOT_DOOR_CLOSED)])
    first = queue.next(False)
    assert first is not None
    queue.mark_sent([first.id])
    queue.close()
    # as if the process was killed before its writer thread folded the mark into the store
    with sqlite3.connect(tmp_path / "sas.sqlite3") as db:
        db.execute("UPDATE exceptions SET state = 'queued'")
    again = ExceptionQueue(tmp_path)
    assert _drain(again) == [X.SLOT_DOOR_CLOSED]  # the one sent is not said again
    assert (tmp_path / "sas.sent").stat().st_size == 8  # folded, then only the new mark


def test_volatile_exceptions_never_reach_the_disk(tmp_path: Path) -> None:
    queue = ExceptionQueue(tmp_path)
    queue.push([NewException(X.SYSTEM_VALIDATION_REQUEST, volatile=True)])
    assert queue.depth() == 1 and queue.history() == []
    assert _drain(queue) == [X.SYSTEM_VALIDATION_REQUEST]
    assert (tmp_path / "sas.sent").stat().st_size == 0
