"""Table progressives: the meter's journal and controller, its gRPC service, the table's feed
(docs/table.md "Progressives", decision 0060)."""
