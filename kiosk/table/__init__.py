"""The table controller: one authority deals a round for many seats (docs/table.md).

:mod:`kiosk.table.core` is the sans-IO state machine (commands in, events out, state folded
from events); :mod:`kiosk.table.journal` its hash-chained SQLite journal;
:mod:`kiosk.table.controller` runs the core on the journal and an injected deck.
"""
