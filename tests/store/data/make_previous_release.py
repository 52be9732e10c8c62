"""Write the data directory of ``tests/store/test_previous_release.py`` (see README.md here).

Run it with the code of the release whose store it is to stand for, e.g. from a checkout of
that commit::

    PYTHONPATH=/path/to/that/checkout python tests/store/data/make_previous_release.py OUT_DIR

It plays through the real runtime (in-process devices, the production RNG, the development
signer in ``OUT_DIR/terminal.signer``): notes, a voucher in, Turbo and Stadium rounds with a
decision, a jackpot handpay, a cash-out handpay, a printed voucher, a tilt cleared by an
attendant and one left open; a snapshot after every step.  It prints the final credits and a
few meters as JSON (``expected.json``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from rng import Csprng

METERS = (
    "bills_in",
    "tickets_in",
    "tickets_out",
    "coin_in",
    "coin_out",
    "games_played",
    "handpaid_jackpots",
    "handpaid_cancelled_credits",
    "tilts",
)


def _offered(rt: TerminalRuntime, name: str) -> str | None:
    """The offered decision's ``take`` or ``default`` choice, None when none is offered (the
    offer is a dict up to commit 991cbce, an OfferRecord after it)."""
    rnd = rt.state.round
    offer: Any = rnd.offers.get(0) if rnd is not None else None
    if offer is None:
        return None
    return str(offer[name] if isinstance(offer, dict) else getattr(offer.decision, name))


class Clock:
    def __init__(self) -> None:
        self.now = 1_790_000_000_000

    def __call__(self) -> int:
        self.now += 1000
        return self.now


def play(data_dir: Path) -> dict[str, object]:
    rng = Csprng()
    devices = data_dir / "devices"
    validator = InProcessBillValidator(devices)
    printer = InProcessPrinter(devices)
    rt = TerminalRuntime(  # type: ignore[call-arg]  # run with the previous release (README)
        data_dir,
        deck_factory=RngDeckFactory(rng),
        validator=validator,
        printer=printer,
        validation_numbers=LocalValidationNumbers(rng.randbelow),
        config=TerminalConfig(handpay_limit=1500, ticket_out_limit=5000),
        clock=Clock(),
        snapshot_every=1,
    )
    rt.power_up()
    for value in (2000, 1000, 500):
        assert validator.insert(value)
        rt.pump()
    number = "4" * 18
    rt.execute(c.InsertTicket(validation_number=number, value=700))
    rt.execute(c.TicketStackedReport(number))
    # Turbo: a decision each round, raise taken when offered
    rt.execute(c.SelectEdition("turbo-football"))
    for _ in range(3):
        rt.execute(c.PlaceWager("first_down", 100))
        rt.execute(c.Deal())
        take = _offered(rt, "take")
        if take is not None:
            rt.execute(c.Decide(take))
        rt.pump()
        if rt.state.handpay is not None:
            rt.execute(c.AttendantReset(by="attendant 1"))
    # a jackpot: both Turbo wagers, the handpay limit is 15 dollars, repeated until one hits
    # (or 40 rounds); the credit meter is topped up with notes
    for _ in range(40):
        if rt.state.lifetime["handpaid_jackpots"]:
            break
        if rt.state.credits[0] < 2000:
            assert validator.insert(2000)
            rt.pump()
        rt.execute(c.PlaceWager("first_down", 500))
        rt.execute(c.PlaceWager("long_pass", 500))
        rt.execute(c.Deal())
        take = _offered(rt, "take")
        if take is not None:
            rt.execute(c.Decide(take))
        rt.pump()
        if rt.state.handpay is not None:
            rt.execute(c.AttendantReset(by="attendant 2"))
    # Stadium: positions, ante and pair plus; play, then fold
    rt.execute(c.SelectEdition("stadium-3cp"))
    for choice in ("play", "fold"):
        rt.execute(c.SelectPositions((0, 4, 8)))
        rt.execute(c.PlaceWager("ante", 100))
        rt.execute(c.Deal())
        if _offered(rt, "take") is not None:
            rt.execute(c.Decide(choice))
        rt.pump()
        if rt.state.handpay is not None:
            rt.execute(c.AttendantReset(by="attendant 3"))
    # a tilt cleared by an attendant
    rt.execute(c.RaiseTilt("paper_out", "printer out of paper", needs_attendant=True))
    rt.execute(c.ClearTilt("paper_out", by="attendant 4"))
    # a printed voucher (credits under the ticket-out limit)
    if rt.state.credits[0] > 5000:
        rt.execute(c.CashOut(validation_number="1" * 18, printer_ready=False))
        rt.execute(c.AttendantReset(by="attendant 5"))  # a cancelled-credits handpay
        assert validator.insert(2000)
        rt.pump()
    rt.cash_out()
    rt.pump()
    # a cash-out the printer cannot take: a cancelled-credits handpay
    assert validator.insert(1000)
    rt.pump()
    rt.execute(c.CashOut(validation_number="2" * 18, printer_ready=False))
    rt.execute(c.AttendantReset(by="attendant 6"))
    # credits left on the meter, a last Turbo round on show, a tilt left open
    assert validator.insert(2000)
    rt.pump()
    rt.execute(c.SelectEdition("turbo-football"))
    rt.execute(c.PlaceWager("first_down", 200))
    rt.execute(c.Deal())
    default = _offered(rt, "default")
    if default is not None:
        rt.execute(c.Decide(default))
    rt.pump()
    if rt.state.handpay is not None:
        rt.execute(c.AttendantReset(by="attendant 7"))
    rt.execute(c.RaiseTilt("bill_jam", "bill validator jammed", needs_attendant=True))
    state = rt.state
    expected = {
        "credits": list(state.credits),
        "game_number": state.game_number,
        "tilts": sorted(state.tilts),
        "lifetime": {name: state.lifetime[name] for name in METERS},
    }
    rt.close()
    return expected


def main() -> None:
    out = Path(sys.argv[1])
    expected = play(out / "terminal")
    (out / "expected.json").write_text(json.dumps(expected, indent=2, sort_keys=True) + "\n")
    print(json.dumps(expected, sort_keys=True))


if __name__ == "__main__":
    main()
