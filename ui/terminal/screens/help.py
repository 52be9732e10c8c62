"""Help: the rules, then every pay table drawn with its icons or hands, then one round worked
out — all generated from the rules the game pays from (:mod:`kiosk.terminal.presentation.help`,
:mod:`kiosk.terminal.presentation.help_pictures`)."""

from __future__ import annotations

from collections.abc import Sequence

from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from kiosk.terminal.presentation.faces import CardFace
from kiosk.terminal.presentation.help import HelpPage
from kiosk.terminal.presentation.help_pictures import ExampleStep, HelpPictures, PictureRow
from ui.terminal.widgets.card import CardRow
from ui.terminal.widgets.controls import HeaderLabel


class Paragraph(Label):
    """A wrapped paragraph of rules."""


class PayRow(GridLayout):
    """One row of a pay table (text only: a family without pictures)."""

    outcome = StringProperty("")
    pays = StringProperty("")


class HelpHeading(Label):
    """The title of a pay table or of the worked example, on a dark band."""


class MiniCards(CardRow):
    """Small face-up cards drawn in a help picture."""

    def show_faces(self, faces: Sequence[CardFace], icon: str) -> None:
        """Lay out ``faces`` (no deal animation)."""
        self.count = len(faces)
        for card, card_face in zip(self.cards, faces, strict=True):
            card.deal = False
            card.icon = icon
            card.face = card_face


class PictureRowView(BoxLayout):
    """A pay-table row drawn: icon and count, or an example hand; the outcome; the pays."""

    outcome = StringProperty("")
    pays = StringProperty("")
    icon = StringProperty("")
    count_text = StringProperty("")
    has_cards = BooleanProperty(False)

    def show(self, row: PictureRow, icon: str) -> None:
        """Take ``row``'s values (``icon``: the edition's, drawn on the cards)."""
        self.outcome, self.pays = row.outcome, row.pays
        self.icon, self.count_text = row.icon, row.count_text
        self.has_cards = bool(row.cards)
        if row.cards:
            self.ids.cards.show_faces(row.cards, icon)


class ExampleStepView(BoxLayout):
    """A line of the worked example, and the cards it speaks of."""

    text = StringProperty("")
    won = BooleanProperty(False)
    has_cards = BooleanProperty(False)

    def show(self, step: ExampleStep, icon: str) -> None:
        """Take ``step``'s values."""
        self.text, self.won, self.has_cards = step.text, step.won, bool(step.cards)
        if step.cards:
            self.ids.cards.show_faces(step.cards, icon)


class IconValuesView(BoxLayout):
    """Cards of the icon suit with the icons each carries ("×1", "×2", "×4")."""

    counts = ListProperty([])

    def show(self, values: Sequence[tuple[CardFace, str]], icon: str) -> None:
        """Draw each card and its count."""
        self.ids.cards.show_faces([card for card, _count in values], icon)
        self.counts = [count for _card, count in values]


class HelpScreen(Screen):
    """A scrolling page: the rules, the pay tables as pictures, a worked example."""

    title = StringProperty("")
    icon = StringProperty("")

    def show(self, page: HelpPage, pictures: HelpPictures | None = None) -> None:
        """Lay out ``page`` and, when the family has them, its ``pictures``."""
        self.title, self.icon = page.title, page.icon
        body = self.ids.body
        body.clear_widgets()
        for paragraph in page.paragraphs:
            body.add_widget(Paragraph(text=paragraph))
        if pictures is None:
            for table in page.tables:
                body.add_widget(HeaderLabel(text=table.title))
                body.add_widget(PayRow(outcome=page.outcome_header, pays=page.pays_header))
                for outcome, pays in table.rows:
                    body.add_widget(PayRow(outcome=outcome, pays=pays))
        else:
            self._pictures(pictures, page.icon)
        self.ids.scroller.scroll_y = 1

    def _pictures(self, pictures: HelpPictures, icon: str) -> None:
        body = self.ids.body
        if pictures.icon_values:
            body.add_widget(HelpHeading(text=pictures.icon_values_title))
            values = IconValuesView()
            values.show(pictures.icon_values, icon)
            body.add_widget(values)
        for table in pictures.tables:
            body.add_widget(HelpHeading(text=table.title))
            for row in table.rows:
                view = PictureRowView()
                view.show(row, icon)
                body.add_widget(view)
        body.add_widget(HelpHeading(text=pictures.example_title))
        for step in pictures.example:
            view_step = ExampleStepView()
            view_step.show(step, icon)
            body.add_widget(view_step)

    def show_part(self, part: str) -> None:
        """Scroll to the pay tables (``"pays"``) or the worked example (``"example"``)."""
        headings = [c for c in reversed(self.ids.body.children) if isinstance(c, HelpHeading)]
        if not headings:
            return
        example = self._example_title()
        if part == "example":
            target = next(h for h in headings if h.text == example)
        else:
            target = next(h for h in headings if not h.text.startswith(self._values_title()))
        scroller, body = self.ids.scroller, self.ids.body
        below_top = body.top - target.top  # the heading's distance from the page's top
        room = body.height - scroller.height
        scroller.scroll_y = 1.0 if room <= 0 else max(0.0, min(1.0, 1 - below_top / room))

    def pay_rows(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """The pay tables as drawn: (title, [(outcome, pays), ...]) in order (tests read it)."""
        tables: list[tuple[str, list[tuple[str, str]]]] = []
        in_example = False
        for child in reversed(self.ids.body.children):
            if isinstance(child, HelpHeading):
                in_example = child.text == self._example_title()
                if not in_example and not child.text.startswith(self._values_title()):
                    tables.append((child.text, []))
            elif isinstance(child, PictureRowView) and tables and not in_example:
                tables[-1][1].append((child.outcome, child.pays))
        return [t for t in tables if t[1]]

    def _example_title(self) -> str:
        from kivy.app import App

        title: str = App.get_running_app().t["help_example_title"]
        return title

    def _values_title(self) -> str:
        from kivy.app import App

        title: str = App.get_running_app().t["help_icon_values"].split("{")[0]
        return title
