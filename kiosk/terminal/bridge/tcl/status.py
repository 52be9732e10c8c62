"""The TCL status answer (``*S|unit|firmware|f1|f2|f3|f4|f5|P<n>|*``) as flags.

Each of the five flag bytes is ``0x40`` plus six bits (so it prints: ``@`` is "all clear").
The bits this software reads and the simulator sets, from the public descriptions of the
GEN2 and GEN3 printers (docs/devices.md, "Sources"):

========  ===============================================================
flag 1    bit 5 busy, bit 4 system error, bit 3 platen (head) up,
          bit 2 paper out, bit 1 head error, bit 0 voltage error
flag 2    bit 1 buffer overflow, bit 0 job memory overflow (not read)
flag 3    bit 5 command error, bit 3 paper in chute, bit 1 offline
flag 4    bit 1 paper jam, bit 0 paper low
flag 5    bit 0 reset (power-up) since the last status
========  ===============================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FLAG_BASE = 0x40
STATUS_FIELDS = 9  # unit, firmware, five flags, the page field, "" before the closing *


@dataclass(frozen=True)
class TclStatus:
    """What a status answer says."""

    busy: bool = False
    system_error: bool = False
    head_open: bool = False
    paper_out: bool = False
    head_error: bool = False
    command_error: bool = False
    paper_in_chute: bool = False
    offline: bool = False
    jammed: bool = False
    paper_low: bool = False
    reset: bool = False
    firmware: str = ""

    @property
    def stopped(self) -> str:
        """The fault that stops printing ("" when none): ``paper_out``, ``jammed``,
        ``head_open``."""
        for name in ("paper_out", "jammed", "head_open"):
            if getattr(self, name):
                return name
        if self.system_error or self.head_error or self.offline:
            return "jammed"  # a printer fault we have no better word for
        return ""

    def fields(self, unit: str = "0") -> tuple[str, ...]:
        """The answer's fields."""
        f1 = (
            self.busy << 5
            | self.system_error << 4
            | self.head_open << 3
            | self.paper_out << 2
            | self.head_error << 1
        )
        f3 = self.command_error << 5 | self.paper_in_chute << 3 | self.offline << 1
        f4 = self.jammed << 1 | int(self.paper_low)
        f5 = int(self.reset)
        flags = (chr(FLAG_BASE | f) for f in (f1, 0, f3, f4, f5))
        return (unit, self.firmware, *flags, "P0")


#: a status answer's body: a flag byte may be any of 0x40-0x7F, "|" and "^" included, so
#: the five flags are read by position, not by splitting at the separators
STATUS_BODY = re.compile(
    rb"S\|([^|]*)\|([^|]*)\|([\x40-\x7f])\|([\x40-\x7f])\|([\x40-\x7f])\|"
    rb"([\x40-\x7f])\|([\x40-\x7f])\|(P[^|]*)\Z"
)


def encode_status(status: TclStatus, unit: str = "0") -> bytes:
    """The printer's answer to ``^S|^`` (flags as they are: not cleaned like text fields)."""
    return b"*" + "|".join(("S", *status.fields(unit))).encode("ascii") + b"|*"


def parse_status(body: bytes) -> TclStatus | None:
    """A status answer (its body, between ``*`` and ``|*``), or None when it is not one."""
    match = STATUS_BODY.match(body)
    if match is None:
        return None
    fields = tuple(g.decode("ascii") for g in match.groups())
    f1, _f2, f3, f4, f5 = (ord(f) & 0x3F for f in fields[2:7])
    return TclStatus(
        busy=bool(f1 & 0x20),
        system_error=bool(f1 & 0x10),
        head_open=bool(f1 & 0x08),
        paper_out=bool(f1 & 0x04),
        head_error=bool(f1 & 0x02),
        command_error=bool(f3 & 0x20),
        paper_in_chute=bool(f3 & 0x08),
        offline=bool(f3 & 0x02),
        jammed=bool(f4 & 0x02),
        paper_low=bool(f4 & 0x01),
        reset=bool(f5 & 0x01),
        firmware=fields[1],
    )
