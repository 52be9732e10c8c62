"""The host link's PKI: a private CA, a server certificate and one client certificate per terminal.

Keys are ECDSA P-256; certificates are X.509 v3 signed with SHA-256.  A terminal certificate
carries the terminal id as its common name and is only good for client authentication; the
host's certificate is only good for server authentication and names the host's addresses in
its subject alternative names.  Files are PEM: ``ca.crt``/``ca.key`` in the CA directory,
``<name>.crt``/``<name>.key`` for each issued certificate (keys written with mode 0600).

The CA directory (with the CA's private key) is kept apart from the directory the host serves
from, which holds only a copy of ``ca.crt`` and the host's own certificate and key
(:func:`publish_ca`): a host that is broken into cannot issue certificates, and
``host serve`` refuses to start where it finds the CA's key (:func:`refuse_ca_key`).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

import grpc
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from kiosk.bounded_read import InputFileError, read_bounded

CA_CERT, CA_KEY = "ca.crt", "ca.key"
SERVER_NAME = "turbokiosk-host"
DEFAULT_SERVER_SANS = (SERVER_NAME, "localhost", "127.0.0.1", "::1")


class PkiError(Exception):
    """A CA or certificate file is missing, already there, or unusable."""


@dataclass(frozen=True)
class Credentials:
    """PEM bytes a TLS endpoint needs: the CA to trust, its own certificate and key."""

    ca: bytes
    cert: bytes
    key: bytes

    @classmethod
    def load(cls, ca_file: Path, cert_file: Path, key_file: Path) -> Credentials:
        """Read the three PEM files."""
        try:
            return cls(
                read_bounded(ca_file, what="CA certificate"),
                read_bounded(cert_file, what="certificate"),
                read_bounded(key_file, what="key"),
            )
        except InputFileError as exc:
            raise PkiError(f"cannot read credentials: {exc}") from exc


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)


def _write_cert(path: Path, cert: x509.Certificate) -> None:
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))


def init_ca(
    ca_dir: Path,
    *,
    name: str = "TurboKiosk Host CA",
    days: int = 3650,
    publish: Path | None = None,
) -> Path:
    """Create a CA (key and self-signed certificate) in ``ca_dir``; the certificate's path.

    ``publish``: also copy the certificate (never the key) there, the directory the host serves
    from.
    """
    if days <= 0:
        raise PkiError(f"--days {days}: a CA must be valid for at least one day")
    if publish is not None and _same_dir(publish, ca_dir):
        raise PkiError(
            f"the CA directory {ca_dir} is the directory the host serves from: give the CA its"
            " own directory (--ca-dir)"
        )
    for where in (ca_dir, publish):  # refused before anything is written
        if where is not None and where.exists() and not where.is_dir():
            raise PkiError(f"{where}: exists and is not a directory")
    ca_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    cert_path, key_path = ca_dir / CA_CERT, ca_dir / CA_KEY
    if cert_path.exists() or key_path.exists():
        raise PkiError(f"a CA already exists in {ca_dir}")
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write_key(key_path, key)
    _write_cert(cert_path, cert)
    if publish is not None:
        publish_ca(ca_dir, publish)
    return cert_path


def publish_ca(ca_dir: Path, serve_dir: Path) -> Path:
    """Copy the CA certificate (only) to the directory the host serves from; its path there."""
    serve_dir.mkdir(parents=True, exist_ok=True)
    target = serve_dir / CA_CERT
    try:
        target.write_bytes((ca_dir / CA_CERT).read_bytes())
    except OSError as exc:
        raise PkiError(f"cannot copy the CA certificate to {serve_dir}: {exc}") from exc
    return target


def _same_dir(a: Path, b: Path) -> bool:
    return a.resolve() == b.resolve()


def refuse_ca_key(serve_dirs: tuple[Path, ...], ca_dir: Path) -> None:
    """Raise :class:`PkiError` (one line: where it is, how to move it) when a directory the host
    serves from holds the CA's private key: ``ca.key``, or any ``*.key`` whose public key is the
    CA certificate's."""
    ca_public: bytes | None = None
    for directory in serve_dirs:
        cert_file = directory / CA_CERT
        if ca_public is None and cert_file.is_file():
            try:
                ca_cert = x509.load_pem_x509_certificate(read_bounded(cert_file, what="CA"))
                ca_public = _public_der(ca_cert.public_key())
            except (InputFileError, ValueError):
                ca_public = None
    for directory in serve_dirs:
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.key")):
            if path.name == CA_KEY or (ca_public is not None and _is_key_of(path, ca_public)):
                raise PkiError(
                    f"the CA private key {path} is in a directory 'host serve' reads: move it"
                    f" to the CA directory ({ca_dir}), e.g. 'mkdir -m 700 -p {ca_dir} && mv"
                    f" {path} {ca_dir}/{CA_KEY} && cp {directory}/{CA_CERT} {ca_dir}/',"
                    " ideally on another machine"
                )


