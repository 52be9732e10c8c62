"""The terminal's I/O shell: journal, clock, RNG and devices around the sans-IO core."""
