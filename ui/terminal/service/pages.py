"""The service pages (look in ``service.kv``): PIN pad, menu, outcome, entry, settings, and the
touchscreen and display tests.  Each page calls back into its :class:`ServiceLayer`."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from kiosk.kernel.games.registry import edition_ids
from kiosk.terminal.core.config import ConfigError
from kiosk.terminal.presentation.i18n import catalogue
from kiosk.terminal.presentation.service_outcomes import (
    ServiceTable,
    field_label,
    pattern_caption,
    setting_text,
)
from kiosk.terminal.presentation.service_words import function_title, service_text
from kiosk.terminal.service.access import PIN_MAX_DIGITS, Role
from kiosk.terminal.service.functions.base import Outcome
from kiosk.terminal.service.functions.config import FIELDS, parse_field, show_field
from kiosk.terminal.service.functions.diagnostics import DISPLAY_PATTERNS, TouchTest
from kiosk.terminal.service.functions.house_edge import edition_title, wager_tables
from ui.terminal.widgets.controls import CasinoButton


@dataclass(frozen=True)
class Action:
    """A button under an outcome."""

    text: str
    run: Callable[[], Any]
    style: str = "felt"
    name: str = ""  # the button's ``tk_name`` after "action:" (its text when empty): the
    # English words, so a script taps the same button in either language


class ServicePage(Screen):
    """Base of every page: knows its layer."""

    layer: Any = None

    @property
    def language(self) -> str:
        """The service pages' language."""
        return str(self.layer.language) if self.layer is not None else "en"

    def t(self, key: str, **values: object) -> str:
        """A service text in the pages' language."""
        return service_text(self.language, key, **values)


class LoginPage(ServicePage):
    """Role buttons and a PIN pad; also the PIN change (typed twice) and the operator's set-PIN.

    ``mode``: "enter" (a role's PIN), "new" (the entered role's new PIN), "set" (another
    role's PIN, by the operator).
    """

    mode = StringProperty("enter")
    role = StringProperty("attendant")
    digits = NumericProperty(0)
    message = StringProperty("")
    error = BooleanProperty(False)
    prompt = StringProperty("")
    title_text = StringProperty("")
    help_text = StringProperty("")
    attendant_text = StringProperty("")
    technician_text = StringProperty("")
    operator_text = StringProperty("")
    close_text = StringProperty("")
    clear_text = StringProperty("")
    ok_text = StringProperty("OK")

    def _t(self, key: str, **values: object) -> str:
        language = self.layer.language if self.layer is not None else "en"
        return service_text(language, key, **values)

    def start(self, mode: str, message: str = "", error: bool = False) -> None:
        """Show the pad in ``mode``, in the service pages' language."""
        self.mode, self.message, self.error = mode, message, error
        self._pin = ""
        self._first = ""
        self.digits = 0
        if mode == "new" and self.layer is not None:
            self.role = self.layer.role_label() or self.role
        t = self._t
        self.title_text, self.help_text = t(f"pin_title_{mode}"), t(f"pin_help_{mode}")
        self.attendant_text = t("role_attendant")
        self.technician_text = t("role_technician")
        self.operator_text = t("role_operator")
        self.close_text = t("pin_back" if mode != "enter" else "pin_close")
        self.clear_text, self.ok_text = t("pin_clear"), t("pin_ok")
        self.prompt = t("pin" if mode == "enter" else "new_pin")

    def choose(self, role: str) -> None:
        """A role button."""
        if self.mode != "new":
            self.role = role

    def key(self, text: str) -> None:
        """A keypad key: a digit, "clear" or "ok"."""
        if text == "clear":
            self._pin = ""
        elif text == "ok":
            self._submit()
        elif len(self._pin) < PIN_MAX_DIGITS:
            self._pin += text
        self.digits = len(self._pin)

    def _submit(self) -> None:
        pin, self._pin = self._pin, ""
        self.digits = 0
        if self.mode == "enter":
            self.layer.enter(Role.parse(self.role), pin)
            return
        if not self._first:
            self._first = pin
            self.prompt = self._t("new_pin_again")
            return
        first, self._first = self._first, ""
        self.prompt = self._t("new_pin")
        if first != pin:
            self.message, self.error = self._t("pins_differ"), True
            return
        if self.mode == "new":
            self.layer.change_pin(pin)
        else:
            self.layer.set_pin(Role.parse(self.role), pin)

    def close(self) -> None:
        """Back: to the menu when a role is entered, else the key is turned off."""
        if self.layer.session.role is not None and self.mode != "enter":
            self.layer.menu()
        else:
            self.layer.key_off()


