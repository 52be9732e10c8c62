"""The service menu on the touchscreen: a full-window layer over the game, its pages, and the
one :class:`~kiosk.terminal.service.session.ServiceSession` behind them.

The service key (F3 on a development machine, the cabinet's key switch on a terminal) shows the
layer with the PIN pad; turning it off leaves service mode and hides it.  Every function goes
through the session's gate, exactly as ``turbokiosk service`` does; the pages only show
outcomes and gather arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout

from kiosk.terminal.core.config import to_dict
from kiosk.terminal.presentation.recall import recall_view
from kiosk.terminal.presentation.service_outcomes import (
    ServiceNames,
    ServiceTable,
    outcome_view,
    refusal_text,
)
from kiosk.terminal.presentation.service_words import (
    function_title,
    service_text,
    spot_and_edition_names,
    wager_names,
)
from kiosk.terminal.service.access import AccessDeniedError, PinStore, Role
from kiosk.terminal.service.backends import InProcessTerminal
from kiosk.terminal.service.functions.base import Outcome, ServiceError
from kiosk.terminal.service.functions.config import FIELDS, with_edition, with_paytable
from kiosk.terminal.service.session import ServiceSession
from ui.terminal.service.pages import (
    Action,
    ConfigPage,
    DisplayTestPage,
    EntryPage,
    LoginPage,
    MenuPage,
    OutcomePage,
    ServiceRecallPage,
    TouchTestPage,
)

KV_FILE = Path(__file__).resolve().parent / "service.kv"
#: event-log filters offered on the touchscreen: label's key (``filter_<key>``) -> kinds
EVENT_FILTERS: dict[str, tuple[str, ...]] = {
    "all": (),
    "tilts": ("TiltRaised", "TiltCleared"),
    "doors": ("DoorChanged",),
    "money": ("BillStacked", "BillReturned", "TicketRedeemed", "VoucherPrinted", "HandpayReset"),
    "power": ("PoweredUp", "CriticalMemoryError"),
    "service": ("ServiceChanged", "ConfigChanged", "PeriodMetersReset"),
}
_loaded = False


def load_kv() -> None:
    """Load the service layouts once per process."""
    global _loaded
    if not _loaded:
        Builder.load_file(str(KV_FILE))
        _loaded = True


class ServiceLayer(FloatLayout):
    """Every service page, over the whole window while the service key is on."""

    session = ObjectProperty(None)
    banner = StringProperty("")

    def __init__(self, session: ServiceSession, **kwargs: Any) -> None:
        load_kv()
        super().__init__(**kwargs)
        self.session = session
        self.pages = self.ids.pages
        for page in (
            LoginPage(name="login"),
            MenuPage(name="menu"),
            OutcomePage(name="outcome"),
            EntryPage(name="entry"),
            ConfigPage(name="config"),
            TouchTestPage(name="touch"),
            DisplayTestPage(name="display"),
            ServiceRecallPage(name="recall"),
        ):
            page.layer = self
            self.pages.add_widget(page)
        self._poll: Any = None
        self._last_function = ""
        self._last_args: dict[str, Any] = {}
        self._language = ""
        self._names: dict[str, ServiceNames] = {}

    # --- key, entry and exit ---------------------------------------------------------------

    def key_on(self) -> None:
        """The service key was turned on: the PIN pad."""
        self.session.turn_key(True)
        self.login()

    def key_off(self) -> None:
        """The service key was turned off: leave service mode, hide the layer."""
        self._stop_poll()
        self._language = ""  # the next technician starts in the terminal's language
        self.session.turn_key(False)
        if self.parent is not None:
            self.parent.remove_widget(self)

    def login(self, message: str = "") -> None:
        """The role and PIN page."""
        self._stop_poll()
        page = self.pages.get_screen("login")
        page.start("enter", message)
        self.pages.current = "login"

    def enter(self, role: Role, pin: str) -> None:
        """A PIN typed for ``role``."""
        page = self.pages.get_screen("login")
        try:
            must_change = self.session.enter(role, pin)
        except (AccessDeniedError, ServiceError) as exc:
            page.start("enter", self.refusal(exc), error=True)
            return
        if must_change:
            page.start("new", self._t("factory_pin", role=self._t(f"role_{role.label}")))
            return
        self.menu()

    def change_pin(self, new_pin: str) -> None:
        """The entered role's new PIN (typed twice on the login page)."""
        page = self.pages.get_screen("login")
        try:
            self.session.call("change_pin", {"new_pin": new_pin})
        except ServiceError as exc:
            page.start("new", self.refusal(exc), error=True)
            return
        self.menu(self._t("pin_changed", role=self._t(f"role_{self.role_label()}")))

    def set_pin(self, role: Role, new_pin: str) -> None:
        """The operator sets another role's PIN."""
        self.call("set_pin", {"role": role.label, "new_pin": new_pin})

    def leave(self) -> None:
        """Exit: the terminal leaves service mode; the PIN pad waits for the next role."""
        self._stop_poll()
        self.session.leave()
        self.login(self._t("service_left"))

    def _t(self, key: str, **values: object) -> str:
        """A service text in the pages' language."""
        return service_text(self.language, key, **values)

    @property
    def names(self) -> ServiceNames:
        """The functions', settings', wager spots' and games' names in the pages' language."""
        language = self.language
        if language not in self._names:
            spots, editions = spot_and_edition_names(language)
            titles = {
                f.name: function_title(f.name, f.title, language)
                for f in self.session.functions.values()
            }
            fields = {spec.name: spec.kind for spec in FIELDS}
            wagers = wager_names(language)
            self._names[language] = ServiceNames(titles, fields, spots, editions, wagers)
        return self._names[language]

    def refusal(self, error: Exception) -> str:
        """A refusal's message in the pages' language (by its catalogue key)."""
        key = getattr(error, "key", "")
        values = getattr(error, "values", {})
        return refusal_text(
            key if isinstance(key, str) else "", values, str(error), self.language, self.names
        )

    def _action(
        self, key: str, run: Callable[[], Any], style: str = "felt", **values: object
    ) -> Action:
        """A button in the pages' language, named (``action:...``) by its English words."""
        english = service_text("en", key, **values)
        return Action(self._t(key, **values), run, style, name=english)

    def _menu_action(self) -> Action:
        return Action(self._t("menu"), self.menu, name="Menu")

    def role_label(self) -> str:
        """The entered role's name, or ""."""
        return self.session.role.label if self.session.role is not None else ""

    # --- the menu and the functions ------------------------------------------------------------

    def menu(self, message: str = "") -> None:
        """Every function the entered role may use."""
        self._stop_poll()
        page = self.pages.get_screen("menu")
        page.show(self.session, message)
        self.pages.current = "menu"

    def open(self, name: str) -> None:
        """A menu button: the page of function ``name``."""
        special: dict[str, Callable[[], object]] = {
            "change_pin": lambda: self._pin_page("new"),
            "set_pin": lambda: self._pin_page("set"),
            "touch_test": lambda: self._show_page("touch"),
            "display_test": lambda: self._show_page("display"),
            "config_change": self.edit_config,
            "period_reset": self._confirm_period_reset,
            "ram_clear": self._ram_clear_reason,
            "config_import": self._import_latest,
            "software_hmac": self._seed_entry,
            "handpay_reset": lambda: self.call("status"),
            "clear_tilt": lambda: self.call("status"),
            "bill_test": lambda: self.call("bill_test", {"action": "status"}),
        }
        if name in special:
            special[name]()
        else:
            self.call(name)

    def call(self, name: str, args: Mapping[str, Any] | None = None) -> Outcome | None:
        """Run a function through the gate and show its outcome (or the refusal)."""
        self._stop_poll()
        given = dict(args or {})
        try:
            outcome: Outcome = self.session.call(name, given)
        except ServiceError as exc:
            self.show_outcome(
                Outcome(self._t("refused"), (self.refusal(exc),), {}, ok=False),
                [self._menu_action()],
            )
            return None
        self._last_function, self._last_args = name, given
        if name == "recall":
            self._show_recall(outcome)
            return outcome
        actions = self._actions(name, outcome)
        view = outcome_view(name, outcome.data, outcome.ok, self.language, self.names)
        if view is None:
            self.show_outcome(outcome, actions)
        else:
            title = view.title or self.names.functions.get(name, outcome.title)
            shown = replace(outcome, title=title, lines=view.lines)
            self.show_outcome(shown, actions, view.table)
        if name == "bill_test" and outcome.data.get("running"):
            self._poll = Clock.schedule_interval(self._refresh_bill_test, 0.5)
        return outcome

    def show_outcome(
        self,
        outcome: Outcome,
        actions: list[Action],
        table: ServiceTable | None = None,
    ) -> None:
        """The outcome page: ``outcome``'s title and lines as the page's language has them
        (:func:`~kiosk.terminal.presentation.service_outcomes.outcome_view`), or ``table``."""
        page = self.pages.get_screen("outcome")
        page.show(outcome, actions, table)
        self.pages.current = "outcome"

    def _show_recall(self, outcome: Outcome) -> None:
        """The recall drawn as on the player's screen (cards as pictures)."""
        games = [
            recall_view({k: v for k, v in record.items() if k != "card_names"}, self.language)
            for record in outcome.data.get("games", [])
        ]
        page = self.pages.get_screen("recall")
        page.start(
            games,
            service_text(self.language, "no_game"),
            lambda n, count: service_text(self.language, "recall_page", n=n, count=count),
        )
        self.pages.current = "recall"

    @property
    def language(self) -> str:
        """The service pages' language: the technician's choice, else the terminal's."""
        if self._language:
            return self._language
        try:
            return str(self.session.terminal.state().config.language)
        except AttributeError:
            return "en"

    def use_language(self, language: str) -> None:
        """Show the pages in ``language`` until the key is turned off (a tour's choice)."""
        self._language = language
        if self.pages.current == "login":
            self.login()

    def switch_language(self) -> None:
        """The menu's language button."""
        self._language = "es" if self.language == "en" else "en"
        self.menu()

    def _actions(self, name: str, outcome: Outcome) -> list[Action]:
        data = outcome.data
        actions: list[Action] = []
        if name == "status":
            if data.get("handpay"):
                reset = self._action(
                    "act_reset_handpay", lambda: self.call("handpay_reset"), "gold"
                )
                actions.append(reset)
            for code in list(data.get("tilts") or {})[:3]:
                clear = partial(self.call, "clear_tilt", {"code": code})
                actions.append(self._action("act_clear_tilt", clear, "gold", code=code))
        elif name == "events":
            for key, kinds in EVENT_FILTERS.items():
                run = partial(self.call, "events", {"kinds": list(kinds)})
                actions.append(self._action(f"filter_{key}", run))
        elif name == "bill_test":
            running = data.get("running")
            action = "stop" if running else "start"
            actions.append(
                self._action(
                    "act_stop_test" if running else "act_start_test",
                    lambda: self.call("bill_test", {"action": action}),
                    "red" if running else "green",
                )
            )
        elif name == "config":
            actions += [
                self._action("act_edit", self.edit_config, "gold"),
                self._action("act_export", lambda: self.call("config_export")),
            ]
        elif name == "software":
            actions.append(self._action("act_seeded_hmac", self._seed_entry))
        elif name == "handpay_reset" or name == "clear_tilt":
            actions.append(self._action("act_status", lambda: self.call("status")))
        actions.append(self._menu_action())
        return actions

    def _refresh_bill_test(self, _dt: float) -> None:
        validator = self.session.terminal.validator
        notes = validator.test_notes() if validator is not None else []
        page = self.pages.get_screen("outcome")
        page.live_text = self._t("notes_read", count=len(notes))

    def _stop_poll(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
            self.pages.get_screen("outcome").live_text = ""

    # --- pages that gather arguments --------------------------------------------------------------

    def _show_page(self, name: str) -> None:
        self._stop_poll()
        self.pages.get_screen(name).start()
        self.pages.current = name

    def _pin_page(self, mode: str) -> None:
        page = self.pages.get_screen("login")
        page.start(mode, self._t("type_new_pin" if mode == "new" else "choose_role_pin"))
        self.pages.current = "login"

    def _seed_entry(self) -> None:
        self.entry(
            self._t("prompt_seed"),
            "",
            lambda text: self.call("software_hmac", {"seed": text}),
            keys="hex",
        )

    def entry(
        self, prompt: str, value: str, done: Callable[[str], Any], keys: str = "digits"
    ) -> None:
        """The keypad (or keyboard) page for one value."""
        page = self.pages.get_screen("entry")
        page.start(prompt, value, done, keys)
        self.pages.current = "entry"

    def _confirm_period_reset(self) -> None:
        self.show_outcome(
            Outcome(self.names.functions["period_reset"], (self._t("conf_period"),)),
            [
                self._action("act_reset_period", lambda: self.call("period_reset"), "red"),
                self._menu_action(),
            ],
        )

    def _ram_clear_reason(self) -> None:
        self.entry(self._t("prompt_ram_reason"), "", self._confirm_ram_clear, keys="text")

    def _confirm_ram_clear(self, reason: str) -> None:
        lines = (
            self._t("conf_ram_1"),
            self._t("conf_ram_2"),
            self._t("conf_ram_reason", reason=reason),
        )
        self.show_outcome(
            Outcome(self.names.functions["ram_clear"], lines),
            [
                self._action(
                    "act_ram_clear",
                    lambda: self.call("ram_clear", {"reason": reason, "confirm": True}),
                    "red",
                ),
                self._menu_action(),
            ],
        )

    def _import_latest(self) -> None:
        exports = self.session.service_dir / "exports"
        files = sorted(exports.glob("config-*.json")) if exports.is_dir() else []
        title = self.names.functions["config_import"]
        if not files:
            self.show_outcome(
                Outcome(title, (self._t("import_none"),), ok=False), [self._menu_action()]
            )
            return
        path = str(files[-1])
        self.show_outcome(
            Outcome(title, (self._t("conf_import", file=files[-1].name),)),
            [
                self._action(
                    "act_import", lambda: self.call("config_import", {"path": path}), "gold"
                ),
                self._menu_action(),
            ],
        )

    # --- configuration ----------------------------------------------------------------------------

    def edit_config(self) -> None:
        """The settings page, starting from the terminal's configuration."""
        page = self.pages.get_screen("config")
        page.start(to_dict(self.session.terminal.state().config))
        self.pages.current = "config"

    def toggled_edition(self, config: dict[str, Any], edition: str, on: bool) -> dict[str, Any]:
        """``config`` with ``edition`` enabled or not."""
        return with_edition(config, edition, on)

    def chosen_paytable(
        self, config: dict[str, Any], edition: str, wager: str, table: str
    ) -> dict[str, Any]:
        """``config`` with ``table`` for ``wager``."""
        return with_paytable(config, edition, wager, table)

    def save_config(self, changes: dict[str, Any]) -> None:
        """Send the edited fields as one change."""
        self.call("config_change", {"changes": changes})


def build_layer(terminal: Any, *, via: str = "touchscreen") -> ServiceLayer:
    """A service layer over a wired terminal (:class:`kiosk.terminal.app.wiring.Terminal`)."""
    runtime = terminal.runtime
    link = getattr(terminal, "host_link", None)
    backend = InProcessTerminal(
        runtime,
        validator=terminal.validator,
        printer=terminal.printer,
        rng=terminal.rng,
        host_status=link.status if link is not None else None,
    )
    pins = PinStore(backend, clock=runtime.clock)
    return ServiceLayer(ServiceSession(backend, pins, via=via, clock=runtime.clock))
