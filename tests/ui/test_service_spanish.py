"""The service menu in Spanish (issue 26, item 9): switched to Spanish, every page a technician
walks to by touches (the PIN pad and a wrong PIN, the menus, status and handpay, meters, the gate
refusing a function above the role, the event log, the audit log, every test and check, the
settings, a value typed in and refused, the configuration's outcomes, the period reset, the
import and the RAM clear confirmations, the entry prompts) shows only texts of the Spanish
catalogues, filled with numbers, money, codes and names, and every label fits its box at the
player's least size.  The records behind the pages keep their codes (English in the journal)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

from kivy.uix.scrollview import ScrollView

from kiosk.kernel.games.registry import edition_ids, load_game
from kiosk.kernel.integrity import PACKAGES
from kiosk.terminal.core import commands as c
from kiosk.terminal.presentation.i18n import _ES_GAME, CATALOGUES
from kiosk.terminal.presentation.service_outcome_texts import OUTCOME_TEXTS
from kiosk.terminal.presentation.service_words import (
    FUNCTION_TITLES_ES,
    METER_NAMES,
    SERVICE_TEXTS,
    spot_and_edition_names,
)
from kiosk.terminal.presentation.words import GameWords, translations
from kiosk.terminal.robot import Robot
from kiosk.terminal.service.functions.house_edge import wager_tables
from rng.selftest import KNOWN_ANSWERS
from tests.helpers import legibility
from tests.helpers.service_touch import enter as _enter
from tests.helpers.service_touch import page_labels as _labels
from tests.helpers.service_touch import pin as _pin

FIELD = re.compile(r"\{(\w+)\}")
#: what is no language's: numbers, money, times, PIN dots, hex digests, marks
NEUTRAL = re.compile(
    r"[\d\s$.,:·—●/+\-✗→()%*]*"
    r"|[0-9a-f]{1,8}( [0-9a-f]{8})*( [0-9a-f]{1,8})?"  # a digest, a seed, an HMAC
    r"|config-[\w.-]+\.json"  # an exported file's name
    r"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
)


def _patterns(texts: Iterable[str]) -> list[re.Pattern[str]]:
    made = []
    for value in texts:
        parts = FIELD.split(value)  # text, field, text, field, ...
        if not "".join(parts[::2]).strip(" ,.:;()"):  # fields only ("{code}"): says nothing
            continue
        regex = "".join(re.escape(p) if n % 2 == 0 else "(.+?)" for n, p in enumerate(parts))
        made.append(re.compile(regex, re.S))
    return made


SPANISH = _patterns(
    [
        *SERVICE_TEXTS["es"].values(),
        *FUNCTION_TITLES_ES.values(),
        *METER_NAMES["es"].values(),
        *CATALOGUES["es"].values(),  # the recall is drawn with the player's words
    ]
)


def spanish(shown: str, names: set[str]) -> bool:
    """``shown`` is a Spanish text of the catalogues (its fields Spanish, neutral or a name)."""
    shown = shown.removesuffix("✗").strip()  # a failed outcome's mark
    if not shown or NEUTRAL.fullmatch(shown) or shown in names:
        return True
    for pattern in SPANISH:
        m = pattern.fullmatch(shown)
        if m and all(spanish(g, names) for g in m.groups()):
            return True
    wager = re.fullmatch(r"(.+?) (\$[\d.,]+): (.+)", shown)  # a recalled wager and its result
    if wager and wager.group(1) in names and spanish(wager.group(3), names):
        return True
    count = re.fullmatch(r"\d+ (.+)", shown)  # "2 balones"
    if count and count.group(1) in names:
        return True
    for sep in (":  ", ", ", "; ", "\n"):  # a list of Spanish words, names or figures
        if sep in shown:
            return all(spanish(part, names) for part in shown.split(sep))
    return False


def _names(k: Any) -> set[str]:
    """What the pages show by its own name: the terminal, its games, wager spots and pay tables,
    a tilt's code, the RNG's test vectors, the operator's texts."""
    spots, editions = spot_and_edition_names("es")
    config = k.terminal.runtime.state.config
    game_words: set[str] = set(_ES_GAME.values())  # outcomes, hands, decisions
    for edition in edition_ids():
        game = load_game(edition)
        game_words |= set(translations(game).get("es", {}).values())
        words = GameWords(game, "es")
        game_words |= {words.icons(1), words.icons(2)}
    game_words |= {w.upper() for w in game_words}
    tables = {t for e in edition_ids() for w in wager_tables(e) for t in w.tables}
    return {
        config.terminal_id,
        config.venue,
        config.responsible_gaming_en,
        config.responsible_gaming_es,
        *spots.values(),
        *editions.values(),
        *editions,
        *tables,
        *(answer.source for answer in KNOWN_ANSWERS),
        *game_words,
        "door_sensor",
        "board swap",
        "HMAC-SHA256",
        *PACKAGES,
    }


