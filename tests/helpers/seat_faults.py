"""A served table with seats whose decks are fixed, for the seat fault tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kiosk.kernel.cards import cards
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import TableConfig
from kiosk.table.core.server import TableServer
from kiosk.terminal.app.wiring import Terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.hostlink import pki
from kiosk.terminal.seat.client import SeatClient
from kiosk.terminal.seat.runtime import SeatRuntime


@pytest.fixture(scope="module")
def pki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("seat-pki") / "pki"
    pki.ensure_pki(
        where,
        (
            "table-T1",
            "seat-1",
        ),
    )
    return where


@pytest.fixture
def table(tmp_path: Path, pki_dir: Path) -> Iterator[Callable[..., TableServer]]:
    servers: list[TableServer] = []

    def start(paytables: tuple[tuple[str, str], ...] = (), port: int = 0) -> TableServer:
        config = TableConfig(
            "T1", "stadium-3cp", paytables, betting_ms=400, decision_ms=400, max_seats=8
        )
        controller = TableController(config, tmp_path / "table.sqlite3", FixedDecks())
        server = TableServer(
            controller, pki.credentials(pki_dir, "table-T1"), f"127.0.0.1:{port}", tick_seconds=0.01
        ).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop(0)
        server.controller.close()


def seat_on(term: Terminal, server: TableServer, pki_dir: Path) -> SeatRuntime:
    creds = pki.credentials(pki_dir, "seat-1")
    return SeatRuntime(
        term.runtime,
        "T1",
        1,
        connect=lambda join: SeatClient(server.address, creds, join, max_backoff=0.2).start(),
    )


def until(seat: SeatRuntime, done: Callable[[], bool], seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, f"timed out: {seat.status()}"
        seat.runtime.pump()
        seat.pump()
        time.sleep(0.005)


def place(term: Terminal) -> None:
    rt = term.runtime
    rt.execute(c.SelectPositions((0, 1, 2)))
    rt.execute(c.PlaceWager(spot="ante", amount=100))
    rt.execute(c.PlaceWager(spot="pairs_plus", amount=100))


#: the array (a flush on positions 0, 1, 2) and the dealer's hand, dealt in this order
ARRAY = cards("2h 5h 9h 3c 7d Jc Qs 4d 8s")


DEALER = cards("Ks Kd 2c")


class FixedDecks:
    """Every round deals ARRAY then DEALER (a deck the test chooses, skipping dealt cards)."""

    def __call__(self, excluded: frozenset[int]) -> FixedDecks.Deck:
        return FixedDecks.Deck([x for x in (*ARRAY, *DEALER) if x not in excluded])

    @dataclass
    class Deck:
        order: list[int]

        def deal(self, n: int) -> tuple[int, ...]:
            out, self.order = self.order[:n], self.order[n:]
            return tuple(out)
