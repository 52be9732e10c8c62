"""The Turbo felt: the side wagers two by two, the main wager at the front with its decision
wager (Double, Raise...) printed beside it (look in ``kv/felt.kv``)."""

from __future__ import annotations

from collections.abc import Sequence

from kivy.uix.floatlayout import FloatLayout

from kiosk.presentation.chips import Chip
from kiosk.presentation.spots import SpotView
from ui.felt import DecisionSpot, FeltSpot


class TurboFelt(FloatLayout):
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

    def show_decision(self, spots: Sequence[SpotView], rack: Sequence[Chip]) -> None:
        """The decision wager's spot beside the main one."""
        main = next((s for s in spots if s.extra_label), None)
        for child in self.ids.main.children:
            if isinstance(child, DecisionSpot) and main is not None:
                child.show(main, rack)
