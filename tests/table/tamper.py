"""Tampers with a table's record, for the table tamper campaign (and its small default-run
version): each :class:`Tamper` changes the stopped controller's journal file as someone who can
write the data directory would (the chain recomputed where that helps the forger), and names
the words the refusal must contain.  To add a tamper, add it to :data:`TAMPERS` (a journal
tamper) or give the campaign another runtime step (as :func:`replay_a_seat_message`).

The table signer's state (its key and anchor) is never touched: that is the boundary.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kiosk.table.core import events as te
from kiosk.table.core.journal import GENESIS, chain


@dataclass(frozen=True)
class Tamper:
    """A change to a stopped table's journal; ``expect``: words of the one-line refusal (any
    of them)."""

    name: str
    apply: Callable[[Path, random.Random], str]
    expect: tuple[str, ...]


def _rechain(db: sqlite3.Connection, start: int) -> bytes:
    """Recompute every row's hash from ``start`` on (what a forger does); the new head."""
    prev = GENESIS
    if start > 1:
        prev = bytes(
            db.execute("SELECT hash FROM journal WHERE seq = ?", (start - 1,)).fetchone()[0]
        )
    rows = db.execute("SELECT seq, kind, body FROM journal WHERE seq >= ? ORDER BY seq", (start,))
    for seq, kind, body in rows.fetchall():
        prev = chain(prev, seq, kind, body)
        db.execute("UPDATE journal SET hash = ? WHERE seq = ?", (prev, seq))
    return prev


def _resign_head(db: sqlite3.Connection, head: bytes) -> None:
    """Point the last signed head row at the forged chain (its signature stays the old one:
    the forger has no key)."""
    seq = db.execute("SELECT MAX(seq) FROM journal").fetchone()[0]
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    if "heads" in tables:  # (a journal of a release before the signer has none)
        db.execute("UPDATE heads SET hash = ? WHERE seq = ?", (head, seq))


