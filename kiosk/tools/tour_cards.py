"""The cards the screenshot tours deal (below ``tour`` and ``table_tour``: decision 0050)."""

from __future__ import annotations

#: Turbo: 4 footballs in the community (Double offered), then 11 more: Super TD
TURBO_CARDS = "Js 4h 9d As Qs 8s 3s 2c Td"
#: Stadium: the array row by row, then the dealer (King high)
STADIUM_CARDS = "Qs 3h 9c 5d Qd 2s Jh 8h 7c Kc 6d 4s"
