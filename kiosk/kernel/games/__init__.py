"""Pure game rules: no I/O, no clock, no random numbers inside.

Every game is a :class:`kiosk.kernel.games.base.GameRules`; editions and pay tables are data files.
"""
