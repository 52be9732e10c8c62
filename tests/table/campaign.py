"""The table tamper campaign: a controller process and seat terminal processes play while the
harness tampers with the table's record at random (:mod:`tests.table.tamper`); every tamper must
be refused (``table serve`` exits 3 with one line naming it, ``table audit`` exits non-zero),
the honest journal put back must audit clean, and at the end ``table audit --seat ...``
reconciles every seat's journal with the table's, round by round, to the cent."""

from __future__ import annotations

import contextlib
import io
import random
import signal
import socket
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from kiosk.cli import main
from kiosk.table.core import events as te
from kiosk.table.core.journal import TableJournal
from proto.turbokiosk.v1 import table_pb2 as pb
from tests.helpers.campaign_progress import campaign_progress
from tests.helpers.seat_table import Books, Table, reconcile
from tests.helpers.table_cli import env, turbokiosk
from tests.table.tamper import TAMPERS, Tamper, backup, replaced_by, replay_a_seat_message, restore

if TYPE_CHECKING:
    from kiosk.host.accounting.server import HostServer

REPLACED = "replaced by an older copy"
#: the tampers the harness makes while the table runs (not on its journal)
SEAT_AT_HOST = "seat certificate at the host"
RENAMED_SEAT = "renamed seat"
RUNTIME = ("replay", SEAT_AT_HOST, RENAMED_SEAT)


@dataclass
class Report:
    """What the campaign did and found."""

    rounds: int = 0
    detected: Counter[str] = field(default_factory=Counter)
    replays: int = 0
    books: Books | None = None
    audit: str = ""


def audit(table: Table, *extra: str) -> tuple[int, str, str]:
    """``turbokiosk table audit`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["table", "--data-dir", str(table.root / "table"), "audit", *extra])
    return code, out.getvalue(), err.getvalue()


def finished_rounds(table: Table) -> list[te.Event]:
    """The table's events (read-only, while it runs)."""
    journal = TableJournal(table.journal_path, "T1", readonly=True)
    try:
        return list(journal.events())
    finally:
        journal.close()


