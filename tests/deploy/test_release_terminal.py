"""The release bundle is the terminal's software alone (issue 24, decision 0044): the wheel is
built from the project without the table's, the host's and the tools' folders, and a bundle
carrying one of their files or one of their dependencies is refused."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from kiosk.kernel import integrity
from tests.deploy.kit import KIT, load

release = load("release")
ROOT = KIT.parent


def _wheel(path: Path, names: list[str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name in names:
            archive.writestr(name, b"x")
    return path


def test_the_release_and_software_authentication_leave_out_the_same_folders() -> None:
    assert release.NOT_TERMINAL == integrity.NOT_TERMINAL
    for folder in release.NOT_TERMINAL:
        assert (ROOT / folder).is_dir(), folder  # a real folder of the layout


def test_the_terminal_source_has_no_other_deployable(tmp_path: Path) -> None:
    source = release.terminal_source(ROOT, tmp_path)
    for folder in release.NOT_TERMINAL:
        assert not (source / folder).exists(), folder
    assert (source / "kiosk/terminal/core/core.py").is_file()
    assert (source / "kiosk/kernel/games").is_dir()
    assert (source / "pyproject.toml").is_file()
    assert not (source / "tests").exists()


def test_a_terminal_wheel_is_accepted(tmp_path: Path) -> None:
    own = _wheel(tmp_path / "turbokiosk-0.2.0-py3-none-any.whl", ["kiosk/terminal/core/core.py"])
    dep = _wheel(tmp_path / "cobs-1.2.2-cp311-linux.whl", ["cobs/__init__.py"])
    release.check_terminal_wheels([own, dep])


@pytest.mark.parametrize(
    ("wheel", "names"),
    [
        ("turbokiosk-0.2.0-py3-none-any.whl", ["kiosk/host/accounting/db.py"]),
        ("turbokiosk-0.2.0-py3-none-any.whl", ["ui/table/app.py"]),
        ("turbokiosk-0.2.0-py3-none-any.whl", ["kiosk/tools/lab/bundle.py"]),
        ("psycopg-3.3.9-py3-none-any.whl", ["psycopg/__init__.py"]),
        ("starlette-1.10.0-py3-none-any.whl", ["starlette/__init__.py"]),
    ],
)
def test_a_bundle_with_more_than_the_terminal_is_refused(
    tmp_path: Path, wheel: str, names: list[str]
) -> None:
    with pytest.raises(ValueError, match="not the terminal"):
        release.check_terminal_wheels([_wheel(tmp_path / wheel, names)])


@pytest.mark.slow
def test_the_built_terminal_wheel_carries_the_terminal_alone(tmp_path: Path) -> None:
    """A real ``pip wheel`` of the terminal's source (no dependencies)."""
    wheel = release.build_wheels(ROOT, tmp_path, dependencies=False)
    names = zipfile.ZipFile(wheel).namelist()
    assert "kiosk/terminal/core/core.py" in names
    assert not [n for n in names if n.startswith(release.NOT_TERMINAL)]
    release.check_terminal_wheels([wheel])