def _public_der(public: object) -> bytes:
    der = serialization.Encoding.DER
    info = serialization.PublicFormat.SubjectPublicKeyInfo
    return public.public_bytes(der, info)  # type: ignore[attr-defined,no-any-return]


def _is_key_of(path: Path, public: bytes) -> bool:
    try:
        key = serialization.load_pem_private_key(read_bounded(path, what="key"), password=None)
    except (InputFileError, ValueError, TypeError):
        return False
    return _public_der(key.public_key()) == public


def _load_ca(ca_dir: Path) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    try:
        cert = x509.load_pem_x509_certificate(read_bounded(ca_dir / CA_CERT))
        key = serialization.load_pem_private_key(read_bounded(ca_dir / CA_KEY), password=None)
    except (OSError, ValueError) as exc:
        raise PkiError(f"no usable CA in {ca_dir} (--ca-dir): {exc}") from exc
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise PkiError(f"the CA key in {ca_dir} is not an EC key")
    return cert, key


def _san(names: tuple[str, ...]) -> x509.SubjectAlternativeName:
    entries: list[x509.GeneralName] = []
    for name in names:
        try:
            entries.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            entries.append(x509.DNSName(name))
    return x509.SubjectAlternativeName(entries)


def issue_cert(
    ca_dir: Path,
    name: str,
    out_dir: Path,
    *,
    server: bool = False,
    sans: tuple[str, ...] = (),
    days: int = 825,
    not_before: dt.datetime | None = None,
) -> tuple[Path, Path]:
    """Issue a terminal (client) or host (``server``) certificate; (cert path, key path).

    ``name`` is the terminal id for a terminal; for the host it is the certificate's common
    name, and ``sans`` (default: :data:`DEFAULT_SERVER_SANS`) its addresses.
    """
    if not name or not name.isascii() or "/" in name:
        raise PkiError(f"certificate name {name!r}: ASCII without '/' please")
    if days <= 0:
        raise PkiError(f"--days {days}: a certificate must be valid for at least one day")
    ca_cert, ca_key = _load_ca(ca_dir)
    key = ec.generate_private_key(ec.SECP256R1())
    start = not_before or _now() - dt.timedelta(minutes=5)
    usage = ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
    )
    if server:
        builder = builder.add_extension(_san(sans or DEFAULT_SERVER_SANS), critical=False)
    else:
        builder = builder.add_extension(_san((name,)), critical=False)
    cert = builder.sign(ca_key, hashes.SHA256())
    out_dir.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = out_dir / f"{name}.crt", out_dir / f"{name}.key"
    _write_key(key_path, key)
    _write_cert(cert_path, cert)
    return cert_path, key_path


@dataclass(frozen=True)
class CredentialCheck:
    """What a terminal's credentials say about it, once they have been checked."""

    terminal_id: str  # the certificate's common name
    issuer: str  # the CA's common name
    not_after: dt.datetime  # UTC

    def to_text(self) -> str:
        """One line for a technician."""
        return (
            f"terminal {self.terminal_id}: certificate issued by {self.issuer}, "
            f"valid until {self.not_after:%Y-%m-%d %H:%M} UTC"
        )


def _common_name(name: x509.Name) -> str:
    values = name.get_attributes_for_oid(NameOID.COMMON_NAME)
    return str(values[0].value) if values else ""


def common_name(cert_pem: bytes) -> str:
    """The common name of a PEM certificate (a terminal's id)."""
    try:
        cert = x509.load_pem_x509_certificate(cert_pem)
    except ValueError as exc:
        raise PkiError(f"not a PEM certificate: {exc}") from exc
    name = _common_name(cert.subject)
    if not name:
        raise PkiError("the certificate has no common name")
    return name


