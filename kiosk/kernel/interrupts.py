"""Ctrl-C (SIGINT) as an orderly stop of ``turbokiosk run`` and ``turbokiosk play``.

Python turns SIGINT into :class:`KeyboardInterrupt` wherever the program happens to be: in the
middle of a command, of a commit, of a frame being drawn.  The two long-running commands take
it where stopping is clean instead:

- :class:`LineInterrupt` (``play``): raised only while the session waits for its next line; a
  Ctrl-C during a command lets that command finish, then the session ends;
- :class:`StepInterrupt` (``soak``, ``rng dump``, ``rng deal``, ``lab-package``): between
  two steps of the work, which then reports what it did;
- :class:`AppInterrupt` (``run``): Ctrl-C asks the Kivy app to stop from its own event loop
  (at once, or as soon as it runs when the kiosk is still starting), so the window closes and
  the terminal, its devices and its host stop in order (the journal closed) as when the
  window is closed.

Either way the command ends with :data:`~kiosk.terminal.cli.guard.EXIT_INTERRUPTED` (decision 0011).
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterable, Iterator
from types import FrameType, TracebackType
from typing import Any, Self


class _Handler:
    """Installs itself as the SIGINT handler while in a ``with`` block."""

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None

    def __enter__(self) -> Self:
        self._previous = signal.signal(signal.SIGINT, self._on_signal)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        signal.signal(signal.SIGINT, self._previous)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        raise NotImplementedError


class LineInterrupt(_Handler):
    """Ctrl-C ends a line-by-line session between two lines, never inside one."""

    def __init__(self) -> None:
        super().__init__()
        self._waiting = False

    def lines(self, source: Iterable[str]) -> Iterator[str]:
        """``source``'s lines until the end or a Ctrl-C (:class:`KeyboardInterrupt` is raised
        from here when Ctrl-C comes while waiting for a line)."""
        iterator = iter(source)
        while not self.requested:
            self._waiting = True
            try:
                line = next(iterator)
            except StopIteration:
                return
            finally:
                self._waiting = False
            yield line

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True
        if self._waiting:
            raise KeyboardInterrupt


class StepInterrupt(_Handler):
    """Ctrl-C ends a long command between two of its steps (a soak's game, a chunk of
    ``rng dump``): the step under way finishes, :attr:`requested` turns true, and the command
    reports what it did.  A second Ctrl-C is the usual :class:`KeyboardInterrupt`, for a step
    that hangs."""

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True


class AppInterrupt(_Handler):
    """Ctrl-C stops the Kivy app from its event loop, once it runs.

    A Ctrl-C while the kiosk is still starting is remembered and stops the app as soon as its
    loop runs (:meth:`arm` is called once Kivy's clock may be imported); a second Ctrl-C before
    the app runs is the usual :class:`KeyboardInterrupt` (a start that hangs can be left).  Once
    the app has been told to stop, further Ctrl-Cs are ignored: the stop (journal, devices,
    host) finishes in order.
    """

    def __init__(self) -> None:
        super().__init__()
        self._armed = False
        self._scheduled = False
        self._stopping = False  # the app was told to stop: the kiosk is stopping in order

    def arm(self) -> None:
        """Kivy may be imported from now on: a Ctrl-C so far (or later) stops the app."""
        self._armed = True
        if self.requested:
            self._schedule_stop()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        super().__exit__(kind, value, traceback)
        if self._stopping:  # stopped in order on a Ctrl-C: one more must not kill the exit
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self._stopping:  # a further Ctrl-C would cut the orderly stop short: it waits
            return
        if self.requested and not self._scheduled_and_running():
            raise KeyboardInterrupt  # a second Ctrl-C while starting: unwind what was started
        self.requested = True
        if self._armed:
            self._schedule_stop()

    def _scheduled_and_running(self) -> bool:
        return self._scheduled and _running_app() is not None

    def _schedule_stop(self) -> None:
        if self._scheduled:
            return
        self._scheduled = True
        from kivy.clock import Clock

        def stop(_dt: float) -> None:
            app = _running_app()
            if app is None:  # not running yet
                Clock.schedule_once(stop, 0.05)
            else:
                self._stopping = True
                app.stop()

        Clock.schedule_once(stop, 0)


def _running_app() -> Any:
    """The running Kivy app, or None (Kivy is never imported from here)."""
    if "kivy.app" not in sys.modules:
        return None
    from kivy.app import App

    return App.get_running_app()
