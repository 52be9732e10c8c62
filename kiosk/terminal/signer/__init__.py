"""The terminal's signer: an Ed25519 key and a monotonic anchor kept outside the kiosk process.

- :mod:`kiosk.terminal.signer.records`: heads, anchors and the exact bytes that are signed;
- :mod:`kiosk.terminal.signer.core`: the sans-IO request handling (what is signed, what is refused);
- :mod:`kiosk.terminal.signer.state`: the key and the anchor on disk (fsync'd before every answer);
- :mod:`kiosk.terminal.signer.server` / :mod:`kiosk.terminal.signer.client`: the Unix socket and the
kiosk's side;
- :mod:`kiosk.terminal.cli.signer`: ``turbokiosk signer init|serve|status``.
"""
