"""Non-volatile storage: the journal, snapshots, game recall and the event log, in SQLite."""
