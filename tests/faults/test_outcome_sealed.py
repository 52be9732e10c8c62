"""An outcome is never drawn twice (issue 23, part 3).

A round's cards are all drawn at its first deal and sealed at the signer with that commit's head:
whatever a cut of the store or a power cut takes, the round deals the same cards again, or the
terminal will not play it.  Every withdrawn head is journaled (the host hears of it); a second
within the window locks the terminal for the operator.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.state import Phase, TerminalState
from kiosk.terminal.runtime.deck import SealBrokenError
from kiosk.terminal.runtime.sealed import RoundSealing
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.store.journal import Journal
from tests.faults.sealed_campaign import run_sealed_campaign, summary
from tests.helpers.outcome_cut import cut_last_commit
from tests.helpers.terminal_rig import Rig


def start_stadium(rig: Rig) -> Any:
    rt = rig.runtime
    rig.insert(20)
    rt.execute(c.SelectEdition("stadium-3cp"))
    rt.execute(c.SelectPositions((0, 1, 2)))
    rt.execute(c.PlaceWager("ante", 500))
    rt.execute(c.Deal())
    assert rt.state.phase is Phase.DECISION
    return rt


def hand(rt: Any) -> dict[str, Any] | None:
    """The round's cards and result (None when the terminal locked before any round)."""
    rnd = rt.state.round
    if rnd is None:
        return None
    d = rnd.to_dict()
    return {k: d[k] for k in ("game_number", "first", "seat_cards", "second_shared", "settlement")}


def power_off(rt: Any) -> None:
    rt.journal.db.close()  # as a power cut: nothing more reaches the store
    rt.signer.close()


def test_a_cut_settlement_deals_the_same_dealer_cards_again(tmp_path: Path) -> None:
    """The evidence: cut the commit of a settled Stadium round (decision, dealer's cards,
    settlement) and power up, three times over from the same cut store."""
    rig = Rig(tmp_path / "t")
    rt = start_stadium(rig)
    rt.execute(c.Decide("play"))
    settled = hand(rt)
    assert settled is not None and settled["second_shared"]
    power_off(rt)
    cut_last_commit(rig.data_dir)
    cut = tmp_path / "cut"
    shutil.copytree(rig.data_dir, cut)
    for attempt in range(3):
        if attempt:
            shutil.rmtree(rig.data_dir)
            shutil.copytree(cut, rig.data_dir)
        rt = rig.boot()
        state = rt.state
        if state.phase is Phase.DECISION and not state.lockups():
            rt.execute(c.Decide("play"))  # the player decides again
        again = hand(rt)
        if attempt == 0:  # a genuine power cut looks the same: the round is played on
            assert rt.last_recovery.critical is None
            assert again == settled, f"the round came back with other cards: {again}"
        else:  # the same cards, or the terminal does not play the round at all
            assert again == settled or (state.lockups() and not _new_cards(again, settled))
        power_off(rt)


def _new_cards(again: dict[str, Any] | None, settled: dict[str, Any]) -> bool:
    if again is None or again["game_number"] != settled["game_number"]:
        return False
    return bool(again["second_shared"]) and again["second_shared"] != settled["second_shared"]


class _Killed(BaseException):
    """The power went: the signed commit never reaches SQLite."""


def test_a_power_cut_between_signing_and_committing_the_settlement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    draw = TerminalRuntime._draw

    def logged_draw(self: TerminalRuntime, n: int) -> tuple[int, ...]:
        cards = draw(self, n)
        drawn.extend(cards)
        return cards

    monkeypatch.setattr(TerminalRuntime, "_draw", logged_draw)
    rig = Rig(tmp_path / "t")
    rt = start_stadium(rig)

    def die(self: Journal, record: dict[str, Any]) -> None:
        raise _Killed

    recall = Journal._recall
    monkeypatch.setattr(Journal, "_recall", die)  # inside the settlement's transaction
    with pytest.raises(_Killed):
        rt.execute(c.Decide("play"))  # signed; the dealer's cards drawn and never shown
    monkeypatch.setattr(Journal, "_recall", recall)
    first_drawn = list(drawn)
    rt = rig.power_cut()
    report = rt.last_recovery
    assert report.critical is None
    assert any("withdrawn" in a and "sealed when drawn" in a for a in report.actions), report
    assert any("made again" in a for a in report.actions), report.actions
    rnd = rt.state.round
    assert rt.state.phase is Phase.RESULT and rnd is not None
    assert rnd.choices == {0: "play"}  # the decision the signer sealed, made again
    assert [*rnd.first, *rnd.seat_cards[0], *rnd.second_shared] == first_drawn
    withdrawn = [r.event for r in rt.journal.rows() if isinstance(r.event, e.HeadWithdrawn)]
    assert len(withdrawn) == 1 and withdrawn[0].game_number == rnd.game_number
    assert "head_withdrawn" not in rt.state.tilts  # the first: reported, no lockup
    rt.close()


def test_a_cut_opening_is_dealt_again_with_the_same_wagers_and_cards(tmp_path: Path) -> None:
    """The round's first commit (its wagers and first cards) cut after the player saw the
    cards: the round opens again with the sealed wagers, not with better ones."""
    rig = Rig(tmp_path / "t")
    rt = start_stadium(rig)
    opened = hand(rt)
    bets = rt.state.round.to_dict()["bets"] if rt.state.round else None
    power_off(rt)
    cut_last_commit(rig.data_dir)
    rt = rig.boot()
    assert any("opened again with its sealed wagers" in a for a in rt.last_recovery.actions)
    assert hand(rt) == opened and rt.state.phase is Phase.DECISION
    assert rt.state.round is not None and rt.state.round.to_dict()["bets"] == bets
    rt.close()


