"""The Turbo felt: the side wagers two by two, the main wager at the front with its decision
wager (Double, Raise...) printed beside it (look in ``kv/felt.kv``)."""

from __future__ import annotations

from kiosk.presentation.spots import SpotView
from ui.felt import DecisionSpot, Felt, FeltSpot


class TurboFelt(Felt):
    """Printed spots for every wager of an edition."""

    def clear(self) -> None:
        """No spots (a new edition is laid out)."""
        self.ids.side.clear_widgets()
        self.ids.main.clear_widgets()

    def add_spot(self, spot: SpotView) -> FeltSpot:
        """The printed spot of ``spot``: the mandatory main wager at the front, the others above
        it in order."""
        button = FeltSpot()
        if spot.mandatory:
            self.ids.main.add_widget(button)
            decision = DecisionSpot()
            decision.tk_name = "decision_spot"
            self.ids.main.add_widget(decision)
        else:
            self.ids.side.add_widget(button)
        return button