def serve_refuses(table: Table, tamper: Tamper) -> str:
    """``table serve`` on the tampered journal: exit 3 and one line naming the tamper."""
    done = subprocess.run(
        turbokiosk(
            *["table", "--data-dir", str(table.root / "table"), "serve"],
            *["--edition", table.edition, "--mode", table.mode, "--pki-dir", str(table.pki)],
            *["--listen", table.address],
        ),
        env=env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 3 and len(lines) == 1, (tamper.name, done.returncode, done.stderr)
    assert any(word in lines[0] for word in tamper.expect), (tamper.name, lines[0])
    assert "serving on" not in done.stdout
    return lines[0]


def controller_refuses(table: Table, tamper: Tamper) -> str:
    """What ``table serve`` does first, in this process: the controller on its signer."""
    from kiosk.table.core.controller import TableController
    from kiosk.table.core.core import DealMode, TableConfig
    from kiosk.table.core.record import TableRecordError, table_signer
    from kiosk.terminal.runtime.deck import RngDeckFactory
    from rng import Csprng

    cfg = TableConfig("T1", table.edition, mode=DealMode(table.mode))
    signer = table_signer(table.root / "table", "T1")
    with pytest.raises(TableRecordError) as refused:
        TableController(cfg, table.journal_path, RngDeckFactory(Csprng()), signer).close()
    reason = str(refused.value)
    assert any(word in reason for word in tamper.expect), (tamper.name, reason)
    return reason


def check_refused(
    table: Table, tamper: Tamper, rand: random.Random, *, serve_process: bool = True
) -> bool:
    """Tamper with the stopped table, see it refused (by ``table serve`` in its own process,
    or by the controller in this one), put the honest journal back."""
    honest = table.root / "honest"
    backup(table.journal_path, honest)
    try:
        tamper.apply(table.journal_path, rand)
    except LookupError:  # nothing to tamper with yet (e.g. no losing wager)
        restore(table.journal_path, honest)
        return False
    code, _, err = audit(table)
    assert code != 0 and len(err.strip().splitlines()) == 1, (tamper.name, err)
    assert any(word in err for word in tamper.expect), (tamper.name, err)
    if serve_process:
        serve_refuses(table, tamper)
    else:
        controller_refuses(table, tamper)
    restore(table.journal_path, honest)
    code, _, err = audit(table)
    assert code == 0, (tamper.name, "the honest journal put back", err)
    return True


def replay_wager(table: Table, rand: random.Random) -> bool:
    """A seat's journaled wager report sent again on its own stream: answered with the
    journaled record or refused, never journaled twice."""
    from kiosk.terminal.hostlink import pki
    from tests.helpers.table import SeatClient

    events = finished_rounds(table)
    if not any(isinstance(ev, te.WagerAccepted) for ev in events):
        return False
    taken = replay_a_seat_message(events, rand)
    client = SeatClient(table.address, pki.credentials(table.pki, f"seat-{taken.seat}"))
    try:
        client.send(join=pb.JoinTable(table_id="T1", seat=taken.seat))
        wagers = [pb.Wager(spot=s, cents=c) for s, c in taken.bet.wagers]
        report = pb.ReportWager(
            table_id="T1",
            game_number=taken.game_number,
            seat=taken.seat,
            wagers=wagers,
            positions=taken.bet.positions,
        )
        client.send(wager=report)
        deadline = time.monotonic() + 20
        answered = False
        while not answered and time.monotonic() < deadline:
            got = client.responses.get(timeout=20)
            assert not isinstance(got, Exception), got
            kind = got.WhichOneof("body")
            answered = kind == "refused" or (
                kind == "wager_accepted" and got.game_number == taken.game_number
            )
        assert answered, "the replayed report got no answer"
    finally:
        client.close()
    again = [
        ev
        for ev in finished_rounds(table)
        if isinstance(ev, te.WagerAccepted)
        and (ev.game_number, ev.seat) == (taken.game_number, taken.seat)
    ]
    assert len(again) == 1, "a replayed wager journaled twice"
    return True


def floor_host(table: Table) -> HostServer:
    """The casino's accounting host beside the table, on the same CA (its own certificate)."""
    from kiosk.host.accounting.db import SqliteHostDb
    from kiosk.host.accounting.server import HostServer, HostSettings
    from kiosk.terminal.hostlink import pki

    pki.ensure_pki(table.pki, ("host",))
    db = SqliteHostDb(table.root / "host.sqlite3")
    creds = pki.credentials(table.pki, "host")
    return HostServer(db, creds, "127.0.0.1:0", settings=HostSettings()).start()


def seat_at_the_host(table: Table, host: HostServer, rand: random.Random) -> bool:
    """A seat's certificate (its key sits on a seat terminal on the floor) at the accounting
    host, asking for a $9,999.00 validation number: refused as no terminal, with a floor alarm
    (decision 0035)."""
    import grpc

    from kiosk.terminal.hostlink import pki
    from proto.turbokiosk.v1 import host_pb2, host_pb2_grpc

    name = f"seat-{rand.randrange(table.seats)}"
    creds = pki.credentials(table.pki, name)
    channel = grpc.secure_channel(
        host.address,
        grpc.ssl_channel_credentials(creds.ca, creds.key, creds.cert),
        options=[("grpc.ssl_target_name_override", pki.SERVER_NAME)],
    )
    issue = host_pb2.IssueValidationNumberRequest(terminal_id=name, value_cents=999_900)
    try:
        with pytest.raises(grpc.RpcError) as refused:
            host_pb2_grpc.HostServiceStub(channel).IssueValidationNumber(issue, timeout=20)
    finally:
        channel.close()
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED, refused.value
    assert refused.value.details() == f"{name} is a seat, not a terminal"
    assert host.db.vouchers() == []
    assert host.db.terminal_alarms(name, "alarm", "identity_refused"), "no floor alarm"
    return True


def renamed_seat(table: Table, rand: random.Random) -> bool:
    """A certificate of the casino's CA named ``seat-0N`` (a second spelling of seat N, the
    seat role, what the CA tooling refuses to issue) joining as seat N: refused at connect;
    seat N's own process plays on."""
    import grpc

    from tests.helpers.forge import forge
    from tests.helpers.table import SeatClient

    n = rand.randrange(1, min(table.seats, 10))
    impostor = SeatClient(table.address, forge(table.root / "pki-ca", f"seat-0{n}", "seat"))
    try:
        impostor.send(join=pb.JoinTable(table_id="T1", seat=n))
        with pytest.raises(grpc.RpcError) as refused:
            impostor.next("round_opened", timeout=20)
        assert refused.value.code() is grpc.StatusCode.PERMISSION_DENIED, refused.value
        assert f"'seat-0{n}' is not a seat name" in str(refused.value.details())
    finally:
        impostor.close()
    return True


def serving(table: Table, process: subprocess.Popen[str]) -> subprocess.Popen[str]:
    """Wait until the controller process listens (it refused to start: fail with its line)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()[1]
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", table.port), 1):
            return process
        time.sleep(0.1)
    raise AssertionError("the controller did not start")


def stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def run_campaign(
    root: Path,
    *,
    rounds: int,
    seats: int = 4,
    edition: str = "stadium-3cp",
    seed: int = 23,
    pause: tuple[float, float] = (0.8, 2.5),
    serve_process: bool = True,
) -> Report:
    """Play ``rounds`` table rounds with ``seats`` seat processes, tampering between them (each
    kind of tamper at least once before the end), then reconcile.  ``serve_process`` False:
    each refusal is checked on the controller in this process, not by a ``table serve``
    process (the small version; the process's one line is tested on its own)."""
    rand = random.Random(seed)
    table = Table(root, edition, seats=seats, betting=0.5, decision=0.3)
    report = Report()
    controller = serving(table, table.serve())
    procs = {n: table.seat(n, seed=n) for n in range(seats)}
    older: Path | None = None
    host = floor_host(table)
    try:
        names = [t.name for t in TAMPERS] + [REPLACED, *RUNTIME]
        progress = campaign_progress("table tamper campaign", rounds, "rounds")
        while report.rounds < rounds or len(report.detected) < len(names):
            progress.update(min(report.rounds, rounds))
            time.sleep(rand.uniform(*pause))
            if not table.journal_path.exists():
                continue
            missing = [n for n in names if n not in report.detected]
            name = rand.choice(missing if missing and rand.random() < 0.5 else names)
            if name == "replay":
                if replay_wager(table, rand):
                    report.detected["replay"] += 1
            elif name == SEAT_AT_HOST:
                report.detected[name] += seat_at_the_host(table, host, rand)
            elif name == RENAMED_SEAT:
                report.detected[name] += renamed_seat(table, rand)
            elif name != REPLACED or older is not None:
                stop(controller)
                tamper = replaced_by(older) if older is not None and name == REPLACED else None
                tamper = tamper or next(t for t in TAMPERS if t.name == name)
                if check_refused(table, tamper, rand, serve_process=serve_process):
                    report.detected[tamper.name] += 1
                if older is None:
                    older = root / "older"
                    backup(table.journal_path, older)
                controller = serving(table, table.serve())
            report.rounds = sum(
                isinstance(ev, te.RoundClosed | te.RoundVoided) for ev in finished_rounds(table)
            )
        progress.close()
        # the end: each seat finishes what it has in play and one more round, then stops
        for n, process in procs.items():
            stop(process)
            procs[n] = table.seat(n, rounds=1, seed=n + 100)
        for process in procs.values():
            _, err = process.communicate(timeout=300)
            assert process.returncode == 0 and "Traceback" not in err, err
    finally:
        host.stop(0)
        for process in [controller, *procs.values()]:
            if process.poll() is None:
                stop(process)
    seat_args = [f"--seat={n}={table.seat_dir(n)}" for n in range(seats)]
    code, out, err = audit(table, *seat_args)
    assert code == 0, out + err
    report.audit = out
    report.books = reconcile(table)
    return report
