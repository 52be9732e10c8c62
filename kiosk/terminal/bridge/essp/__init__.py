"""ITL SSP with eSSP encryption: the packet codec, the encryption layer, the host machine and a
simulated device (docs/devices.md, "ITL SSP / eSSP")."""
