"""The Dealer Terminal in Spanish (issue 26, item 10): the language button switches every page,
and every text a page shows is from the Spanish catalogue (filled with the table's numbers,
money and names), so no English is left on it.  Driven by touches against a real controller."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.table.core.core import CardSource
from kiosk.table.core.dealer_access import DealerRole
from kiosk.table.presentation.dealer import edition_title
from kiosk.table.presentation.dealer_words import spot_words
from kiosk.table.presentation.i18n_dealer import DEALER_TEXTS
from kiosk.terminal.hostlink import pki
from tests.dealer.spanish_check import FIELD, spanish
from tests.dealer.table import DealerTable
from tests.helpers.dealer_rig import NAMES, SEATS


def visible_texts(root: Widget) -> Iterator[str]:
    """Every label's text on the page that is drawn (opacity above 0 all the way up)."""
    for widget in root.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text:
            continue
        w: Any = widget
        seen = True
        while w is not None and w is not root:
            seen = seen and w.opacity > 0
            w = w.parent
        if seen:
            yield re.sub(r"\[/?color[^\]]*\]", "", widget.text) if widget.markup else widget.text


@pytest.fixture(scope="module")
def pki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("dt-es-pki") / "pki"
    pki.ensure_pki(where, ("table-T1", *NAMES))
    return where


@pytest.fixture
def make(pki_dir: Path, tmp_path: Path) -> Iterator[Any]:
    made: list[DealerTable] = []

    def build(source: CardSource) -> DealerTable:
        table = DealerTable(pki_dir, tmp_path / f"t{len(made)}", source)
        made.append(table)
        return table

    yield build
    for table in made:
        table.close()


def _check(t: DealerTable, names: set[str], pages: list[str]) -> None:
    d = t.driver
    d.frames(2)
    texts = list(visible_texts(t.app.root.current_screen))
    assert len(texts) >= 5, texts
    english = [x for x in texts if not spanish(x, names)]
    assert not english, (d.page, english)
    pages.append(d.page)


def _names(t: DealerTable) -> set[str]:
    snap = t.link.snapshot()
    assert snap is not None
    from kiosk.kernel.games.registry import load_game

    game = load_game(snap.edition)
    spots = {spot_words(spot.label, "es") for spot in game.spots}  # as Spanish names them
    return {edition_title(snap.edition), "T1", *spots}


def test_the_catalogues_have_the_same_keys_and_fields() -> None:
    en, es = DEALER_TEXTS["en"], DEALER_TEXTS["es"]
    assert set(en) == set(es)
    for key in en:
        assert set(FIELD.findall(en[key])) == set(FIELD.findall(es[key])), key
    assert en["language_button"] == "Español" and es["language_button"] == "English"


def test_the_check_finds_english() -> None:
    """The check can fail: English texts of the round page are not Spanish."""
    names = {"Stadium Three Card Poker", "T1"}
    for shown in ("New Game", "READY", "5 of 5 seats online", "Seat 3", "Paid $5.00", "Back"):
        assert not spanish(shown, names), shown
    for shown in ("Nueva partida", "LISTA", "5 de 5 puestos conectados", "Puesto 3", "$5.00"):
        assert spanish(shown, names), shown
    assert spanish("Mesa T1 · Stadium Three Card Poker", names)
    assert not spanish("Table T1 · Stadium Three Card Poker", names)


