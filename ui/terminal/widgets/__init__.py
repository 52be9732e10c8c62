"""The kiosk's widgets (behaviour); their look is in ``ui/terminal/kv/*.kv`` and
:mod:`ui.terminal.draw`."""
