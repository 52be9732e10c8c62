"""Simulated native validators on a serial line: the eSSP and EBDS devices behind a port."""
