"""The chained-journal primitive (:mod:`kiosk.kernel.chain`) against vectors as data: known rows of
each journal and the chain hashes the released code wrote for them
(``data/chain_vectors.json``, computed by the code before the primitive; the terminal's first
rows are those of the stored previous-release journal).  Both journals read them unchanged."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from kiosk.kernel.chain import (
    GENESIS,
    ORIGIN,
    TABLE,
    TERMINAL,
    AlteredRowError,
    Chain,
    ChainHead,
    MissingRowError,
)
from kiosk.table.core.journal import JournalChainError, TableJournal, chain
from kiosk.terminal.store.journal import IntegrityError, Journal, row_hash

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "chain_vectors.json").read_text(encoding="utf-8")
)
CHAINS = {"terminal": TERMINAL, "table": TABLE}


def _stored(name: str) -> list[tuple[int, str, str, bytes]]:
    vector = VECTORS[name]
    return [
        (seq, kind, body, bytes.fromhex(h))
        for seq, ((kind, body), h) in enumerate(
            zip(vector["rows"], vector["hashes"], strict=True), 1
        )
    ]


def test_the_genesis_hash_is_32_zero_bytes() -> None:
    assert GENESIS.hex() == VECTORS["genesis"] and ORIGIN == (0, GENESIS)


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_known_rows_chain_to_known_hashes(name: str) -> None:
    vector, primitive = VECTORS[name], CHAINS[name]
    head, rows = primitive.extend(ORIGIN, [(kind, body) for kind, body in vector["rows"]])
    assert [row.hash.hex() for row in rows] == vector["hashes"]
    assert head == ChainHead(len(rows), bytes.fromhex(vector["hashes"][-1]))
    assert primitive.count(_stored(name)) == len(rows)
    # extending from a head in the middle gives the same rows
    middle = ChainHead(3, bytes.fromhex(vector["hashes"][2]))
    _, rest = primitive.extend(middle, [(kind, body) for kind, body in vector["rows"][3:]])
    assert [row.hash.hex() for row in rest] == vector["hashes"][3:]
    assert primitive.count(_stored(name)[3:], middle) == len(rest)


def test_the_journals_hash_functions_are_the_primitives_links() -> None:
    for seq, _kind, body, stored in _stored("terminal"):
        prev = GENESIS if seq == 1 else _stored("terminal")[seq - 2][3]
        assert row_hash(prev, seq, body) == stored
    for seq, kind, body, stored in _stored("table"):
        prev = GENESIS if seq == 1 else _stored("table")[seq - 2][3]
        assert chain(prev, seq, kind, body) == stored


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_a_changed_or_missing_row_is_a_typed_break(name: str) -> None:
    primitive: Chain = CHAINS[name]
    rows = _stored(name)
    changed = [*rows[:2], (3, rows[2][1], rows[2][2] + " ", rows[2][3]), *rows[3:]]
    with pytest.raises(AlteredRowError) as altered:
        primitive.count(changed)
    assert altered.value.seq == 3
    with pytest.raises(MissingRowError) as missing:
        primitive.count([*rows[:2], *rows[3:]])
    assert (missing.value.seq, missing.value.found) == (3, 4)
    # a row swapped with the next keeps its own hash but not its place
    with pytest.raises(AlteredRowError):
        primitive.count([rows[0], (2, *rows[2][1:]), (3, *rows[1][1:]), *rows[3:]])


def test_the_terminal_journal_verifies_the_vectors(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    rows = _stored("terminal")
    journal.db.executemany(
        "INSERT INTO journal VALUES (?, 0, ?, ?, ?)", [(s, k, b, h) for s, k, b, h in rows]
    )
    assert journal.verify_chain() == len(rows) and journal.verify_chain(after=3) == len(rows) - 3
    assert journal.head() == (len(rows), rows[-1][3])
    journal.db.execute("UPDATE journal SET body = body || ' ' WHERE seq = 4")
    with pytest.raises(IntegrityError, match=r"^journal row 4 fails its chain hash$"):
        journal.verify_chain()
    journal.db.execute("DELETE FROM journal WHERE seq = 4")
    with pytest.raises(IntegrityError, match=r"^journal row 4 is missing \(next is 5\)$"):
        journal.verify_chain()
    journal.close()


def test_the_table_journal_reads_the_vectors(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    TableJournal(path, "T1").close()
    rows = _stored("table")[: VECTORS["table"]["decodable"]]
    db = sqlite3.connect(path, isolation_level=None)
    db.executemany(
        "INSERT INTO journal VALUES (?, 0, ?, ?, ?)", [(s, k, b, h) for s, k, b, h in rows]
    )
    journal = TableJournal(path, "T1", readonly=True)
    assert len(list(journal.events())) == len(rows)
    assert journal.head == (len(rows), rows[-1][3])
    journal.close()
    db.execute("UPDATE journal SET body = replace(body, '1700000000100', '1700000000101')")
    journal = TableJournal(path, "T1", readonly=True)
    with pytest.raises(JournalChainError, match=r"^table journal row 2 breaks the hash chain$"):
        list(journal.events())
    journal.close()
    db.execute("DELETE FROM journal WHERE seq = 2")
    journal = TableJournal(path, "T1", readonly=True)
    with pytest.raises(
        JournalChainError, match=r"^table journal row 3 breaks the hash chain$"
    ) as broken:
        list(journal.events())
    assert isinstance(broken.value, IntegrityError) and isinstance(
        broken.value.__cause__, MissingRowError
    )
    journal.close()
    db.close()
