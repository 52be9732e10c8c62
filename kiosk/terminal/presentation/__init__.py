"""The player's screen as data: the terminal's state turned into display-ready values.

UI-agnostic (no Kivy here): :mod:`kiosk.terminal.presentation.session` turns a player's intents into
terminal commands and :mod:`kiosk.terminal.presentation.table` builds what a table screen shows.
The touchscreen app in ``ui/`` only draws these values; it holds no rules and does no money math.
"""
