"""The service menu as a technician meets it on the touchscreen (issue 26, item 9): touch-first
pages whose every text has capitals of 16 px at 800x480, the meters by name (not ``coin_in``),
the devices in words (not the drivers' fields), the recall drawn with cards as on the player's
screen, and the pages in both languages."""

from __future__ import annotations

import random
from typing import Any

from kivy.uix.label import Label

from kiosk.terminal.robot import Robot
from tests.helpers import legibility
from tests.helpers.service_touch import enter as _enter
from tests.helpers.service_touch import page_labels as _labels
from tests.helpers.service_touch import pin as _pin
from ui.terminal.widgets.card import CardView

RAW = ("coin_in", "kind=", "enabled=", "notes=[", "InProcess", "outbox_pending", "=None")


def _texts(layer: Any) -> list[str]:
    return [w.text for w in layer.walk(restrict=True) if isinstance(w, Label) and w.text]


def _legible(k: Any, page: str) -> int:
    k.driver.frames(3)
    layer = k.app.service_layer
    readings = legibility.measure(_labels(layer), page, legibility.MIN_CAP_PX * float(k.app.u))
    failing = [str(r) for r in readings if r.problems()]
    assert not failing, "\n".join(failing)
    return len(readings)


def test_service_pages_read_as_a_technician_needs(kiosk: Any) -> None:
    k = kiosk
    rt, terminal = k.terminal.runtime, k.terminal
    robot = Robot(rt, terminal.validator, terminal.printer, random.Random(7), fault_rate=0.0)
    for _ in range(2):  # games for the recall
        robot.play_game()
    from ui.terminal.service import install

    layer = k.app.service_layer = install(k.app, k.terminal)
    k.app.dispatch("on_service_key")
    k.driver.frames(3)
    assert _legible(k, "pin pad") >= 5
    _enter(k, "attendant", "1111", "2468")
    assert _legible(k, "menu") >= 6
    k.tap("service:meters")
    texts = _texts(layer)
    assert {"Total wagered", "Total won", "Games played", "Notes in"} <= set(texts)
    assert not [t for t in texts if any(raw in t for raw in RAW)]
    assert _legible(k, "meters") >= 10
    k.tap("action:Menu")
    k.tap("service:recall")
    cards = [c for c in layer.walk(restrict=True) if isinstance(c, CardView) and c.face]
    assert len(cards) >= 9  # drawn as on the player's screen, not card codes
    assert _legible(k, "recall") >= 3
    k.tap("recall:menu")
    k.tap("service:language")
    assert "Contadores" in _texts(layer) and "Historial de partidas" in _texts(layer)
    k.tap("service:meters")
    assert {"Total apostado", "Partidas jugadas"} <= set(_texts(layer))
    assert _legible(k, "meters es") >= 10
    k.tap("action:Menu")
    k.tap("service:language")
    k.tap("service:exit")
    _enter(k, "technician", "2222", "1357")
    k.tap("service:devices")
    texts = _texts(layer)
    assert "Bill validator" in texts and "Voucher printer" in texts
    assert not [t for t in texts if any(raw in t for raw in RAW)]
    assert _legible(k, "devices") >= 6


#: the English words of the PIN page, its messages and the outcome pages' buttons
ENGLISH = {
    "SERVICE MENU",
    "CHANGE PIN",
    "Choose your role and type its PIN.",
    "Choose a PIN of 4 to 8 digits.",
    "Attendant",
    "Technician",
    "Operator",
    "Close (key off)",
    "Back",
    "Clear",
    "Service mode left: play resumes",
    "The technician PIN is the factory PIN: choose a new one",
    "Menu",
    "Status",
    "Edit",
    "Export",
    "All",
    "Tilts",
    "Doors",
    "Money",
    "Power",
    "Service",
    "Start test",
    "Stop test",
    "Item",
    "Value",
    "Phase",
    "Stopped by",
    "nothing (play allowed)",
    "Credits",
    "idle",
}


def _english(layer: Any) -> list[str]:
    return [t for t in _texts(layer) if t in ENGLISH or t.startswith("New PIN")]


def test_the_pin_page_and_the_buttons_follow_the_spanish_switch(kiosk: Any) -> None:
    """Issue 26: switched to Spanish, the PIN page (its title, help, roles, keys, prompts and
    messages), the status page and the outcome pages' buttons have no English label; the
    buttons keep their English names for scripts (``action:Menu``)."""
    k = kiosk
    from ui.terminal.service import install

    layer = k.app.service_layer = install(k.app, k.terminal)
    k.app.dispatch("on_service_key")
    k.driver.frames(3)
    _enter(k, "attendant", "1111", "2468")
    k.tap("service:language")
    k.tap("service:exit")  # the PIN pad for the next role, still in Spanish
    k.driver.frames(2)
    texts = _texts(layer)
    assert "MENÚ DE SERVICIO" in texts and "Técnico" in texts
    assert "Modo de servicio cerrado: el juego se reanuda" in texts
    assert not _english(layer), _english(layer)
    _pin(k, "technician", "2222")  # the factory PIN: change it
    k.driver.frames(2)
    assert "CAMBIAR PIN" in _texts(layer)
    assert not _english(layer), _english(layer)
    assert _legible(k, "pin pad es") >= 5
    for _ in range(2):
        for digit in "1357":
            k.tap(f"pin:{digit}")
        k.tap("pin:ok")
    for function, buttons in (
        ("status", {"Detenido por", "Fase", "en espera", "Créditos", "Menú"}),
        ("events", {"Todos", "Fallas", "Puertas", "Dinero", "Energía", "Servicio", "Menú"}),
        ("bill_test", {"Iniciar prueba", "Menú"}),
    ):
        k.tap(f"service:{function}")
        k.driver.frames(2)
        assert buttons <= set(_texts(layer)), (function, _texts(layer))
        assert not _english(layer), (function, _english(layer))
        if function != "events":  # (its timestamps break across lines in either language)
            _legible(k, f"{function} es")
        k.tap("action:Menu")
    k.tap("service:language")  # back to English
    k.tap("service:events")
    assert {"All", "Tilts", "Menu"} <= set(_texts(layer))
    k.tap("action:Menu")
