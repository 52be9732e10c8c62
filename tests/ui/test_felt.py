"""The bet spots printed on the felt, by touches at 800x480 and 1920x1080: chips stacked on the
spot a player touched, finger-sized spots that never overlap, each family's table layout.

The default run checks 800x480 (the 7-inch panel); the same checks at 1920x1080, a software
OpenGL window four times the pixels, run under ``tox -e slow``."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from kivy.core.window import Window
from kivy.uix.widget import Widget

from kiosk.terminal.presentation.felt import chip_stack
from kiosk.tools.tour import STADIUM_CARDS, TURBO_CARDS
from ui.terminal.felt import DecisionSpot, FeltSpot, LineSpot

#: 48 px at 800x480 (9 mm on the 7-inch panel), scaled with the screen
TARGET = 48


@pytest.fixture(
    params=[
        pytest.param((800, 480), id="800x480"),
        pytest.param((1920, 1080), id="1920x1080", marks=pytest.mark.slow),
    ]
)
def sized(request: Any, kiosk: Any) -> Iterator[Any]:
    """The kiosk on a window of each size (back to 800x480 afterwards)."""
    size = request.param
    Window.size = size
    kiosk.driver.frames(3)
    try:
        yield kiosk
    finally:
        Window.size = (800, 480)
        kiosk.driver.frames(3)


def _box(widget: Widget) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def _overlap(a: Widget, b: Widget) -> bool:
    ax0, ay0, ax1, ay1 = _box(a)
    bx0, by0, bx1, by1 = _box(b)
    return ax0 < bx1 - 0.5 and bx0 < ax1 - 0.5 and ay0 < by1 - 0.5 and by0 < ay1 - 0.5


def _inside(inner: Widget, outer: Widget) -> bool:
    ix0, iy0, ix1, iy1 = _box(inner)
    ox0, oy0, ox1, oy1 = _box(outer)
    return ix0 >= ox0 - 0.5 and iy0 >= oy0 - 0.5 and ix1 <= ox1 + 0.5 and iy1 <= oy1 + 0.5


def _check_layout(spots: list[Widget], felt: Widget, u: float) -> None:
    for spot in spots:
        assert min(spot.size) >= TARGET * u - 0.5, (spot.tk_name, spot.size)
        assert _inside(spot, felt), spot.tk_name
        if isinstance(spot, FeltSpot | DecisionSpot):  # the name (two lines at most) clear
            texts = [w for w in spot.children if getattr(w, "tk_name", "").startswith("spot_")]
            name, stake = sorted(texts, key=lambda w: w.tk_name != "spot_label")
            assert not _overlap(name, stake) and _inside(name, spot), (
                spot.tk_name,
                _box(name),
                _box(stake),
                _box(spot),
            )
    for a, b in itertools.combinations(spots, 2):
        assert not _overlap(a, b), (a.tk_name, b.tk_name)


def test_turbo_spots_are_printed_on_the_felt_with_the_chips_on_them(sized: Any) -> None:
    k, d, app = sized, sized.driver, sized.app
    k.device("note", 10_000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:turbo-football")
    screen = app.root.ids.sm.current_screen
    felt = screen.ids.felt
    spots = [w for w in felt.walk() if isinstance(w, FeltSpot)]
    assert {s.spot.id for s in spots} == {s.id for s in app.view().spots}
    decision = d.widget("decision_spot")
    _check_layout([*spots, decision], felt, app.u)
    main = d.widget("spot:first_down")
    assert main.mandatory and decision.label == "Double"
    assert abs(main.y - decision.y) < 1 and main.y < min(s.y for s in spots if s is not main)

    # $5, $5 and $1 on First Down: two red chips and a white one, the amount beside them
    k.tap("chip:500", "spot:first_down", "spot:first_down", "chip:100", "spot:first_down")
    assert main.amount_text == "$11.00"
    assert main.stack == ["red", "red", "white"] == list(chip_stack(app.view().chips, 1100))
    assert d.widget("spot:td").stack == []
    frame = d.frame()
    ring = main.ids.ring
    x, y = ring.to_window(ring.x, ring.y)
    chips = frame.mean(x + ring.width * 0.3, y + ring.height * 0.3, ring.width * 0.4, 4 * app.u)
    empty_ring = d.widget("spot:td").ids.ring
    ex, ey = empty_ring.to_window(empty_ring.x, empty_ring.y)
    bare = frame.mean(ex + empty_ring.width * 0.3, ey + empty_ring.height * 0.3, 8, 4 * app.u)
    if tuple(Window.size) == (800, 480):  # a window resized in-process keeps its first buffer
        assert chips[0] > bare[0] + 60  # a red chip where the empty circle is dark green

    # the Double's chips go on its own printed spot
    k.deal_next(TURBO_CARDS)
    k.tap("deal")
    d.wait(lambda: app.view().offer is not None, what="the Double offer")
    d.settle()
    k.tap("take")
    d.settle()
    assert decision.amount_text == "$11.00" and decision.stack == ["red", "red", "white"]
    assert decision.result_text == "WIN $22.00" and decision.highlight == "win"


def test_stadium_felt_and_the_lines_at_the_ends_of_the_printed_arrays(sized: Any) -> None:
    k, d, app = sized, sized.driver, sized.app
    k.device("note", 10_000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:stadium-3cp")
    screen = app.root.ids.sm.current_screen
    hand = screen.ids.hand_felt
    hand_spots = [w for w in hand.walk() if isinstance(w, FeltSpot | DecisionSpot)]
    assert sorted(s.label for s in hand_spots) == ["6-Card Bonus", "Ante", "Pairs Plus", "Play"]
    _check_layout(hand_spots, hand, app.u)
    ante, play = d.widget("spot:ante"), d.widget("decision_spot")
    assert abs(ante.y - play.y) < 1 and ante.y < d.widget("spot:pairs_plus").y  # Ante in front

    k.tap("tab:lines")
    lines = screen.ids.lines_felt
    circles = [w for w in lines.walk() if isinstance(w, LineSpot)]
    assert len(circles) == 12
    _check_layout(circles, lines, app.u)
    for wager in ("pairs_plus", "six_card_bonus"):
        grid = lines.ids[wager].ids.grid
        gx0, gy0, gx1, gy1 = _box(grid)
        for n in (1, 2, 3):
            row = d.widget(f"spot:{wager}_row_{n}")
            rx0, _ry0, _rx1, _ry1 = _box(row)
            centre_y = row.to_window(*row.center)[1]
            assert rx0 >= gx1 - 1  # right of the array, level with its row (row 1 on top)
            assert gy1 - n * (gy1 - gy0) / 3 <= centre_y <= gy1 - (n - 1) * (gy1 - gy0) / 3
            col = d.widget(f"spot:{wager}_col_{n}")
            centre_x = col.to_window(*col.center)[0]
            assert _box(col)[3] <= gy0 + 1  # under the array, below its column
            assert gx0 + (n - 1) * (gx1 - gx0) / 3 <= centre_x <= gx0 + n * (gx1 - gx0) / 3
    k.tap("chip:500", "spot:six_card_bonus_col_2")
    assert d.widget("spot:six_card_bonus_col_2").stack == ["red"]
    assert app.session.rt.state.pending_wagers[0] == {"six_card_bonus_col_2": 500}

    # after a round the hand's felt shares its column with the rows and columns' result line:
    # every spot still holds its name and its result apart
    k.tap("tab:hand")
    for position in (0, 4, 8):
        k.tap(f"position:{position}")
    k.tap("spot:ante", "spot:pairs_plus", "spot:six_card_bonus")
    k.deal_next(STADIUM_CARDS)
    k.tap("deal")
    d.wait(lambda: app.view().offer is not None, what="Play or Fold")
    d.settle()
    k.tap("take")
    d.settle()
    assert screen.lines_text and d.widget("spot:six_card_bonus").result_text
    _check_layout(hand_spots, hand, app.u)


def test_a_win_too_wide_for_its_spot_shows_its_amount_whole(kiosk: Any) -> None:
    """ "GANA $500.00" does not fit a side spot at 800x480: the spot shows "$500.00", lit, and
    nothing on it is cut off."""
    k, d, app = kiosk, kiosk.driver, kiosk.app
    k.device("note", 10_000)
    k.device("note", 10_000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:turbo-football", "language")
    k.tap("chip:100", "spot:first_down", "chip:10000", "spot:long_pass")
    k.deal_next(TURBO_CARDS)  # 15 footballs: Long Pass pays its Super TD, 4:1
    k.tap("deal")
    d.wait(lambda: app.view().offer is not None, what="the Double offer")
    d.settle()
    k.tap("decline")
    d.settle()
    spot = d.widget("spot:long_pass")
    assert spot.result_text == "GANA $500.00" and spot.highlight == "win"
    assert spot.shown_result == "$500.00"
    for label in (
        w for w in spot.walk(restrict=True) if getattr(w, "tk_name", "").startswith("spot_")
    ):
        assert label.texture_size[0] <= label.width + 0.5, label.text
    main = d.widget("spot:first_down")
    assert main.shown_result == main.result_text == "GANA $2.00"  # a win that fits says so


@pytest.mark.parametrize("language", ["en", "es"])
def test_turbo_spot_names_stay_clear_of_their_stake_and_result(sized: Any, language: str) -> None:
    """A name on two lines ("Gol de Campo") over its result ("GANA $7.00"), in both languages:
    the name, the stake or result and the spot never overlap, nothing leaves the spot."""
    k, d, app = sized, sized.driver, sized.app
    k.device("note", 10_000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:turbo-football")
    if language == "es":
        k.tap("language")
    felt = app.root.ids.sm.current_screen.ids.felt
    k.tap("chip:100", "spot:first_down", "spot:field_goal", "spot:long_pass", "spot:td")
    k.deal_next(TURBO_CARDS)
    k.tap("deal")
    d.wait(lambda: app.view().offer is not None, what="the Double offer")
    d.settle()
    k.tap("decline")
    d.settle()
    spots = [w for w in felt.walk() if isinstance(w, FeltSpot)]
    assert spots and all(s.result_text for s in spots if s.amount_text)
    assert d.widget("spot:field_goal").label == (
        "Gol de Campo" if language == "es" else "Field Goal"
    )
    _check_layout([*spots, d.widget("decision_spot")], felt, app.u)


TURBO_EDITIONS = ("turbo-football", "icon-v2", "turbo-hockey", "turbo-basketball", "turbo-baseball")


def test_every_turbo_edition_keeps_its_names_clear_of_stakes_and_results(kiosk: Any) -> None:
    """Every Turbo edition's felt at 800x480 (the tightest), in both languages, with a chip on
    every spot: no name runs into its stake line (where the result is shown too, in the same
    box), no spot overlaps another or leaves the felt."""
    k, d, app = kiosk, kiosk.driver, kiosk.app
    k.device("note", 10_000)
    d.wait(lambda: d.screen == "menu")
    for language in ("en", "es"):
        if language == "es":
            k.tap("language")
        for edition in TURBO_EDITIONS:
            k.tap(f"game:{edition}")
            felt = app.root.ids.sm.current_screen.ids.felt
            spots = [w for w in felt.walk() if isinstance(w, FeltSpot)]
            k.tap("chip:100", *(f"spot:{s.spot.id}" for s in spots))
            d.settle()
            assert all(s.amount_text == "$1.00" for s in spots)
            _check_layout([*spots, d.widget("decision_spot")], felt, app.u)
            k.tap("clear")
            k.tap("games")
            d.wait(lambda: d.screen == "menu")
