"""Bad command-line input: one line on standard error, a non-zero exit status, no traceback,
nothing written (decision 0011).  Every case runs ``turbokiosk`` as its own process."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli_process import REPO, turbokiosk

#: The line starts with the program (and sub-command) or a command's established prefix.
PREFIX = re.compile(r"^(turbokiosk(?: [a-z-]+)*|host|soak|software): \S")


def refused(result: subprocess.CompletedProcess[str], code: int | None = None) -> str:
    """The one line ``turbokiosk`` refused with (asserting the error contract)."""
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert PREFIX.match(lines[0]), lines[0]
    assert result.returncode != 0
    if code is not None:
        assert result.returncode == code, (result.returncode, lines[0])
    return lines[0]


def tree(path: Path) -> list[str]:
    """Every file and directory under ``path`` (to show nothing was written)."""
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


# --- files named on the command line: read bounded, never hang --------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "table.toml"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("/dev/zero", "not a regular file"),
        ("FIFO", "not a regular file"),
        ("DIRECTORY", "is a directory"),
        ("MISSING", "no such file"),
    ],
)
def test_paytable_file_that_is_not_a_regular_file_is_refused_unread(
    name: str, problem: str, fifo: Path, tmp_path: Path
) -> None:
    path = {"FIFO": str(fifo), "DIRECTORY": str(tmp_path), "MISSING": str(tmp_path / "x.toml")}
    given = path.get(name, name)
    for command in (["par-sheet"], ["simulate", "--games", "10"]):
        result = turbokiosk(
            *command, "turbo-football", "--paytable", f"first_down={given}", timeout=30
        )
        line = refused(result, 2)
        assert given in line and problem in line


def test_paytable_file_too_large_or_not_utf8_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (2 << 20))
    assert "more than" in refused(
        turbokiosk("par-sheet", "turbo-football", "--paytable", f"first_down={big}"), 2
    )
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'name = "caf\xe9"\n')
    assert "not UTF-8" in refused(
        turbokiosk("par-sheet", "turbo-football", "--paytable", f"first_down={latin}"), 2
    )


def test_credentials_from_dev_zero_are_refused_unread(tmp_path: Path) -> None:
    result = turbokiosk(
        "host",
        "check-credentials",
        "--ca",
        "/dev/zero",
        "--cert",
        "/dev/zero",
        "--key",
        str(tmp_path),
        timeout=30,
    )
    assert "CA certificate /dev/zero: not a regular file" in refused(result, 2)


# --- soak: everything checked before the data directory is touched ------------------------


def test_soak_unknown_edition_creates_no_store(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    result = turbokiosk("soak", "--data-dir", str(data), "--games", "1", "--edition", "bogus")
    line = refused(result, 2)
    assert "unknown edition 'bogus'" in line and "turbo-football" in line
    assert not data.exists()


@pytest.mark.parametrize(
    ("option", "value", "problem"),
    [
        ("--fault-rate", "nan", "finite"),
        ("--fault-rate", "inf", "finite"),
        ("--fault-rate", "1.5", "from 0.0 to 1.0"),
        ("--snapshot-every", "-3", "from 1 to"),
        ("--snapshot-every", "0", "from 1 to"),
        ("--games", "-1", "from 0 to"),
        ("--games", str(10**23), "from 0 to 100,000,000"),
        ("--games", "lots", "not a whole number"),
        ("--seed", "-5", "at least 0"),
    ],
)
def test_soak_refuses_bad_numbers_at_parse_time(
    option: str, value: str, problem: str, tmp_path: Path
) -> None:
    data = tmp_path / "terminal"
    args = {"--games": "1", option: value}
    flat = [part for pair in args.items() for part in pair]
    line = refused(turbokiosk("soak", "--data-dir", str(data), *flat), 2)
    assert option in line and problem in line
    assert not data.exists()


def test_soak_data_dir_that_is_a_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    file = tmp_path / "passwd"
    file.write_text("root:x:0:0\n")
    line = refused(turbokiosk("soak", "--data-dir", str(file), "--games", "1"), 2)
    assert line == f"turbokiosk: --data-dir {file}: not a directory"
    assert file.read_text() == "root:x:0:0\n"
    assert tree(tmp_path) == ["passwd"]


def _read_only_run(directory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``turbokiosk ARGS`` with ``directory`` mounted read-only (root bypasses mode bits)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare to mount a read-only directory")
    quoted = " ".join(f"'{a}'" for a in args)
    script = (
        f"mount --bind '{directory}' '{directory}' && "
        f"mount -o remount,bind,ro '{directory}' && exec '{sys.executable}' -m kiosk {quoted}"
    )
    result = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    if "mount:" in result.stderr or "unshare:" in result.stderr:
        pytest.skip(f"cannot mount read-only here: {result.stderr.strip()}")
    return result


@pytest.mark.parametrize("command", [["soak", "--games", "1"], ["play"]])
def test_read_only_data_dir_is_refused(command: list[str], tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    data.mkdir()
    result = _read_only_run(data, *command, "--data-dir", str(data))
    assert refused(result, 2) == (
        f"turbokiosk: --data-dir {data}: read-only (the terminal writes its journal there)"
    )


# --- simulate ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--games", str(10**23)], "must be from 1 to 1,000,000,000"),
        (["--games", "0"], "must be from 1 to"),
        (["--games", "nan"], "not a whole number"),
        (["--games", "10", "--seed", "-1"], "at least 0"),
        (["--games", "10", "--jobs", "0"], "must be from 1 to 256"),
        (["--games", "10", "--jobs", "99999"], "must be from 1 to 256"),
    ],
)
def test_simulate_refuses_what_no_machine_can_do(args: list[str], problem: str) -> None:
    line = refused(turbokiosk("simulate", "turbo-football", *args), 2)
    assert line.startswith("turbokiosk simulate: error: argument --") and problem in line


@pytest.mark.parametrize("command", ["recall", "events"])
@pytest.mark.parametrize("last", ["0", "-1", str(10**20)])
def test_records_listing_length_is_bounded(command: str, last: str, tmp_path: Path) -> None:
    result = turbokiosk(command, "--data-dir", str(tmp_path), "--last", last)
    assert "--last: must be from 1 to 1,000,000" in refused(result, 2)


def test_missing_arguments_are_one_line() -> None:
    line = refused(turbokiosk("simulate"), 2)
    assert "required" in line and "turbokiosk simulate --help" in line
    assert "invalid choice" in refused(turbokiosk("no-such-command"), 2)


# --- output files -----------------------------------------------------------------------------


@pytest.mark.parametrize("action", [["dump", "--bytes", "16"], ["deal", "--games", "1"]])
def test_rng_output_in_a_missing_directory_is_refused(action: list[str], tmp_path: Path) -> None:
    target = tmp_path / "nonexistent" / "x"
    line = refused(turbokiosk("rng", *action, "--out", str(target)), 2)
    assert "does not exist" in line
    assert tree(tmp_path) == []
    assert "is a directory" in refused(turbokiosk("rng", *action, "--out", str(tmp_path)), 2)


# --- host -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def host_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A host directory with a CA and the host's certificate (shared: every test using it
    checks that it wrote nothing there)."""
    host = tmp_path_factory.mktemp("host") / "host"
    assert turbokiosk("host", "init-ca", "--host-dir", str(host)).returncode == 0
    made = turbokiosk("host", "issue-cert", "--server", "host", "--host-dir", str(host))
    assert made.returncode == 0, made.stderr
    return host


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--days", "-5", "TK-0009"], "--days: must be from 1 to 36,500"),
        (["--days", "0", "TK-0009"], "--days: must be from 1 to 36,500"),
        (["../../escape"], "1 to 64 letters"),
        (["TK 0009"], "1 to 64 letters"),
        (["seat-01"], "no role's canonical name"),
        (["--role", "seat", "seat-01"], "'seat-01' is not a seat name"),
        (["tk-0009"], "no role's canonical name"),
        (["--role", "terminal", "seat-1"], "'seat-1' is not a terminal name"),
        (["--server", "seat-1"], "a seat is a client"),
        (["--san", "10.0.0.5", "TK-0009"], "only a server's certificate names addresses"),
        (["host-2", "--server", "--san", "turbokiosk-table"], "a table-controller's alone"),
        (["host", "--server"], "exists already: nothing was replaced"),
    ],
)
def test_issue_cert_refuses_bad_values_and_writes_nothing(
    args: list[str], problem: str, host_dir: Path
) -> None:
    before = tree(host_dir.parent)
    line = refused(turbokiosk("host", "issue-cert", "--host-dir", str(host_dir), *args), 2)
    assert problem in line
    assert tree(host_dir.parent) == before


