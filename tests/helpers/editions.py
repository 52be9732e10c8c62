"""Turbo editions written to a temporary directory, and the check that one is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.kernel.games import turbo_edition
from kiosk.kernel.games.paytable import PaytableError


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def edition_dir(
    tmp_path: Path,
    edits: dict[tuple[str, str], str] | None = None,
    extra: dict[str, str] | None = None,
) -> Path:
    """A copy of the packaged editions, with text replacements in the football file."""
    for path in EDITIONS_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        for (file, old), new in (edits or {}).items():
            if file == path.stem:
                assert old in text, old
                text = text.replace(old, new)
        write(tmp_path / path.name, text)
    for name, text in (extra or {}).items():
        write(tmp_path / f"{name}.toml", text)
    return tmp_path


def assert_edition_refused(directory, field, problem):
    """Loading turbo-football from ``directory`` fails, naming the file, the field and the
    problem."""
    with pytest.raises(PaytableError) as caught:
        turbo_edition.load_edition("turbo-football", directory)
    path = directory / "turbo-football.toml"
    assert str(caught.value).startswith(f"{path}: field '{field}': "), str(caught.value)
    assert problem in str(caught.value)


EDITIONS_DIR = turbo_edition.EDITIONS_DIR
