"""The Turbo felt: the side wagers two by two (a lone last one across the width), the main
wager at the front with its decision wager (Double, Raise...) printed beside it (look in
``kv/felt.kv``)."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import NumericProperty

from kiosk.terminal.presentation.spots import SpotView
from ui.terminal.felt import DecisionSpot, Felt, FeltSpot, PrintedSpot


class TurboFelt(Felt):
    """Printed spots for every wager of an edition: the main row as tall as its names need,
    the side wagers' rows share the rest."""

    main_height = NumericProperty(0)

    def __init__(self, **kwargs: object) -> None:
        self.lay_side_soon = Clock.create_trigger(self.lay_side, -1)
        super().__init__(**kwargs)

    def clear(self) -> None:
        """No spots (a new edition is laid out)."""
        self.ids.side.clear_widgets()
        self.ids.main.clear_widgets()
        self.main_height = 0

    def lay_side(self, *_: object) -> None:
        """The side wagers two by two in table order, a lone last one across the width; each
        row gets what its tallest name needs, and the rest of the height is shared."""
        side, gap = self.ids.side, App.get_running_app().u * 6
        spots = side.children[::-1]  # Kivy keeps the newest child first: table order
        rows = [spots[i : i + 2] for i in range(0, len(spots), 2)]
        if not rows:
            return
        half = (side.width - gap) / 2
        for row in rows:
            for spot in row:
                spot.width = side.width if len(row) == 1 else half
        needs = [max(spot.needed for spot in row) for row in rows]
        room = side.height - gap * (len(rows) - 1)
        spare = (room - sum(needs)) / len(rows)
        top = side.top
        for row, need in zip(rows, needs, strict=True):
            height = need + spare if spare >= 0 else need * room / sum(needs)
            for i, spot in enumerate(row):
                spot.height = height
                spot.pos = (side.x + i * (half + gap), top - height)
            top -= height + gap

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
            button.size_hint = (None, None)
            button.bind(needed=self.lay_side_soon)
            self.ids.side.add_widget(button)
            self.lay_side_soon()
        return button
