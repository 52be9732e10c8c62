"""The kinds of command the accounting host sends a terminal: the ``HostCommand.body`` oneof.

The proto is the one place they are defined (``proto/turbokiosk/v1/host.proto``); this enum
names its fields for the Python code on both ends (the host's queue and CLI, the terminal's
link).  ``tests/proto/test_host_command_kinds.py`` checks that the members are exactly the
oneof's fields, so a command added to the proto and not here (or the reverse) fails.
"""

from __future__ import annotations

from enum import StrEnum

from proto.turbokiosk.v1 import host_pb2


class HostCommandKind(StrEnum):
    """A field of ``HostCommand.body``."""

    SET_ENABLED = "set_enabled"
    REQUEST_METERS = "request_meters"
    AUTHENTICATE_SOFTWARE = "authenticate_software"
    SET_TIME = "set_time"
    PLAYER_MESSAGE = "player_message"
    CONFIRM_DEVICE_RECORDS = "confirm_device_records"


def oneof_fields() -> tuple[str, ...]:
    """The field names of the ``HostCommand.body`` oneof, from the generated descriptor."""
    oneof = host_pb2.HostCommand.DESCRIPTOR.oneofs_by_name["body"]
    return tuple(field.name for field in oneof.fields)
