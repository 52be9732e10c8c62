"""A progressive hit is paid (decision 0066): on a real terminal with its own meter, the hit
reaches the seat's credits once (also when the terminal stops between the progressive's commit
and its own), is metered, reported to the host and over SAS from the terminal's journal, and
shown to the player in both languages; at the handpay limit it locks for the attendant, whose
key pays it as a handpaid progressive."""

from __future__ import annotations

from pathlib import Path

from kiosk.kernel.games import progressive
from kiosk.terminal.app.progressive_wiring import attach_progressive
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as ev
from kiosk.terminal.core.commands import DuplicateReportError
from kiosk.terminal.core.meters import expected_credits
from kiosk.terminal.core.state import Lockup
from kiosk.terminal.hostlink.messages import event_body
from kiosk.terminal.presentation.overlays import lockup_view
from kiosk.terminal.presentation.table import table_view
from kiosk.terminal.progressive.controller import ProgressiveController
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.sas.wire import MeterCode as M
from kiosk.terminal.store.audit import audit
from kiosk.terminal.textui.session import PlaySession
from tests.helpers.progressive import FREQUENT
from tests.helpers.sas_rig import ADDRESS, SasRig

#: a progressive on Pairs Plus's pair (about one game in six)
PAIR = progressive.parse({**FREQUENT, "wager": "pairs_plus", "outcome": "Pair"}, "test")
GAME = ("bet ante 1", "bet pairs_plus 2", "positions 1 5 9", "deal", "play")


def _open(data: Path, handpay_limit: int = 120_000) -> tuple[SasRig, ProgressiveController]:
    sas = SasSettings(port="/dev/null", address=ADDRESS, wakeup="gap")
    terminal = build_terminal(data, sas=sas)
    assert terminal.sas_link is not None
    out: list[str] = []
    session = PlaySession(terminal, out.append)
    session.start()
    meter = attach_progressive(terminal, PAIR, terminal_id="TK-0001", handpay_limit=handpay_limit)
    return SasRig(terminal, session, terminal.sas_link, lines=out), meter


def _close(rig: SasRig, meter: ProgressiveController) -> None:
    rig.terminal.close()
    meter.close()


def _play_to_hit(rig: SasRig, meter: ProgressiveController) -> None:
    rig.play("bill 100", "game stadium-3cp")
    for _ in range(80):  # until a pair: (5/6)^80, never in practice
        rig.play(*GAME)
        if meter.meters().hits:
            return
    raise AssertionError("no pair in 80 games")


def _awards(rig: SasRig) -> list[ev.ProgressiveAwarded]:
    rows = rig.terminal.runtime.journal.rows()
    return [row.event for row in rows if isinstance(row.event, ev.ProgressiveAwarded)]


def _hit(meter: ProgressiveController) -> progressive.Hit:
    (hit,) = [h for row in meter.rounds() for h in row.hits]
    return hit


