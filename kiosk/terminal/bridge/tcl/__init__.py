"""TCL: the ticket printer language of TransAct/FutureLogic GEN2 and GEN5 printers, and of the
JCM and Nanoptix printers that speak it (docs/devices.md)."""
