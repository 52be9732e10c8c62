"""A player terminal as a seat of a table (issue 14): the seat's state machine, its gRPC client
and the glue that feeds a terminal's rounds from the table controller (docs/table.md)."""
