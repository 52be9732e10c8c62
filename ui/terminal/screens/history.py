"""Game recall for the player: the last games, one a page, card by card."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from kiosk.terminal.presentation.recall import RecallView
from ui.terminal.families import recall_rows
from ui.terminal.widgets.card import CardRow
from ui.terminal.widgets.controls import HeaderLabel


class RecallLine(Label):
    """One line of a recalled game's record (look in ``screens.kv``)."""


class HistoryScreen(Screen):
    """One recalled game a page; OLDER and NEWER page through them."""

    heading = StringProperty("")
    page_text = StringProperty("")
    index = NumericProperty(0)
    count = NumericProperty(0)
    empty = BooleanProperty(True)
    empty_text = StringProperty("")

    def show(self, games: list[RecallView], index: int, page_text: str, empty_text: str) -> None:
        """Show game ``index`` (0 newest) of ``games``."""
        self.count, self.empty, self.empty_text = len(games), not games, empty_text
        self.index = max(0, min(index, len(games) - 1)) if games else 0
        self.page_text = page_text
        cards = self.ids.cards
        cards.clear_widgets()
        lines = self.ids.lines
        lines.clear_widgets()
        if not games:
            self.heading = ""
            return
        game = games[self.index]
        self.heading = game.heading
        t = App.get_running_app().t
        rows = recall_rows(game, t)
        u = App.get_running_app().u
        for caption, row, base in rows:
            if caption:  # over its cards, which keep the column's whole width
                cards.add_widget(HeaderLabel(text=caption, size_hint_y=None, height=u * 27))
            line = CardRow(spacing=u * 5, fit=6)
            line.count = len(row)
            for i, (card, card_face) in enumerate(zip(line.cards, row, strict=True)):
                card.deal = False
                card.icon = game.icon
                card.selected = base >= 0 and base + i in game.positions
                card.face = card_face
            cards.add_widget(line)
        info = [game.icons_text, game.hand_text, game.decision_text]
        if game.results:  # each wager, in table order, with what it staked and how it ended
            info += [f"{r.label} {r.stake_text}: {r.text}" for r in game.results]
        else:
            info += [f"{label}: {amount}" for label, amount in game.wagers]
        info += [game.total_text, *game.reasons, game.credits_text]
        for line in info:
            if line:
                lines.add_widget(RecallLine(text=line))
        self.ids.lines_scroll.scroll_y = 1
