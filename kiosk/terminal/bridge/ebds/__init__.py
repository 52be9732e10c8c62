"""CPI (MEI) EBDS: the message codec, the host machine and a simulated device
(docs/devices.md, "CPI / MEI EBDS")."""
