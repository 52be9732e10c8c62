"""Text drawn inside pictures at 800x480 (issue 26, item 6): card indices and Stadium position
numbers at least 16 px capital height, chip values and position numbers at 4.5:1, the history's
cards shown large on a touch.  The label measure (:mod:`tests.helpers.legibility`) sees labels
only: here every card on the screen is painted again at its own size and its index measured on
the framebuffer, beside the sizes the drawing code uses."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kivy.core.text import DEFAULT_FONT

from kiosk.tools.tour import STADIUM_CARDS, TURBO_CARDS
from tests.helpers import legibility
from ui.terminal.draw import cardface, chipface
from ui.terminal.theme import CARD, CHIP, CHIP_INLAY, CREAM, SLOT, SLOT_CHOSEN
from ui.terminal.widgets.card import CardView, _painter
from ui.terminal.widgets.chip import ChipButton

LEAST = legibility.MIN_CAP_PX - 0.25


def _shown(root: Any, kind: Any) -> list[Any]:
    from kivy.core.window import Window

    out = []
    for w in root.walk(restrict=True):
        if not isinstance(w, kind) or w.width < 1:
            continue
        x, y = w.to_window(w.x, w.y)
        if 0 <= x < Window.width and 0 <= y < Window.height and w.opacity > 0:
            out.append(w)
    return out


def index_height(card: CardView) -> int:
    """The drawn index's height: the card painted alone at its size, the rows of ink of the
    top-left corner's first glyph run (the rank), on the framebuffer."""
    w, h = card.size
    margin = 8
    pixels = (int(w) + 2 * margin, int(h) + 2 * margin)
    tex = _painter().paint(pixels, (w, h), margin, ("face", card.face, card.icon, False))
    rgba = np.frombuffer(tex.pixels, dtype=np.uint8).reshape(pixels[1], pixels[0], 4)
    top_down = rgba[::-1].astype(int)
    corner = top_down[margin + 2 : margin + int(h * 0.6), margin + 2 : margin + int(w * 0.34), :3]
    paper = np.array([round(c * 255) for c in CARD[:3]])
    ink = (np.abs(corner - paper).sum(axis=2) > 350).any(axis=1)  # suit ink, not the edge
    runs: list[int] = []  # lengths of the runs of inked rows, top down
    for row, inked in enumerate(ink):
        if inked and (row == 0 or not ink[row - 1]):
            runs.append(0)
        if inked:
            runs[-1] += 1
    # the first run taller than a stray pixel of the rounded edge is the rank
    return next((run for run in runs if run >= 3), 0)


def _check_cards(k: Any, where: str) -> int:
    u = float(k.app.u)
    cards = [c for c in _shown(k.app.root.ids.player, CardView) if c.face is not None]
    cap = legibility.cap_ratio(DEFAULT_FONT, True, False)
    for card in cards:
        w, h = card.size
        drawn = index_height(card)  # on the framebuffer, then the size the drawing code uses
        assert drawn >= LEAST * u - 1, (where, card.tk_name, card.face, (w, h), drawn)
        assert cardface.index_size(w, h) * cap >= LEAST * u, (where, card.tk_name, w, h)
    return len(cards)


def _turbo_round(k: Any) -> None:
    k.device("note", 10000)
    k.driver.wait(lambda: k.driver.screen == "menu")
    k.tap("game:turbo-football")
    chips = _shown(k.app.root.ids.player, ChipButton)  # the rack's, in the colours checked
    assert chips and {c.colour for c in chips} <= set(CHIP)
    assert "grey" in {c.colour for c in chips}  # the 25c chip of the issue
    k.tap("chip:500", "spot:first_down")
    k.deal_next(TURBO_CARDS)
    k.tap("deal")
    k.driver.wait(lambda: k.app.view().offer is not None, what="the Double offer")
    k.driver.settle()
    k.tap("take")
    k.driver.settle()


def test_card_indices_on_the_turbo_table_and_in_history(kiosk: Any) -> None:
    k = kiosk
    _turbo_round(k)
    assert _check_cards(k, "turbo result") == 9  # the array and the player's hand
    k.tap("history")
    assert _check_cards(k, "history") >= 9
    k.tap("history_card:0")
    zoom = k.app.root.ids.sm.current_screen.zoom
    assert zoom is not None and zoom.parent is not None
    large = [c for c in zoom.walk(restrict=True) if isinstance(c, CardView)]
    assert len(large) == 9
    for card in large:
        assert index_height(card) >= LEAST * float(k.app.u) + 4  # large, not only legible
    k.driver.tap_at(400, 240)
    assert zoom.parent is None


def test_stadium_positions_and_the_dealers_hand(kiosk: Any) -> None:
    k = kiosk
    k.device("note", 10000)
    k.driver.wait(lambda: k.driver.screen == "menu")
    k.tap("game:stadium-3cp")
    u = float(k.app.u)
    cap = legibility.cap_ratio(DEFAULT_FONT, True, False)
    slots = [k.driver.widget(f"position:{p}") for p in range(9)]
    for slot in slots:  # numbered while empty (or, between rounds, the last round's cards)
        if slot.face is None and slot.marker:
            assert cardface.marker_size(*slot.size) * cap >= LEAST * u
    for selected, ground in ((False, SLOT), (True, SLOT_CHOSEN)):
        ink = np.array(cardface.marker_colour(selected)[:3])
        assert legibility.contrast_ratio(ink, np.array(ground[:3])) >= 4.5
    for p in (0, 4, 8):
        k.tap(f"position:{p}")
    k.tap("chip:500", "spot:ante")
    k.deal_next(STADIUM_CARDS)
    k.tap("deal")
    k.driver.wait(lambda: k.app.view().offer is not None, what="Play or Fold")
    k.driver.settle()
    k.tap("take")
    k.driver.settle()
    assert _check_cards(k, "stadium result") == 12  # the array and the dealer's three


@pytest.mark.parametrize("colour", sorted(CHIP))
def test_every_chip_value_reads_at_4_5_to_1(colour: str) -> None:
    """The value is drawn in the inserts' colour (cream unless the theme says) on the body."""
    ink = np.array(CHIP_INLAY.get(colour, CREAM)[:3])
    body = np.array(CHIP[colour][:3])
    assert legibility.contrast_ratio(ink, body) >= 4.5
    assert chipface.value_colour(colour) == CHIP_INLAY.get(colour, CREAM)  # what is drawn
