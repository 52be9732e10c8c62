"""The reference accounting host: gRPC server, its records (SQLite/PostgreSQL), bounds, stores.

The terminal's side of the link is :mod:`kiosk.terminal.hostlink`.
"""
