"""The game menu: every enabled edition and Stadium Three Card Poker, as large tiles."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from ui.terminal.actions import ChooseEdition
from ui.terminal.widgets.named import Named


class GameTile(Named, ButtonBehavior, BoxLayout):
    """One game: its icon, title and a line about it."""

    edition = StringProperty("")
    title = StringProperty("")
    icon = StringProperty("")
    description = StringProperty("")

    def on_release(self) -> None:
        App.get_running_app().player(ChooseEdition(self.edition))


class MenuScreen(Screen):
    """The tiles, rebuilt when the editions or the language change."""

    def show(self, editions: list[tuple[str, str, str, str]], enabled: bool) -> None:
        """Tiles for (edition, title, icon, description) rows."""
        grid = self.ids.tiles
        current = [(t.edition, t.title, t.icon, t.description) for t in reversed(grid.children)]
        if current != editions:
            grid.clear_widgets()
            for edition, title, icon, description in editions:
                tile = GameTile(edition=edition, title=title, icon=icon, description=description)
                tile.tk_name = f"game:{edition}"
                grid.add_widget(tile)
        for tile in grid.children:
            tile.disabled = not enabled
