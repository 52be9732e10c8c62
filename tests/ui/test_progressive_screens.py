"""A progressive hit on the player's screen (decision 0066), the real Kivy app offscreen: the
credited hit named in the result's banner, and a hit at the handpay limit as the handpay
lockup with its reason, both in English and in Spanish."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Any

from kiosk.terminal.app.kiosk import build_app
from kiosk.terminal.core import commands as c
from kiosk.tools.tour import tour_terminal
from ui.terminal import capture
from ui.terminal.driver import Driver

#: where to keep the frames to look at (unset: the test's own directory)
SHOTS = os.environ.get("PROGRESSIVE_SHOTS")


def _guide_names(app: Any, word: str) -> bool:
    """Whether the guide line names ``word`` (the result's banner has come)."""
    return word in capture.dump(app)["guide"]


def _pay(runtime: Any, key: str, award: int, handpay: bool) -> None:
    runtime.execute(
        c.PayProgressive(
            seat=0,
            key=key,
            progressive="test-6cb-trips",
            outcome="Pair",
            award=award,
            handpay=handpay,
        )
    )


def test_the_player_reads_a_progressive_hit_in_both_languages(tmp_path: Path) -> None:
    out = Path(SHOTS) if SHOTS else tmp_path
    tour = tour_terminal(tmp_path / "t", fixed=True)
    app: Any = build_app(tour.terminal, show_simulator=False, speed=0.15, clock=tour.player_clock)
    d = Driver(app, (800, 480))
    runtime = tour.terminal.runtime
    try:
        d.settle()
        d.tap_at(400, 240)
        app.root.ids.sim.act("note", 2000)
        d.frames(3)
        d.tap("game:turbo-football")
        app.session.dismiss_notice()
        d.frames(3)
        runtime.execute(c.PlaceWager(spot="first_down", amount=100))
        runtime.execute(c.Deal())
        game = runtime.state.game_number
        d.wait(lambda: runtime.state.phase.value == "decision", what="the decision")
        rnd = runtime.state.round
        assert rnd is not None
        runtime.execute(c.Decide(seat=0, choice=rnd.offers[0].decision.default))
        d.wait(lambda: runtime.state.phase.value == "result", what="the round settles")
        _pay(runtime, f"TK-0001/{game}/0/first_down", 1_234, False)
        for language in ("en", "es"):
            if app.session.language != language:
                d.tap("language")
            word = "PROGRESSIVE JACKPOT" if language == "en" else "PREMIO PROGRESIVO"
            # the result's banner comes after the deal animation (later on a loaded machine)
            named = partial(_guide_names, app, word)
            d.wait(named, what=f"the jackpot named ({language})")
            guide = capture.dump(app)["guide"]
            assert word in guide and "$12.34" in guide, guide
            assert capture.dump(app)["win"] == "$12.34"
            capture.save_png(out / f"progressive-credited-{language}.png")
        _pay(runtime, f"TK-0001/{game}/0/first_down-2", 150_000, True)
        for language in ("es", "en"):
            if app.session.language != language:
                d.tap("language")
            d.frames(10)
            assert app.lockup_overlay.parent is not None
            reason = app.lockup_overlay.reason
            assert "$1,500.00" in reason and "Pair" in reason, reason
            capture.save_png(out / f"progressive-handpay-{language}.png")
        assert runtime.state.handpay is not None and runtime.state.handpay.kind == "progressive"
    finally:
        d.close()
        runtime.close()
