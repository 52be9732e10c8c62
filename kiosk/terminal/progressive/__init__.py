"""A progressive's meter on its journal: the controller every mode runs (a terminal's own meter,
a table's, the linked progressive controller's; decision 0060)."""
