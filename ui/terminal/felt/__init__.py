"""The felt: bet spots printed on the table cloth, with the chips stacked on them.

Each family lays out its own felt (:mod:`ui.terminal.families.turbo_felt`,
:mod:`ui.terminal.families.stadium_felt`); what they
share is here: a printed spot with its betting circle, the chip pile on it, the decision wager's
own printed spot (Double, Play), and a blind line's small circle (look in ``kv/felt.kv``).
"""

from __future__ import annotations

from collections.abc import Sequence

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from kiosk.terminal.presentation.chips import Chip
from kiosk.terminal.presentation.felt import chip_stack
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.spots import ResultLine, SpotView, spot_highlight
from ui.terminal.draw import chipface
from ui.terminal.widgets.named import Named


class ChipPile(Widget):
    """The chips on a spot, bottom first (``colours``), stacked in its circle."""

    colours = ListProperty([])

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._redraw_soon = Clock.create_trigger(self._redraw, -1)
        self.bind(pos=self._redraw_soon, size=self._redraw_soon, colours=self._redraw_soon)

    def _redraw(self, *_: object) -> None:
        self.canvas.clear()
        if not self.colours:
            return
        r = min(self.width, self.height) / 2 * 0.78
        step = r * 0.2
        base = self.center_y - step * (len(self.colours) - 1) / 2
        with self.canvas:
            for i, colour in enumerate(self.colours):
                chipface.chip(self.center_x, base + i * step, r, str(colour))


class PrintedSpot(FloatLayout):
    """A spot printed on the felt: its name, its betting circle with the chips, and the stake
    or, after a game, how it ended; ``highlight`` "win" lights it."""

    spot = ObjectProperty(None, allownone=True)
    label = StringProperty("")
    amount_text = StringProperty("")
    result_text = StringProperty("")  # "WIN $25.00"
    result_short = StringProperty("")  # "$25.00", all its lines paid: shown when the whole
    # result does not fit (a win too wide, or the Ante and its bonus together)
    shown_result = StringProperty("")
    pays_text = StringProperty("")  # what the spot pays, printed while no chip is on it
    shown_pays = StringProperty("")  # the pays, or their top when the whole does not fit
    shown_label = StringProperty("")  # the name, broken after a hyphen when a word is too wide
    highlight = StringProperty("")
    stack = ListProperty([])
    mandatory = BooleanProperty(False)
    needed = NumericProperty(0)  # the height its name and its stake's line need

    def on_result_text(self, *_: object) -> None:
        self.fit_result()

    def on_label(self, *_: object) -> None:
        self.fit_name()

    def on_pays_text(self, *_: object) -> None:
        self.fit_pays()

    def fit_pays(self, *_: object) -> None:
        """The pays as printed: ``"2:1 · 4:1"``, or the top odds alone when the whole does not
        fit the stake's line (``"10,000:1"``)."""
        label = self.ids.get("result_label")
        whole = self.pays_text
        too_wide = label is not None and whole and label.width > 0
        if too_wide and label._label.get_extents(whole)[0] > label.width:
            whole = whole.replace("–", "·").split("·")[-1].strip()
        self.shown_pays = whole

    def on_size(self, *_: object) -> None:
        Clock.schedule_once(self.fit_name, -1)  # once the name's column has its new width

    def fit_name(self, *_: object) -> None:
        """Keep every word of the name whole: a word too wide for the name's column breaks
        after its hyphen ("Three-" / "Pointer"), never inside a syllable."""
        label = self.ids.get("name_label")
        words = self.label.split(" ")
        if label is not None and label.width > 0:
            for i, word in enumerate(words):
                if "-" in word and label._label.get_extents(word)[0] >= label.width - 1:
                    head, _, tail = word.partition("-")
                    words[i] = f"{head}-\n{tail}"
        self.shown_label = " ".join(words)

    def fit_result(self, *_: object) -> None:
        """Keep the result's line whole: a win too wide for the spot ("GANA $500.00") shows
        its amount alone, in the win's colour on the lit spot (never cut, never smaller)."""
        label = self.ids.get("result_label")
        whole = self.result_text
        if label is not None and whole:
            width, _height = label._label.get_extents(whole)  # on one line, in its font
            if width > label.width:
                whole = self.result_short or whole
        self.shown_result = whole

    def show_lines(self, label: str, amount_text: str, stack: Sequence[str]) -> None:
        """Name, stake and chips."""
        self.label, self.amount_text, self.stack = label, amount_text, list(stack)

    def show_result(self, lines: Sequence[ResultLine]) -> None:
        """How the spot's wager lines ended ("" and no light while there is no result)."""
        self.highlight = spot_highlight(lines)
        paid = sum(line.paid for line in lines)
        self.result_short = dollars(paid) if self.highlight == "win" else ""
        self.result_text = "  ".join(line.amount_text for line in lines)


class FeltSpot(Named, ButtonBehavior, PrintedSpot):
    """A wager spot of the felt: touch it to put the chosen chip on it."""

    def show(self, spot: SpotView, enabled: bool, rack: Sequence[Chip] = ()) -> None:
        """Take the spot's display values."""
        self.spot = spot
        self.tk_name = f"spot:{spot.id}"
        self.mandatory = spot.mandatory
        self.show_lines(spot.label, spot.amount_text, chip_stack(rack, spot.amount))
        self.pays_text = spot.pays_text
        own = [r for r in spot.results if not spot.extra_label or r.label != spot.extra_label]
        self.show_result(own)
        self.disabled = not enabled


class DecisionSpot(Named, PrintedSpot):
    """The decision wager's printed spot beside its main spot (Double, Play): the player puts
    chips on it through the decision's button, never by touching it."""

    def show(self, main: SpotView, rack: Sequence[Chip] = ()) -> None:
        """The decision wager riding on ``main``: its name, chips and result."""
        amount = main.extra_amount
        self.show_lines(
            main.extra_label, dollars(amount) if amount else "", chip_stack(rack, amount)
        )
        self.show_result([r for r in main.results if r.label == main.extra_label])


class LineSpot(Named, ButtonBehavior, FloatLayout):
    """A blind line's betting circle (Stadium's rows and columns), at its row's end or its
    column's foot on the printed array."""

    spot = ObjectProperty(None, allownone=True)
    stack = ListProperty([])
    highlight = StringProperty("")
    amount_text = StringProperty("")

    def show(self, spot: SpotView, enabled: bool, rack: Sequence[Chip] = ()) -> None:
        """Take the line's display values."""
        self.spot = spot
        self.tk_name = f"spot:{spot.id}"
        self.stack = list(chip_stack(rack, spot.amount))
        self.amount_text = spot.amount_text
        self.highlight = spot.highlight
        self.disabled = not enabled


Spot = FeltSpot | LineSpot


class Felt(FloatLayout):
    """A family's felt: where its spots are printed (each family's module lays it out)."""

    def clear(self) -> None:
        """No spots (a new edition, or a new language, is laid out)."""
        raise NotImplementedError

    def add_spot(self, spot: SpotView) -> Spot:
        """Print ``spot`` on the felt and return its widget."""
        raise NotImplementedError

    def show_decision(self, spots: Sequence[SpotView], rack: Sequence[Chip]) -> None:
        """Show the decision wager's spot, for a felt that prints one."""
        main = next((s for s in spots if s.extra_label), None)
        for child in self.walk(restrict=True):
            if isinstance(child, DecisionSpot) and main is not None:
                child.show(main, rack)
