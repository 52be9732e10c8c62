"""Game recall for the player: the last games, one a page, card by card."""

from __future__ import annotations

from kivy.app import App
from kivy.graphics import Color, Rectangle
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from kiosk.terminal.presentation.recall import RecallView
from ui.terminal.families import recall_rows
from ui.terminal.theme import BAR
from ui.terminal.widgets.card import CardRow
from ui.terminal.widgets.controls import HeaderLabel


class RecallLine(Label):
    """One line of a recalled game's record (look in ``screens.kv``)."""


class HistoryZoom(ModalView):
    """A recalled game's cards, large: what a touch on the history's cards opens (at 800x480
    the page's cards are small); any touch closes it."""

    def __init__(self, game: RecallView, **kwargs: object) -> None:
        app = App.get_running_app()
        u, t = app.u, app.t
        super().__init__(size_hint=(0.96, 0.94), auto_dismiss=True, **kwargs)
        self.background_color = (*BAR[:3], 0.92)
        box = BoxLayout(orientation="vertical", padding=u * 10, spacing=u * 6)
        with box.canvas.before:  # opaque: the page's lines do not show through the cards
            Color(*BAR)
            ground = Rectangle(pos=box.pos, size=box.size)
        box.bind(pos=lambda w, p: setattr(ground, "pos", p))
        box.bind(size=lambda w, s: setattr(ground, "size", s))
        rows = recall_rows(game, t)
        for caption, row, base in rows:
            if caption:
                box.add_widget(HeaderLabel(text=caption, size_hint_y=None, height=u * 27))
            line = CardRow(spacing=u * 8, fit=max(6, len(row)))
            line.name_prefix = f"zoom{len(box.children)}"
            line.count = len(row)
            for i, (card, card_face) in enumerate(zip(line.cards, row, strict=True)):
                card.deal = False
                card.icon = game.icon
                card.selected = base >= 0 and base + i in game.positions
                card.face = card_face
                card.bind(on_release=lambda *_: self.dismiss(animation=False))
            box.add_widget(line)
        box.add_widget(HeaderLabel(text=t["history_zoom_close"], size_hint_y=None, height=u * 27))
        self.add_widget(box)

    def on_touch_down(self, touch: object) -> bool:
        self.dismiss(animation=False)
        return True


class HistoryScreen(Screen):
    """One recalled game a page; OLDER and NEWER page through them."""

    heading = StringProperty("")
    page_text = StringProperty("")
    index = NumericProperty(0)
    count = NumericProperty(0)
    empty = BooleanProperty(True)
    empty_text = StringProperty("")

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.game: RecallView | None = None
        self.zoom: HistoryZoom | None = None

    def on_leave(self, *_: object) -> None:
        if self.zoom is not None:
            self.zoom.dismiss(animation=False)
            self.zoom = None

    def open_zoom(self, *_: object) -> None:
        """The shown game's cards, large (a touch on any of its cards)."""
        if self.game is not None:
            self.zoom = HistoryZoom(self.game)
            self.zoom.open(animation=False)

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
            self.game = None
            return
        game = games[self.index]
        self.game = game
        self.heading = game.heading
        t = App.get_running_app().t
        rows = recall_rows(game, t)
        u = App.get_running_app().u
        shown = 0  # the cards are named history_card:0, 1... (a touch zooms on them)
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
                card.tk_name = f"history_card:{shown}"
                shown += 1
                card.bind(on_release=self.open_zoom)
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