class MenuButton(CasinoButton):
    """A function of the menu."""

    function = StringProperty("")

    def on_release(self) -> None:
        self.parent_page.layer.open(self.function)

    parent_page: Any = None


class MenuPage(ServicePage):
    """Every function the entered role may use, by group."""

    heading = StringProperty("")
    message = StringProperty("")
    language_text = StringProperty("Español")
    exit_text = StringProperty("Exit service mode")

    def show(self, session: Any, message: str = "") -> None:
        """Buttons for the allowed functions."""
        state = session.terminal.state()
        language = self.layer.language if self.layer is not None else "en"
        role = service_text(language, f"role_{session.role.label}") if session.role else ""
        heading = service_text(
            language, "menu_heading", role=role, terminal=state.config.terminal_id
        )
        ro = "  " + service_text(language, "read_only") if session.terminal.read_only else ""
        self.heading = heading + ro
        self.message = message
        self.language_text = service_text(language, "language")
        self.exit_text = service_text(language, "exit")
        grid = self.ids.grid
        grid.clear_widgets()
        for function in session.allowed():
            title = function_title(function.name, function.title, language)
            button = MenuButton(text=title, function=function.name, style="dark", wrap=True)
            button.tk_name = f"service:{function.name}"
            button.parent_page = self
            grid.add_widget(button)


def columns(lines: tuple[str, ...]) -> ServiceTable | None:
    """Lines laid out in columns by runs of spaces (the command line's fixed-width layout) as
    a table for a proportional font: when most lines split into the same number of columns;
    None otherwise.  The first such line is the header when it has no figure in it."""
    split = [tuple(re.split(r"\s{2,}", line.strip())) for line in lines if line.strip()]
    counts = [len(parts) for parts in split if len(parts) > 1]
    if not counts or len(counts) < 0.6 * len(split):
        return None
    width = max(set(counts), key=counts.count)
    rows = [(*parts, *("",) * (width - len(parts)))[:width] for parts in split]
    widths = (2.0, *(1.0,) * (width - 1)) if width > 2 else ()
    numbers = frozenset(range(1, width)) if width > 2 else frozenset()
    return ServiceTable(tuple("" for _ in range(width)), rows, widths, numbers)


class OutcomeLine(Label):
    """One line of an outcome, wrapped at the page's width (look in ``service.kv``)."""


class TableCell(Label):
    """One cell of an outcome's table (look in ``service.kv``)."""

    head = BooleanProperty(False)
    number = BooleanProperty(False)


class OutcomePage(ServicePage):
    """A function's outcome: its title, its lines (or a table with named rows) and the buttons
    it offers, every text at the player's least size."""

    title = StringProperty("")
    body = StringProperty("")
    ok = BooleanProperty(True)
    live_text = StringProperty("")

    def show(
        self,
        outcome: Outcome,
        actions: list[Action],
        table: ServiceTable | None = None,
    ) -> None:
        """Lay out ``outcome`` and its actions; ``table`` instead of its lines when given."""
        self.title, self.ok = outcome.title, outcome.ok
        self.body = "\n".join(outcome.lines)
        box = self.ids.lines
        box.clear_widgets()
        if table is None:
            table = columns(outcome.lines)
        if table is not None:
            header = table.header
            grid = GridLayout(cols=len(header), size_hint_y=None, spacing=(12, 2))
            grid.bind(minimum_height=grid.setter("height"))
            widths = table.widths or (1.0,) * len(header)
            heads = [(header, True)] if any(header) else []
            for row, head in [*heads, *((r, False) for r in table.rows)]:
                for n, cell in enumerate(row):
                    widget = TableCell(text=cell, head=head, number=n in table.numbers)
                    widget.size_hint_x = widths[n]
                    grid.add_widget(widget)
            box.add_widget(grid)
        else:
            for line in outcome.lines:
                box.add_widget(OutcomeLine(text=line or " "))
        self.ids.scroller.scroll_y = 1
        bar = self.ids.actions
        bar.clear_widgets()
        for action in actions:
            button = CasinoButton(text=action.text, style=action.style, wrap=True)
            button.tk_name = f"action:{action.name or action.text}"
            button.bind(on_release=lambda _b, run=action.run: run())
            bar.add_widget(button)


