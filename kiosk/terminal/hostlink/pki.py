"""The host link's PKI: a private CA and one certificate per identity, each with its role.

Keys are ECDSA P-256; certificates are X.509 v3 signed with SHA-256.  Every certificate carries
its role (:mod:`kiosk.terminal.hostlink.identity`: a ``urn:turbokiosk:role:<role>`` SAN URI) and a
common name in that role's canonical form, which also decides the role when none is given
(``TK-0001``: a terminal, ``seat-1``: a seat, ``dealer-1``, ``table-T1``: a table controller,
``host``: the accounting host).  Client roles are only good for client authentication; server
roles only for server authentication, and name the role's reserved DNS name
(``turbokiosk-host``, ``turbokiosk-table``) that their clients check, plus their addresses.
Files are PEM: ``ca.crt``/``ca.key`` in the CA directory, ``<name>.crt``/``<name>.key`` for each
issued certificate (keys written with mode 0600).  Nothing here overwrites a CA or a
certificate: a second CA is never made where one exists, and a certificate is issued again
only when asked (``replace``).

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

from kiosk.kernel.bounded_read import InputFileError, read_bounded
from kiosk.terminal.hostlink.identity import (
    SERVER_NAMES,
    SERVER_ROLES,
    IdentityError,
    Role,
    check_name,
    of_certificate,
    role_of_name,
    role_uri,
)

CA_CERT, CA_KEY = "ca.crt", "ca.key"
#: the name a terminal checks the host's certificate against (only a host's carries it)
SERVER_NAME = SERVER_NAMES[Role.HOST]
#: the name a seat and a Dealer Terminal check the table controller's certificate against
TABLE_SERVER_NAME = SERVER_NAMES[Role.TABLE]
#: the addresses every server certificate names (``--san`` adds to them)
DEFAULT_SERVER_SANS = ("localhost", "127.0.0.1", "::1")


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
    cert_path, key_path = ca_dir / CA_CERT, ca_dir / CA_KEY
    if cert_path.exists() or key_path.exists():
        raise PkiError(f"a CA already exists in {ca_dir}")
    if publish is not None and (publish / CA_CERT).exists():
        raise PkiError(
            f"{publish / CA_CERT} is there already (another CA's): a second CA would make every"
            " certificate it issued fail; nothing was written"
        )
    ca_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
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
    target = serve_dir / CA_CERT
    try:
        ca = (ca_dir / CA_CERT).read_bytes()
        if target.exists():
            if target.read_bytes() != ca:
                raise PkiError(
                    f"{target} is another CA's certificate than {ca_dir / CA_CERT}: the"
                    " certificates it issued would all fail; nothing was replaced (give the CA"
                    " that issued it with --ca-dir)"
                )
            return target
        serve_dir.mkdir(parents=True, exist_ok=True)
        target.write_bytes(ca)
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


def _san(names: tuple[str, ...], role: Role) -> x509.SubjectAlternativeName:
    entries: list[x509.GeneralName] = [x509.UniformResourceIdentifier(role_uri(role))]
    for name in dict.fromkeys(names):  # in order, once each
        try:
            entries.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            entries.append(x509.DNSName(name))
    return x509.SubjectAlternativeName(entries)


def certificate_role(name: str, role: Role | None = None, *, server: bool = False) -> Role:
    """The role of a certificate named ``name``: ``role`` (the name must be canonical for it),
    else the role whose form the name has (``server``: it must be a server role)."""
    try:
        if role is not None:
            check_name(role, name)
        else:
            found = role_of_name(name)
            if found is None:
                forms = "TK-0001, seat-1, dealer-1, table-T1, host, dashboard"
                raise PkiError(f"certificate name {name!r} is no role's canonical name ({forms})")
            role = found
    except IdentityError as exc:
        raise PkiError(f"certificate name: {exc}") from exc
    if server and role not in SERVER_ROLES:
        raise PkiError(f"--server: {name!r} is a {role}'s name, and a {role} is a client")
    return role


def _check_sans(sans: tuple[str, ...], role: Role) -> None:
    for san in sans:
        reserved = [r for r, n in SERVER_NAMES.items() if n == san.lower() and r is not role]
        if reserved:
            raise PkiError(f"--san {san}: that name is a {reserved[0]}'s alone")
        if role not in SERVER_ROLES:
            raise PkiError(f"--san {san}: only a server's certificate names addresses")
        if not san or not san.isascii() or any(ch.isspace() or ch in "/," for ch in san):
            raise PkiError(f"--san {san!r}: a host name or an IP address")


def issue_cert(
    ca_dir: Path,
    name: str,
    out_dir: Path,
    *,
    role: Role | None = None,
    server: bool = False,
    sans: tuple[str, ...] = (),
    days: int = 825,
    not_before: dt.datetime | None = None,
    replace: bool = False,
) -> tuple[Path, Path]:
    """Issue the certificate of ``name`` with its role (:func:`certificate_role`); (cert path,
    key path).

    A server's certificate names its role's reserved DNS name, :data:`DEFAULT_SERVER_SANS` and
    ``sans`` (added to them).  An existing ``NAME.crt`` or ``NAME.key`` is refused unless
    ``replace``; nothing is written before every check has passed.
    """
    if not name or not name.isascii() or "/" in name:
        raise PkiError(f"certificate name {name!r}: ASCII without '/' please")
    role = certificate_role(name, role, server=server)
    _check_sans(sans, role)
    if days <= 0:
        raise PkiError(f"--days {days}: a certificate must be valid for at least one day")
    cert_path, key_path = out_dir / f"{name}.crt", out_dir / f"{name}.key"
    if not replace and (cert_path.exists() or key_path.exists()):
        raise PkiError(f"{cert_path} or its key exists already: nothing was replaced (--replace)")
    ca_cert, ca_key = _load_ca(ca_dir)
    key = ec.generate_private_key(ec.SECP256R1())
    start = not_before or _now() - dt.timedelta(minutes=5)
    is_server = role in SERVER_ROLES
    usage = [ExtendedKeyUsageOID.SERVER_AUTH if is_server else ExtendedKeyUsageOID.CLIENT_AUTH]
    if role is Role.TABLE:  # a table controller is also the progressive controller's client
        usage.append(ExtendedKeyUsageOID.CLIENT_AUTH)
    names = (SERVER_NAMES[role], *DEFAULT_SERVER_SANS, *sans) if is_server else (name,)
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage(usage), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .add_extension(_san(names, role), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    _write_key(key_path, key)
    _write_cert(cert_path, cert)
    return cert_path, key_path


def has_role(cert_file: Path) -> bool:
    """True when the certificate file carries a role and a canonical name (False: unreadable,
    or issued before roles)."""
    try:
        of_certificate(x509.load_pem_x509_certificate(read_bounded(cert_file)))
    except (InputFileError, ValueError):
        return False
    return True


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
    try:
        who = of_certificate(cert)
    except IdentityError as exc:
        raise PkiError(
            f"certificate: {exc} (issue it again: 'turbokiosk host issue-cert')"
        ) from exc
    if who.role is not Role.TERMINAL:
        raise PkiError(f"certificate: {who.name} is a {who.role}'s, not a terminal's")
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
    """Where :func:`ensure_pki` keeps a CA it creates beside ``pki_dir``: ``<pki_dir>-ca``."""
    resolved = pki_dir.resolve()
    return resolved.parent / f"{resolved.name}-ca"


def ca_dir_candidates(pki_dir: Path) -> tuple[Path, ...]:
    """Where a CA that published to ``pki_dir`` may be: beside the host's directory
    (``var/host-ca`` for ``var/host/pki``, what ``host init-ca`` uses), then ``<pki_dir>-ca``."""
    resolved = pki_dir.resolve()
    home = resolved.parent
    return (home.parent / f"{home.name}-ca", default_ca_dir(pki_dir))


def find_ca(pki_dir: Path, ca_dir: Path | None = None) -> Path | None:
    """The CA directory whose certificate ``pki_dir`` holds (``ca_dir``, else
    :func:`ca_dir_candidates`); None when ``pki_dir`` holds none yet and no CA is there.

    :class:`PkiError` when ``pki_dir`` holds a CA certificate whose CA is not found: making a
    second one would make every certificate already issued fail."""
    published = pki_dir / CA_CERT
    places = (ca_dir,) if ca_dir is not None else ca_dir_candidates(pki_dir)
    held = [p for p in places if (p / CA_CERT).is_file() and (p / CA_KEY).is_file()]
    if not published.exists():
        return held[0] if held else None
    mine = published.read_bytes()
    for place in held:
        if (place / CA_CERT).read_bytes() == mine:
            return place
    looked = ", ".join(str(p) for p in places)
    raise PkiError(
        f"the CA that issued {published} is not in {looked}: give its directory (--ca-dir);"
        " no second CA is made"
    )


def ensure_pki(
    pki_dir: Path,
    names: tuple[str, ...],
    host_name: str | None = "host",
    ca_dir: Path | None = None,
) -> Path:
    """Create whatever is missing: the CA (only when ``pki_dir`` has no CA certificate: in
    ``ca_dir``, default :func:`default_ca_dir`, its certificate published to ``pki_dir``), the
    host's certificate (``host_name``; None: none) and each of ``names`` with the role its name
    says (:func:`certificate_role`).  The CA directory.

    An existing CA is found (:func:`find_ca`), never made again.  A certificate issued before
    roles is moved aside (``NAME.crt.pre-roles``) and issued again by the same CA.
    """
    found = find_ca(pki_dir, ca_dir)
    if found is None:
        found = ca_dir or default_ca_dir(pki_dir)
        init_ca(found, publish=pki_dir)
    elif not (pki_dir / CA_CERT).exists():
        publish_ca(found, pki_dir)
    for name in (*((host_name,) if host_name else ()), *names):
        cert, key = pki_dir / f"{name}.crt", pki_dir / f"{name}.key"
        if cert.exists() and key.exists() and has_role(cert):
            continue
        for path in (cert, key):
            if path.exists():
                path.replace(path.with_name(f"{path.name}.pre-roles"))
        issue_cert(found, name, pki_dir)
    return found


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
