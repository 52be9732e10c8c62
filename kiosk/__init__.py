"""TurboKiosk: electronic table game terminal software (games, terminal, devices, host link)."""

__version__ = "0.1.0"
