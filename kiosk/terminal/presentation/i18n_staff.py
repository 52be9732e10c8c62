"""Screen texts added for issue 26's staff fixes (the history's zoom, the attendant's line on a
lockup), in every language (merged into :data:`kiosk.terminal.presentation.i18n.CATALOGUES`)."""

from __future__ import annotations

from collections.abc import Mapping

STAFF_TEXTS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "history_zoom_close": "Touch to close",
        "attendant_code": "code {code}",
    },
    "es": {
        "history_zoom_close": "Toque para cerrar",
        "attendant_code": "código {code}",
    },
}
