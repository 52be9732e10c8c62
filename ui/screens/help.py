"""Help: the rules and pay tables of the current game, generated from its rules."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from kiosk.presentation.help import HelpPage
from ui.widgets.controls import HeaderLabel


class Paragraph(Label):
    """A wrapped paragraph of rules."""


class PayRow(GridLayout):
    """One row of a pay table."""

    outcome = StringProperty("")
    pays = StringProperty("")


class HelpScreen(Screen):
    """A scrolling page: rules, then every pay table."""

    title = StringProperty("")
    icon = StringProperty("")

    def show(self, page: HelpPage) -> None:
        """Lay out ``page``."""
        self.title, self.icon = page.title, page.icon
        body = self.ids.body
        body.clear_widgets()
        for paragraph in page.paragraphs:
            body.add_widget(Paragraph(text=paragraph))
        for table in page.tables:
            body.add_widget(HeaderLabel(text=table.title))
            body.add_widget(PayRow(outcome=page.outcome_header, pays=page.pays_header))
            for outcome, pays in table.rows:
                body.add_widget(PayRow(outcome=outcome, pays=pays))
        self.ids.scroller.scroll_y = 1
