"""The SAS link on the service menu: its state, and the technician's address setting."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from kiosk.terminal.sas import status as sas_status
from kiosk.terminal.sas.wire import MAX_ADDRESS, MIN_ADDRESS
from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import Context, Outcome, ServiceError, ServiceFunction


def _read(ctx: Context) -> dict[str, Any]:
    try:
        return sas_status.read_status(ctx.terminal.data_dir)
    except sas_status.SasStoreMissingError as exc:
        raise ServiceError(str(exc)) from exc


def sas(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Address, polls per second, last poll, errors, exception queue depth, timing."""
    state = _read(ctx)
    lines = tuple(f"{name}: {state.get(name)}" for name in sas_status.SHOWN_FIELDS)
    return Outcome("SAS link", lines, state)


def _address_watch(ctx: Context, args: Mapping[str, Any]) -> Any:
    try:
        return {"address": sas_status.read_status(ctx.terminal.data_dir)["address"]}
    except sas_status.SasStoreMissingError:
        return None


def sas_address(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Set the SAS address (1-127); the running link answers to it within a second."""
    address = args.get("address")
    if isinstance(address, str) and address.strip().isdigit():
        address = int(address)
    if isinstance(address, bool) or not isinstance(address, int):
        raise ServiceError(f"address: a whole number from {MIN_ADDRESS} to {MAX_ADDRESS}")
    if not MIN_ADDRESS <= address <= MAX_ADDRESS:
        raise ServiceError(f"address: from {MIN_ADDRESS} to {MAX_ADDRESS}, not {address}")
    _read(ctx)
    sas_status.set_address(ctx.terminal.data_dir, address)
    return Outcome("SAS address set", (f"SAS address {address}",), {"address": address})


def sas_aft_acknowledge(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Acknowledge the AFT registration the SAS host asked for (73 ``40``): the running link
    makes it ready (00) within a second and tells the host (6D); the host then registers."""
    try:
        registration = sas_status.read_aft_registration(ctx.terminal.data_dir)
    except sas_status.SasStoreMissingError as exc:
        raise ServiceError(str(exc)) from exc
    if registration.get("status") != 0x40:
        raise ServiceError("no AFT registration waits for an acknowledgement")
    sas_status.acknowledge_aft_registration(ctx.terminal.data_dir, str(time.time_ns()))
    asset = registration.get("asset")
    return Outcome(
        "AFT registration acknowledged",
        (f"asset {asset}: the SAS host may register now",),
        {"asset": asset},
    )


FUNCTIONS = (
    ServiceFunction(
        "sas",
        "SAS link",
        Role.TECHNICIAN,
        sas,
        help="address, polls per second, last poll, errors, exception queue depth",
    ),
    ServiceFunction(
        "sas_address",
        "Set the SAS address",
        Role.TECHNICIAN,
        sas_address,
        watch=_address_watch,
        help="address=N (1-127): the SAS address this terminal answers to",
    ),
    ServiceFunction(
        "sas_aft_acknowledge",
        "Acknowledge the AFT registration",
        Role.OPERATOR,
        sas_aft_acknowledge,
        help="the SAS host asked to register this terminal for AFT: the operator agrees",
    ),
)