class ServiceRecallPage(ServicePage):
    """The game recall as the player's history draws it: the cards as pictures, each wager's
    result; OLDER and NEWER page through the games."""

    heading = StringProperty("")
    page_text = StringProperty("")
    index = NumericProperty(0)
    count = NumericProperty(0)
    empty_text = StringProperty("")
    older_text = StringProperty("OLDER")
    newer_text = StringProperty("NEWER")
    menu_text = StringProperty("Menu")

    def start(
        self, games: list[Any], empty_text: str, page_text: Callable[[int, int], str]
    ) -> None:
        """Show ``games`` (the player's recall views, newest first)."""
        self.games, self._page_text = games, page_text
        language = self.layer.language if self.layer is not None else "en"
        self.older_text = service_text(language, "older")
        self.newer_text = service_text(language, "newer")
        self.menu_text = service_text(language, "menu")
        self.count, self.empty_text = len(games), empty_text
        self.go(0)

    def go(self, index: int) -> None:
        """Game ``index`` (0: the newest)."""
        from ui.terminal.families import recall_rows
        from ui.terminal.widgets.card import CardRow
        from ui.terminal.widgets.controls import HeaderLabel

        self.index = max(0, min(index, self.count - 1)) if self.count else 0
        cards, lines = self.ids.cards, self.ids.lines
        cards.clear_widgets()
        lines.clear_widgets()
        if not self.games:
            self.heading, self.page_text = "", ""
            lines.add_widget(OutcomeLine(text=self.empty_text))
            return
        game = self.games[self.index]
        self.heading = game.heading
        self.page_text = self._page_text(self.index + 1, self.count)
        from kivy.app import App

        app = App.get_running_app()
        u = app.u
        captions = catalogue(self.language)  # the service pages' language, not the player's
        for caption, row, base in recall_rows(game, captions):
            if caption:
                cards.add_widget(HeaderLabel(text=caption, size_hint_y=None, height=u * 27))
            line = CardRow(spacing=u * 5, fit=6)
            line.name_prefix = f"service_recall:{len(cards.children)}"
            line.count = len(row)
            for i, (card, card_face) in enumerate(zip(line.cards, row, strict=True)):
                card.deal = False
                card.icon = game.icon
                card.selected = base >= 0 and base + i in game.positions
                card.face = card_face
            cards.add_widget(line)
        info = [game.icons_text, game.hand_text, game.decision_text]
        if game.results:
            info += [f"{r.label} {r.stake_text}: {r.text}" for r in game.results]
        else:
            info += [f"{label}: {amount}" for label, amount in game.wagers]
        info += [game.total_text, game.credits_text]
        for text in info:
            if text:
                lines.add_widget(OutcomeLine(text=text))


