"""The table's commands (``turbokiosk table``, ``dealer``), one module each."""
