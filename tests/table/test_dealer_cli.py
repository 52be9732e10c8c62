"""``table serve --card-source`` and ``sim shuffler``: bad input is one line and a non-zero
exit, before anything starts (in-process: the same ``main`` the console script runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.cli import main


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--card-source", "shuffler"], "needs --shuffler-port"),
        (
            ["--card-source", "shuffler", "--shuffler-port", "/dev/null", "--shuffler-key", "K"],
            "--shuffler-key",
        ),
        (["--card-source", "manual", "--auto-deal", "1"], "manual cards are entered by a dealer"),
        (["--shuffler-port", "/dev/ttyUSB0"], "the cards are virtual"),
        (["--card-source", "deck"], "invalid choice"),
    ],
)
def test_serve_refuses_a_bad_card_source_in_one_line(
    args: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["table", "--data-dir", str(tmp_path / "t"), "serve", "--edition", "stadium-3cp"]
    with pytest.raises(SystemExit) as exited:
        raise SystemExit(main([*command, *args]))
    err = capsys.readouterr().err
    assert exited.value.code not in (0, None)
    assert words in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "t").exists()  # nothing was made


def test_sim_shuffler_without_its_pairing_key_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = str(tmp_path / "shuffler.tty")
    code = main(["sim", "shuffler", "--port", port, "--state-dir", str(tmp_path / "s")])
    err = capsys.readouterr().err
    assert code == 2 and "pairing key" in err and len(err.strip().splitlines()) == 1
