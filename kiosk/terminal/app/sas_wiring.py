"""A terminal's SAS link wired in: the ticket and validation host, the gated validator.

:func:`wire_sas` is called by :func:`kiosk.terminal.app.wiring.build_terminal` when SAS settings are
given.  With SAS on, the **SAS host** issues the validation numbers of cash-out tickets
(system validation, 57/58) and redeems tickets in (67/70/71): :class:`SasHostPort` is the
runtime's ``HostPort``.  A gRPC host link may run beside it and still receives every event
and meter through its outbox (the same journal); it is just not asked about tickets.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.terminal.hostlink.ports import HostUnavailableError, TicketValidation
from kiosk.terminal.sas.link import SasBridge, SasLink, SasSettings, SasUnavailableError


class SasHostPort:
    """The runtime's ``HostPort`` answered by the SAS host through the bridge."""

    def __init__(self, bridge: SasBridge) -> None:
        self.bridge = bridge

    def validation_number(self, value: int) -> str:
        """The SAS host's number (58) for a cash-out ticket, or HostUnavailableError."""
        try:
            return self.bridge.request_validation_number(value)
        except SasUnavailableError as exc:
            raise HostUnavailableError(str(exc)) from exc

    def validate_ticket(self, validation_number: str) -> TicketValidation:
        """The SAS host's verdict (71) on a ticket in escrow, or HostUnavailableError."""
        try:
            accepted, value, reason = self.bridge.request_ticket(validation_number)
        except SasUnavailableError as exc:
            raise HostUnavailableError(str(exc)) from exc
        return TicketValidation(accepted=accepted, value=value, reason=reason)

    def ticket_stacked(self, validation_number: str) -> None:
        """Nothing to send: the SAS host learns it from 68 and its 71 status request (the
        journal's TicketRedeemed raises both)."""

    def ticket_returned(self, validation_number: str) -> None:
        """As :meth:`ticket_stacked`, from TicketReturned."""


def make_sas_link(data_dir: Path, settings: SasSettings, serial_number: str) -> SasLink:
    """The link of the terminal of ``data_dir`` (its store opened; the port not yet)."""
    return SasLink(data_dir, settings, serial_number=serial_number)
