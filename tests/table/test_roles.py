"""Issue 23 at the table: each side checks the other's role; seat names are canonical.

Seen on the base: the controller served with the accounting host's certificate and key (the
``--cert-name host`` default), and a certificate named ``seat-01`` was seat 1: it ended the
genuine seat 1's stream and its wagers were booked for seat 1.  Issue 26: the documented setup
(``host init-ca``, the certificates, then ``table serve --robots 3``) made a second CA and
overwrote ``var/host/pki/ca.crt``, so every certificate issued before failed.
"""

from __future__ import annotations

import os
import queue
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from cryptography import x509

from kiosk.table.core.controller import TableController
from kiosk.table.core.core import TableConfig
from kiosk.table.core.server import TableServer
from kiosk.terminal.hostlink import pki
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.seat.client import SeatClient as RealSeatClient
from proto.turbokiosk.v1 import dealer_pb2, dealer_pb2_grpc
from proto.turbokiosk.v1 import table_pb2 as pb
from rng import Csprng
from tests.helpers.forge import forge
from tests.helpers.table import STADIUM, SeatClient, wait_for
from tests.helpers.table_cli import env, turbokiosk


@pytest.fixture(scope="module")
def pki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("roles-pki") / "pki"
    pki.ensure_pki(where, ("table-T1", "seat-1", "seat-2", "dealer-1", "TK-A"))
    return where


@pytest.fixture
def table(pki_dir: Path, tmp_path: Path) -> Iterator[TableServer]:
    controller = TableController(
        TableConfig("T1", STADIUM), tmp_path / "table.sqlite3", RngDeckFactory(Csprng())
    )
    server = TableServer(controller, pki.credentials(pki_dir, "table-T1")).start()
    yield server
    server.stop()
    controller.close()


def _join(seat: int) -> pb.SeatRequest:
    return pb.SeatRequest(join=pb.JoinTable(table_id="T1", seat=seat))


def _refused(client: SeatClient) -> str:
    with pytest.raises(grpc.RpcError) as info:
        client.next("round_opened", timeout=10)
    assert info.value.code() is grpc.StatusCode.PERMISSION_DENIED, info.value
    return str(info.value.details())


def test_a_seat_refuses_a_controller_with_the_hosts_certificate(
    pki_dir: Path, tmp_path: Path
) -> None:
    """Whoever holds the host's key cannot be a table to the seats (nor the table the host)."""
    controller = TableController(
        TableConfig("T1", STADIUM), tmp_path / "table.sqlite3", RngDeckFactory(Csprng())
    )
    server = TableServer(controller, pki.credentials(pki_dir, "host")).start()
    seat = RealSeatClient(server.address, pki.credentials(pki_dir, "seat-1"), lambda: _join(1))
    seat.start()
    try:
        seen: list[tuple[str, object]] = []
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                seen.append(seat.inbox.get(timeout=0.1))
            except queue.Empty:
                continue
        kinds = [kind for kind, _ in seen]
        assert "connected" not in kinds and "lost" in kinds, seen
        assert controller.state.seats == set()
    finally:
        seat.close()
        server.stop()
        controller.close()


def test_seat_01_is_not_seat_1(table: TableServer, pki_dir: Path) -> None:
    """A certificate named ``seat-01`` (signed by the CA, with the seat role) is refused at
    connect; the genuine seat 1 keeps its stream and nothing is booked for it."""
    genuine = SeatClient(table.address, pki.credentials(pki_dir, "seat-1"))
    genuine.send(join=pb.JoinTable(table_id="T1", seat=1))
    wait_for(lambda: 1 in table.online_seats())
    impostor = SeatClient(table.address, forge(pki_dir.parent / "pki-ca", "seat-01", "seat"))
    try:
        impostor.send(join=pb.JoinTable(table_id="T1", seat=1))
        assert "'seat-01' is not a seat name" in _refused(impostor)
        time.sleep(0.3)
        assert table.online_seats() == {1}
        table.open_round()
        genuine.next("round_opened")  # the genuine seat's stream still carries the round
    finally:
        impostor.close()
        genuine.close()


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("TK-A", "TK-A is a terminal, not a seat"),
        ("dealer-1", "dealer-1 is a dealer, not a seat"),
    ],
)
def test_only_a_seat_certificate_takes_a_seat(
    table: TableServer, pki_dir: Path, name: str, problem: str
) -> None:
    client = SeatClient(table.address, pki.credentials(pki_dir, name))
    try:
        client.send(join=pb.JoinTable(table_id="T1", seat=1))
        assert problem in _refused(client)
        assert table.controller.state.seats == set()
    finally:
        client.close()


def test_a_seat_certificate_without_a_role_is_refused(table: TableServer, pki_dir: Path) -> None:
    client = SeatClient(table.address, forge(pki_dir.parent / "pki-ca", "seat-1", None))
    try:
        client.send(join=pb.JoinTable(table_id="T1", seat=1))
        assert "names no role" in _refused(client)
    finally:
        client.close()


