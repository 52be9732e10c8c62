"""The host's commands (``turbokiosk host``, ``sas``), one module each."""
