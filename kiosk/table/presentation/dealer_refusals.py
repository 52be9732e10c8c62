"""The controller's refusals and stop reasons in the Dealer Terminal's language.

The controller answers a refused request with an error code and its reason in English words
(``DealerAnswer.error`` / ``reason``), and journals a card check's stop with its reason; a
pause's or a void's reason is a code (:mod:`kiosk.kernel.games.table_reasons`).  In English
the DT shows the controller's words as they came.  In another language it shows the
catalogue's sentence for each reason the controller gives (:data:`REASONS`, filled with the
reason's numbers and names in that language), and, for words it does not know, the refusal's
kind (:data:`KINDS`) rather than English.  ``tests/dealer/test_refusals.py`` makes the
controller give each of these reasons and checks that each is known.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kiosk.table.presentation.dealer_entry import card_words
from kiosk.table.presentation.dealer_words import location_title, pause_reason_words
from kiosk.table.presentation.i18n_dealer import text


def _role(word: str, lang: str) -> str:
    return text(lang, f"role_{word}") if word in ("dealer", "supervisor") else word


def _phase(word: str, lang: str) -> str:
    known = ("idle", "betting", "bets_closed", "deciding", "dealing", "settled")
    return text(lang, f"phase_{word}") if word in known else word


#: field name -> how a field of the controller's words is said in a language
_FIELDS: dict[str, Callable[[str, str], str]] = {
    "role": _role,
    "phase": _phase,
    "reason": pause_reason_words,
    "place": location_title,
    "card": lambda code, lang: card_words(int(code), lang),
}

#: (the controller's words, the catalogue's key), tried in order; named groups are the fields
REASONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(words), key)
    for words, key in (
        (r"sign in with a PIN first", "refusal_sign_in"),
        (r"choose your own PIN first", "refusal_own_pin"),
        (r"\w+ needs a supervisor", "refusal_supervisor"),
        (r"(wrong PIN: )?(?P<role>\w+) (is )?locked out for (?P<seconds>\d+) s", "refusal_locked"),
        (r"wrong PIN", "refusal_wrong_pin"),
        (r"the factory PIN cannot be kept: choose another", "refusal_factory_pin"),
        (r"the new PIN must differ from the current one", "refusal_same_pin"),
        (r"a PIN (is digits only|has \d+ to \d+ digits)", "refusal_pin_digits"),
        (r"game (?P<game>\d+) is not the table's current round", "refusal_stale"),
        (r"the table is paused \((?P<reason>.*)\)", "refusal_paused"),
        (r"\w+ is not legal while the table is (?P<phase>\w+)", "refusal_phase"),
        (r"the table is not paused", "refusal_not_paused"),
        (r"no round is open", "refusal_no_round"),
        (r"the round is not ready to confirm", "refusal_not_ready"),
        (r"pack (?P<pack>\d+) \((?P<place>[^)]*)\) is not laid yet", "refusal_pack_missing"),
        (r"no pack from the shuffler: .*", "refusal_no_pack"),
        (r"a virtual table deals its own cards: no pack is laid", "refusal_virtual"),
        (r"the round is not stopped on its cards", "refusal_no_stop"),
        (r"the tilt is on pack (?P<pack>\d+), not \d+", "refusal_stop_pack"),
        (r"a (void|pause) needs a reason.*", "choose_reason"),
        (r"a pack is 3 cards", "refusal_pack_size"),
        # a card check's stop (the controller's card check, kiosk.table.core.core.card_problem)
        (r"pack (?P<pack>\d+) presented out of turn \(expected (?P<next>\d+)\)", "stop_turn"),
        (r"pack (?P<pack>\d+) has (?P<n>\d+) cards, not 3", "stop_count"),
        (r"pack (?P<pack>\d+): card \d+ misread .*", "stop_misread"),
        (r"pack (?P<pack>\d+) holds a card twice", "stop_pack_twice"),
        (r"card (?P<card>\d+) twice in the round \(pack (?P<pack>\d+)\)", "stop_round_twice"),
        (
            r"pack (?P<pack>\d+) holds a card not in the deck of shuffle (?P<shuffle>\d+)",
            "stop_deck",
        ),
    )
)

#: a refusal's kind (DealerAnswer.error) -> the catalogue's key when its words are unknown
KINDS = {
    "IllegalCommandError": "refusal_not_now",
    "StaleReportError": "refusal_not_now",
    "InvalidArgumentError": "refusal_invalid",
    "NotAllowed": "refusal_supervisor",
    "PinRefused": "refusal_wrong_pin",
    "RoleLockedOut": "refusal_locked_now",
    "PinPolicy": "refusal_pin_digits",
}


def known_words(reason: str) -> str:
    """The catalogue key for the controller's ``reason`` ("" when its words are unknown)."""
    return next((key for pattern, key in REASONS if pattern.fullmatch(reason)), "")


def refusal_words(reason: str, error: str = "", lang: str = "en") -> str:
    """A refusal or stop reason of the controller in ``lang``."""
    if lang == "en":
        return reason or error or text(lang, "refused")
    for pattern, key in REASONS:
        m = pattern.fullmatch(reason)
        if m:
            fields = {
                name: _FIELDS[name](value, lang) if name in _FIELDS else value
                for name, value in m.groupdict().items()
                if value is not None
            }
            return text(lang, key, **fields)
    return text(lang, KINDS.get(error, "refused"))


def stop_words(reason: str, lang: str = "en") -> str:
    """A round's stop (a card check failed, a card source's fault) in ``lang``; a card
    source's own words come after the catalogue's sentence."""
    if lang == "en" or known_words(reason):
        return refusal_words(reason, "", lang)
    return text(lang, "stop_source", reason=reason)
