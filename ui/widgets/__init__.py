"""The kiosk's widgets (behaviour); their look is in ``ui/kv/*.kv`` and :mod:`ui.draw`."""
