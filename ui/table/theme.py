"""The Dealer Terminal's type and alert colours (decision 0025); the rest is
:mod:`ui.terminal.theme`.

Sizes are pixels at 1280x800, scaled with the window (``app.u``).  A dealer reads the DT at
about 1 m: capitals of 20 px at 1280x800 (27 px at 1920x1080) keep the 0.3° of decision 0018
on the 15.6-inch 1920x1080 panel (141 ppi); Roboto's capitals are 0.71 of the font size.
"""

from __future__ import annotations

from ui.terminal.theme import hex_rgba

#: the least font size of any text the dealer reads
TEXT = 28
#: the phase, the countdown's seconds, the rank keys
TEXT_BIG = 40
#: the least capital height, in 1280x800 pixels
MIN_CAP_PX = 19.5
#: a refusal or warning line, on the dark bar or a panel
ALERT_TEXT = hex_rgba("#ff8a80")
#: the card check's stop panel
TILT = hex_rgba("#7a1418")
#: the place the next pack goes to
WAITING = hex_rgba("#1f5f8a")
#: the suits' inks on the card-white suit keys (the cards' own red and black)
SUIT_RED_HEX = "c8102e"  # theme.INK_RED
SUIT_BLACK_HEX = "15171a"  # theme.INK_BLACK