def test_other_wagers_for_a_sealed_round_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = Rig(tmp_path / "t")
    rt = start_stadium(rig)
    power_off(rt)
    cut_last_commit(rig.data_dir)
    monkeypatch.setattr(RoundSealing, "reopen", lambda self, rt: None)
    rt = rig.boot()  # (as if the player were quicker than the terminal)
    head = rt.journal.head()
    rt.execute(c.SelectEdition("stadium-3cp"))
    rt.execute(c.SelectPositions((3, 4, 5)))
    rt.execute(c.PlaceWager("ante", 1000))
    with pytest.raises(CommandError, match="dealt with other wagers"):
        rt.execute(c.Deal())
    assert rt.journal.head() == head and rt.state.round is None
    rt.close()


def test_cards_in_the_store_that_are_not_the_sealed_ones_are_not_played(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "t")
    rt = start_stadium(rig)
    seal = rt.signer.status().seal
    assert seal is not None
    other = (*reversed(seal.cards[:9]), *seal.cards[9:])  # the same cards, in another order
    rt.sealing.seal = dataclasses.replace(
        seal, cards=other
    )  # as a signer holding another round would
    rt.sealing.cards_round = -1
    head = rt.journal.head()
    with pytest.raises(SealBrokenError, match="not those sealed when drawn"):
        rt.execute(c.Decide("play"))
    assert rt.state.critical is not None and "will not play the round" in rt.state.critical
    assert rt.state.round is not None and not rt.state.round.second_shared  # nothing dealt
    assert rt.journal.head()[0] == head[0] + 1  # only the lockup was journaled
    rt.close()


def test_the_store_cannot_read_the_dealer_cards_ahead(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "t")
    rt = start_stadium(rig)
    dealer = rt.sealing.cards[9:]
    assert len(dealer) == 3
    rows = [r.event for r in rt.journal.rows()]
    dealt = [x for ev in rows if isinstance(ev, e.CardsDealt) for x in ev.shared]
    assert dealt == list(rt.sealing.cards[:9])  # only what was dealt is in the store
    raw = rig.data_dir.joinpath("terminal.sqlite3").read_bytes()
    assert bytes(rt.sealing.cards) not in raw
    assert rt.signer.status().seal is not None  # the signer holds them
    rt.close()


def test_a_second_withdrawal_locks_for_the_operator_only(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "t")
    rt = start_stadium(rig)
    rt.execute(c.Decide("play"))
    power_off(rt)
    cut_last_commit(rig.data_dir)
    rt = rig.boot()
    assert "head_withdrawn" not in rt.state.tilts
    rig.insert(5)  # one commit after the withdrawal
    power_off(rt)
    cut_last_commit(rig.data_dir)
    rt = rig.boot()
    tilt = rt.state.tilts.get("head_withdrawn")
    assert tilt is not None and "second withdrawn head within 24 h" in tilt.reason
    assert any("locked for the operator" in a for a in rt.last_recovery.actions)
    with pytest.raises(CommandError, match="only by the operator"):
        rt.execute(c.ClearTilt(code="head_withdrawn", by="attendant"))
    with pytest.raises(CommandError):
        rt.execute(c.PlaceWager("ante", 500))
    rt.execute(c.ClearTilt(code="head_withdrawn", by="operator"))
    assert not rt.state.tilts
    rt.close()


def test_a_withdrawal_outside_the_window_does_not_lock(tmp_path: Path) -> None:
    """The window is the operator's setting (``withdrawal_lock_hours``, 24 by default)."""
    rig = Rig(tmp_path / "t", TerminalConfig(withdrawal_lock_hours=2))
    rig.runtime.execute(c.SetDoor(door="main", open=True))
    power_off(rig.runtime)
    cut_last_commit(rig.data_dir)
    rig.boot().execute(c.SetDoor(door="main", open=True))
    power_off(rig.runtime)
    cut_last_commit(rig.data_dir)
    rig.clock.advance(3 * 3600)
    rt = rig.boot()
    assert "head_withdrawn" not in rt.state.tilts
    default = TerminalState(TerminalConfig()).to_snapshot()["config"]
    assert "withdrawal_lock_hours" not in default  # a snapshot as the releases before wrote it
    rt.close()


def test_a_few_kills_between_signing_and_committing(tmp_path: Path) -> None:
    """The default run's few kills (the 200 are under ``-m sealed``, ``tox -e sealed``)."""
    campaign = run_sealed_campaign(tmp_path, kills=4, seed=20261128)
    print(summary(campaign))
    assert campaign.kills == 4 and campaign.interrupted_rounds == 4
    assert campaign.compared > 0
    assert campaign.differences == []


@pytest.mark.sealed
@pytest.mark.slow  # out of every default run, whichever marker filter it uses
@pytest.mark.timeout(3 * 3600)
def test_two_hundred_kills_between_signing_and_committing(tmp_path: Path) -> None:
    campaign = run_sealed_campaign(tmp_path, kills=200, seed=23)
    print(summary(campaign))
    assert campaign.kills == campaign.interrupted_rounds == 200
    assert campaign.differences == [], campaign.differences[:5]
