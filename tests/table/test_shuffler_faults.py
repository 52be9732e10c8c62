"""Every fault of the shuffler simulator through the controller's side (sans-IO, fast).

The simulator's firmware (:class:`ShufflerMachine`) talks to the controller's
:class:`ShufflerSession` by the same payloads the sealed link carries; each pack goes through
the core's one check.  Each fault stops the round with a card tilt; the supervisor's re-read
goes on with the real pack (a short deck cannot be re-read: the supervisor voids).
"""

from __future__ import annotations

import dataclasses

import pytest

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.core import CardSource, Phase, TableCore
from kiosk.table.core.shuffler_link import Fault, Presented, ShufflerSession
from kiosk.terminal.devices.sim.shuffler import ShufflerMachine
from tests.helpers.table import STADIUM, config, stadium_bet


class Bench:
    """A Stadium table on a simulated shuffler, wired payload to payload."""

    def __init__(self) -> None:
        self.core = TableCore(dataclasses.replace(config(STADIUM), card_source=CardSource.SHUFFLER))
        self.machine = ShufflerMachine(0, seed=7)
        self.session = ShufflerSession()
        self.now = 0
        self.log: list[e.Event] = []

    def to_shuffler(self, payload: bytes) -> None:
        self.machine.on_command(payload, self.now)
        for report in self.machine.take_outgoing():
            got = self.session.receive(report)
            if isinstance(got, Fault):
                self.step(c.SourceFault(got.game_number, got.pack, got.reason))

    def step(self, cmd: c.Command) -> list[e.Event]:
        self.now += 10
        events = self.core.handle(cmd, self.now)
        self.core.apply(events)
        self.log += events
        for ev in events:  # what the server's desk asks of the shuffler
            if isinstance(ev, e.PackLaid):
                self.to_shuffler(self.session.take(ev.pack))
            elif isinstance(ev, e.TiltCleared):
                self.to_shuffler(self.session.read_again(ev.pack))
        return events

    def open(self) -> None:
        for seat in (0, 1):
            self.step(c.Join(seat))
        self.step(c.OpenRound())
        for seat in (0, 1):
            self.step(c.ReportWager("T1", 1, seat, stadium_bet()))
        self.step(c.CloseBets(1))
        self.to_shuffler(self.session.start_round(1))

    def lay_next(self) -> list[e.Event]:
        slot = self.core.next_pack()
        got = self.session.presented
        assert slot is not None and isinstance(got, Presented)
        return self.step(c.LayPack(1, slot.pack, got.cards, got.pack, self.session.deck))


def test_a_clean_round_from_the_shuffler_settles_with_its_deck_check() -> None:
    bench = Bench()
    bench.open()
    for _ in range(3):
        bench.lay_next()
    bench.step(c.Tick())
    bench.now = 10_000
    bench.step(c.Tick())
    assert bench.core.state.phase is Phase.DEALING
    bench.lay_next()
    bench.step(c.CloseRound())
    record = bench.core.state.recall[-1]
    assert record.card_source == "shuffler" and record.tilts == ()
    assert record.deck_checks[0].passed and record.deck_checks[0].cards_read == 52
    dealt = [x for p in record.packs for x in p.cards]
    assert dealt == list(bench.machine.deck[:12]) and len(set(dealt)) == 12


@pytest.mark.parametrize(
    ("fault", "pack", "why"),
    [
        ("misread", 2, "misread"),
        ("duplicate", 2, "twice in the round"),
        ("jam", 2, "jammed"),
        ("out-of-turn", 2, "presented out of turn (expected 2)"),
    ],
)
def test_each_fault_stops_the_round_and_the_supervisors_reread_goes_on(
    fault: str, pack: int, why: str
) -> None:
    bench = Bench()
    bench.open()
    bench.lay_next()
    assert bench.machine.control(["fault", fault], 0).startswith("ok")
    # the armed fault hits the next presentation: ask for pack 2 again to arm it there
    bench.to_shuffler(bench.session.start_round(1, 2))
    if fault != "jam":
        bench.lay_next()
    rnd = bench.core.state.round
    assert rnd is not None
    tilt = rnd.tilt
    assert tilt is not None and why in tilt.reason, tilt
    assert tilt.pack == pack and bench.core.next_pack() is None
    bench.step(c.ReRead(1, pack, "dealer-9"))
    events = bench.lay_next()
    assert isinstance(events[-1], e.PackLaid) and events[-1].pack == pack
    bench.lay_next()
    assert bench.core.state.phase is Phase.DECIDING
    assert rnd.tilt is None and [t.reason for t in rnd.tilts] == [tilt.reason]


def test_a_short_deck_fails_its_check_again_on_a_reread_and_is_voided() -> None:
    bench = Bench()
    bench.machine.control(["fault", "short-deck"], 0)
    bench.open()
    events = bench.lay_next()
    check, tilt = events
    assert isinstance(check, e.DeckChecked) and not check.passed and check.cards_read == 51
    assert isinstance(tilt, e.CardTilted) and "fails its check" in tilt.reason
    bench.step(c.ReRead(1, 1, "dealer-9"))
    again = bench.lay_next()
    assert isinstance(again[-1], e.CardTilted)  # the same deck: the same verdict
    (void,) = bench.step(c.VoidRound("short deck"))
    assert isinstance(void, e.RoundVoided) and void.returns == ((0, 100), (1, 100))
    record = bench.core.state.recall[-1]
    assert record.voided == "short deck" and len(record.deck_checks) == 2
    assert bench.core.state.meters.returned == 200


def test_reports_of_another_round_or_garbage_are_dropped() -> None:
    session = ShufflerSession()
    session.start_round(5)
    machine = ShufflerMachine(0, seed=1)
    machine.on_command(ShufflerSession().start_round(4), 0)
    for payload in machine.take_outgoing():
        assert session.receive(payload) is None
    assert session.receive(b"\xff\xff\xff") is None
    assert session.dropped == 3 and session.presented is None
