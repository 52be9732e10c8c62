"""The Dealer Terminal driven by touches (offscreen) against a real table controller (the table
server on loopback with mutual TLS, its journal) with robot seats: whole rounds with the
certified deck and with the dealer's cards, a supervisor's void, a dealer PIN lock-out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.kernel.cards import card
from kiosk.table.core import events as e
from kiosk.table.core.core import CardSource
from kiosk.table.core.dealer_access import DealerRole
from kiosk.table.core.dealer_records import TableSnapshot
from kiosk.terminal.hostlink import pki
from tests.dealer.table import DealerTable
from tests.helpers.dealer_rig import NAMES, SEATS, START


@pytest.fixture(scope="module")
def pki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("dt-pki") / "pki"
    pki.ensure_pki(where, ("table-T1", *NAMES))
    return where


@pytest.fixture
def make(pki_dir: Path, tmp_path: Path) -> Iterator[object]:
    made: list[DealerTable] = []

    def build(source: CardSource, **kw: Any) -> DealerTable:
        table = DealerTable(pki_dir, tmp_path / f"t{len(made)}", source, **kw)
        made.append(table)
        return table

    yield build
    for table in made:
        table.close()


def test_a_whole_round_with_the_certified_deck_by_touches(make: object) -> None:
    t: DealerTable = make(CardSource.VIRTUAL)  # type: ignore[operator]
    d = t.driver
    t.set_pin(DealerRole.DEALER, "2468")  # the factory PIN's change: the slow tests
    d.pin("dealer", "2468")
    assert d.page == "round"
    t.until("every seat online", lambda s: sum(x.online for x in s.seats) == SEATS)
    assert d.text("dt:bets") == f"{SEATS} of {SEATS} seats online"
    d.tap("dt:new_game")
    t.until("every robot's bet", lambda s: s.phase == "betting" and all(x.stake for x in s.seats))
    assert d.text("dt:phase") == "BETTING"
    assert d.text("dt:bets") == f"{SEATS} of {SEATS} seats have bet"
    assert 1 <= int(d.text("dt:seconds")) <= 20  # the controller's countdown
    d.tap("dt:close_bets")  # early: the countdown had seconds left
    t.until("the settled round", lambda s: s.phase == "settled")
    assert d.text("dt:phase") == "SETTLED"
    state = t.controller.state
    assert state.round is not None
    shown = _cards_on_screen(t)
    assert shown == [*state.round.first, *state.round.shared_second]  # the cards as known
    d.tap("dt:confirm")
    t.until("the round confirmed", lambda s: s.phase == "idle")
    t.wait_robots(lambda r: r.stats.rounds == 1)
    assert all(r.stats.disagreements == 0 for r in t.robots)
    net = sum(r.stats.credits - START for r in t.robots)
    record = t.controller.recall(state.last_game)
    assert record is not None and net == sum(o.paid - o.stake for o in record.outcomes)
    audited = [ev for ev in t.controller.journal.events() if type(ev).__name__ == "DealerAudited"]
    assert len(audited) >= 4  # the sign-in, New Game, close bets, Confirm
    d.tap("dt:recall")
    assert d.page == "recall"
    assert any(
        f"Game {state.last_game}" in row.title for row in d.app.pages["recall"].ids.rounds.children
    )
    d.tap("recall:back")
    # the controller goes away: the DT says so, and a button does nothing but say it again
    t.server.stop(0)
    page = d.app.pages["round"]
    d.wait(lambda: bool(t.link.down) and page.message.startswith(t.link.down), 10, "link down")
    assert d.text("dt:message").startswith(t.link.down) and page.message_error
    d.tap("dt:new_game")
    assert d.text("dt:message").startswith(t.link.down)


def _cards_on_screen(t: DealerTable) -> list[int]:
    page = t.app.pages["round"]
    return [
        cv.face.code
        for place in reversed(page.ids.places.children)
        for cv in place.ids.row.cards
        if cv.face is not None
    ]


@pytest.mark.slow
def test_manual_cards_a_refused_card_and_a_supervisor_void(make: object) -> None:
    t: DealerTable = make(CardSource.MANUAL)  # type: ignore[operator]
    d = t.driver
    t.first_sign_in("dealer", "4444", "2468")
    t.until("every seat online", lambda s: sum(x.online for x in s.seats) == SEATS)
    d.tap("dt:new_game")
    t.until("every robot's bet", lambda s: all(x.stake for x in s.seats))
    d.tap("dt:close_bets")
    packs = [("Qh", "9s", "4d"), ("Ks", "Kd", "7c"), ("Ah", "2h", "Js")]
    for number, pack in enumerate(packs, 1):

        def asked(s: TableSnapshot, n: int = number) -> bool:
            return s.next_step is not None and s.next_step.pack == n

        t.until(f"pack {number} asked", asked)
        d.tap("dt:enter_cards")
        assert d.page == "cards"
        if number == 2:  # the Q of hearts is on the layout: refused, nothing entered
            _enter(d, "Qh")
            assert "already on the layout" in d.text("cards:prompt")
            assert d.widget("cards:confirm").disabled
        for name in pack:
            _enter(d, name)
        d.tap("cards:confirm")
        assert d.page == "round"
    t.until("the dealer's pack asked", lambda s: s.phase == "dealing" and s.next_step is not None)
    rnd = t.controller.state.round
    assert rnd is not None and rnd.first == tuple(card(x) for p in packs for x in p)
    # the supervisor voids the round instead of the dealer's hand
    d.tap("dt:supervisor")
    assert d.page == "signin"
    t.first_sign_in("supervisor", "5555", "8642")
    d.tap("dt:void")
    d.tap("void:misdeal")
    d.tap("void:confirm")
    t.until("the void", lambda s: s.phase == "idle" and s.voided == "void:misdeal")
    assert "voided (Misdeal)" in d.text("dt:instruction")
    t.wait_robots(lambda r: r.stats.voided == 1)
    assert all(r.stats.credits == START and r.stats.at_stake == 0 for r in t.robots)
    voided = [ev for ev in t.controller.journal.events() if isinstance(ev, e.RoundVoided)]
    assert [v.reason for v in voided] == ["void:misdeal"]  # a code (decision 0064)


def _enter(d: object, name: str) -> None:
    from kiosk.kernel.cards import RANKS, SUITS

    d.tap(f"rank:{RANKS.index(name[0])}")  # type: ignore[attr-defined]
    d.tap(f"suit:{SUITS.index(name[1])}")  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_dealer_pin_lockout_on_the_terminal(make: object) -> None:
    t: DealerTable = make(CardSource.VIRTUAL)  # type: ignore[operator]
    d = t.driver
    for _ in range(2):
        d.pin("dealer", "0000")
        assert d.page == "signin" and d.app.pages["signin"].error
    d.pin("dealer", "0000")
    message = d.text("signin:message")
    d.pin("dealer", "4444")  # the right PIN, but the role is locked: not even checked
    assert d.page == "signin"
    assert "lock" in message.lower() or "lock" in d.text("signin:message").lower()
    refused = [
        ev for ev in t.controller.journal.events() if type(ev).__name__ == "DealerPinRefused"
    ]
    assert len(refused) >= 3


@pytest.fixture
def shuffler(tmp_path: Path) -> Iterator[tuple[dict[str, str], bytes]]:
    """The shuffler simulator as a real program on its own pseudo-terminal."""
    from kiosk.terminal.app.peripherals import spawn_simulator, wait_ready
    from kiosk.terminal.devices.pairing import key_path, load_pairing_key

    proc, ready = spawn_simulator("shuffler", tmp_path / "periph", extra=("--seed", "11"))
    try:
        info = wait_ready(proc, ready, 15)
        yield info, load_pairing_key(key_path(tmp_path / "periph" / "keys", "shuffler"))
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.slow
def test_shuffler_packs_a_tilt_and_the_supervisors_reread_and_void(
    make: Any, shuffler: tuple[dict[str, str], bytes]
) -> None:
    from kiosk.table.core.shuffler_feed import ShufflerFeed
    from kiosk.terminal.devices.sim.program import control

    info, key = shuffler
    t: DealerTable = make(CardSource.SHUFFLER, feed=ShufflerFeed(info["port"], key))
    d = t.driver
    t.first_sign_in("dealer", "4444", "2468")
    t.until("every seat online", lambda s: sum(x.online for x in s.seats) == SEATS)
    d.tap("dt:new_game")
    t.until("every robot's bet", lambda s: all(x.stake for x in s.seats))
    d.tap("dt:close_bets")
    for pack in (1, 2, 3, 4):

        def presented(s: TableSnapshot, n: int = pack) -> bool:
            step = s.next_step
            return step is not None and step.pack == n and step.presented

        t.until(f"pack {pack} presented", presented)
        assert d.text("dt:step").startswith(f"Pack {pack} of 4")
        d.tap("dt:lay_pack")
    t.until("every pack laid", lambda s: s.next_step is None and len(s.packs) == 4)
    assert "passed" in t.app.pages["round"].deck_text
    assert d.text("dt:phase") == "CONFIRM"
    rnd = t.controller.state.round
    assert rnd is not None
    assert _cards_on_screen(t) == [c for p in rnd.packs for c in p.cards]
    d.tap("dt:confirm")
    t.wait_robots(lambda r: r.stats.rounds == 1)
    assert all(r.stats.disagreements == 0 for r in t.robots)
    # a duplicate card: the round stops; the dealer calls the supervisor, who reads it again
    assert control(info["control"], "fault duplicate").startswith("ok")
    t.until("idle", lambda s: s.phase == "idle")
    d.tap("dt:new_game")
    t.until("every robot's bet", lambda s: s.phase == "betting" and all(x.stake for x in s.seats))
    d.tap("dt:close_bets")
    t.until("pack 1", lambda s: s.next_step is not None and s.next_step.presented)
    d.tap("dt:lay_pack")
    t.until("the tilt", lambda s: s.tilt is not None)
    assert d.text("dt:tilt") == "CARD CHECK FAILED" and d.text("dt:phase") == "STOPPED"
    assert d.widget("dt:lay_pack").disabled
    d.tap("dt:tilt_void")  # the dealer's only choice: the supervisor
    t.first_sign_in("supervisor", "5555", "1357")
    d.tap("dt:reread")
    t.until("pack 1 again", lambda s: s.tilt is None and s.next_step is not None)
    # a jam on the next pack: the supervisor voids the round
    assert control(info["control"], "fault jam").startswith("ok")
    t.until("pack 1 presented", lambda s: s.next_step is not None and s.next_step.presented)
    d.tap("dt:lay_pack")
    t.until("the jam", lambda s: s.tilt is not None)
    d.tap("dt:tilt_void")
    d.tap("void:table_fault")
    d.tap("void:confirm")
    t.until("the void", lambda s: s.phase == "idle" and s.voided == "void:table_fault")
    t.wait_robots(lambda r: r.stats.voided == 1 and r.stats.at_stake == 0)
