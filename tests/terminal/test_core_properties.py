"""Property tests of the pure terminal core over random command streams, in memory.

Each example builds a :class:`TerminalCore` (no runtime, no SQLite, no fsync: the store is a
:class:`~kiosk.terminal.store.memory.MemoryJournal`) and plays a random stream of commands on it:
notes
and vouchers in (honest and dishonest validator reports), wagers, deals, decisions, cash-outs
(printed, failed, handpaid), tilts, doors, the host's disable, the service menu with a period
meter reset, attendant resets and power cycles (the core rebuilt from the journal).  After every
command:

- a refused command raised one of the five typed errors and changed nothing;
- every seat's credits are its money in - played + won - money out, from the events alone;
- the meters balance: money in = wagered - won + money out + the credits on the seats;
- every lifetime and period meter equals the count the events call for;
- and at the end a replay of the journal from genesis gives the same state.

The default run is fast (a few seconds); ``-m slow`` plays many more streams.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.state import Phase
from tests.terminal.pure_world import World, check_invariants, durable, field_of, replayed

NUMBERS = ("1" * 18, "2" * 18, "12345")  # two vouchers, and a malformed validation number
CONFIGS = (
    TerminalConfig(seats=2),
    # small limits: game wins become handpays, cash-outs beyond the voucher limit too
    TerminalConfig(seats=2, handpay_limit=1000, ticket_out_limit=5000, credit_limit=50000),
)
SEATS = st.sampled_from((0, 0, 1, 2))  # seat 2 does not exist
NOTES = st.sampled_from((100, 500, 2000, 10000, 300))  # $3 is no note
AMOUNTS = st.sampled_from((25, 100, 100, 200, 500, 1000, 130, 0, 20000))
CHOICES = st.sampled_from(("raise", "no_raise", "play", "fold", "stand"))
TILTS = st.sampled_from(("printer", "bill_validator", "rng_failure"))

Action = tuple[Any, ...]

#: (weight, actions): the game's own actions come often, lockups rarely and end soon, so
#: that most streams play rounds (the tests below check that they do)
WEIGHTED: tuple[tuple[int, st.SearchStrategy[Action]], ...] = (
    (6, st.tuples(st.just("fund"), SEATS, NOTES)),
    (1, st.tuples(st.just("bill"), SEATS, NOTES)),
    (1, st.tuples(st.just("stacked"), SEATS, st.booleans(), NOTES)),
    (1, st.tuples(st.just("returned"), SEATS, st.booleans(), NOTES)),
    (1, st.tuples(st.just("ticket"), SEATS, st.sampled_from(NUMBERS), st.sampled_from((500, 0)))),
    (1, st.tuples(st.just("ticket_refused"), SEATS, st.sampled_from(NUMBERS))),
    (1, st.tuples(st.just("ticket_stacked"), SEATS, st.booleans(), st.sampled_from(NUMBERS))),
    (1, st.tuples(st.just("ticket_returned"), SEATS, st.booleans(), st.sampled_from(NUMBERS))),
    (1, st.tuples(st.just("edition"), st.integers(0, 3))),
    (2, st.tuples(st.just("place"), SEATS, st.integers(0, 3), AMOUNTS)),
    (10, st.tuples(st.just("place"), SEATS, st.just(0), st.just(100))),
    (2, st.tuples(st.just("positions"), SEATS, st.lists(st.integers(0, 9), max_size=4))),
    (3, st.tuples(st.just("positions"), SEATS, st.just([0, 4, 8]))),
    (1, st.tuples(st.just("clear"), SEATS)),
    (2, st.tuples(st.just("repeat"), SEATS)),
    (10, st.just(("deal",))),
    (1, st.tuples(st.just("decide"), SEATS, CHOICES)),
    (8, st.tuples(st.just("decide_offered"), SEATS, st.booleans())),
    (2, st.tuples(st.just("cashout"), SEATS, st.booleans(), st.booleans())),
    (2, st.tuples(st.just("printer"), st.booleans())),
    (2, st.tuples(st.just("attendant"))),
    (1, st.tuples(st.just("tilt"), TILTS, st.booleans())),
    (1, st.tuples(st.just("clear_tilt"), TILTS, st.booleans())),
    (1, st.tuples(st.just("door"), st.sampled_from(("main", "cash_box")), st.booleans())),
    (1, st.tuples(st.just("enable"), st.booleans())),
    (1, st.tuples(st.just("service"), st.booleans())),
    (1, st.just(("reset_period",))),
    (4, st.just(("unlock",))),
    (12, st.tuples(st.just("round"), st.sampled_from((0, 0, 1)), st.booleans())),
    (2, st.tuples(st.just("voucher_in"), SEATS, st.sampled_from(NUMBERS[:2]))),
    (3, st.tuples(st.just("cash_out"), SEATS, st.booleans())),
    (2, st.just(("power_cycle",))),
)
ACTIONS: st.SearchStrategy[Action] = st.sampled_from(
    [index for index, (weight, _) in enumerate(WEIGHTED) for _ in range(weight)]
).flatmap(lambda index: WEIGHTED[index][1])


def commands_of(world: World, action: Action) -> Iterator[c.Command]:
    """The commands an action stands for, each made from the state the one before left
    (honest reports read the escrow, decisions the offer)."""
    kind, *args = action
    if kind == "round":  # a whole game on one seat: the least wager, deal, decide
        seat, take = args
        game = world.core.game()
        if game.positions:
            yield c.SelectPositions(tuple(range(game.positions)), seat=seat)
        yield c.PlaceWager(game.spots[0].id, world.core.state.config.min_wager, seat=seat)
        yield c.Deal()
        yield from commands_of(world, ("decide_offered", seat, take))
        return
    if kind == "voucher_in":  # a voucher the host vouched for, stacked
        seat, number = args
        yield c.InsertTicket(number, value=1500, seat=seat)
        yield from commands_of(world, ("ticket_stacked", seat, True, number))
        return
    if kind == "cash_out":  # a voucher printed (or not: the credits stay)
        seat, printed = args
        yield c.CashOut("9" * 18, seat=seat)
        yield from commands_of(world, ("printer", printed))
        return
    yield from _commands(world, kind, args)


def _commands(world: World, kind: str, args: list[Any]) -> list[c.Command]:
    s = world.core.state
    if kind == "fund":
        seat, value = args
        return [c.InsertBill(value, seat=seat), c.BillStackedReport(value, seat=seat)]
    if kind == "bill":
        return [c.InsertBill(args[1], seat=args[0])]
    if kind in ("stacked", "returned"):
        seat, honest, value = args
        if honest and s.escrow.get(seat):
            value = s.escrow[seat]
        if kind == "stacked":
            return [c.BillStackedReport(value, seat=seat)]
        return [c.BillReturnedReport(value, "rejected", seat=seat)]
    if kind == "ticket":
        seat, number, value = args
        return [c.InsertTicket(number, value=value, seat=seat)]
    if kind == "ticket_refused":  # the host did not vouch for it
        seat, number = args
        return [c.InsertTicket(number, value=500, refused="host: unknown voucher", seat=seat)]
    if kind in ("ticket_stacked", "ticket_returned"):
        seat, honest, number = args
        held = s.ticket_escrow.get(seat)
        if honest and held is not None:
            number = field_of(held, "validation_number")
        if kind == "ticket_stacked":
            return [c.TicketStackedReport(number, seat=seat)]
        return [c.TicketReturnedReport(number, "jammed", seat=seat)]
    if kind == "edition":
        editions = [ed.edition for ed in s.config.editions] + ["no-such-game"]
        return [c.SelectEdition(editions[args[0] % len(editions)])]
    if kind == "place":
        seat, index, amount = args
        spots = [spot.id for spot in world.core.game().spots] + ["no_such_spot"]
        spot = spots[0] if index == 0 else spots[min(index, len(spots) - 1)]
        return [c.PlaceWager(spot, amount, seat=seat)]
    if kind == "positions":
        return [c.SelectPositions(tuple(args[1]), seat=args[0])]
    if kind == "clear":
        return [c.ClearWagers(seat=args[0])]
    if kind == "repeat":
        return [c.RepeatWagers(seat=args[0])]
    if kind == "deal":
        return [c.Deal()]
    if kind == "decide":
        return [c.Decide(args[1], seat=args[0])]
    if kind == "decide_offered":
        seat, take = args
        offer = s.round.offers.get(seat) if s.round is not None else None
        if offer is None:
            return [c.Decide("play", seat=seat)]
        choices = list(field_of(offer, "choices"))
        return [c.Decide(field_of(offer, "take") if take else choices[-1], seat=seat)]
    if kind == "cashout":
        seat, ready, good_number = args
        number = "9" * 18 if good_number else "123"
        return [c.CashOut(number, seat=seat, printer_ready=ready)]
    if kind == "printer":
        return [c.PrinterReport(printed=args[0], reason="" if args[0] else "paper jam")]
    if kind == "attendant":
        return [c.AttendantReset()]
    if kind == "tilt":
        return [c.RaiseTilt(args[0], f"{args[0]} fault", needs_attendant=args[1])]
    if kind == "clear_tilt":
        return [c.ClearTilt(args[0], by="attendant" if args[1] else "")]
    if kind == "door":
        return [c.SetDoor(args[0], args[1])]
    if kind == "enable":
        return [c.SetEnabled(args[0], reason="" if args[0] else "host")]
    if kind == "service":
        return [c.SetService(args[0], role="attendant" if args[0] else "")]
    if kind == "reset_period":
        return [c.ResetPeriodMeters(by="operator")]
    if kind == "unlock":  # what an attendant does: every door shut, tilt cleared, service left
        return [
            *(c.SetDoor(door, False) for door in s.doors_open),
            *(c.ClearTilt(code, by="attendant") for code in s.tilts),
            c.SetEnabled(True),
            c.SetService(False),
            c.AttendantReset(),
        ]
    raise AssertionError(f"unknown action {kind}")


def play(config: TerminalConfig, seed: int, actions: list[Action]) -> World:
    """Play ``actions`` on a fresh world, checking the invariants after each command."""
    world = World(config, seed)
    check_invariants(world)
    for action in actions:
        if action[0] == "power_cycle":
            world.power_cycle()
        else:
            for command in commands_of(world, action):
                world.run(command)
        check_invariants(world)
    assert durable(replayed(world)) == durable(world.core.state)
    return world


STREAMS = st.lists(ACTIONS, min_size=30, max_size=80)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32), actions=STREAMS)
def test_random_command_streams_keep_the_rules_the_money_and_the_meters(config, seed, actions):
    """40 streams in the default run; the 2,000 longer ones of ``tox -e slow`` below."""
    play(config, seed, actions)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32),
    actions=st.lists(ACTIONS, min_size=100, max_size=250),
)
def test_long_random_command_streams_keep_the_rules_the_money_and_the_meters(config, seed, actions):
    play(config, seed, actions)


# --- the streams reach what they claim to test (a generator that never dealt would pass) ----


def scripted(config: TerminalConfig, actions: list[Action], seed: int = 7) -> World:
    return play(config, seed, actions)


ROUND: list[Action] = [
    ("fund", 0, 10000),
    ("place", 0, 0, 100),
    ("deal",),
    ("decide_offered", 0, True),
]


def test_a_scripted_stream_plays_rounds_and_power_cycles_in_the_middle_of_one():
    world = scripted(
        CONFIGS[0],
        [("fund", 1, 2000), *ROUND[:3], ("power_cycle",), ROUND[3], *ROUND[1:], ("power_cycle",)],
    )
    kinds = {type(x) for x in world.events()}
    assert {e.RoundStarted, e.RoundSettled, e.PoweredUp} <= kinds
    assert world.cycles == 2 and world.core.state.game_number == 2


def test_a_scripted_stream_reaches_the_handpays_and_the_voucher():
    small = CONFIGS[1]
    world = scripted(
        small,
        [
            ("fund", 0, 10000),
            ("cashout", 0, True, True),  # above the voucher limit: a handpay
            ("attendant",),
            ("fund", 0, 2000),
            ("cashout", 0, True, True),
            ("printer", True),
            ("fund", 1, 500),
            ("cashout", 1, False, True),  # printer not ready: a handpay
            ("attendant",),
        ],
    )
    kinds = [type(x) for x in world.events()]
    assert kinds.count(e.HandpayReset) == 2 and e.VoucherPrinted in kinds
    assert world.core.state.credits == [0, 0]
    assert world.core.state.phase is Phase.IDLE


def test_a_refused_command_is_typed_and_changes_nothing():
    world = World(CONFIGS[0], 1)
    for command in (
        c.Deal(),
        c.PlaceWager("first_down", 100, seat=5),
        c.BillStackedReport(500),
        c.PrinterReport(printed=True),
    ):
        assert world.run(command).error is not None  # run() asserts the kind and no change