def _visible(layer: Any) -> list[str]:
    return [w.text for w in _labels(layer)]


def _check(k: Any, names: set[str], seen: list[str], scroll: bool = False) -> None:
    """The page shows only Spanish, and every label fits (scrolled through when ``scroll``)."""
    d, layer = k.driver, k.app.service_layer
    d.frames(2)
    page = layer.pages.current
    positions = [1.0, 0.5, 0.0] if scroll else [1.0]
    for position in positions:
        for view in layer.pages.current_screen.walk(restrict=True):
            if isinstance(view, ScrollView):
                view.scroll_y = position
        d.frames(2)
        texts = _visible(layer)
        assert len(texts) >= 2, (page, texts)
        english = [x for x in texts if not spanish(x, names)]
        assert not english, (page, english)
        readings = legibility.measure(_labels(layer), page, legibility.MIN_CAP_PX * float(k.app.u))
        failing = [str(r) for r in readings if r.problems()]
        assert not failing, "\n".join(failing)
    seen.append(page)


def test_the_catalogues_have_the_same_keys_and_fields() -> None:
    en, es = SERVICE_TEXTS["en"], SERVICE_TEXTS["es"]
    assert set(en) == set(es)
    assert set(OUTCOME_TEXTS["en"]) == set(OUTCOME_TEXTS["es"])
    for key in en:
        assert set(FIELD.findall(en[key])) == set(FIELD.findall(es[key])), key


def test_the_check_finds_english() -> None:
    """The check can fail: the pages' English of before is not Spanish."""
    names = {"TK-0001", "door_sensor"}
    for shown in (
        "Event log",
        "No events logged.",
        "SETTINGS — touch a row to change it (No change yet)",
        "Save changes",
        "Reason for the RAM clear",
        "Clear every period meter? The lifetime meters are never cleared.",
        "Tilt door_sensor cleared (door sensor fault)",
        "wrong PIN (2 more before a lock-out)",
        "Event log needs the technician role (entered as attendant)",
        "Touch every target: 3 of 12",
        "pass  HMAC_DRBG known answer x",
        "enabled",
    ):
        assert not spanish(shown, names), shown
    for shown in ("Falla door_sensor borrada", "Toque cada objetivo: 3 de 12", "$5.00, $10.00"):
        assert spanish(shown, names), shown


def _prepare(k: Any) -> None:
    """Two games for the recall, a cancelled-credit handpay and a tilt for the attendant."""
    terminal = k.terminal
    rt = terminal.runtime
    robot = Robot(rt, terminal.validator, terminal.printer, random.Random(7), fault_rate=0.0)
    for _ in range(2):
        robot.play_game()
    assert terminal.validator.insert(2000)
    rt.pump()
    terminal.printer.fault = "jam"
    rt.cash_out()
    rt.execute(c.RaiseTilt("door_sensor", "door sensor fault", needs_attendant=True))
    terminal.printer.fault = None
    rt.execute(c.SetDoor(door="main", open=True))
    rt.execute(c.SetDoor(door="main", open=False))


