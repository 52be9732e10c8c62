"""Rules the host's database enforces itself, whatever program writes to it.

The host's Python moves a voucher only by conditional ``UPDATE``s and records a message only
once (its id is the primary key).  These triggers make the database refuse the rest even from
another program (a second host version, a hand-typed ``psql`` session, a bug):

- a voucher's state moves only along :data:`VOUCHER_MOVES`; a redeemed, voided or quarantined
  voucher never changes state again, and no voucher ever goes back to ``pending``; a holder
  changes only with a move (a reservation cannot be handed to another terminal in place);
- recorded events and meter snapshots, the voucher audit and the terminal alarms are never
  changed or deleted (append-only).

The same rules on SQLite (``RAISE(ABORT, ...)``) and PostgreSQL (a PL/pgSQL function).
"""

from __future__ import annotations

#: (from, to) voucher state moves the host makes; see docs/host.md "Voucher rules"
VOUCHER_MOVES = (
    ("pending", "issued"),  # printed by the issuing terminal
    ("pending", "voided"),  # the print failed
    ("pending", "quarantined"),  # printed with another value
    ("issued", "reserved"),  # inserted at a terminal
    ("issued", "redeemed"),  # a late stacked report after a release
    ("reserved", "issued"),  # returned, or released by an operator
    ("reserved", "redeemed"),  # stacked
)
APPEND_ONLY = ("events", "meter_snapshots", "voucher_audit", "terminal_alarms")
VOUCHER_MOVE_REFUSED = "voucher state move refused by the database"
APPEND_ONLY_REFUSED = "append-only table: rows are never changed or deleted"
#: the PostgreSQL triggers' names (created when one is missing)
POSTGRES_TRIGGERS = ("vouchers_moves", *(f"{table}_append_only" for table in APPEND_ONLY))


def _allowed(old: str, new: str) -> str:
    pairs = " OR ".join(f"({old}.state = '{a}' AND {new}.state = '{b}')" for a, b in VOUCHER_MOVES)
    same = f"({old}.state = {new}.state AND {old}.holder = {new}.holder)"
    return f"({same} OR {pairs})"


def sqlite_schema() -> str:
    """The triggers for SQLite (``CREATE TRIGGER IF NOT EXISTS``)."""
    parts = [
        "CREATE TRIGGER IF NOT EXISTS vouchers_moves BEFORE UPDATE ON vouchers "
        f"WHEN NOT {_allowed('OLD', 'NEW')} "
        f"BEGIN SELECT RAISE(ABORT, '{VOUCHER_MOVE_REFUSED}'); END;"
    ]
    for table in APPEND_ONLY:
        for action in ("UPDATE", "DELETE"):
            parts.append(
                f"CREATE TRIGGER IF NOT EXISTS {table}_no_{action.lower()} BEFORE {action} "
                f"ON {table} BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY_REFUSED}'); END;"
            )
    return "\n".join(parts)


def postgres_statements() -> list[str]:
    """The functions and triggers for PostgreSQL (each one statement; re-runnable)."""
    statements = [
        "CREATE OR REPLACE FUNCTION tk_voucher_moves() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN IF NOT {_allowed('OLD', 'NEW')} THEN "
        f"RAISE EXCEPTION USING MESSAGE = '{VOUCHER_MOVE_REFUSED}: ' || OLD.state || ' -> ' "
        "|| NEW.state, ERRCODE = 'check_violation'; END IF; RETURN NEW; END $$",
        "CREATE OR REPLACE TRIGGER vouchers_moves BEFORE UPDATE ON vouchers "
        "FOR EACH ROW EXECUTE FUNCTION tk_voucher_moves()",
        "CREATE OR REPLACE FUNCTION tk_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN RAISE EXCEPTION USING MESSAGE = '{APPEND_ONLY_REFUSED} (' || TG_TABLE_NAME "
        "|| ')', ERRCODE = 'check_violation'; END $$",
    ]
    for table in APPEND_ONLY:
        statements.append(
            f"CREATE OR REPLACE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION tk_append_only()"
        )
    return statements
