"""A TCL ticket printer's firmware, simulated wire-exact and sans-IO (``turbokiosk sim
tcl-printer``).

It answers ``^S|^`` with its status flags, keeps the regions and templates the host defines
(``^R``, ``^T``: :mod:`kiosk.terminal.bridge.tcl.layout`; a definition it refuses sets the
command-error flag) and prints ``^P|template|copies|fields...|^`` in one of them or in its two
resident templates (:mod:`kiosk.terminal.bridge.tcl.host`): a job takes ``print_ms``, then the
voucher is rendered as ``<state dir>/vouchers/<validation number>.png`` (ITF barcode from the
template's last field; a test voucher as ``test-vouchers/<n>.png``) and waits in the chute until
it is taken (``take``, or by itself after ``take_ms``).  A fault during a job cuts it short (the
part printed is voided: ``<number>-void.png``); power lost during a job voids it at power-up, and
the first status after a power-up carries the reset flag.  Memory: ``tcl-printer.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kiosk.terminal.bridge.tcl.codec import COMMAND, Decoder
from kiosk.terminal.bridge.tcl.host import TEST_TEMPLATE, VOUCHER_TEMPLATE
from kiosk.terminal.bridge.tcl.layout import (
    Region,
    TclLayoutError,
    Template,
    fill,
    parse_region,
    parse_template,
    voucher_text,
)
from kiosk.terminal.bridge.tcl.render import render_template
from kiosk.terminal.bridge.tcl.status import TclStatus, encode_status
from kiosk.terminal.devices.sim.memory import DeviceMemory
from kiosk.terminal.devices.voucher import (
    check_validation_number,
    render_test_lines,
    render_voucher_lines,
)

FIRMWARE = "TK-TCL-SIM V1.00"
FAULTS = {
    "paper-low": "paper_low",
    "paper-out": "paper_out",
    "jam": "jammed",
    "head-open": "head_open",
}
STOPPERS = ("paper_out", "jammed", "head_open")
LINES = 8


class TclPrinterDevice:
    """A thermal TITO printer speaking TCL."""

    def __init__(
        self, state_dir: Path, now: int, *, print_ms: int = 800, take_ms: int = 3000
    ) -> None:
        self.print_ms, self.take_ms = print_ms, take_ms
        self.vouchers_dir = state_dir / "vouchers"
        self.test_dir = state_dir / "test-vouchers"
        self.mem = DeviceMemory(
            state_dir / "tcl-printer.json",
            {
                "printed": {},  # validation number -> its lines
                "voided": [],
                "tests": 0,
                "job": None,
                "faults": dict.fromkeys(FAULTS.values(), False),
                "fail_next": None,
                "lifetime": 0,
                "regions": {},  # id -> the ^R fields (kept, as a printer keeps them in flash)
                "templates": {},  # id -> the ^T fields
            },
        )
        self.decoder = Decoder(COMMAND)
        self.reset = True  # shown in the first status after power-up
        self.command_error = False
        self.chute = False
        self.silent = False
        self._out = bytearray()
        self._since = now
        self._chute_since = now
        for part in self.vouchers_dir.glob("*.png.part"):  # printed, power went before the cut
            if part.name.removesuffix(".png.part") in self.mem.data["printed"]:
                part.replace(part.with_name(part.name.removesuffix(".part")))
        job = self.mem.data["job"]
        if job is not None:  # power came back in the middle of a voucher: void it
            self._void(job)

    # --- the line --------------------------------------------------------------------------

    def receive(self, data: bytes, now: int) -> None:
        """Commands from the host."""
        for message in self.decoder.feed(data):
            self.tick(now)
            if message.code == "S":
                if not self.silent:
                    self._out += encode_status(self.status())
                self.reset = self.command_error = False
            elif message.code == "P":
                self._print(message.fields, now)
            elif message.code in ("R", "T"):
                self._define(message.code, message.fields)
            else:
                self.command_error = True

    def take_output(self) -> bytes:
        """What to write on the line."""
        out, self._out = bytes(self._out), bytearray()
        return out

    def status(self) -> TclStatus:
        """The printer's flags now."""
        f = self.mem.data["faults"]
        return TclStatus(
            busy=self.mem.data["job"] is not None,
            head_open=f["head_open"],
            paper_out=f["paper_out"],
            jammed=f["jammed"],
            paper_low=f["paper_low"],
            command_error=self.command_error,
            paper_in_chute=self.chute,
            reset=self.reset,
            firmware=FIRMWARE,
        )

    # --- time -----------------------------------------------------------------------------------

    def tick(self, now: int) -> None:
        """Finish or cut short the job; the player takes the ticket."""
        if self.chute and now - self._chute_since >= self.take_ms:
            self.chute = False
        job = self.mem.data["job"]
        if job is None:
            return
        faults = self.mem.data["faults"]
        if any(faults[flag] for flag in STOPPERS):
            self._void(job)
        elif now - self._since >= self.print_ms:
            armed = self.mem.data["fail_next"]
            if armed is not None:
                self.mem.data["fail_next"] = None
                faults[armed] = True
                self._void(job)
            else:
                self._complete(job, now)

    def next_deadline(self) -> int | None:
        """When :meth:`tick` has something to do."""
        times = []
        if self.mem.data["job"] is not None:
            times.append(self._since + self.print_ms)
        if self.chute:
            times.append(self._chute_since + self.take_ms)
        return min(times) if times else None

    # --- the technician's side -------------------------------------------------------------------

    def control(self, words: list[str], now: int) -> str:
        """A control command; the reply starts with ``ok`` or ``error``."""
        match words:
            case ["fault", name] if name in FAULTS:
                self.mem.data["faults"][FAULTS[name]] = True
                self.mem.save()
                return "ok"
            case ["fix", name] if name in FAULTS:
                self.mem.data["faults"][FAULTS[name]] = False
                self.mem.save()
                return "ok"
            case ["fault", "mute"] | ["fix", "mute"]:
                self.silent = words[0] == "fault"
                return "ok"
            case ["fail-next-print", name] if FAULTS.get(name) in STOPPERS:
                self.mem.data["fail_next"] = FAULTS[name]
                self.mem.save()
                return "ok"
            case ["take"]:
                self.chute = False
                return "ok"
            case ["vouchers"]:
                return "ok " + json.dumps(self.vouchers(), sort_keys=True)
            case ["templates"]:
                kept = {k: self.mem.data[k] for k in ("regions", "templates")}
                return "ok " + json.dumps(kept, sort_keys=True)
            case ["status"]:
                snapshot = {**vars(self.status()), "job": self.mem.data["job"]}
                return "ok " + json.dumps(snapshot, sort_keys=True)
        return (
            "error commands: fault NAME | fix NAME | fail-next-print NAME | take | vouchers | "
            "templates | "
            f"status (NAME: {', '.join(FAULTS)}, mute)"
        )

    def vouchers(self) -> dict[str, Any]:
        """Every voucher printed (its lines and PNG), every number voided."""
        printed = {
            n: {"lines": lines, "png": str(self.vouchers_dir / f"{n}.png")}
            for n, lines in self.mem.data["printed"].items()
        }
        return {"printed": printed, "voided": list(self.mem.data["voided"])}

    # --- inside -----------------------------------------------------------------------------------

    def regions(self) -> dict[str, Region]:
        """The regions the host defined."""
        return {k: parse_region(tuple(v)) for k, v in self.mem.data["regions"].items()}

    def templates(self) -> dict[str, Template]:
        """The templates the host defined."""
        regions = self.regions()
        return {k: parse_template(tuple(v), regions) for k, v in self.mem.data["templates"].items()}

    def _define(self, code: str, fields: tuple[str, ...]) -> None:
        d = self.mem.data
        try:
            if code == "R":
                region = parse_region(fields)
                if region.id in d["regions"] and any(
                    region.id in t[3:] for t in d["templates"].values()
                ):
                    # redefining a region in use: the templates using it are checked again
                    regions = {**self.regions(), region.id: region}
                    for t in d["templates"].values():
                        parse_template(tuple(t), regions)
                d["regions"][region.id] = list(fields)
            else:
                template = parse_template(fields, self.regions())
                if template.id in (VOUCHER_TEMPLATE, TEST_TEMPLATE):
                    raise TclLayoutError(f"template {template.id} is resident")
                d["templates"][template.id] = list(fields)
        except TclLayoutError:
            self.command_error = True
            return
        self.mem.save()

    def _print(self, fields: tuple[str, ...], now: int) -> None:
        d = self.mem.data
        if d["job"] is not None or any(d["faults"][flag] for flag in STOPPERS):
            self.command_error = d["job"] is not None
            return  # busy, or cannot print: nothing happens (the status says why)
        if len(fields) < 2 or fields[1] != "1":
            self.command_error = True
            return
        template, data = fields[0], list(fields[2:])
        if template == VOUCHER_TEMPLATE and len(data) == LINES + 1:
            try:
                check_validation_number(data[-1])
            except ValueError:
                self.command_error = True
                return
            job = {"template": template, "lines": data[:LINES], "number": data[-1]}
        elif template == TEST_TEMPLATE and len(data) == LINES:
            d["tests"] += 1
            job = {"template": template, "lines": data, "number": f"test-{d['tests']}"}
        elif template in d["templates"]:
            try:
                placed = fill(self.templates()[template], self.regions(), tuple(data))
                lines, number = voucher_text(placed)
                check_validation_number(number)
            except (TclLayoutError, ValueError):
                self.command_error = True
                return
            job = {"template": template, "lines": lines, "number": number, "fields": data}
        else:
            self.command_error = True
            return
        d["job"] = job
        self.mem.save()
        self._since = now
        self.chute = False

    def _png(self, job: dict[str, Any], suffix: str = "") -> Path:
        if job["template"] == TEST_TEMPLATE:
            return self.test_dir / f"{job['number'].removeprefix('test-')}{suffix}.png"
        return self.vouchers_dir / f"{job['number']}{suffix}.png"

    def _render(self, job: dict[str, Any], path: Path, *, void: bool) -> None:
        if "fields" in job:  # a template of the host's
            template = self.templates()[job["template"]]
            placed = fill(template, self.regions(), tuple(job["fields"]))
            render_template(template, placed, path, void=void)
        elif job["template"] == TEST_TEMPLATE:
            render_test_lines(job["lines"], path, void=void)
        else:
            render_voucher_lines(job["lines"], job["number"], path, void=void)

    def _complete(self, job: dict[str, Any], now: int) -> None:
        # print, remember, then cut and present (as the protobuf simulator: a restart in
        # between leaves a remembered voucher whose PNG is completed at power-up)
        final = self._png(job)
        part = final.with_name(final.name + ".part")
        self._render(job, part, void=False)
        d = self.mem.data
        if job["template"] != TEST_TEMPLATE:
            d["printed"][job["number"]] = job["lines"]
            d["lifetime"] += 1
        d["job"] = None
        self.mem.save()
        part.replace(final)
        self.chute, self._chute_since = True, now

    def _void(self, job: dict[str, Any]) -> None:
        self._render(job, self._png(job, "-void"), void=True)
        d = self.mem.data
        if job["template"] != TEST_TEMPLATE:
            d["voided"].append(job["number"])
        d["job"] = None
        self.mem.save()