class EntryPage(ServicePage):
    """One value typed on a keypad ("digits", "money", "hex") or the keyboard ("text")."""

    prompt = StringProperty("")
    value = StringProperty("")
    keys = StringProperty("digits")
    message = StringProperty("")
    key_rows = ListProperty([])
    ok_text = StringProperty("OK")
    back_text = StringProperty("Back")

    def start(self, prompt: str, value: str, done: Callable[[str], Any], keys: str) -> None:
        """Ask for a value; ``done(text)`` when OK is touched."""
        self.prompt, self.value, self.keys, self._done = prompt, value, keys, done
        self.message = ""
        self.ok_text, self.back_text = self.t("entry_ok"), self.t("entry_back")
        rows = [["7", "8", "9"], ["4", "5", "6"], ["1", "2", "3"], ["0", "clear", ""]]
        if keys == "money":
            rows[3] = ["0", "clear", "."]
        if keys == "hex":
            rows = [
                ["a", "b", "c", "d", "e", "f"],
                ["6", "7", "8", "9", "0", "clear"],
                ["1", "2", "3", "4", "5", "."],
            ]
        self.key_rows = rows
        pad = self.ids.keypad
        pad.clear_widgets()
        pad.cols = len(rows[0])
        for row in rows:
            for key in row:
                if not key:
                    continue
                label = {"clear": self.t("pin_clear"), ".": "."}.get(key, key)
                button = CasinoButton(text=label, style="dark" if key == "clear" else "felt")
                button.tk_name = f"key:{key}"
                button.font_size = button.font_size * 1.3
                button.bind(on_release=lambda _b, key=key: self.key(key))
                pad.add_widget(button)

    def key(self, text: str) -> None:
        """A key of the pad."""
        if text == "clear":
            self.value = ""
        elif text == "ok":
            self._done(self.value)
        else:
            self.value += text


class SettingRow(ButtonBehavior, Widget):
    """One setting: its label and its value (pending changes marked)."""

    label = StringProperty("")
    value = StringProperty("")
    changed = BooleanProperty(False)
    field = StringProperty("")
    page: Any = None

    def on_release(self) -> None:
        self.page.edit(self.field)


