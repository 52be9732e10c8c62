"""The table controller: one authority deals a round for many seats (docs/table.md).

:mod:`kiosk.table.core.core` is the sans-IO state machine (commands in, events out, state folded
from events); :mod:`kiosk.table.core.journal` its hash-chained SQLite journal;
:mod:`kiosk.table.core.controller` runs the core on the journal and an injected deck.
"""
