"""The one error vocabulary shared by every layer: a command refused, a command line not well
formed (decision 0048).

* :class:`CommandError` -- a command that cannot be carried out; nothing was changed.  The
  terminal's core raises its five typed kinds (:mod:`kiosk.terminal.core.commands`, decision 0013);
  the floor dashboard raises it for a command it will not send (:mod:`kiosk.host.web.commands`).
* :class:`UsageError` -- a typed line that is not a well-formed command; nothing was sent or run
  (the text session, :mod:`kiosk.terminal.textui.session`; the service shell,
:mod:`kiosk.terminal.service.shell`).

Both carry a one-line message for the person who asked.  A command-line program's bad input is
a different thing: :mod:`kiosk.terminal.cli.guard` (decision 0011).
"""

from __future__ import annotations

__all__ = ["CommandError", "UsageError"]


class CommandError(Exception):
    """A command that cannot be carried out in the present state; nothing was changed.

    The base of the terminal's five kinds (catch it to catch them all).
    """


class UsageError(Exception):
    """A line that is not a well-formed command (nothing was sent or run)."""
