"""The terminal's signer: an Ed25519 key and a monotonic anchor kept outside the kiosk process.

- :mod:`kiosk.signer.records`: heads, anchors and the exact bytes that are signed;
- :mod:`kiosk.signer.core`: the sans-IO request handling (what is signed, what is refused);
- :mod:`kiosk.signer.state`: the key and the anchor on disk (fsync'd before every answer);
- :mod:`kiosk.signer.server` / :mod:`kiosk.signer.client`: the Unix socket and the kiosk's side;
- :mod:`kiosk.cli.signer`: ``turbokiosk signer init|serve|status``.
"""