def test_a_second_stream_never_books_for_another_seat(table: TableServer, pki_dir: Path) -> None:
    """Seat 2's certificate on a second stream: its join and its wagers for seat 1 refused."""
    genuine = SeatClient(table.address, pki.credentials(pki_dir, "seat-1"))
    genuine.send(join=pb.JoinTable(table_id="T1", seat=1))
    wait_for(lambda: 1 in table.online_seats())
    other = SeatClient(table.address, pki.credentials(pki_dir, "seat-2"))
    try:
        other.send(join=pb.JoinTable(table_id="T1", seat=1))
        assert "seat 2's" in _refused(other)
        assert table.online_seats() == {1}
    finally:
        other.close()
        genuine.close()


def test_only_a_dealer_certificate_is_a_dealer(table: TableServer, pki_dir: Path) -> None:
    creds = pki.credentials(pki_dir, "seat-1")
    channel = grpc.secure_channel(
        table.address,
        grpc.ssl_channel_credentials(creds.ca, creds.key, creds.cert),
        options=[("grpc.ssl_target_name_override", pki.TABLE_SERVER_NAME)],
    )
    stub = dealer_pb2_grpc.DealerServiceStub(channel)
    try:
        call = stub.Dealer(iter([dealer_pb2.DealerRequest()]))
        with pytest.raises(grpc.RpcError) as info:
            list(call)
        assert info.value.code() is grpc.StatusCode.PERMISSION_DENIED
        assert "seat-1 is a seat, not a dealer" in str(info.value.details())
    finally:
        channel.close()


def test_table_serve_has_its_own_identity_not_the_hosts(tmp_path: Path) -> None:
    """No ``--cert-name host`` default: without the controller's own certificate it says so."""
    pki.ensure_pki(tmp_path / "pki", ("seat-1",))  # the CA, the host's and a seat's
    result = subprocess.run(
        turbokiosk(
            *["table", "--data-dir", str(tmp_path / "table"), "serve", "--edition", STADIUM],
            *["--pki-dir", str(tmp_path / "pki"), "--listen", "127.0.0.1:0"],
        ),
        env=env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result
    assert "table-T1" in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_the_documented_table_setup_keeps_its_one_ca(tmp_path: Path) -> None:
    """``host init-ca``, the certificates, then ``table serve --robots 3``: one CA, the
    certificates issued before still good, the controller's own issued by it."""
    run_env = {k: v for k, v in env().items() if not k.startswith("TURBOKIOSK_")}

    def run(*args: str) -> None:
        done = subprocess.run(
            turbokiosk(*args), cwd=tmp_path, env=run_env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr

    run("host", "init-ca")
    run("host", "issue-cert", "host", "--server", "--san", "10.1.2.3")
    run("host", "issue-cert", "seat-7")
    pki_dir = tmp_path / "var/host/pki"
    ca_before = (pki_dir / pki.CA_CERT).read_bytes()
    serve = subprocess.Popen(
        turbokiosk(
            *["table", "serve", "--edition", STADIUM, "--robots", "3", "--auto-deal", "0.5"],
            *["--listen", "127.0.0.1:0"],
        ),
        cwd=tmp_path,
        env=run_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()
        assert line.startswith("table T1: serving on "), (line, serve.stderr)
    finally:
        serve.terminate()
        serve.communicate(timeout=30)
    assert (pki_dir / pki.CA_CERT).read_bytes() == ca_before
    assert not (tmp_path / "var/host/pki-ca").exists()
    ca = x509.load_pem_x509_certificate(ca_before)
    for name in ("host", "seat-7", "table-T1", "seat-0", "seat-2"):
        cert = x509.load_pem_x509_certificate((pki_dir / f"{name}.crt").read_bytes())
        cert.verify_directly_issued_by(ca)  # raises when another CA issued it
    assert os.stat(tmp_path / "var/host-ca" / pki.CA_KEY).st_mode & 0o077 == 0


def test_robots_on_an_empty_pki_make_the_ca_where_the_host_looks(tmp_path: Path) -> None:
    """``table serve --robots`` first, ``host issue-cert`` after: one CA, where both look."""
    run_env = {k: v for k, v in env().items() if not k.startswith("TURBOKIOSK_")}
    serve = subprocess.Popen(
        turbokiosk(*["table", "serve", "--edition", STADIUM, "--robots", "1"], "--listen",
                   "127.0.0.1:0"),
        cwd=tmp_path, env=run_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()
        assert line.startswith("table T1: serving on "), (line, serve.stderr)
    finally:
        serve.terminate()
        serve.communicate(timeout=30)
    assert (tmp_path / "var/host-ca" / pki.CA_KEY).is_file()
    assert not (tmp_path / "var/host/pki-ca").exists()
    made = subprocess.run(
        turbokiosk("host", "issue-cert", "seat-5"),
        cwd=tmp_path, env=run_env, capture_output=True, text=True,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
