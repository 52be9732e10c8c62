"""Simulated peripherals as real programs: device state machines on a serial line, with a
control channel to insert notes and tickets and to inject faults (``turbokiosk sim ...``)."""
