"""A bare serial echo on a pseudo-terminal, in its own process: the latency baseline.

``python -m tests.sas.host.echo_pty LINK`` creates a pty, links its far end at ``LINK``, and
writes back every byte it reads until SIGTERM; ``--open PATH`` opens an existing port instead
(the far end of a pty the host tool created with ``--create-pty``).  The SAS latency
benchmark times the same host loop against it and against a terminal's SAS port, so the ratio
is the cost of the machine's work, not of ptys and processes.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import tty
from pathlib import Path


def main(argv: list[str]) -> int:
    """Echo until SIGTERM."""
    path = Path(argv[-1])
    if argv[0] == "--open":
        master = os.open(path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(master)
        created = False
    else:
        master, slave = pty.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        tmp = path.with_name(path.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(path)
        created = True
    stop = False

    def on_term(_signum: int, _frame: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_term)
    while not stop:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 4096)
            except OSError:
                continue
            os.write(master, data)
    if created:
        path.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
