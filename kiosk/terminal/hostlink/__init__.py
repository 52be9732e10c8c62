"""The terminal's side of the accounting host link: client, store-and-forward, anchor, PKI.

It runs on the terminal and never imports the reference host (:mod:`kiosk.host.accounting`); it
reaches the runtime only through :class:`~kiosk.terminal.hostlink.runtime_port.LinkedRuntime`.
"""
