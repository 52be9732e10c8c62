"""``turbokiosk run`` for a newcomer (issue 13): one start-up line (window, data directory,
keys, how to stop); a display that does not answer is one clear line and status 1, not a kiosk
running unseen on SDL's offscreen fallback; a configured serial port that is missing is named
on the console and on the lockup."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kiosk.terminal.devices.pairing import key_path, new_pairing
from tests.helpers.cli_process import turbokiosk
from ui.terminal.display import DisplayError, choose_video_driver

OFFSCREEN = {"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy"}


def _without_display() -> dict[str, str]:
    """This process's environment with no display variable (the child gets only ours)."""
    return dict.fromkeys(("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"), "")


@pytest.mark.parametrize(
    ("environ", "drivers"),
    [
        ({"DISPLAY": ":0"}, "x11"),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "wayland"),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, "x11,wayland"),
        ({"DISPLAY": ":0", "SDL_VIDEODRIVER": "kmsdrm"}, "kmsdrm"),
        ({"SDL_VIDEODRIVER": "offscreen"}, "offscreen"),
    ],
)
def test_sdl_is_told_which_display_so_it_cannot_fall_back_to_offscreen(
    environ: dict[str, str], drivers: str
) -> None:
    env = dict(environ)
    where = choose_video_driver(env)
    assert env["SDL_VIDEODRIVER"] == drivers
    assert env["KIVY_WINDOW"] == "sdl2"
    assert where
    if drivers == "offscreen":
        assert "no window is shown" in where


def test_no_display_variable_is_a_display_error() -> None:
    with pytest.raises(DisplayError, match="no display"):
        choose_video_driver({"DISPLAY": " "})


def test_a_display_that_does_not_answer_is_one_line_and_status_1(tmp_path: Path) -> None:
    display = next(f":{n}" for n in range(77, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    data = tmp_path / "terminal"
    env = {**_without_display(), "DISPLAY": display}
    result = turbokiosk("run", "--data-dir", str(data), "--no-host", env=env, timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"turbokiosk: cannot open a window on X11 display {display}:"), line
    assert "SDL_VIDEODRIVER=offscreen" in line
    assert result.stdout == ""
    assert not data.exists()


def test_run_starts_with_one_line_saying_window_data_keys_and_how_to_stop(
    tmp_path: Path,
) -> None:
    data = tmp_path / "terminal"
    dump = tmp_path / "dump.json"
    args = ("--data-dir", str(data), "--devices", "inprocess", "--no-host")
    run = turbokiosk(
        "run", *args, "--dump-screen", str(dump), "--exit-after-dump", env=OFFSCREEN, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:]
    line = run.stdout.splitlines()[0]
    assert line.startswith("turbokiosk run: window 950x480 (the player's screen 800x480")
    for said in (f"data in {data}", "F2 SIMULATOR panel", "F3 service key", "Ctrl-C"):
        assert said in line, line
    assert "offscreen" in line  # headless is said, not left to guess
    assert json.loads(dump.read_text())["size"] == [950, 480]


def test_missing_serial_ports_are_named_on_the_console_and_on_the_lockup(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    for device in ("bill-validator", "printer"):
        new_pairing(key_path(keys, device))
    missing = tmp_path / "ttyUSB7", tmp_path / "ttyUSB8"
    dump = tmp_path / "dump.json"
    run = turbokiosk(
        "run",
        "--data-dir",
        str(tmp_path / "terminal"),
        "--validator-port",
        str(missing[0]),
        "--printer-port",
        str(missing[1]),
        "--device-keys",
        str(keys),
        "--no-host",
        "--dump-screen",
        str(dump),
        "--exit-after-dump",
        env=OFFSCREEN,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "window 800x480 on" in run.stdout  # a field terminal: no SIMULATOR column
    warned = [line for line in run.stderr.splitlines() if line.startswith("turbokiosk run:")]
    assert warned == [
        f"turbokiosk run: bill validator port: {missing[0]} does not exist; the terminal "
        "stays locked up (out of order) until the device answers there",
        f"turbokiosk run: printer port: {missing[1]} does not exist; the terminal "
        "stays locked up (out of order) until the device answers there",
    ]
    shown = json.loads(dump.read_text())
    assert shown["lockup"] == "BILL VALIDATOR FAULT"
    # the player reads what is wrong in their words; the attendant reads which port is missing
    assert shown["lockup_reason"] == "The bill validator is not answering"
    assert shown["lockup_detail"] == (
        f"For the attendant: bill validator not connected: {missing[0]} does not exist"
    )
    assert os.path.exists(tmp_path / "terminal")


def test_ctrl_c_pressed_again_while_the_kiosk_stops_does_not_cut_the_stop_short(
    tmp_path: Path,
) -> None:
    """A newcomer presses Ctrl-C two or three times: the kiosk still stops in order."""
    import signal
    import time

    from tests.helpers.process_groups import journal_closed, turbokiosk_in_its_group

    data = tmp_path / "terminal"
    dump = tmp_path / "dump.json"
    kiosk = turbokiosk_in_its_group("run", "--data-dir", str(data), "--dump-screen", str(dump))
    try:
        deadline = time.monotonic() + 120
        while not dump.exists():
            assert kiosk.poll() is None, kiosk.communicate()
            assert time.monotonic() < deadline, "the kiosk did not come up"
            time.sleep(0.2)
        for _ in range(4):  # during the window's close and the stop that follows it
            if kiosk.poll() is not None:
                break
            os.killpg(kiosk.pid, signal.SIGINT)
            time.sleep(0.12)
        out, err = kiosk.communicate(timeout=60)
    finally:
        if kiosk.poll() is None:
            kiosk.kill()
            kiosk.wait()
    assert "Traceback" not in err + out, err
    assert err.splitlines() == ["turbokiosk: interrupted (Ctrl-C): the kiosk stopped in order"]
    assert kiosk.returncode == 130
    assert not (data / "peripherals.json").exists()
    journal_closed(data)
