"""Issue 23: the accounting host serves enrolled terminals only, by their certificate's role.

Seen on the base: any certificate of the casino's CA was a terminal to the host.  ``TK-0099``,
never known to the host, and a table seat's ``seat-1`` each got a $9,999.00 validation number;
the seat's voucher was then redeemed at a real terminal.  Now the role is in the certificate
(checked on every call), the terminal must be enrolled, and each refusal is a floor alarm.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest
from cryptography import x509

from kiosk.host.accounting.db import HostDb, SqliteHostDb, now_ms
from kiosk.terminal.hostlink import pki
from proto.turbokiosk.v1 import host_pb2, host_pb2_grpc
from tests.helpers.cli_process import turbokiosk
from tests.helpers.host_rig import HostRig, Pki, TerminalRig

BIG = 999_900  # $9,999.00


def _stub(
    host: HostRig, creds: pki.Credentials
) -> tuple[grpc.Channel, host_pb2_grpc.HostServiceStub]:
    channel = grpc.secure_channel(
        host.address,
        grpc.ssl_channel_credentials(creds.ca, creds.key, creds.cert),
        options=[("grpc.ssl_target_name_override", pki.SERVER_NAME)],
    )
    return channel, host_pb2_grpc.HostServiceStub(channel)


def _issued(pki_set: Pki, tmp_path: Path, name: str) -> pki.Credentials:
    """A certificate of the casino's own CA for ``name`` (the role its name says)."""
    pki.issue_cert(pki_set.ca_dir, name, tmp_path)
    return pki.credentials(pki_set.dir, name, tmp_path)


