"""Help: the rules, then every pay table drawn with its icons or hands, then one round worked
out — all generated from the rules the game pays from (:mod:`kiosk.terminal.presentation.help`,
:mod:`kiosk.terminal.presentation.help_pictures`)."""

from __future__ import annotations

from collections.abc import Sequence

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

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
    """Help in pages, opening on a picture: the icons the cards carry (Turbo) or the first pay
    table drawn, then each pay table, the worked example and the rules in words last; PREVIOUS
    and NEXT turn the pages (a page taller than the screen scrolls)."""

    title = StringProperty("")
    icon = StringProperty("")
    page_number = NumericProperty(0)  # the page on show, from 0
    page_count = NumericProperty(1)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._pages: list[list[Widget]] = [[]]

    def show(self, page: HelpPage, pictures: HelpPictures | None = None) -> None:
        """Lay out ``page`` and, when the family has them, its ``pictures``, in pages."""
        self.title, self.icon = page.title, page.icon
        rules: list[Widget] = [Paragraph(text=paragraph) for paragraph in page.paragraphs]
        if pictures is None:
            tables: list[Widget] = []
            for table in page.tables:
                tables.append(HeaderLabel(text=table.title))
                tables.append(PayRow(outcome=page.outcome_header, pays=page.pays_header))
                tables += [PayRow(outcome=outcome, pays=pays) for outcome, pays in table.rows]
            pages = [rules, tables] if tables else [rules]
        else:
            pages = [*self._pictures(pictures, page.icon), rules]
        self._pages = [p for p in pages if p] or [[]]
        self.page_count = len(self._pages)
        self.turn_to(0)

    def turn(self, step: int) -> None:
        """The next (``1``) or the previous (``-1``) page."""
        self.turn_to(max(0, min(self.page_count - 1, self.page_number + step)))

    def turn_to(self, number: int) -> None:
        """Show page ``number`` (from 0), from its top."""
        body = self.ids.body
        body.clear_widgets()
        for widget in self._pages[number]:
            body.add_widget(widget)
        self.page_number = number
        self.ids.scroller.scroll_y = 1

    def all_widgets(self) -> list[Widget]:
        """Every page's widgets, in reading order (tests read them)."""
        return [widget for page in self._pages for widget in page]

    def _pictures(self, pictures: HelpPictures, icon: str) -> list[list[Widget]]:
        """The picture pages: the icons with the first pay table, each further pay table, the
        worked example."""
        pages: list[list[Widget]] = []
        first: list[Widget] = []
        if pictures.icon_values:
            first.append(HelpHeading(text=pictures.icon_values_title))
            values = IconValuesView()
            values.show(pictures.icon_values, icon)
            first.append(values)
        for table in pictures.tables:
            section: list[Widget] = [HelpHeading(text=table.title)]
            for row in table.rows:
                view = PictureRowView()
                view.show(row, icon)
                section.append(view)
            pages.append(first + section)  # the first table shares the icons' page
            first = []
        example: list[Widget] = [HelpHeading(text=pictures.example_title)]
        for step in pictures.example:
            view_step = ExampleStepView()
            view_step.show(step, icon)
            example.append(view_step)
        pages.append(example)
        return pages

    def show_part(self, part: str) -> None:
        """Turn to the worked example (``"example"``) or the first pay table's page
        (``"pays"``; the screenshots' visit)."""
        example = self._example_title()
        for number, page in enumerate(self._pages):
            headings = [w.text for w in page if isinstance(w, HelpHeading)]
            if (part == "example") == (example in headings) and headings:
                self.turn_to(number)
                return

    def pay_rows(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """The pay tables as drawn: (title, [(outcome, pays), ...]) in order (tests read it)."""
        tables: list[tuple[str, list[tuple[str, str]]]] = []
        in_example = False
        for child in self.all_widgets():
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