@pytest.mark.parametrize(
    ("listen", "problem"),
    [
        ("nonsense", "expected HOST:PORT"),
        (":99999", "port 99999 is out of range"),
        ("127.0.0.1:99999", "port 99999 is out of range"),
        ("127.0.0.1:65536", "port 65536 is out of range"),
        (":50051", "no address"),
        ("8.8.8.8:50051", "cannot listen there"),
    ],
)
def test_serve_refuses_an_address_it_cannot_listen_on(
    listen: str, problem: str, host_dir: Path
) -> None:
    result = turbokiosk("host", "serve", "--host-dir", str(host_dir), "--listen", listen)
    assert problem in refused(result, 2)
    assert not (host_dir / "host.sqlite3").exists()


def test_serve_refuses_a_port_in_use(host_dir: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = turbokiosk(
            "host", "serve", "--host-dir", str(host_dir), "--listen", f"127.0.0.1:{port}"
        )
    assert "Address already in use" in refused(result, 2)
    assert not (host_dir / "host.sqlite3").exists()


def test_a_pki_directory_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    file = tmp_path / "pki"
    file.write_text("not a directory\n")
    ca_dir = tmp_path / "ca"
    line = refused(turbokiosk("host", "init-ca", "--pki", str(file), "--ca-dir", str(ca_dir)), 2)
    assert line == f"host: {file}: exists and is not a directory"  # before the CA is made
    assert file.read_text() == "not a directory\n" and tree(tmp_path) == ["pki"]


UNREACHABLE = "postgresql://kiosk:s3cret@127.0.0.1:1/host"


@pytest.mark.parametrize(
    "command",
    [
        ["serve"],
        ["terminals"],
        ["meters"],
        ["events"],
        ["vouchers"],
        ["vouchers", "audit"],
        ["web-user", "list"],
    ],
)
def test_unreachable_postgresql_is_one_line_without_the_password(
    command: list[str], host_dir: Path
) -> None:
    result = turbokiosk("host", *command, "--host-dir", str(host_dir), "--db", UNREACHABLE)
    line = refused(result, 1)
    assert "cannot open the host records postgresql://kiosk:***@127.0.0.1:1/host" in line
    assert "s3cret" not in result.stderr + result.stdout


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--seed", "zz"], "hex digits"),
        (["--wait", "nan"], "finite"),
        (["--seconds", "-1"], "from 0 to"),
    ],
)
def test_host_send_refuses_bad_values(args: list[str], problem: str, host_dir: Path) -> None:
    result = turbokiosk(
        "host", "send", "TK-0001", "authenticate", "--host-dir", str(host_dir), *args
    )
    assert problem in refused(result, 2)