def check_terminal_credentials(
    credentials: Credentials, *, now: dt.datetime | None = None
) -> CredentialCheck:
    """Check that the three PEMs make a working terminal identity, or say what is wrong.

    The CA is a CA certificate, the terminal's certificate was signed by it, is meant for
    client authentication, is valid ``now`` and carries a common name, and the key is the
    certificate's own.
    """
    try:
        ca = x509.load_pem_x509_certificate(credentials.ca)
    except ValueError as exc:
        raise PkiError(f"CA: not a PEM certificate: {exc}") from exc
    try:
        cert = x509.load_pem_x509_certificate(credentials.cert)
    except ValueError as exc:
        raise PkiError(f"certificate: not a PEM certificate: {exc}") from exc
    try:
        key = serialization.load_pem_private_key(credentials.key, password=None)
    except (ValueError, TypeError) as exc:
        raise PkiError(f"key: not an unencrypted PEM private key: {exc}") from exc
    try:
        constraints = ca.extensions.get_extension_for_class(x509.BasicConstraints).value
    except x509.ExtensionNotFound:
        constraints = None
    if constraints is None or not constraints.ca:
        raise PkiError(f"CA: {_common_name(ca.subject)!r} is not a CA certificate")
    try:
        cert.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature) as exc:
        raise PkiError(
            f"certificate: not issued by the CA {_common_name(ca.subject)!r} "
            f"(its issuer is {_common_name(cert.issuer)!r})"
        ) from exc
    public = serialization.PublicFormat.SubjectPublicKeyInfo
    der = serialization.Encoding.DER
    if key.public_key().public_bytes(der, public) != cert.public_key().public_bytes(der, public):
        raise PkiError("key: it is not the certificate's key")
    try:
        usage = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    except x509.ExtensionNotFound:
        usage = None
    if usage is not None and ExtendedKeyUsageOID.CLIENT_AUTH not in usage:
        raise PkiError("certificate: not for client authentication (a host certificate?)")
    moment = now or _now()
    if moment < cert.not_valid_before_utc:
        raise PkiError(
            f"certificate: not valid before {cert.not_valid_before_utc:%Y-%m-%d %H:%M} UTC"
        )
    if moment > cert.not_valid_after_utc:
        raise PkiError(f"certificate: expired on {cert.not_valid_after_utc:%Y-%m-%d %H:%M} UTC")
    terminal_id = _common_name(cert.subject)
    if not terminal_id:
        raise PkiError("certificate: no common name (the terminal id)")
    return CredentialCheck(terminal_id, _common_name(ca.subject), cert.not_valid_after_utc)


def credentials(ca_dir: Path, name: str, cert_dir: Path | None = None) -> Credentials:
    """The CA certificate plus ``name``'s certificate and key."""
    where = cert_dir or ca_dir
    return Credentials.load(ca_dir / CA_CERT, where / f"{name}.crt", where / f"{name}.key")


def default_ca_dir(pki_dir: Path) -> Path:
    """Where :func:`ensure_pki` keeps the CA beside ``pki_dir``: ``<pki_dir>-ca``."""
    resolved = pki_dir.resolve()
    return resolved.parent / f"{resolved.name}-ca"


def ensure_pki(
    pki_dir: Path,
    terminal_ids: tuple[str, ...],
    host_name: str = "host",
    ca_dir: Path | None = None,
) -> Path:
    """Create whatever is missing: the CA (in ``ca_dir``, default :func:`default_ca_dir`, its
    certificate published to ``pki_dir``), the host's certificate, each terminal's certificate.
    The CA directory."""
    ca_dir = ca_dir or default_ca_dir(pki_dir)
    if not (ca_dir / CA_CERT).exists():
        init_ca(ca_dir, publish=pki_dir)
    elif not (pki_dir / CA_CERT).exists():
        publish_ca(ca_dir, pki_dir)
    for name, server in ((host_name, True), *((t, False) for t in terminal_ids)):
        if not (pki_dir / f"{name}.crt").exists() or not (pki_dir / f"{name}.key").exists():
            issue_cert(ca_dir, name, pki_dir, server=server)
    return ca_dir


def listen_mutual_tls(
    server: grpc.Server | grpc.aio.Server, address: str, credentials: Credentials
) -> tuple[int, str]:
    """Listen on ``address`` with mutual TLS (a client certificate from the same CA required);
    the port bound and the address to reach it (``host:0`` binds any free port)."""
    server_credentials = grpc.ssl_server_credentials(
        [(credentials.key, credentials.cert)],
        root_certificates=credentials.ca,
        require_client_auth=True,
    )
    port = server.add_secure_port(address, server_credentials)
    if port == 0:
        raise OSError(f"cannot listen on {address}")
    return port, f"{address.rsplit(':', 1)[0]}:{port}"
