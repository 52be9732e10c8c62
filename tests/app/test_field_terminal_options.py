"""`turbokiosk run` on a field terminal: real serial ports and a remote accounting host."""

import argparse
from pathlib import Path

import pytest

from kiosk.terminal.app.serial_wiring import SerialPorts
from kiosk.terminal.cli import run as cli_run
from kiosk.terminal.devices.pairing import DEVICES, key_path, new_pairing
from kiosk.terminal.hostlink import pki


def parse(*words: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli_run.add_arguments(parser)
    return parser.parse_args(list(words))


def test_no_field_options_means_simulations():
    assert cli_run.field_terminal(parse()) == (None, None)


def test_both_serial_ports_name_the_real_devices_and_their_pairing_keys(tmp_path: Path):
    for device in DEVICES:
        new_pairing(key_path(tmp_path, device))
    hardware, host = cli_run.field_terminal(
        parse(
            "--validator-port",
            "/dev/turbokiosk/bill-validator",
            "--printer-port",
            "/dev/turbokiosk/printer",
            "--device-keys",
            str(tmp_path),
        )
    )
    assert hardware == SerialPorts(
        "/dev/turbokiosk/bill-validator",
        "/dev/turbokiosk/printer",
        validator_key=tmp_path / "bill-validator.key",
        printer_key=tmp_path / "printer.key",
    )
    assert host is None
    assert SerialPorts("a", "b").validator_key == Path("/etc/turbokiosk/devices/bill-validator.key")


def test_serial_ports_without_their_pairing_keys_are_refused(tmp_path: Path):
    new_pairing(key_path(tmp_path, "bill-validator"))
    args = parse("--validator-port", "a", "--printer-port", "b", "--device-keys", str(tmp_path))
    with pytest.raises(ValueError, match=r"pairing key .*printer.key: no such file"):
        cli_run.field_terminal(args)
    with pytest.raises(ValueError, match="pairing keys are for"):
        cli_run.field_terminal(parse("--device-keys", str(tmp_path)))


def test_one_port_alone_is_refused():
    with pytest.raises(ValueError, match="go together"):
        cli_run.field_terminal(parse("--printer-port", "/dev/ttyUSB1"))


def test_a_remote_host_needs_its_credentials(tmp_path):
    with pytest.raises(ValueError, match="--host-ca"):
        cli_run.field_terminal(parse("--host", "10.0.0.5:50051"))
    missing = [str(tmp_path / n) for n in ("ca.pem", "t.pem", "t.key")]
    args = parse(
        "--host",
        "h:1",
        "--host-ca",
        missing[0],
        "--host-cert",
        missing[1],
        "--host-key",
        missing[2],
    )
    with pytest.raises(ValueError, match="cannot read credentials"):
        cli_run.field_terminal(args)


def test_a_remote_host_with_credentials_becomes_the_endpoint(tmp_path: Path):
    files = [tmp_path / n for n in ("ca.pem", "t.pem", "t.key")]
    for f, text in zip(files, (b"CA", b"CERT", b"KEY"), strict=True):
        f.write_bytes(text)
    _, host = cli_run.field_terminal(
        parse(
            "--host",
            "host.casino:50051",
            "--host-ca",
            str(files[0]),
            "--host-cert",
            str(files[1]),
            "--host-key",
            str(files[2]),
            "--terminal-id",
            "TK-0042",
        )
    )
    assert host.address == "host.casino:50051"
    assert host.terminal_id == "TK-0042"
    assert host.credentials == pki.Credentials(b"CA", b"CERT", b"KEY")


def _host_args(ca: Path, cert: Path, key: Path) -> argparse.Namespace:
    return parse(
        "--host",
        "10.0.0.5:50051",
        "--host-ca",
        str(ca),
        "--host-cert",
        str(cert),
        "--host-key",
        str(key),
    )


def test_the_terminal_is_who_its_certificate_says(tmp_path: Path):
    pki.ensure_pki(tmp_path, ("TK-0042",))
    _, host = cli_run.field_terminal(
        _host_args(tmp_path / "ca.crt", tmp_path / "TK-0042.crt", tmp_path / "TK-0042.key")
    )
    assert host.terminal_id == "TK-0042"


def test_a_certificate_that_is_not_one_is_refused(tmp_path: Path):
    files = [tmp_path / n for n in ("ca.pem", "t.pem", "t.key")]
    for f in files:
        f.write_bytes(b"junk")
    with pytest.raises(ValueError, match=r"--host-cert .*t\.pem: not a PEM certificate"):
        cli_run.field_terminal(_host_args(*files))