class ConfigPage(ServicePage):
    """The settings, editions and pay tables (with house edges), edited then saved as one
    change."""

    summary = StringProperty("")
    heading = StringProperty("")
    save_text = StringProperty("")
    discard_text = StringProperty("")

    def start(self, config: dict[str, Any]) -> None:
        """Edit ``config``."""
        self._original = config
        self.config = dict(config)
        self.save_text, self.discard_text = self.t("cfg_save"), self.t("cfg_discard")
        self.rebuild()

    def rebuild(self) -> None:
        """Rows for every field, then every edition."""
        rows = self.ids.rows
        rows.clear_widgets()
        language, names = self.language, self.layer.names
        for spec in FIELDS:
            value = self.config[spec.name]
            row = SettingRow(
                label=field_label(spec.name, language),
                value=setting_text(spec.name, value, language, names),
                changed=value != self._original[spec.name],
                field=spec.name,
            )
            row.page = self
            rows.add_widget(row)
        enabled = {e["edition"]: e for e in self.config["editions"]}
        for edition in edition_ids():
            on = edition in enabled
            row = SettingRow(
                label=names.editions.get(edition, edition_title(edition)),
                value=self.t("cfg_enabled" if on else "cfg_off"),
                changed=on != (edition in {e["edition"] for e in self._original["editions"]}),
                field=f"edition:{edition}",
            )
            row.page = self
            rows.add_widget(row)
            if not on:
                continue
            chosen = enabled[edition]["paytables"]
            for wt in wager_tables(edition):
                table = chosen.get(wt.wager, wt.default)
                row = SettingRow(
                    label=f"    {names.wagers.get((edition, wt.wager), wt.label)}",
                    value=table,
                    field=f"table:{edition}:{wt.wager}",
                )
                row.page = self
                rows.add_widget(row)
        changes = self.changes()
        count = len(changes)
        self.summary = self.t("cfg_changes", count=count) if changes else self.t("cfg_no_change")
        self.heading = self.t("cfg_heading", summary=self.summary)

    def changes(self) -> dict[str, Any]:
        """The fields that differ from the terminal's configuration."""
        return {k: v for k, v in self.config.items() if v != self._original.get(k)}

    def edit(self, field: str) -> None:
        """A row was touched: toggle an edition, cycle a pay table, or type a value."""
        layer = self.layer
        if field.startswith("edition:"):
            edition = field.split(":", 1)[1]
            on = edition not in {e["edition"] for e in self.config["editions"]}
            self.config = layer.toggled_edition(self.config, edition, on)
            self.rebuild()
            return
        if field.startswith("table:"):
            _, edition, wager = field.split(":")
            spec = {w.wager: w for w in wager_tables(edition)}[wager]
            chosen = {e["edition"]: e for e in self.config["editions"]}[edition]["paytables"]
            current = chosen.get(wager, spec.default)
            following = spec.tables[(spec.tables.index(current) + 1) % len(spec.tables)]
            self.config = layer.chosen_paytable(self.config, edition, wager, following)
            self.rebuild()
            return
        kind = next(s.kind for s in FIELDS if s.name == field)
        if kind == "choice":
            self.config = {**self.config, field: "es" if self.config[field] == "en" else "en"}
            self.rebuild()
            return
        current = show_field(field, self.config[field]).replace("$", "").replace(",", "")
        if kind in ("seconds", "days"):
            current = str(self.config[field])
        keys = {"money": "money", "notes": "text", "text": "text"}.get(kind, "digits")
        layer.entry(
            field_label(field, self.language),
            current if kind != "notes" else ", ".join(str(v // 100) for v in self.config[field]),
            lambda text: self._typed(field, text),
            keys,
        )

    def _typed(self, field: str, text: str) -> None:
        entry = self.layer.pages.get_screen("entry")
        try:
            self.config = {**self.config, field: parse_field(field, text)}
        except ConfigError as exc:
            entry.message = self.layer.refusal(exc)
            return
        self.layer.pages.current = "config"
        self.rebuild()

    def save(self) -> None:
        """Send the changes (the gate validates them)."""
        self.layer.save_config(self.changes())


class Target(Widget):
    """A touchscreen-test target; green once touched."""

    hit = BooleanProperty(False)


class TouchTestPage(ServicePage):
    """A grid of targets; the test passes when every one was touched."""

    status = StringProperty("")
    stop_text = StringProperty("")

    def start(self) -> None:
        """A fresh grid."""
        self.stop_text = self.t("touch_stop")
        self.test = TouchTest()
        grid = self.ids.targets
        grid.cols = self.test.columns
        grid.clear_widgets()
        for _ in range(self.test.cells):
            grid.add_widget(Target())
        self.status = self.t("touch_status", hit=0, cells=self.test.cells)

    def on_touch_down(self, touch: Any) -> bool:
        grid = self.ids.targets
        if grid.collide_point(*touch.pos) and not self.ids.abort.collide_point(*touch.pos):
            x = (touch.x - grid.x) / grid.width
            y = 1 - (touch.y - grid.y) / grid.height
            cell = self.test.touch(min(x, 0.9999), min(max(y, 0), 0.9999))
            if cell is not None:
                index = cell[1] * self.test.columns + cell[0]
                list(reversed(grid.children))[index].hit = True
            self.status = self.t("touch_status", hit=len(self.test.hit), cells=self.test.cells)
            if self.test.passed:
                self.finish()
            return True
        return bool(super().on_touch_down(touch))

    def finish(self) -> None:
        """Record the result (passed, or as far as it got)."""
        self.layer.call("touch_test", {"cells": self.test.cells, "hit": len(self.test.hit)})


class DisplayTestPage(ServicePage):
    """The test patterns, full screen, one per touch; then the technician's verdict."""

    pattern = StringProperty("")
    caption = StringProperty("")
    colors = ListProperty([])
    judging = BooleanProperty(False)
    pass_text = StringProperty("")
    fail_text = StringProperty("")

    def start(self) -> None:
        """The first pattern."""
        self.index = 0
        self.judging = False
        self.pass_text, self.fail_text = self.t("display_passes"), self.t("display_fails")
        self._show()

    def _show(self) -> None:
        p = DISPLAY_PATTERNS[self.index]
        self.pattern = p.name
        self.colors = [list(c) for c in p.colors]
        self.caption = pattern_caption(self.language, p.name)

    def on_touch_down(self, touch: Any) -> bool:
        if self.judging:
            return bool(super().on_touch_down(touch))
        if self.index + 1 < len(DISPLAY_PATTERNS):
            self.index += 1
            self._show()
        else:
            self.judging = True
            self.caption = self.t("display_question")
        return True

    def verdict(self, passed: bool) -> None:
        """Record the verdict."""
        names = [p.name for p in DISPLAY_PATTERNS]
        self.layer.call(
            "display_test", {"patterns": names, "verdict": "pass" if passed else "fail"}
        )
