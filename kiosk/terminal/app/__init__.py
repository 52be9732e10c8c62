"""The terminal's composition root: a terminal wired to its devices, host link and touchscreen
app."""
