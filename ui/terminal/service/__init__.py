"""The service menu's touchscreen pages over :mod:`kiosk.terminal.service` (see docs/service.md).

:func:`install` puts the service layer on a running :class:`ui.terminal.app.KioskApp`: the service
key (the app's ``on_service_key`` event: F3 on a development machine) shows it with the PIN pad over
the whole window, and turns it off again.
"""

from __future__ import annotations

from typing import Any

from ui.terminal.service.layer import ServiceLayer, build_layer


def install(app: Any, terminal: Any) -> ServiceLayer:
    """Attach the service layer to ``app`` (after its ``build``) for ``terminal``."""
    layer = build_layer(terminal)

    def on_key(_app: Any) -> bool:
        if layer.parent is None:
            app.root.add_widget(layer)  # over every screen, bar and overlay
            layer.key_on()
        else:
            layer.key_off()
        app.refresh()
        return True  # the service layer handles the key: not the app's default

    app.bind(on_service_key=on_key)
    return layer


__all__ = ["ServiceLayer", "build_layer", "install"]
