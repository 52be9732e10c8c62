"""The Stadium felt: the hand's spots laid out as a Three Card Poker table (Pairs Plus and the
6-Card Bonus above, Ante and Play at the front), and the blind rows and columns as betting
circles at the ends of a printed array, one for Pairs Plus, one for the 6-Card Bonus (look in
``kv/felt.kv``)."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.floatlayout import FloatLayout

from kiosk.terminal.presentation.spots import SpotView
from ui.terminal.felt import DecisionSpot, Felt, FeltSpot, LineSpot


class StadiumHandFelt(Felt):
    """Ante, Play, Pairs Plus and the 6-Card Bonus."""

    def clear(self) -> None:
        """No spots."""
        for slot in ("top", "front"):
            self.ids[slot].clear_widgets()

    def add_spot(self, spot: SpotView) -> FeltSpot:
        """Ante (mandatory) at the front with Play beside it, the side bets above."""
        button = FeltSpot()
        if spot.mandatory:
            self.ids.front.add_widget(button)
            decision = DecisionSpot()
            decision.tk_name = "decision_spot"
            self.ids.front.add_widget(decision)
        else:
            self.ids.top.add_widget(button)
        return button


class LinesPanel(FloatLayout):
    """One blind wager's printed array: a circle at each row's end and each column's foot."""

    title = StringProperty("")

    def slot(self, line: str) -> FloatLayout:
        """The place of ``line`` ("row_1" .. "col_3")."""
        holder: FloatLayout = self.ids[line]
        return holder


class StadiumLinesFelt(Felt):
    """The twelve blind line wagers on two printed arrays."""

    def clear(self) -> None:
        """No spots."""
        for panel in (self.ids.pairs_plus, self.ids.six_card_bonus):
            for line in ("row_1", "row_2", "row_3", "col_1", "col_2", "col_3"):
                panel.slot(line).clear_widgets()

    def add_spot(self, spot: SpotView) -> LineSpot:
        """The circle of a blind line on its wager's array."""
        panel = self.ids.pairs_plus if spot.id.startswith("pairs_plus") else self.ids.six_card_bonus
        panel.title = spot.kind_label
        button = LineSpot()
        panel.slot(spot.line).add_widget(button)
        return button
