"""The terminal in text: ``turbokiosk play`` and the records commands for technicians.

``meters``, ``recall``, ``events`` and ``audit`` read a data directory read-only (a running
terminal is not disturbed); ``play`` runs the full game over stdin/stdout.
"""