def _open(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def forge_a_win(path: Path, rand: random.Random) -> str:
    """A seat's loss edited into a win in the last settlement that has a loss, the chain
    recomputed, the signed head row pointed at it and the recall row rewritten to match."""
    db = _open(path)
    try:
        rows = db.execute(
            "SELECT seq, body FROM journal WHERE kind = 'RoundSettled' ORDER BY seq DESC"
        ).fetchall()
        for seq, body in rows:
            data = json.loads(body)
            for outcome in data["outcomes"]:
                lost = [w for w in outcome["wagers"] if w["paid"] == 0 and w["stake"] > 0]
                if not lost:
                    continue
                wager = rand.choice(lost)
                wager["paid"], wager["outcome"] = wager["stake"] * 5, "win"
                forged = json.dumps(data, sort_keys=True, separators=(",", ":"))
                db.execute("UPDATE journal SET body = ? WHERE seq = ?", (forged, seq))
                _resign_head(db, _rechain(db, seq))
                _forge_recall(db, data["game_number"], outcome["seat"], wager)
                return f"game {data['game_number']} seat {outcome['seat']}: a loss paid 5x"
        raise LookupError("no losing wager to forge")
    finally:
        db.close()


def _forge_recall(db: sqlite3.Connection, game: int, seat: int, wager: dict[str, object]) -> None:
    row = db.execute("SELECT body FROM recall WHERE game_number = ?", (game,)).fetchone()
    if row is None:
        return
    record = json.loads(row[0])
    for outcome in record["outcomes"]:
        if outcome["seat"] == seat:
            for w in outcome["wagers"]:
                if w["spot"] == wager["spot"]:
                    w.update(wager)
    body = json.dumps(record, sort_keys=True, separators=(",", ":"))
    db.execute("UPDATE recall SET body = ? WHERE game_number = ?", (body, game))


def forge_a_row_unchained(path: Path, rand: random.Random) -> str:
    """A wager's stake changed in place, the chain left as it was."""
    db = _open(path)
    try:
        rows = db.execute("SELECT seq, body FROM journal WHERE kind = 'WagerAccepted'").fetchall()
        seq, body = rand.choice(rows)
        data = json.loads(body)
        data["bet"]["wagers"][0][1] += 100
        db.execute("UPDATE journal SET body = ? WHERE seq = ?", (json.dumps(data), seq))
        return f"row {seq}: a stake raised, unchained"
    finally:
        db.close()


def forge_a_recall(path: Path, rand: random.Random) -> str:
    """A finished round's recall row: a seat's payout raised (the journal rows untouched)."""
    db = _open(path)
    try:
        rows = db.execute("SELECT game_number, body FROM recall").fetchall()
        settled = [(g, b) for g, b in rows if json.loads(b)["outcomes"]]
        game, body = rand.choice(settled)
        record = json.loads(body)
        record["outcomes"][0]["wagers"][0]["paid"] += 1000
        forged = json.dumps(record, sort_keys=True, separators=(",", ":"))
        db.execute("UPDATE recall SET body = ? WHERE game_number = ?", (forged, game))
        return f"recall of game {game}: a payout raised"
    finally:
        db.close()


def cut_the_tail(path: Path, rand: random.Random) -> str:
    """The last rows deleted, back past at least two signed commits (one commit is the
    residual a kill between signing and committing leaves, decision 0036), with their head
    rows and the recall of rounds finished in them."""
    db = _open(path)
    try:
        heads = [s for (s,) in db.execute("SELECT seq FROM heads ORDER BY seq DESC").fetchall()]
        if len(heads) < 4:
            raise LookupError("too few commits to cut two")
        keep = heads[rand.randint(2, min(len(heads) - 1, 12))]
        cut = db.execute("SELECT COUNT(*) FROM journal WHERE seq > ?", (keep,)).fetchone()[0]
        games = [
            json.loads(b)["game_number"]
            for (b,) in db.execute(
                "SELECT body FROM journal WHERE seq > ? AND kind IN ('RoundClosed', 'RoundVoided')",
                (keep,),
            )
        ]
        db.execute("DELETE FROM journal WHERE seq > ?", (keep,))
        db.execute("DELETE FROM heads WHERE seq > ?", (keep,))
        db.executemany("DELETE FROM recall WHERE game_number = ?", [(g,) for g in games])
        return f"{cut} rows cut back to row {keep}"
    finally:
        db.close()


def strip_the_signatures(path: Path, rand: random.Random) -> str:
    """The journal made to look like a previous release's: epoch and head rows removed."""
    db = _open(path)
    try:
        db.execute("DELETE FROM meta WHERE key = 'epoch'")
        db.execute("DELETE FROM heads")
        return "epoch and signatures stripped"
    finally:
        db.close()


def delete_the_journal(path: Path, rand: random.Random) -> str:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return "journal deleted"


TAMPERS: tuple[Tamper, ...] = (
    Tamper("forged win, chain recomputed", forge_a_win, ("signature does not verify",)),
    Tamper("forged row, chain kept", forge_a_row_unchained, ("breaks the hash chain",)),
    Tamper("forged recall row", forge_a_recall, ("recall of game",)),
    Tamper("cut tail", cut_the_tail, ("behind the signer's anchor",)),
    Tamper("stripped signatures", strip_the_signatures, ("the table journal is unsigned",)),
    Tamper("deleted journal", delete_the_journal, ("missing or empty",)),
)


def replaced_by(older: Path) -> Tamper:
    """The journal replaced by an older copy of itself (``older``: a :func:`backup` made
    earlier)."""

    def apply(path: Path, rand: random.Random) -> str:
        if _last_row(older / path.name) >= _last_row(path):
            # no row since the copy was made (the seats had not played yet): the copy is the
            # journal itself, nothing to tamper with yet
            raise LookupError("no row since the older copy")
        restore(path, older)
        return f"replaced by the copy in {older}"

    return Tamper("replaced by an older copy", apply, ("behind the signer's anchor",))


def _last_row(path: Path) -> int:
    """The last row of a stopped journal (its WAL read too), 0 if none; read from a copy, so
    that the reading changes neither file."""
    with tempfile.TemporaryDirectory() as scratch:
        backup(path, Path(scratch))
        db = sqlite3.connect(Path(scratch) / path.name)
        try:
            row = db.execute("SELECT max(seq) FROM journal").fetchone()
        finally:
            db.close()
    return int(row[0] or 0)


def backup(path: Path, to: Path) -> None:
    """Copy a stopped journal (and its WAL, if any) aside."""
    to.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        target = to / f"{path.name}{suffix}"
        target.unlink(missing_ok=True)
        if source.exists():
            shutil.copyfile(source, target)


def restore(path: Path, frm: Path) -> None:
    """Put a copy made by :func:`backup` back."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
        source = frm / f"{path.name}{suffix}"
        if source.exists():
            shutil.copyfile(source, Path(f"{path}{suffix}"))


def replay_a_seat_message(events: list[te.Event], rand: random.Random) -> te.WagerAccepted:
    """The wager report to send again: one the controller already journaled."""
    taken = [ev for ev in events if isinstance(ev, te.WagerAccepted)]
    return rand.choice(taken[-8:])
