"""Who is at the other end of a TLS link: a role and a canonical name, both from the certificate.

Every certificate the project's CA tooling issues carries its role as a subject alternative
name URI, ``urn:turbokiosk:role:<role>`` (decision 0035), and a common name in the one canonical
form of that role (:data:`NAME_FORMS`): ``TK-0001`` for a terminal, ``seat-1`` (never
``seat-01``) for a seat, ``dealer-1``, ``table-T1`` for a table controller, ``host`` or
``host-<x>`` for an accounting host, ``dashboard`` or ``dashboard-<x>`` for the floor dashboard.

The TLS layer has checked the chain and validity before a handler runs; a server reads the
verified peer certificate (``x509_pem_cert`` of the gRPC auth context) with :func:`peer` and
accepts only its own clients' roles (:func:`require`).  A client checks the server's role in
the handshake itself: each server role has a reserved DNS name (:data:`SERVER_NAMES`) that only
a certificate of that role carries, and the client verifies the server's certificate against
it (``grpc.ssl_target_name_override``): a terminal accepts only ``turbokiosk-host``, a seat and
a Dealer Terminal only ``turbokiosk-table``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from cryptography import x509
from cryptography.x509.oid import NameOID


class Role(StrEnum):
    """What a certificate's holder is."""

    TERMINAL = "terminal"
    SEAT = "seat"
    DEALER = "dealer"
    TABLE = "table-controller"
    HOST = "host"
    DASHBOARD = "dashboard"


#: the SAN URI that names a certificate's role
ROLE_URI_PREFIX = "urn:turbokiosk:role:"
#: roles that serve (server authentication); the rest are clients
SERVER_ROLES = frozenset({Role.HOST, Role.TABLE, Role.DASHBOARD})
#: the DNS name only a server of that role carries; its clients check the server against it
SERVER_NAMES = {
    Role.HOST: "turbokiosk-host",
    Role.TABLE: "turbokiosk-table",
    Role.DASHBOARD: "turbokiosk-dashboard",
}
#: the one spelling of each role's names (anything else is refused at issue and at connect)
NAME_FORMS = {
    Role.TERMINAL: re.compile(r"TK-[0-9A-Z]{1,13}"),
    Role.SEAT: re.compile(r"seat-(0|[1-9][0-9]{0,4})"),
    Role.DEALER: re.compile(r"dealer-(0|[1-9][0-9]{0,5})"),
    Role.TABLE: re.compile(r"table-[A-Za-z0-9][A-Za-z0-9._-]{0,31}"),
    Role.HOST: re.compile(r"host(-[a-z0-9]{1,16})?"),
    Role.DASHBOARD: re.compile(r"dashboard(-[a-z0-9]{1,16})?"),
}
#: how each form reads, for the one line that refuses a name
NAME_HINTS = {
    Role.TERMINAL: "TK- and 1 to 13 capital letters or digits (TK-0001)",
    Role.SEAT: "seat-<n>, n from 0 to 99999 without leading zeros (seat-1)",
    Role.DEALER: "dealer-<n>, n from 0 to 999999 without leading zeros (dealer-1)",
    Role.TABLE: "table-<table id> (table-T1)",
    Role.HOST: "host or host-<letters and digits> (host, host-2)",
    Role.DASHBOARD: "dashboard or dashboard-<letters and digits>",
}


class IdentityError(ValueError):
    """A name that is not canonical for its role, or a peer without a usable identity."""


@dataclass(frozen=True)
class Identity:
    """A certificate's holder: its role and canonical name."""

    role: Role
    name: str

    @property
    def number(self) -> int:
        """A seat's or dealer's number (``seat-3``: 3)."""
        return int(self.name.rsplit("-", 1)[1])


def role_of_name(name: str) -> Role | None:
    """The role whose canonical form ``name`` has (None: no role's)."""
    for role, form in NAME_FORMS.items():
        if form.fullmatch(name):
            return role
    return None


def check_name(role: Role, name: str) -> str:
    """``name`` when it is canonical for ``role``; else :class:`IdentityError`."""
    if not NAME_FORMS[role].fullmatch(name):
        raise IdentityError(f"{name!r} is not a {role} name: {NAME_HINTS[role]}")
    return name


def seat_name(seat: int) -> str:
    """The canonical name of seat ``seat``."""
    return check_name(Role.SEAT, f"seat-{seat}")


def table_name(table_id: str) -> str:
    """The canonical name of table ``table_id``'s controller."""
    return check_name(Role.TABLE, f"table-{table_id}")


def role_uri(role: Role) -> str:
    """The SAN URI that says ``role``."""
    return f"{ROLE_URI_PREFIX}{role}"


def of_certificate(cert: x509.Certificate) -> Identity:
    """The identity a certificate carries: exactly one role URI and a canonical common name."""
    try:
        sans = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        uris = sans.get_values_for_type(x509.UniformResourceIdentifier)
    except x509.ExtensionNotFound:
        uris = []
    roles = [u.removeprefix(ROLE_URI_PREFIX) for u in uris if u.startswith(ROLE_URI_PREFIX)]
    if len(roles) != 1:
        raise IdentityError(
            "the certificate names no role" if not roles else "the certificate names two roles"
        )
    try:
        role = Role(roles[0])
    except ValueError as exc:
        raise IdentityError(f"unknown role {roles[0]!r}") from exc
    names = cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    name = str(names[0].value) if len(names) == 1 else ""
    return Identity(role, check_name(role, name))


@functools.lru_cache(maxsize=8192)
def _of_pem(pem: bytes) -> Identity | str:
    try:
        return of_certificate(x509.load_pem_x509_certificate(pem))
    except ValueError as exc:  # IdentityError too (the refusal's text is cached)
        return str(exc)


def peer(auth_context: dict[str, Any]) -> Identity:
    """The identity of a gRPC peer whose certificate the TLS layer verified (its auth context);
    :class:`IdentityError` when it has none (cached by certificate: one parse per terminal)."""
    pems = auth_context.get("x509_pem_cert") or []
    if len(pems) != 1:
        raise IdentityError("no client certificate")
    found = _of_pem(bytes(pems[0]))
    if isinstance(found, str):
        raise IdentityError(found)
    return found


def require(auth_context: dict[str, Any], *roles: Role) -> Identity:
    """:func:`peer`, refused (:class:`IdentityError`) unless its role is one of ``roles``."""
    who = peer(auth_context)
    if who.role not in roles:
        wanted = " or ".join(str(r) for r in roles)
        raise IdentityError(f"{who.name} is a {who.role}, not a {wanted}")
    return who
