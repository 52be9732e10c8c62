"""The reasons a Dealer Terminal offers for a pause or a void, as language-neutral codes.

They are sent, journalled and recalled as these codes (decision 0064); each screen puts a code
into its own language (:mod:`kiosk.table.presentation.dealer`,
:mod:`kiosk.terminal.presentation.table_bar`).  A reason that is no code (a dealer's own words)
is shown as given.  Words are never here: they stay in presentation.
"""

from __future__ import annotations

#: a pause's reasons, in the order the Dealer Terminal offers them
PAUSE_REASONS = ("pause:dealer_change", "pause:break", "pause:table_check", "pause:supervisor")
#: a void's reasons, in the order the Dealer Terminal offers them
VOID_REASONS = ("void:dealer_error", "void:misdeal", "void:card_check", "void:table_fault")

#: the English words journals written before the codes hold for the same reasons
_OLDER_WORDS = dict(
    zip(
        (
            *("Dealer change", "Break", "Table check", "Supervisor called"),
            *("Dealer error", "Misdeal", "Card check failed", "Table fault"),
        ),
        (*PAUSE_REASONS, *VOID_REASONS),
        strict=True,
    )
)


def reason_code(reason: str) -> str:
    """The code a journalled reason stands for ("" when it is a dealer's own words)."""
    if reason in PAUSE_REASONS or reason in VOID_REASONS:
        return reason
    return _OLDER_WORDS.get(reason, "")
