"""read_bounded: regular files only, within their bound, one-line errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.kernel.bounded_read import InputFileError, read_bounded, read_bounded_text


def test_a_small_regular_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_text("x = 1\n")
    assert read_bounded(path) == b"x = 1\n"
    assert read_bounded_text(path) == "x = 1\n"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("/dev/zero", "not a regular file"),
        ("/nonexistent/x", "no such file"),
        ("/", "is a directory"),
    ],
)
def test_what_is_not_a_small_regular_file_is_refused(name: str, expected: str) -> None:
    with pytest.raises(InputFileError, match=expected) as info:
        read_bounded(name, what="pay table")
    assert "\n" not in str(info.value)
    assert str(info.value).startswith(f"pay table {name}:")


def test_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputFileError, match="not a regular file"):
        read_bounded(fifo)


def test_a_file_over_its_bound_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * 101)
    with pytest.raises(InputFileError, match="101 bytes, more than 100 allowed"):
        read_bounded(path, 100)
    assert read_bounded(path, 101) == b"x" * 101


def test_text_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bin"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(InputFileError, match="not UTF-8"):
        read_bounded_text(path)