def test_a_hit_reaches_the_credits_once_and_is_reported(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    rig, meter = _open(data)
    _play_to_hit(rig, meter)
    hit = _hit(meter)
    runtime = rig.terminal.runtime
    state = runtime.state
    (award,) = _awards(rig)
    assert (award.key, award.award, award.handpay) == (hit.key, hit.award_cents, False)
    assert award.outcome == "Pair" and award.progressive == PAIR.name
    assert state.lifetime["progressive_won"] == hit.award_cents
    assert state.lifetime["progressive_won_count"] == 1
    assert state.credits[0] == expected_credits(state.lifetime)  # the award is in the balance
    # the host is told it, with the meter snapshot of the same commit
    assert event_body(award, state) == (
        "progressive_awarded",
        {
            "seat": 0,
            "key": hit.key,
            "progressive": PAIR.name,
            "outcome": "Pair",
            "award_cents": hit.award_cents,
            "handpay": False,
        },
    )
    # SAS: 84/85 and the machine-paid progressive meter, from the terminal's journal
    assert wire.from_bcd(rig.long(0x84)[2:7]) == hit.award_cents
    assert wire.from_bcd(rig.long(0x85)[2:7]) == hit.award_cents
    assert rig.link.machine.meter(M.TOTAL_MACHINE_PAID_PROGRESSIVE_WIN) == hit.award_cents
    # the player reads it, in both languages
    game = runtime.core.game
    en = table_view(state, game, "en", now=0, deadline=None).win_banner
    es = table_view(state, game, "es", now=0, deadline=None).win_banner
    amount = f"${hit.award_cents // 100:,}.{hit.award_cents % 100:02d}"
    assert en == f"PROGRESSIVE JACKPOT! Pair: {amount} credited"
    assert es == f"¡PREMIO PROGRESIVO! Pair: {amount} acreditados"
    # a retried command is refused: paid once
    again = c.PayProgressive(
        seat=0,
        key=hit.key,
        progressive=PAIR.name,
        outcome="Pair",
        award=hit.award_cents,
        handpay=False,
    )
    try:
        runtime.execute(again)
    except DuplicateReportError:
        pass
    else:
        raise AssertionError("a hit paid twice")
    credits = state.credits[0]
    _close(rig, meter)
    rig, meter = _open(data)  # a restart pays nothing twice
    assert rig.terminal.runtime.state.credits[0] == credits
    assert len(_awards(rig)) == 1
    _close(rig, meter)
    assert audit(data).ok


def test_a_hit_booked_but_not_paid_is_paid_at_power_up(tmp_path: Path) -> None:
    """The window between the progressive's commit and the terminal's: the terminal stops
    after its meter booked the hit and before it ran the payment (posted to its thread)."""
    data = tmp_path / "terminal"
    rig, meter = _open(data)
    rig.play("bill 100", "game stadium-3cp")
    runtime = rig.terminal.runtime
    for _ in range(80):
        for line in GAME[:-1]:
            rig.play(line)
        runtime.execute(c.Decide(seat=0, choice="play"))  # settles; the payment only posted
        if meter.meters().hits:
            break
    hit = _hit(meter)
    assert _awards(rig) == [] and runtime.state.lifetime["progressive_won"] == 0
    _close(rig, meter)  # the power goes
    rig, meter = _open(data)
    (award,) = _awards(rig)
    assert (award.key, award.award) == (hit.key, hit.award_cents)
    state = rig.terminal.runtime.state
    assert state.lifetime["progressive_won"] == hit.award_cents
    assert state.credits[0] == expected_credits(state.lifetime)
    _close(rig, meter)
    assert audit(data).ok


def test_a_hit_at_the_handpay_limit_locks_for_the_attendant(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    rig, meter = _open(data, handpay_limit=500)  # the meter starts at $5.00: every hit
    _play_to_hit(rig, meter)
    hit = _hit(meter)
    assert hit.handpay
    runtime = rig.terminal.runtime
    state = runtime.state
    credits = state.credits[0]
    assert state.lockups()[0] is Lockup.HANDPAY
    assert state.handpay is not None and state.handpay.kind == "progressive"
    assert state.handpay.value == hit.award_cents
    assert state.lifetime["progressive_won"] == 0  # never on the credit meter
    amount = f"${hit.award_cents // 100:,}.{hit.award_cents % 100:02d}"
    en, es = lockup_view(state, "en"), lockup_view(state, "es")
    assert en is not None and es is not None
    assert en.reason == f"Pair progressive jackpot of {amount} — an attendant will pay you by hand"
    assert es.reason == f"Premio progresivo Pair de {amount}: un asistente se lo pagará en mano"
    # SAS: 56 only (no 54: a handpay is not paid to credits), 1B names group 1 level 1
    codes = rig.drain()
    assert wire.ExceptionCode.SAS_PROGRESSIVE_LEVEL_HIT in codes
    assert wire.ExceptionCode.PROGRESSIVE_WIN not in codes
    assert wire.ExceptionCode.HANDPAY_PENDING in codes
    info = rig.long(0x1B)
    assert info[:2] == bytes([1, 1]) and wire.from_bcd(info[2:7]) == hit.award_cents
    rig.play("attendant")  # the attendant's key
    assert state.handpay is None and state.credits[0] == credits
    assert state.lifetime["handpaid_progressive"] == hit.award_cents
    assert state.lifetime["handpaid_progressive_count"] == 1
    assert rig.link.machine.meter(M.TOTAL_ATTENDANT_PAID_PROGRESSIVE_WIN) == hit.award_cents
    assert rig.link.machine.meter(M.TOTAL_HANDPAID_CREDITS) >= hit.award_cents
    resets = [
        row.event
        for row in runtime.journal.rows()
        if isinstance(row.event, ev.HandpayReset) and row.event.kind == "progressive"
    ]
    assert [r.value for r in resets] == [hit.award_cents]
    _close(rig, meter)
    assert audit(data).ok