def test_every_page_speaks_spanish_after_the_language_button(make: Any) -> None:
    t: DealerTable = make(CardSource.VIRTUAL)
    d = t.driver
    d.frames(2)
    assert d.text("dt:language") == "Español"
    d.tap("dt:language")
    assert t.app.lang == "es" and d.text("dt:language") == "English"
    assert t.app.title == "TurboKiosk Terminal del crupier"  # the window's title too
    pages: list[str] = []
    _check(t, set(), pages)  # sign-in
    t.set_pin(DealerRole.DEALER, "2468")
    d.pin("dealer", "1111")  # the controller refuses a wrong PIN: said in Spanish
    assert t.app.pages["signin"].message == "PIN incorrecto"
    _check(t, set(), pages)
    d.pin("dealer", "2468")
    assert d.page == "round"
    t.until("every seat online", lambda s: sum(x.online for x in s.seats) == SEATS)
    names = _names(t)
    assert d.text("dt:phase") == "LISTA"
    _check(t, names, pages)  # the round, idle
    d.tap("dt:new_game")
    t.until("every robot's bet", lambda s: s.phase == "betting" and all(x.stake for x in s.seats))
    assert d.text("dt:phase") == "APUESTAS"
    _check(t, names, pages)  # betting
    d.tap("dt:pause")
    assert d.page == "pause"
    _check(t, names, pages)  # the pause's reasons
    d.tap("pause:break")
    _check(t, names, pages)
    d.tap("pause:confirm")
    assert d.page == "round"
    t.until("paused", lambda s: s.paused)
    assert d.text("dt:phase") == "EN PAUSA"
    assert "Descanso" in d.text("dt:instruction")
    assert t.link.snapshot().pause_reason == "pause:break"  # type: ignore[union-attr]  # a code
    _check(t, names, pages)  # paused, with its reason
    d.tap("dt:resume")
    t.until("resumed", lambda s: not s.paused)
    t.set_pin(DealerRole.SUPERVISOR, "1357")
    d.tap("dt:supervisor")  # the supervisor's void page
    assert d.page == "signin"
    _check(t, names, pages)
    d.pin("supervisor", "1357")
    assert d.page == "round"
    d.tap("dt:void")
    assert d.page == "void"
    d.tap("void:misdeal")
    assert d.text("void:game").startswith("Anular la partida")
    _check(t, names, pages)
    d.tap("void:back")
    d.tap("dt:close_bets")
    t.until("the settled round", lambda s: s.phase == "settled")
    assert d.text("dt:phase") == "LIQUIDADA"
    _check(t, names, pages)  # settled: the cards, each seat's result
    t.app.close_bets()  # as if a second terminal raced it: the controller's refusal
    assert t.app.pages["round"].message == "Ahora no (la mesa: LIQUIDADA)"
    _check(t, names, pages)
    d.tap("dt:confirm")
    t.until("the round confirmed", lambda s: s.phase == "idle")
    d.tap("dt:recall")
    assert d.page == "recall"
    _check(t, names, pages)  # the recall of the round
    shown = "\n".join(visible_texts(t.app.root.current_screen))
    assert re.search(r"Puesto \d · (JUGAR|RETIRARSE) · Ante", shown), shown  # choices too
    d.tap("recall:back")
    d.tap("dt:sign_out")
    assert d.page == "signin"
    _check(t, names, pages)
    d.tap("dt:language")  # and back to English
    assert t.app.lang == "en" and d.text("dt:language") == "Español"
    assert not all(spanish(x, names) for x in visible_texts(t.app.root.current_screen))
    assert t.app.title == "TurboKiosk Dealer Terminal"
    assert pages == [
        *("signin", "signin", "round", "round", "pause", "pause", "round"),
        *("signin", "void", "round", "round", "recall", "signin"),
    ]


def test_manual_cards_in_spanish(make: Any) -> None:
    t: DealerTable = make(CardSource.MANUAL)
    d = t.driver
    d.frames(2)
    d.tap("dt:language")
    t.first_sign_in("dealer", "4444", "2468")
    t.until("every seat online", lambda s: sum(x.online for x in s.seats) == SEATS)
    names = _names(t)
    d.tap("dt:new_game")
    t.until("every robot's bet", lambda s: all(x.stake for x in s.seats))
    d.tap("dt:close_bets")
    t.until("the first pack", lambda s: s.next_step is not None and s.next_step.pack == 1)
    pages: list[str] = []
    _check(t, names, pages)  # the deal: the pack's place, what to do
    d.tap("dt:enter_cards")
    assert d.page == "cards"
    _check(t, names, pages)
    d.tap("rank:10")  # a queen
    assert d.text("cards:prompt") == "Q: ahora su palo"
    d.tap("suit:1")
    d.tap("rank:10")
    d.tap("suit:1")  # the queen of hearts again
    assert d.text("cards:prompt") == "Reina de corazones ya está en este paquete"
    _check(t, names, pages)
    assert pages == ["round", "cards", "cards"]