# --- run without a display ------------------------------------------------------------------


def test_run_without_a_display_says_so_and_starts_nothing(tmp_path: Path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    }
    data = tmp_path / "terminal"
    result = subprocess.run(
        [sys.executable, "-m", "kiosk", "run", "--data-dir", str(data), "--no-host"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
        check=False,
    )
    line = refused(result, 1)
    assert line.startswith("turbokiosk: no display:") and "SDL_VIDEODRIVER" in line
    assert not data.exists()


def test_run_refuses_bad_values_before_starting(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    env = {"SDL_VIDEODRIVER": "offscreen"}
    for args, problem in (
        (["--host", "host.example:99999"], "port 99999 is out of range"),
        (["--host", "nonsense"], "expected HOST:PORT"),
        (["--dump-screen", str(tmp_path)], "is a directory"),
    ):
        line = refused(turbokiosk("run", "--data-dir", str(data), *args, env=env), 2)
        assert problem in line
    file = tmp_path / "file"
    file.write_text("")
    assert "not a directory" in refused(turbokiosk("run", "--data-dir", str(file), env=env), 2)
    assert tree(tmp_path) == ["file"]


# --- the safety net ------------------------------------------------------------------------


FAULT = (
    "import sys; from kiosk.terminal.cli.guard import run_guarded; "
    "sys.exit(run_guarded('turbokiosk', lambda: {}['missing']))"
)


def test_an_internal_error_is_one_line_and_its_traceback_is_kept(tmp_path: Path) -> None:
    env = {**os.environ, "TURBOKIOSK_CRASH_DIR": str(tmp_path)}
    env.pop("TURBOKIOSK_DEBUG", None)
    result = subprocess.run(
        [sys.executable, "-c", FAULT],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
        check=False,
    )
    line = refused(result, 70)
    assert line.startswith("turbokiosk: internal error: KeyError: 'missing' (traceback in ")
    (crash,) = tmp_path.glob("turbokiosk-crash-*.txt")
    assert str(crash) in line
    assert "Traceback" in crash.read_text() and "KeyError: 'missing'" in crash.read_text()

    env["TURBOKIOSK_DEBUG"] = "1"
    shown = subprocess.run(
        [sys.executable, "-c", FAULT],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
        check=False,
    )
    assert shown.returncode == 70
    assert "Traceback" in shown.stderr and shown.stderr.splitlines()[-1] == (
        "turbokiosk: internal error: KeyError: 'missing'"
    )


# --- a data directory another process runs ------------------------------------------------


def test_a_busy_data_dir_is_one_line_and_status_4(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    holder = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "play", "--data-dir", str(data)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert "powered up" in holder.stdout.readline()  # it holds the lock now
        env = {"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "KIVY_NO_ARGS": "1"}
        for command in (
            ["soak", "--games", "1"],
            ["play"],
            ["run", "--devices", "inprocess", "--no-host"],
        ):
            line = refused(turbokiosk(*command, "--data-dir", str(data), env=env), 4)
            assert line.startswith(f"turbokiosk: the terminal of {data} is running (process ")
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)


# --- non-UTF-8 input, sizes, output directories ------------------------------------------


def test_a_pin_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    assert turbokiosk("soak", "--data-dir", str(data), "--games", "0").returncode == 0
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk",
            "service",
            "--role",
            "technician",
            "--data-dir",
            str(data),
            "meters",
        ],
        input=b"\xff\xfe\n",
        capture_output=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    text = subprocess.CompletedProcess(
        result.args, result.returncode, result.stdout.decode(), result.stderr.decode()
    )
    assert refused(text, 2) == "turbokiosk service: the PIN is not UTF-8 text"


def test_window_sizes_and_screenshot_folders_are_checked(tmp_path: Path) -> None:
    env = {"SDL_VIDEODRIVER": "offscreen"}
    data = tmp_path / "terminal"
    line = refused(turbokiosk("run", "--data-dir", str(data), "--size", "100000x100000", env=env))
    assert line == "turbokiosk run: the largest supported size is 7680x4320"
    file = tmp_path / "file"
    file.write_text("")
    line = refused(turbokiosk("screenshots", "--out", str(file), "--size", "800x480", env=env), 2)
    assert line == f"turbokiosk: --out {file}: not a directory"
    assert tree(tmp_path) == ["file"]
