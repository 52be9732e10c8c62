"""TurboKiosk: electronic table game terminal software (games, terminal, devices, host link)."""

#: The software version: the wheel's version (pyproject.toml reads it from here), the one the
#: terminal journals at power-up and reports to the host, and ``turbokiosk --version``.
__version__ = "0.1.0"
