"""Host command kinds are the proto's: the enum equals the ``HostCommand.body`` oneof."""

from __future__ import annotations

from typing import Any

from kiosk.host.accounting import server
from kiosk.host.cli import host as cli
from kiosk.terminal.hostlink.command_kinds import HostCommandKind, oneof_fields
from proto.turbokiosk.v1 import host_pb2


def test_the_enum_is_exactly_the_host_command_oneof() -> None:
    assert [kind.value for kind in HostCommandKind] == list(oneof_fields())
    assert set(oneof_fields()) == {
        "set_enabled",
        "request_meters",
        "authenticate_software",
        "set_time",
        "player_message",
        "confirm_device_records",
    }


def test_every_kind_has_a_wire_form_and_a_host_cli_action() -> None:
    bodies: dict[HostCommandKind, dict[str, Any]] = {
        HostCommandKind.SET_ENABLED: {"enabled": False, "reason": "count"},
        HostCommandKind.REQUEST_METERS: {},
        HostCommandKind.AUTHENTICATE_SOFTWARE: {"seed": "00" * 16},
        HostCommandKind.SET_TIME: {"epoch_ms": 1},
        HostCommandKind.PLAYER_MESSAGE: {"text": "hello"},
        HostCommandKind.CONFIRM_DEVICE_RECORDS: {"tilt": "printer_reconcile", "operator": "ann"},
    }
    for kind in HostCommandKind:
        command = server.host_command(7, kind, bodies[kind])
        assert isinstance(command, host_pb2.HostCommand)
        assert command.WhichOneof("body") == kind
    assert set(cli.SEND_KINDS.values()) == set(HostCommandKind)
