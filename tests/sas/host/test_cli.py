"""``turbokiosk sas host``: bad input is one line and a non-zero exit, and nothing is written."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.host.cli.sas_host import console_command
from kiosk.host.sas.casino import CasinoHost
from kiosk.host.sas.poller import HostPoller


def _exit_status(argv: list[str]) -> int:
    """main()'s status, whether it returns it or argparse exits with it."""
    try:
        return main(argv)
    except SystemExit as exited:
        return int(str(exited.code))


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--address", "1"], "--port"),
        (["--port", "/dev/null", "--address", "0"], "from 1 to 127"),
        (["--port", "/dev/null", "--address", "x"], "not a whole number"),
        (["--port", "/dev/null", "--address", "1", "--poll", "21"], "type R"),
        (["--port", "/dev/null", "--address", "1", "--poll", "zz"], "hexadecimal"),
        (["--port", "/dev/null", "--address", "1", "--set-time", "yesterday"], "date and time"),
        (["--port", "/dev/null", "--address", "1", "--enable", "--disable"], "not allowed"),
        (["--port", "/dev/null", "--address", "1", "--system-id", "5"], "from 10 to 99"),
        (["--port", "/dev/null", "--address", "1", "--interval-ms", "1"], "from 40"),
        (["--port", "/dev/null", "--address", "1"], "not a serial port"),
        (["--port", "/nonexistent/tty", "--address", "1"], "No such file"),
        (["--port", "/dev/null", "--address", "1", "--sweep-every", "5"], "--follow"),
        (["--port", "/dev/null", "--address", "1", "--follow", "--duration", "1"], "exclude"),
        (["--port", "/dev/null"], "--address N or --discover"),
        (["--port", "/dev/null", "--address", "1", "--discover"], "--address N or --discover"),
        (["--port", "/dev/null", "--address", "1", "--aft-key", "zz"], "40 hex digits"),
        (["--port", "/dev/null", "--address", "1", "--aft-id", "x" * 21], "1 to 20"),
        (["--port", "/dev/null", "--address", "1", "--aft-in", "0"], "from 1"),
        (["--port", "/dev/null", "--address", "1", "--bonus-tax", "3"], "from 0 to 2"),
    ],
)
def test_bad_arguments_one_line_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _exit_status(["sas", "host", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_tickets_that_are_not_a_database(
    tmp_path: Path, echo_port: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "tickets"
    junk.write_bytes(b"\x00garbage" * 1000)
    code = main(["sas", "host", "--port", str(echo_port), "--address", "1", "--tickets", str(junk)])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a ticket database" in err
    assert junk.read_bytes() == b"\x00garbage" * 1000


def test_latency_probe_against_an_echo(echo_port: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = str(echo_port)
    code = main(
        ["sas", "host", "--port", port, "--address", "1", "--latency", "20", "--format=json"]
    )
    assert code == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["answered"] == 20 and figures["first_p50_ms"] > 0


def test_nobody_on_the_line_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    master, slave = os.openpty()
    try:
        port = os.ttyname(slave)
        code = main(["sas", "host", "--port", port, "--address", "1", "--timeout", "0.5"])
    finally:
        os.close(master)
        os.close(slave)
    assert code == 1
    captured = capsys.readouterr()
    assert captured.err == f"turbokiosk sas host: no answer from address 1 on {port}\n"
    assert "no answer 2" in captured.out.splitlines()[-1] or "polls" in captured.out


def test_console_lines() -> None:
    poller = HostPoller(1)
    casino = CasinoHost(poller, "m", lambda: 0)
    assert console_command("sweep", casino, None) == ""
    swept = poller.queued
    assert swept > 40
    assert console_command("  handpay-reset ", casino, None) == ""
    assert console_command("poll 1a", casino, None) == ""
    assert console_command("set-time 2026-11-26T14:00:00", casino, None) == ""
    assert poller.queued == swept + 3
    assert "unknown command" in console_command("reboot", casino, None)
    assert "type R" in console_command("poll 21", casino, None)
    assert "date and time" in console_command("set-time soon", casino, None)
    assert console_command("", casino, None) == ""
    assert poller.queued == swept + 3  # refused lines queue nothing


def test_discover_takes_the_address_a_machine_chirps(capsys: pytest.CaptureFixture[str]) -> None:
    master, slave = os.openpty()
    stop = threading.Event()

    def chirp() -> None:  # a machine at address 5 that nobody polls
        while not stop.wait(0.05):
            os.write(master, b"\x05")

    thread = threading.Thread(target=chirp, daemon=True)
    thread.start()
    try:
        port = os.ttyname(slave)
        code = main(["sas", "host", "--port", port, "--discover", "--timeout", "2"])
    finally:
        stop.set()
        thread.join(1)
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert "machine at address 5 announced itself" in err and "Traceback" not in err
    assert code in (0, 1)  # then polled: a chirping stand-in's bytes are all it hears


def test_discover_on_a_silent_line_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    master, slave = os.openpty()
    try:
        code = main(["sas", "host", "--port", os.ttyname(slave), "--discover", "--timeout", "0.5"])
    finally:
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "no machine announced itself" in err
