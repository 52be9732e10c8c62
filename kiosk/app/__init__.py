"""Composition root: builds a terminal from its parts (RNG, journal, devices, host link)."""
