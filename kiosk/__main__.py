"""``python -m kiosk`` is the ``turbokiosk`` command."""

import sys

try:
    from kiosk.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command line itself is still being imported
    print("turbokiosk: interrupted (Ctrl-C)", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
