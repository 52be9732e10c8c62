"""The win presentation, played by touches: the banner with the settled win, the meters rolling
up (display only: the terminal's credits never move), a touch that skips it, the winning spots
lit, and a game cycle no slower for a player who touches."""

from __future__ import annotations

import statistics
import time
from typing import Any

import pytest
from kivy.clock import Clock

from kiosk.terminal.presentation.win import tier, win_view
from kiosk.tools.tour import TURBO_CARDS

#: community As Ks 9d: 8 footballs, no Double; 8 in 9 cards: First Down pays 3:2 (community)
WIN_CARDS = "As Ks 9d 2h 3h 4h 5h 6h 7h"
#: no footballs at all: the Double is offered (declined) and every wager loses
LOSE_CARDS = "2h 3h 4h 5h 6h 7h 8h 9h Th"


class StillClock:
    """The presentation's clock, moved only by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def cents(shown: str) -> int:
    """``"$1,234.50"`` -> 123450."""
    return round(float(shown.lstrip("$").replace(",", "")) * 100)


def _to_table(k: Any) -> None:
    d = k.driver
    k.device("note", 10_000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:turbo-football")


def _deal_until_result(k: Any, cards: str) -> None:
    """DEAL (declining a Double), then wait for the last card to land."""
    d, app = k.driver, k.app
    k.deal_next(cards)
    k.tap("deal")
    d.wait(lambda: not app.dealing or app.view().offer is not None, what="the deal")
    if app.view().offer is not None:
        d.wait(lambda: not app.dealing, what="the first cards")
        k.tap("decline")
    d.wait(lambda: not app.dealing, what="the last card")


def test_banner_shows_the_settled_win_rolls_the_meters_and_a_touch_skips(kiosk: Any) -> None:
    k, d, app, rt = kiosk, kiosk.driver, kiosk.app, kiosk.terminal.runtime
    clock = StillClock()
    app.win_layer.clock = clock
    _to_table(k)
    k.tap("chip:500", "spot:first_down", "spot:long_pass", "chip:100", "spot:td")
    _deal_until_result(k, TURBO_CARDS)  # 15 footballs: every wager wins
    settled = rt.state.credits[0]
    result = rt.state.round.settlement[0]
    paid, staked = result.paid, result.stake
    assert app.presenting
    banner = d.widget("win_banner")
    expected_tier = tier(paid, staked)
    assert expected_tier is not None
    assert banner.title == app.t[f"win_tier_{expected_tier.name}"]
    assert (app.win_text, banner.amount_text) == ("$0.00", "$0.00")
    assert app.credit_text == f"${(settled - paid) / 100:,.2f}"
    # the meters count up half way, then to the end; the terminal's credits never move
    length = expected_tier.roll_seconds * app.speed
    clock.now += length / 2
    # the meter and the banner follow the same roll (each redrawn on its own frame)
    d.wait(lambda: banner.amount_text == app.win_text != "$0.00", what="the roll-up")
    shown = cents(app.win_text)
    assert paid // 2 - 1 <= shown <= paid // 2
    assert cents(app.credit_text) == settled - paid + shown
    assert rt.state.credits[0] == settled
    clock.now += length / 2
    d.wait(lambda: banner.amount_text == f"${paid / 100:,.2f}", what="the end of the roll")
    assert app.presenting  # the banner holds the final amount a moment
    clock.now += expected_tier.hold_seconds * app.speed
    d.wait(lambda: not app.presenting, what="the banner's leaving")
    assert app.win_text == f"${paid / 100:,.2f}"
    assert app.credit_text == f"${settled / 100:,.2f}"
    assert not banner.shown and banner.right < 0  # the banner left by itself

    # next round: a touch on the banner shows the final amounts at once
    k.tap("repeat")
    _deal_until_result(k, TURBO_CARDS)
    settled = rt.state.credits[0]
    assert app.presenting
    assert app.win_text == "$0.00"  # the clock stands still: the roll has not begun
    frame = d.frame()
    x, y = banner.to_window(banner.x, banner.y)
    _r, g, _b = frame.mean(x + 20, y + 20, banner.width - 40, banner.height - 40)
    assert g < 80  # the banner's dark panel over the felt (about 107 green)
    d.tap("win_banner")
    assert not app.presenting
    assert app.win_text == f"${paid / 100:,.2f}"
    assert app.credit_text == f"${settled / 100:,.2f}"
    assert rt.state.credits[0] == settled
    assert rt.state.pending_wagers == {}  # the touch on the banner did nothing else


def test_the_lit_spots_are_the_paying_ones(kiosk: Any) -> None:
    k, d, app, rt = kiosk, kiosk.driver, kiosk.app, kiosk.terminal.runtime
    _to_table(k)
    k.tap("chip:100", "spot:first_down", "spot:long_pass", "spot:field_goal", "spot:td")
    k.tap("spot:nine_card_bonus")
    _deal_until_result(k, WIN_CARDS)  # 8 footballs: First Down and Long Pass pay
    d.settle()
    results = rt.state.round.settlement[0].results
    paying = {r.spot for r in results if r.paid > r.stake}
    assert paying and paying != {r.spot for r in results}  # some win, some lose
    lit = {name for name in paying if d.widget(f"spot:{name}").highlight == "win"}
    assert lit == paying
    for r in results:
        if r.spot not in paying:
            assert d.widget(f"spot:{r.spot}").highlight != "win"
    assert set(app.view().win.winning_spots) == paying


def test_no_banner_for_a_loss_and_none_again_after_a_restart(kiosk: Any) -> None:
    k, d, app = kiosk, kiosk.driver, kiosk.app
    _to_table(k)
    k.tap("chip:100", "spot:first_down")
    _deal_until_result(k, LOSE_CARDS)
    d.frames(3)
    assert not app.presenting and app.view().win is None


def _cycle(k: Any, cards: str, touch: bool) -> tuple[float, int, float]:
    """(seconds, event-loop frames) from the result on screen to DEAL enabled again for a player who
    touches REPEAT at once (``touch``) or waits for the presentation first; and how long the
    presentation ran."""
    d, app = k.driver, k.app
    _deal_until_result(k, cards)
    screen = app.root.ids.sm.current_screen
    start, frames_before = time.monotonic(), Clock.frames
    presented = 0.0
    if not touch:
        d.wait(lambda: not app.presenting, what="the presentation's end")
        presented = time.monotonic() - start
    k.tap("repeat")
    d.wait(lambda: bool(screen.can_deal), what="DEAL enabled")
    return time.monotonic() - start, Clock.frames - frames_before, presented


@pytest.mark.slow  # about 10 s: six whole rounds and one presentation at full length
def test_a_touching_player_cycles_as_fast_as_without_a_presentation(kiosk: Any) -> None:
    """The same touches (REPEAT, then DEAL enabled) take the same frames after a win as after
    a loss, which has no presentation; a player who waits sees the whole presentation."""
    k = kiosk
    _to_table(k)
    k.tap("chip:100", "spot:first_down")
    losses = [_cycle(k, LOSE_CARDS, touch=True) for _ in range(3)]
    touched = [_cycle(k, WIN_CARDS, touch=True) for _ in range(3)]
    k.app.speed = 1.0  # the presentation at its real length for a player who waits
    wait_s, _frames, shown_s = _cycle(k, WIN_CARDS, touch=False)
    loss_s = statistics.median(c[0] for c in losses)
    touch_s = statistics.median(c[0] for c in touched)
    print(
        f"\nresult on screen -> DEAL enabled again (median of 3): no win (no presentation)"
        f" {loss_s:.3f} s, {losses[0][1]} loop frames; a win touched at once {touch_s:.3f} s,"
        f" {touched[0][1]} loop frames; a win waited out {wait_s:.3f} s (presentation"
        f" {shown_s:.3f} s at full speed)"
    )
    assert all(c[1] <= min(x[1] for x in losses) for c in touched)  # the REPEAT touch skips
    assert touch_s < wait_s
    assert shown_s >= 1.0  # a waiting player saw the roll-up (WIN tier: 1 s) and the banner


def test_bigger_wins_get_bigger_banners_centred_over_the_table(
    kiosk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each tier's banner on the table (wins made up: the table itself has none to follow)."""
    k, d, app = kiosk, kiosk.driver, kiosk.app
    _to_table(k)
    layer, banner = app.win_layer, app.win_layer.banner
    monkeypatch.setattr(layer, "follow", lambda *_args: None)
    layer.hold_banner = True
    sizes = []
    try:
        for paid in (200, 600, 2500, 12_000):  # on $1: WIN, BIG WIN, HUGE WIN, TOP WIN
            win = win_view(paid, 100, False, 99, 20_000, (), "es")
            assert win is not None
            layer.start(win, 0.01)
            d.wait(lambda: layer.rolled_up, what="the roll-up")
            d.frames(2)
            sizes.append(tuple(banner.size))
            assert banner.amount_text == f"${paid / 100:,.2f}"
            player = app.root.ids.player
            assert abs(banner.center_x - player.center_x) < 1
            assert banner.top < app.root.ids.topbar.y and banner.y > app.root.ids.meters.top
            for label in (w for w in banner.walk(restrict=True) if getattr(w, "text", "")):
                assert label.font_size >= 23 * app.u  # 16 px capitals at 800x480
                width, _height = label._label.get_extents(label.text)
                assert width <= label.width, label.text
    finally:
        layer.hold_banner = False
        layer.finish()
        d.frames(2)
    assert sizes == sorted(sizes) and len(set(sizes)) == 4