def test_every_service_page_speaks_spanish(kiosk: Any) -> None:
    k = kiosk
    from ui.terminal.service import install

    _prepare(k)
    layer = k.app.service_layer = install(k.app, k.terminal)
    names = _names(k)
    seen: list[str] = []
    k.app.dispatch("on_service_key")
    _enter(k, "attendant", "1111", "2468")
    k.tap("service:language")
    k.tap("service:exit")  # the PIN pad for the next role stays in Spanish
    _check(k, names, seen)
    _pin(k, "attendant", "0000")  # a wrong PIN: the gate's refusal
    assert any("PIN erróneo" in t for t in _visible(layer))
    _check(k, names, seen)
    _pin(k, "attendant", "2468")
    _check(k, names, seen)  # the menu
    k.tap("service:status")
    _check(k, names, seen)
    k.tap("action:Reset handpay")
    _check(k, names, seen)
    k.tap("action:Status")
    k.tap("action:Clear door_sensor")
    assert "Falla door_sensor borrada" in _visible(layer)
    _check(k, names, seen)
    k.tap("action:Menu")
    k.tap("service:meters")
    _check(k, names, seen, scroll=True)
    k.tap("action:Menu")
    k.tap("service:recall")
    _check(k, names, seen)
    k.tap("recall:menu")
    layer.call("events")  # above the attendant's role: the gate refuses, in Spanish
    assert "Registro de eventos requiere el rol Técnico (entrada como Asistente)." in _visible(
        layer
    )
    _check(k, names, seen)
    k.tap("action:Menu")
    k.tap("service:exit")

    _enter(k, "technician", "2222", "1357")
    _check(k, names, seen)  # the technician's menu
    for function, then in (
        ("events", ("action:Tilts", "action:Doors", "action:Money")),
        ("audit_log", ()),
        ("voucher_test", ()),
        ("doors", ()),
        ("devices", ()),
        ("rng_selftest", ()),
        ("store_check", ()),
    ):
        k.tap(f"service:{function}")
        _check(k, names, seen, scroll=True)
        for button in then:
            k.tap(button)
            _check(k, names, seen, scroll=True)
        k.tap("action:Menu")
    k.tap("service:bill_test")
    k.tap("action:Start test")
    k.terminal.validator.insert(2000)
    k.driver.frames(30)
    _check(k, names, seen)
    k.tap("action:Stop test")
    _check(k, names, seen)
    k.tap("action:Menu")
    k.tap("service:software")
    _check(k, names, seen)
    k.tap("action:Seeded HMAC")
    _check(k, names, seen)  # the seed's prompt and keypad
    k.tap("key:a")
    k.tap("entry:ok")  # one hex digit: refused, in Spanish
    _check(k, names, seen)
    k.tap("action:Menu")
    k.tap("service:software_hmac")
    for key in "00112233":
        k.tap(f"key:{key}")
    k.tap("entry:ok")
    _check(k, names, seen)
    k.tap("action:Menu")
    k.tap("service:touch_test")
    _check(k, names, seen)
    k.tap("touch:abort")  # as far as it got: failed
    _check(k, names, seen)
    k.tap("action:Menu")
    k.tap("service:display_test")
    _check(k, names, seen)
    screen = layer.pages.current_screen
    for _ in range(8):
        k.driver.tap_at(k.app.root.width / 2, k.app.root.height / 2)
    assert screen.judging
    _check(k, names, seen)
    k.tap("display:pass")
    _check(k, names, seen)
    k.tap("action:Menu")
    k.tap("service:exit")

    _enter(k, "operator", "3333", "9753")
    _check(k, names, seen)
    k.tap("service:config")
    _check(k, names, seen, scroll=True)
    k.tap("action:Edit")
    _check(k, names, seen, scroll=True)  # the settings page
    config = layer.pages.current_screen
    config.edit("max_wager")
    _check(k, names, seen)  # the value's prompt
    k.tap("key:clear")
    k.tap("key:.")
    k.tap("key:.")
    k.tap("entry:ok")  # not an amount: refused on the entry page, in Spanish
    assert layer.pages.current == "entry" and layer.pages.current_screen.message
    _check(k, names, seen)
    k.tap("key:clear")
    for key in "50":
        k.tap(f"key:{key}")
    k.tap("entry:ok")
    config.edit("decision_seconds")
    k.tap("key:clear")
    k.tap("key:9")
    k.tap("entry:ok")
    config.edit("language")
    _check(k, names, seen, scroll=True)  # the changes marked
    k.tap("config:save")
    _check(k, names, seen)  # the configuration changed: before and after
    k.tap("action:Menu")
    k.tap("service:paytables")
    _check(k, names, seen, scroll=True)
    k.tap("action:Menu")
    k.tap("service:period_reset")
    _check(k, names, seen)  # the confirmation
    k.tap("action:Reset period meters")
    _check(k, names, seen)
    k.tap("action:Menu")
    k.tap("service:config_export")
    _check(k, names, seen)
    k.tap("action:Menu")
    k.tap("service:config_import")
    _check(k, names, seen)  # the confirmation
    k.tap("action:Import")
    _check(k, names, seen)  # nothing to change: refused
    k.tap("action:Menu")
    k.tap("service:ram_clear")
    _check(k, names, seen)  # the reason's prompt
    layer.pages.current_screen.value = "board swap"  # typed on the keyboard
    k.tap("entry:ok")
    _check(k, names, seen)  # the confirmation (not done here)
    k.tap("action:Menu")
    k.tap("service:set_pin")
    _check(k, names, seen)
    assert seen.count("outcome") >= 30 and {"login", "menu", "entry", "config"} <= set(seen)
    assert {"touch", "display", "recall"} <= set(seen)
    state = k.terminal.runtime.state
    assert state.config.max_wager == 5000 and state.config.language == "es"