def _refused(call: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()  # type: ignore[operator]
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED, info.value.details()
    return info.value


def _alarms(db: HostDb | None, name: str) -> list[str]:
    assert db is not None
    rows = db.terminal_alarms(name, "alarm", "identity_refused")
    return [r.detail["reason"] for r in rows]


def test_an_unknown_terminal_is_refused_with_a_floor_alarm(
    host_on: HostRig, pki_set: Pki, tmp_path: Path
) -> None:
    channel, stub = _stub(host_on, _issued(pki_set, tmp_path, "TK-0099"))
    try:
        hello = host_pb2.HelloRequest(terminal_id="TK-0099", software_version="x")
        error = _refused(lambda: stub.Hello(hello, timeout=5))
        assert error.details() == "terminal TK-0099 is not enrolled at this host"
        issue = host_pb2.IssueValidationNumberRequest(terminal_id="TK-0099", value_cents=BIG)
        _refused(lambda: stub.IssueValidationNumber(issue, timeout=5))
    finally:
        channel.close()
    assert host_on.db is not None
    assert host_on.db.vouchers() == [] and host_on.db.terminals() == []
    assert _alarms(host_on.db, "TK-0099") == ["terminal TK-0099 is not enrolled at this host"]


@pytest.mark.parametrize(
    ("name", "role"),
    [("seat-1", "seat"), ("dealer-1", "dealer"), ("table-T1", "table-controller")],
)
def test_a_table_identity_is_no_terminal_to_the_host(
    host: HostRig, pki_set: Pki, tmp_path: Path, name: str, role: str
) -> None:
    """The base: ``seat-1`` got $9,999.00, reported it printed, and TK-B redeemed it."""
    channel, stub = _stub(host, _issued(pki_set, tmp_path, name))
    try:
        issue = host_pb2.IssueValidationNumberRequest(terminal_id=name, value_cents=BIG)
        error = _refused(lambda: stub.IssueValidationNumber(issue, timeout=5))
    finally:
        channel.close()
    assert error.details() == f"{name} is a {role}, not a terminal"
    assert host.db is not None and host.db.vouchers() == []
    assert _alarms(host.db, name) == [f"{name} is a {role}, not a terminal"]


@pytest.mark.parametrize("name", ["host-2"])
def test_a_server_certificate_is_refused_by_the_handshake(
    host: HostRig, pki_set: Pki, tmp_path: Path, name: str
) -> None:
    """Another host's key is only good for serving: the TLS layer refuses it as a client (its
    extended key usage), before the host sees a call.  (A table controller's certificate is
    also a client's since the linked progressive, decision 0060: the host refuses it by its
    role, above.)"""
    channel, stub = _stub(host, _issued(pki_set, tmp_path, name))
    try:
        with pytest.raises(grpc.RpcError) as info:
            stub.IssueValidationNumber(
                host_pb2.IssueValidationNumberRequest(terminal_id=name, value_cents=BIG),
                timeout=5,
            )
    finally:
        channel.close()
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    assert host.db is not None and host.db.vouchers() == []


def test_a_certificate_without_a_role_is_refused(
    host: HostRig, pki_set: Pki, tmp_path: Path
) -> None:
    """A certificate issued before roles (a TK-A made the old way) is refused: reissue it."""
    from tests.helpers.forge import forge

    creds = forge(pki_set.ca_dir, "TK-A", role=None)
    channel, stub = _stub(host, creds)
    try:
        hello = host_pb2.HelloRequest(terminal_id="TK-A")
        error = _refused(lambda: stub.Hello(hello, timeout=5))
    finally:
        channel.close()
    assert error.details() == "the certificate names no role"


def test_a_retired_terminal_is_refused_and_its_command_stream_ends(
    host_on: HostRig, pki_set: Pki
) -> None:
    assert host_on.db is not None and host_on.server is not None
    channel, stub = _stub(host_on, pki_set.terminal("TK-B"))
    try:
        stub.Hello(host_pb2.HelloRequest(terminal_id="TK-B"), timeout=5)
        stream = stub.Commands(host_pb2.CommandsRequest(terminal_id="TK-B"))
        stream.initial_metadata()  # open
        assert host_on.db.retire("TK-B", now_ms(), "replaced") == "enrolled"
        for _ in stream:  # the host ends it within the registry's refresh (1 s)
            pass
        error = _refused(lambda: stub.Hello(host_pb2.HelloRequest(terminal_id="TK-B"), timeout=5))
    finally:
        channel.close()
    assert error.details() == "terminal TK-B is retired at this host"
    assert _alarms(host_on.db, "TK-B") == ["terminal TK-B is retired at this host"]
    assert host_on.db.enroll("TK-B", now_ms()) == "retired"  # enrolled again: served again
    deadline = time.monotonic() + 5
    channel, stub = _stub(host_on, pki_set.terminal("TK-B"))
    try:
        while True:
            try:
                stub.Hello(host_pb2.HelloRequest(terminal_id="TK-B"), timeout=5)
                break
            except grpc.RpcError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        channel.close()


def test_a_refusal_is_one_alarm_however_often_it_calls(
    host: HostRig, pki_set: Pki, tmp_path: Path
) -> None:
    channel, stub = _stub(host, _issued(pki_set, tmp_path, "TK-0098"))
    try:
        for _ in range(20):
            _refused(lambda: stub.Hello(host_pb2.HelloRequest(terminal_id="TK-0098"), timeout=5))
    finally:
        channel.close()
    assert len(_alarms(host.db, "TK-0098")) == 1


def test_terminals_known_before_the_registry_are_enrolled_on_upgrade(host_db: HostDb) -> None:
    """A database of the previous release (no registry): its terminals are enrolled, once."""
    host_db.hello("TK-OLD", "1.0", "sig", 1)
    with host_db.transaction() as tx:  # back to the previous release's schema
        tx.execute("DROP TABLE terminal_registry")
        tx.execute("DROP TABLE host_upgrades")
    reopened = _reopen(host_db)
    try:
        assert reopened.registry_states() == {"TK-OLD": "enrolled"}
        assert reopened.retire("TK-OLD", now_ms()) == "enrolled"
    finally:
        reopened.close()
    again = _reopen(host_db)  # the upgrade happened once: the retirement stands
    try:
        assert again.registry_states() == {"TK-OLD": "retired"}
    finally:
        again.close()


def _reopen(db: HostDb) -> HostDb:
    from kiosk.host.accounting.db import PostgresHostDb

    if isinstance(db, SqliteHostDb):
        return SqliteHostDb(db.path)
    assert isinstance(db, PostgresHostDb)
    return PostgresHostDb(db.dsn)


def test_enrol_list_and_retire_on_the_command_line(tmp_path: Path) -> None:
    where = ("--host-dir", str(tmp_path / "host"))
    first = turbokiosk("host", "terminals", "enroll", "TK-0001", "--note", "bank 3", *where)
    assert (first.returncode, first.stdout) == (0, "TK-0001: enrolled (was not enrolled)\n")
    again = turbokiosk("host", "terminals", "enroll", "TK-0001", *where)
    assert again.stdout == "TK-0001: enrolled already\n"
    retired = turbokiosk("host", "terminals", "retire", "TK-0001", *where)
    assert retired.stdout == "TK-0001: retired (was enrolled)\n"
    listed = turbokiosk("host", "terminals", "list", *where)
    assert listed.stdout.split()[:2] == ["TK-0001", "retired"], listed.stdout
    for args, problem in (
        (("enroll", "tk-0001"), "is not a terminal name"),
        (("enroll", "seat-1"), "is not a terminal name"),
        (("retire", "TK-0002"), "TK-0002 was never enrolled here"),
    ):
        result = turbokiosk("host", "terminals", *args, *where)
        assert result.returncode == 2, result
        assert problem in result.stderr and result.stderr.count("\n") == 1, result.stderr
    assert SqliteHostDb(tmp_path / "host" / "host.sqlite3").registry_states() == {
        "TK-0001": "retired"
    }


def test_san_adds_to_the_default_names_and_nothing_is_overwritten(tmp_path: Path) -> None:
    """Issue 26: ``--san 10.0.0.5`` replaced the defaults (and the role's name with them)."""
    ca_dir = tmp_path / "ca"
    pki.init_ca(ca_dir, publish=tmp_path / "pki")
    cert, _key = pki.issue_cert(ca_dir, "host", tmp_path / "pki", server=True, sans=("10.0.0.5",))
    first = cert.read_bytes()
    sans = x509.load_pem_x509_certificate(first).extensions.get_extension_for_class(
        x509.SubjectAlternativeName
    )
    dns = sans.value.get_values_for_type(x509.DNSName)
    ips = [str(ip) for ip in sans.value.get_values_for_type(x509.IPAddress)]
    assert dns == [pki.SERVER_NAME, "localhost"] and ips == ["127.0.0.1", "::1", "10.0.0.5"]
    with pytest.raises(pki.PkiError, match="exists already"):
        pki.issue_cert(ca_dir, "host", tmp_path / "pki", server=True)
    with pytest.raises(pki.PkiError, match="a second CA"):
        pki.init_ca(tmp_path / "other-ca", publish=tmp_path / "pki")
    with pytest.raises(pki.PkiError, match="no second CA is made"):
        pki.ensure_pki(tmp_path / "pki", ("seat-1",), ca_dir=tmp_path / "elsewhere")
    assert cert.read_bytes() == first
    assert not (tmp_path / "other-ca").exists() and not (tmp_path / "elsewhere").exists()


def test_a_terminal_refuses_a_host_with_the_table_controllers_certificate(
    pki_set: Pki, tmp_path: Path
) -> None:
    """The table machine's key is no host to a terminal: it checks ``turbokiosk-host``."""
    from kiosk.host.accounting.server import HostServer
    from kiosk.terminal.hostlink.client import HostClient

    pki.issue_cert(pki_set.ca_dir, "table-T1", tmp_path)
    fake = HostServer(
        SqliteHostDb(tmp_path / "host.sqlite3"),
        pki.credentials(pki_set.dir, "table-T1", tmp_path),
        "127.0.0.1:0",
    ).start()
    client = HostClient(fake.address, pki_set.terminal("TK-A"), "TK-A", timeout=3)
    try:
        with pytest.raises(grpc.RpcError) as info:
            client.hello("0.1.0", "sig", 0)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
        assert "Hostname Verification" in str(info.value.details())
        assert fake.db.terminals() == []
    finally:
        client.close()
        fake.stop(0)


@pytest.mark.parametrize("name", ["seat-1", "dealer-1"])
def test_check_credentials_refuses_a_table_identity(
    pki_set: Pki, tmp_path: Path, name: str
) -> None:
    creds = _issued(pki_set, tmp_path, name)
    with pytest.raises(pki.PkiError, match=f"{name} is a .*'s, not a terminal's"):
        pki.check_terminal_credentials(creds)


def test_a_terminal_the_host_refuses_says_why_until_it_is_enrolled(
    host: HostRig, pki_set: Pki, tmp_path: Path, make_terminal: Callable[..., TerminalRig]
) -> None:
    """The technician sees the host's line on the terminal, not a bare 'host link lost'."""
    creds = _issued(pki_set, tmp_path, "TK-0097")
    rig = make_terminal(host.endpoint("TK-0097", creds)).start(wait=False)
    refused = "host refused this terminal: terminal TK-0097 is not enrolled at this host"
    rig.pump_until(lambda: rig.runtime.state.disabled == refused)
    assert host.db is not None
    host.db.enroll("TK-0097", now_ms())
    rig.pump_until(lambda: rig.runtime.state.disabled is None, timeout=15)
