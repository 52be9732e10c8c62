"""SAS 6.02, the gaming-machine side: wire format, sans-IO core, exceptions, transport."""
