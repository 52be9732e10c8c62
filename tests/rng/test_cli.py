"""``turbokiosk rng``: collection through the production path."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kiosk.cli import main
from kiosk.terminal.cli import rng as rng_cli
from rng.generator import Csprng
from tests.helpers.rng_seeds import shake_reader


def test_dump_writes_exactly_the_bytes_asked_for(tmp_path):
    out = tmp_path / "raw.bin"
    assert main(["rng", "dump", "--bytes", "3000000", "--out", str(out)]) == 0
    data = out.read_bytes()
    assert len(data) == 3_000_000
    assert len(set(data[:100_000])) == 256
    assert main(["rng", "dump", "--bytes", "0", "--out", str(out)]) == 0
    assert out.read_bytes() == b""


def test_deal_writes_one_shuffled_deck_per_line(tmp_path):
    out = tmp_path / "decks.txt"
    assert main(["rng", "deal", "--games", "10001", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 10001
    decks = [tuple(map(int, line.split())) for line in lines]
    assert all(sorted(deck) == list(range(52)) for deck in decks)
    assert len(set(decks)) == 10001


def test_dump_to_standard_output_and_a_closed_pipe():
    command = [sys.executable, "-m", "kiosk", "rng", "dump", "--stream"]
    reader = subprocess.run(
        f"{subprocess.list2cmdline(command)} | head -c 5000000 | wc -c",
        shell=True,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert reader.stdout.strip() == "5000000"
    assert reader.stderr == ""


def test_selftest_prints_the_cutoffs(capsys):
    assert main(["rng", "selftest"]) == 0
    out = capsys.readouterr().out
    assert "repetition count test cutoff: 9" in out
    assert "adaptive proportion test cutoff: 71 in a window of 512" in out
    assert "passed" in out


def test_a_failed_generator_exits_3_with_the_reason(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(rng_cli, "Csprng", lambda: Csprng(entropy_read=lambda n: bytes(n)))
    assert main(["rng", "dump", "--bytes", "10", "--out", str(tmp_path / "x")]) == 3
    assert "repetition count test" in capsys.readouterr().err
    assert main(["rng", "selftest"]) == 3
    assert "self-tests FAILED" in capsys.readouterr().err


def test_negative_counts_are_refused(capsys):
    with pytest.raises(SystemExit):
        main(["rng", "deal", "--games", "-1"])
    assert "must be from 0 to 100,000,000, not -1" in capsys.readouterr().err


def test_the_collection_uses_the_production_generator(monkeypatch, tmp_path):
    """With the OS replaced by a fixed source, the dump equals Csprng's own stream."""
    monkeypatch.setattr(rng_cli, "Csprng", lambda: Csprng(entropy_read=shake_reader(b"cli")))
    out = tmp_path / "raw.bin"
    assert main(["rng", "dump", "--bytes", "5000", "--out", str(out)]) == 0
    expected = Csprng(entropy_read=shake_reader(b"cli")).random_bytes(5000)
    assert out.read_bytes() == expected
