"""The device bridge: a real bill validator or ticket printer, speaking its vendor's protocol,
behind the terminal's sealed protobuf device link (docs/devices.md)."""
