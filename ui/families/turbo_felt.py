"""The Turbo felt: the side wagers two by two, the main wager at the front with its decision
wager (Double, Raise...) printed beside it (look in ``kv/felt.kv``)."""

from __future__ import annotations

from kivy.properties import NumericProperty

from kiosk.presentation.spots import SpotView
from ui.felt import DecisionSpot, Felt, FeltSpot, PrintedSpot


class TurboFelt(Felt):
    """Printed spots for every wager of an edition: the main row as tall as its names need,
    the side wagers' rows share the rest."""

    main_height = NumericProperty(0)

    def clear(self) -> None:
        """No spots (a new edition is laid out)."""
        self.ids.side.clear_widgets()
        self.ids.main.clear_widgets()
        self.main_height = 0

    def _fit_main(self, *_: object) -> None:
        self.main_height = max(
            (c.needed for c in self.ids.main.children if isinstance(c, PrintedSpot)), default=0
        )

    def add_spot(self, spot: SpotView) -> FeltSpot:
        """The printed spot of ``spot``: the mandatory main wager at the front, the others above
        it in order."""
        button = FeltSpot()
        if spot.mandatory:
            self.ids.main.add_widget(button)
            decision = DecisionSpot()
            decision.tk_name = "decision_spot"
            self.ids.main.add_widget(decision)
            for printed in (button, decision):
                printed.bind(needed=self._fit_main)
            self._fit_main()
        else:
            self.ids.side.add_widget(button)
        return button
