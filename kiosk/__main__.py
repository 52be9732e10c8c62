"""``python -m kiosk`` is the ``turbokiosk`` command."""

import sys

from kiosk.cli import main

sys.exit(main())
