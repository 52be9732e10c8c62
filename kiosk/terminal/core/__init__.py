"""The terminal's state machine (sans-IO): credits, wagers, game cycle, lockups, meters, recall.

Commands go in (:mod:`kiosk.terminal.core.commands`), events come out
(:mod:`kiosk.terminal.core.events`); the events are journaled durably by the runtime before they are
applied and acted on.  Nothing in this package opens a file, reads a clock or draws a random number.
"""
