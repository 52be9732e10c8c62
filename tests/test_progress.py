"""The progress module shared by the long commands."""

from __future__ import annotations

import io

from kiosk.kernel.progress import Progress, duration


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_plain_lines_every_few_seconds() -> None:
    out, clock = io.StringIO(), Clock()
    progress = Progress("soak", 1000, "games", stream=out, tty=False, every=5, clock=clock)
    clock.now = 1
    progress.update(100)  # too soon
    assert out.getvalue() == ""
    clock.now = 5
    progress.update(500)
    assert out.getvalue() == "soak: 50% (500 of 1,000 games), 100/s, 5 s left\n"
    progress.close()
    assert out.getvalue().count("\n") == 1


def test_bar_on_a_terminal_with_rate_and_time_left() -> None:
    out, clock = io.StringIO(), Clock()
    with Progress("simulate", 4_000_000, "games", stream=out, tty=True, clock=clock) as p:
        clock.now = 10
        p.update(1_000_000)
    text = out.getvalue()
    assert text.startswith("\r\x1b[K")
    assert "[#####...............]   25%" in text
    assert "1,000,000/4,000,000 games  100,000/s  0:30 left" in text
    assert text.endswith("\n")


def test_unknown_total_and_disabled() -> None:
    out, clock = io.StringIO(), Clock()
    p = Progress("rng dump", None, "bytes", stream=out, tty=False, every=1, clock=clock)
    clock.now = 2
    p.advance(4096)
    assert out.getvalue() == "rng dump: 4,096 bytes, 2,048/s\n"
    quiet = Progress("x", 10, stream=out, tty=True, enabled=False, clock=clock)
    quiet.update(5)
    quiet.close()
    assert out.getvalue() == "rng dump: 4,096 bytes, 2,048/s\n"


def test_duration() -> None:
    assert duration(7) == "0:07"
    assert duration(125) == "2:05"
    assert duration(3723) == "1:02:03"


def test_a_slow_rate_is_not_shown_as_nothing() -> None:
    """A campaign of a kill every few seconds: its rate a minute, not "0/s"."""
    out = io.StringIO()
    now = [0.0]
    progress = Progress(
        "campaign", 10, "kills", stream=out, tty=False, every=0.0, clock=lambda: now[0]
    )
    now[0] = 30.0
    progress.update(2)
    assert out.getvalue() == "campaign: 20% (2 of 10 kills), 4.0/min, 2:00 left\n"
