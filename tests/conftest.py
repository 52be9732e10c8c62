"""The whole suite: each pytest-xdist worker gets its own Kivy settings directory.

The default run (``tox -e py``) spreads the tests over worker processes (decision 0047). Kivy
writes ``config.ini`` into ``KIVY_HOME`` the first time it is imported; two workers must not
write the same file at once, so a worker appends its name (``gw0``, ``gw1``...) before any test
module imports Kivy. A run without xdist keeps ``KIVY_HOME`` as it is.
"""

from __future__ import annotations

import os

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and os.environ.get("KIVY_HOME"):
    os.environ["KIVY_HOME"] = f"{os.environ['KIVY_HOME']}-{_worker}"
