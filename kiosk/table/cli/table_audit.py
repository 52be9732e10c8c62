"""``turbokiosk table audit``, and the verification ``table recall`` and ``table meters`` run
first (decision 0036, docs/table.md "The signed table record").

``audit`` opens the table's journal read-only, verifies it against the table's signer
(:func:`kiosk.table.core.record.verify_table`, the anchor read before and after so that a controller
serving meanwhile is told from a cut) and, given ``--seat N=DIR`` for each seat, reconciles each
seat's journal with the table's round by round (:mod:`kiosk.table.core.reconcile`).  It prints what
held and one ``MISMATCH`` line per round that differs; exit 0 only when everything holds, else
one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.kernel.games.base import RuleError
from kiosk.terminal.cli.guard import EXIT_FAILED, CommandLineError

if TYPE_CHECKING:
    from kiosk.table.core.core import TableCore
    from kiosk.table.core.journal import TableJournal


def journal_path(args: argparse.Namespace) -> Path:
    """The table's journal in ``--data-dir`` (``table-ID.sqlite3``)."""
    return Path(args.data_dir) / f"table-{args.table_id}.sqlite3"


def verified(args: argparse.Namespace) -> TableJournal:
    """The table's journal, read-only, once it verifies against its signer (the recall
    against the replay when the journal names its game); one line and exit 1 otherwise."""
    from kiosk.table.core.record import TableRecordError

    journal = _open_readonly(args)
    try:
        _check(args, journal)
    except TableRecordError as exc:
        journal.close()
        raise CommandLineError(
            f"table {args.table_id}: the journal does not verify: {exc}", EXIT_FAILED
        ) from exc
    except BaseException:
        journal.close()
        raise
    return journal


def _open_readonly(args: argparse.Namespace) -> TableJournal:
    from kiosk.table.core.journal import TableJournal
    from kiosk.terminal.store.faults import StoreError

    path = journal_path(args)
    if not path.is_file():
        raise CommandLineError(f"no journal of table {args.table_id} at {path}")
    try:
        return TableJournal(path, args.table_id, readonly=True)
    except StoreError as exc:
        raise CommandLineError(f"table {args.table_id}: {exc}", EXIT_FAILED) from exc


def _check(args: argparse.Namespace, journal: TableJournal) -> list[str]:
    """Verify ``journal`` against its signer (the status read before and after, so that a
    controller serving meanwhile is told from a cut); the lines of what held."""
    from kiosk.table.core.record import WHAT, TableRecordError, table_signer, verify_table
    from kiosk.terminal.signer.client import LocalSigner, SignerUnavailableError
    from kiosk.terminal.store.verify import VerificationError, against_anchor

    signer = table_signer(args.data_dir, args.table_id, args.table_signer, create=False)
    try:
        never_signed = isinstance(signer, LocalSigner) and not signer.state_dir.exists()
        if journal.epoch() is None and never_signed:  # a previous release's journal
            core = _replay_core(args, journal)
            verified = verify_table(journal, None, None, core=core, signed=False)
            return [f"table {args.table_id}: unsigned journal, {verified.rows} rows chained"]
        try:
            before = signer.status()
            verified = verify_table(
                journal, before.public_key, None, core=_replay_core(args, journal)
            )
            after = signer.status()
        except SignerUnavailableError as exc:
            raise TableRecordError(f"its signer cannot be asked: {exc}") from None
    finally:
        signer.close()
    assert verified.head is not None
    running = after.anchor != before.anchor
    try:
        _, notes = against_anchor(
            verified.head, after.anchor, running, what=WHAT, new_epoch="the signer of another table"
        )
    except VerificationError as exc:
        raise TableRecordError(str(exc)) from None
    head = verified.head
    return [
        f"table {args.table_id}: {verified.rows} rows chained, head row {head.seq} signed "
        f"in epoch {head.epoch} by {before.where} (key {before.fingerprint})",
        f"table {args.table_id}: the head is the signer's anchor (row {after.anchor.seq})"
        + "".join(f"; {note}" for note in notes),
        f"table {args.table_id}: {verified.rounds} finished rounds' recall = the replay",
    ]


def _replay_core(args: argparse.Namespace, journal: TableJournal) -> TableCore | None:
    """A fresh core of the journal's game (``--edition``/``--mode`` or its ``meta``), or None
    when neither names it (the recall is then not replayed)."""
    from kiosk.table.core.core import CardSource, DealMode, TableConfig, TableConfigError
    from kiosk.table.core.core import TableCore as Core

    edition = args.replay_edition or journal.meta("edition")
    mode = args.replay_mode or journal.meta("mode") or DealMode.SHARED.value
    if edition is None:
        return None
    source = journal.meta("card_source") or CardSource.VIRTUAL.value
    try:
        config = TableConfig(
            args.table_id, edition, mode=DealMode(mode), card_source=CardSource(source)
        )
        return Core(config)
    except (RuleError, TableConfigError, ValueError) as exc:
        raise CommandLineError(f"--edition {edition}: {exc}") from exc


def _missing_but_signed(args: argparse.Namespace) -> None:
    """A missing journal whose signer has signed rows is a finding, not a usage error."""
    from kiosk.table.core.record import table_signer
    from kiosk.terminal.store.faults import StoreError

    if journal_path(args).exists():
        return
    signer = table_signer(args.data_dir, args.table_id, args.table_signer, create=False)
    try:
        anchor = signer.status().anchor
    except StoreError:
        return  # no signer either: nothing was ever served here
    finally:
        signer.close()
    if anchor.seq:
        raise CommandLineError(
            f"table {args.table_id}: the table journal is missing or empty but its signer's "
            f"anchor is at epoch {anchor.epoch} row {anchor.seq}: it was deleted or replaced",
            EXIT_FAILED,
        )


def audit(args: argparse.Namespace) -> int:
    from kiosk.table.core.reconcile import reconcile_seat, seat_rounds, table_rounds
    from kiosk.table.core.record import TableRecordError
    from kiosk.terminal.store.faults import StoreError

    _missing_but_signed(args)
    journal = _open_readonly(args)
    try:
        try:
            lines = _check(args, journal)
        except TableRecordError as exc:
            raise CommandLineError(
                f"table {args.table_id}: the journal does not verify: {exc}", EXIT_FAILED
            ) from exc
        if journal.epoch() is None:
            raise CommandLineError(
                f"table {args.table_id}: the journal is unsigned (a previous release's): "
                "'table serve' adopts it",
                EXIT_FAILED,
            )
        rounds = table_rounds(journal.events())
    finally:
        journal.close()
    for line in lines:
        print(line)
    mismatched = 0
    for seat, directory in sorted(args.seats):
        try:
            books = reconcile_seat(rounds, seat, seat_rounds(directory, args.table_id))
        except StoreError as exc:
            raise CommandLineError(f"--seat {seat}={directory}: {exc}", EXIT_FAILED) from exc
        for mismatch in books.mismatches:
            print(f"table {args.table_id}: MISMATCH {mismatch.line()}")
        print(f"table {args.table_id}: {books.line()}")
        mismatched += len(books.mismatches)
    if mismatched:
        raise CommandLineError(
            f"table {args.table_id}: {mismatched} seat rounds do not reconcile", EXIT_FAILED
        )
    print(f"table {args.table_id}: audit passed")
    return 0
