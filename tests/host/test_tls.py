"""Mutual TLS: only a terminal with a valid certificate from the host's CA gets in."""

from __future__ import annotations

import grpc
import pytest

from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.client import HostClient
from kiosk.terminal.hostlink.ports import HostUnavailableError
from proto.turbokiosk.v1 import host_pb2, host_pb2_grpc
from tests.helpers.host_rig import HostRig, Pki


def _hello(host: HostRig, creds: pki.Credentials, terminal: str = "TK-A") -> None:
    client = HostClient(host.address, creds, terminal, timeout=3)
    try:
        client.hello("0.1.0", "sig", 0)
    finally:
        client.close()


def _call(host: HostRig, creds: pki.Credentials, bare: bool) -> None:
    if not bare:
        _hello(host, creds)
        return
    channel = grpc.secure_channel(
        host.address,
        grpc.ssl_channel_credentials(root_certificates=creds.ca),
        options=[("grpc.ssl_target_name_override", pki.SERVER_NAME)],
    )
    stub = host_pb2_grpc.HostServiceStub(channel)
    try:
        stub.Hello(host_pb2.HelloRequest(terminal_id="TK-A"), timeout=3)
    finally:
        channel.close()


def test_valid_certificate_is_let_in(host: HostRig, pki_set: Pki) -> None:
    _hello(host, pki_set.terminal("TK-A"))
    assert host.db is not None and [r.terminal_id for r in host.db.terminals()] == ["TK-A"]


@pytest.mark.parametrize("case", ["rogue CA", "expired", "no certificate"])
def test_invalid_certificate_is_refused(host: HostRig, pki_set: Pki, case: str) -> None:
    ca = (pki_set.dir / pki.CA_CERT).read_bytes()
    if case == "rogue CA":
        creds = pki.credentials(pki_set.rogue, "TK-A")
        creds = pki.Credentials(ca, creds.cert, creds.key)  # trusts the host, not trusted by it
    elif case == "expired":
        creds = pki.credentials(pki_set.dir, "TK-A", pki_set.expired)
    else:
        creds = pki.Credentials(ca, b"", b"")
    with pytest.raises(grpc.RpcError) as info:
        _call(host, creds, case == "no certificate")
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE  # the handshake failed
    assert host.db is not None and host.db.terminals() == []


def test_host_with_a_certificate_from_another_ca_is_refused(host: HostRig, pki_set: Pki) -> None:
    rogue_ca = (pki_set.rogue / pki.CA_CERT).read_bytes()
    good = pki_set.terminal("TK-A")
    with pytest.raises(grpc.RpcError) as info:
        _hello(host, pki.Credentials(rogue_ca, good.cert, good.key))
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE


def test_a_terminal_cannot_speak_for_another(host: HostRig, pki_set: Pki) -> None:
    with pytest.raises(grpc.RpcError) as info:
        _hello(host, pki_set.terminal("TK-A"), terminal="TK-B")
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
    client = HostClient(host.address, pki_set.terminal("TK-A"), "TK-B", timeout=3)
    with pytest.raises(HostUnavailableError, match="PERMISSION_DENIED"):
        client.validation_number(100)
    client.close()


def test_host_unreachable_is_host_unavailable(pki_set: Pki) -> None:
    client = HostClient("127.0.0.1:9", pki_set.terminal("TK-A"), "TK-A", timeout=0.5)
    with pytest.raises(HostUnavailableError, match=r"UNAVAILABLE|DEADLINE"):
        client.validate_ticket("123456789012345678")
    client.close()


def test_issued_certificates(pki_set: Pki, tmp_path) -> None:
    from cryptography import x509
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    cert = x509.load_pem_x509_certificate(pki_set.terminal("TK-A").cert)
    assert cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == "TK-A"
    usage = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.CLIENT_AUTH]
    host = x509.load_pem_x509_certificate(pki_set.host().cert)
    names = host.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert pki.SERVER_NAME in names.get_values_for_type(x509.DNSName)
    with pytest.raises(pki.PkiError, match="already exists"):
        pki.init_ca(pki_set.ca_dir)
    with pytest.raises(pki.PkiError, match="no usable CA"):
        pki.issue_cert(tmp_path / "nothing", "TK-X", tmp_path)
