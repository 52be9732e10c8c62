"""The controller's refusals and card-check stops in the Dealer Terminal's language (decision
0064): the real core and PIN access are made to give each reason a dealer can meet, and each
is a sentence of the catalogue in Spanish (never the controller's English), filled with the
reason's numbers and names in Spanish."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from kiosk.kernel.cards import cards
from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.core import CardSource, TableCore
from kiosk.table.core.dealer_access import DealerAccess, DealerRole
from kiosk.table.presentation.dealer_refusals import known_words, refusal_words, stop_words
from kiosk.terminal.core.pins import KdfParams, PinPolicyError
from tests.dealer.spanish_check import spanish
from tests.helpers.table import STADIUM, config, stadium_bet

FAST_KDF = KdfParams(n=2**4, r=1, p=1)


def step(core: TableCore, cmd: c.Command, now: int = 0) -> list[e.Event]:
    events = core.handle(cmd, now)
    core.apply(events)
    return events


def refusal(do: Callable[[], object]) -> tuple[str, str]:
    """(kind, words) of the refusal ``do`` raises."""
    with pytest.raises((c.TableCommandError, PinPolicyError)) as caught:
        do()
    return type(caught.value).__name__, str(caught.value)


def manual() -> TableCore:
    core = TableCore(dataclasses.replace(config(STADIUM), card_source=CardSource.MANUAL))
    step(core, c.Join(0))
    return core


def said(kind: str, words: str) -> str:
    assert known_words(words), f"the DT does not know the controller's words {words!r}"
    shown = refusal_words(words, kind, "es")
    assert spanish(shown, set()), shown
    assert refusal_words(words, kind, "en") == words  # English: the controller's own words
    return shown


def test_every_refusal_a_dealer_can_meet_is_said_in_spanish() -> None:
    core = manual()
    assert said(*refusal(lambda: core.handle(c.CloseBets(1), 0))) == ("Ahora no (la mesa: LISTA)")
    assert said(*refusal(lambda: core.handle(c.CloseRound(), 0))) == "Ahora no (la mesa: LISTA)"
    assert said(*refusal(lambda: core.handle(c.ResumeTable("d"), 0))) == (
        "La mesa no está en pausa"
    )
    said(*refusal(lambda: core.handle(c.PauseTable(" ", "d"), 0)))
    step(core, c.OpenRound())
    assert said(*refusal(lambda: core.handle(c.CloseBets(9), 0))) == (
        "La partida 9 ya no es la ronda de la mesa"
    )
    step(core, c.PauseTable("pause:break", "d"), 1)
    assert said(*refusal(lambda: core.handle(c.CloseBets(1), 2))) == (
        "La mesa está en pausa (Descanso)"
    )
    step(core, c.ResumeTable("d"), 3)
    step(core, c.ReportWager("T1", 1, 0, stadium_bet()), 4)
    step(core, c.CloseBets(1), 5)
    assert said(*refusal(lambda: core.handle(c.ReRead(1, 1, "s"), 6))) == (
        "La ronda no está detenida por sus cartas"
    )
    array = cards("2h 5h 9h 3c 7d Jc Qs 4d 8s")
    step(core, c.LayPack(1, 1, array[:3], 1), 7)
    step(core, c.LayPack(1, 2, array[3:6], 2), 8)
    step(core, c.LayPack(1, 3, array[6:], 3), 9)
    step(core, c.Tick(), 5000)  # the fold by default
    assert said(*refusal(lambda: core.handle(c.CloseRound(), 5001))) == (
        "El paquete 4 (Mano del crupier) aún no está colocado"
    )


def test_every_card_check_stop_is_said_in_spanish() -> None:
    array = cards("2h 5h 9h 3c 7d Jc Qs 4d 8s")
    shown = []
    for pack, laid in (
        (2, array[:3]),  # out of turn
        (1, array[:2]),  # two cards
        (1, (array[0], array[0], array[1])),  # a card twice in the pack
        (1, (array[0], 60, array[1])),  # misread
    ):
        core = manual()
        step(core, c.OpenRound())
        step(core, c.ReportWager("T1", 1, 0, stadium_bet()), 1)
        step(core, c.CloseBets(1), 2)
        (tilt,) = [
            x for x in step(core, c.LayPack(1, 1, laid, pack), 3) if x.__class__ is e.CardTilted
        ]
        shown.append(stop_words(tilt.reason, "es"))
    core = manual()
    step(core, c.OpenRound())
    step(core, c.ReportWager("T1", 1, 0, stadium_bet()), 1)
    step(core, c.CloseBets(1), 2)
    step(core, c.LayPack(1, 1, array[:3], 1), 3)
    (tilt,) = [
        x
        for x in step(core, c.LayPack(1, 2, (array[0], *array[4:6]), 2), 4)
        if isinstance(x, e.CardTilted)
    ]
    shown.append(stop_words(tilt.reason, "es"))
    assert shown == [
        "Paquete 2 presentado fuera de turno (tocaba el 1)",
        "El paquete 1 tiene 2 cartas, no 3",
        "El paquete 1 tiene una carta repetida",
        "Paquete 1: una carta mal leída",
        "2 de corazones dos veces en la ronda (paquete 2)",
    ]
    assert all(spanish(x, set()) for x in shown)
    assert stop_words("jam at the gate", "es") == "La fuente de cartas informa: jam at the gate"
    assert stop_words("jam at the gate", "en") == "jam at the gate"


def test_pin_refusals_in_spanish() -> None:
    core = manual()
    access = DealerAccess(FAST_KDF)
    wrong = access.sign_in(core.state, DealerRole.DEALER, "0000", "dealer-1", 0)
    assert said(wrong.error, wrong.reason) == "PIN incorrecto"
    core.apply(wrong.events)
    for now in (10, 20):
        last = access.sign_in(core.state, DealerRole.DEALER, "0000", "dealer-1", now)
        core.apply(last.events)
    assert last.error == "RoleLockedOut"
    assert said(last.error, last.reason).startswith("Crupier bloqueado durante ")
    locked = access.sign_in(core.state, DealerRole.DEALER, "4444", "dealer-1", 40)
    assert said(locked.error, locked.reason).startswith("Crupier bloqueado durante ")
    for pin in ("12a4", "12", "4444"):

        def change(pin: str = pin) -> object:
            return access.change_pin(core.state, DealerRole.DEALER, pin, "d", 0)

        said(*refusal(change))


def test_words_it_does_not_know_are_said_by_their_kind_not_in_english() -> None:
    assert refusal_words("something new went wrong", "IllegalCommandError", "es") == (
        "Ahora no es posible"
    )
    assert refusal_words("something new", "", "es") == "Rechazado"
    assert refusal_words("something new", "", "en") == "something new"
