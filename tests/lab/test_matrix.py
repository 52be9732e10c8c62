"""The requirement matrix: every test it names exists, every requirement has evidence or a
reason, and the pages are the TOML rendered."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.app.lab import matrix

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", matrix.STANDARD_FILES)
def test_every_named_test_exists_and_every_requirement_has_evidence_or_a_reason(name):
    standard = matrix.load(matrix.compliance_dir(ROOT) / name)
    assert standard.requirements
    assert matrix.problems(standard, ROOT) == []


@pytest.mark.parametrize("name", matrix.STANDARD_FILES)
def test_the_page_is_the_source_rendered(name):
    standard = matrix.load(matrix.compliance_dir(ROOT) / name)
    page = matrix.page_path(ROOT, standard)
    assert page.read_text(encoding="utf-8") == matrix.render(standard), (
        f"{page.name} is stale: run python -m kiosk.app.lab.matrix"
    )


def test_the_check_finds_a_missing_test_a_missing_reason_and_no_evidence(tmp_path):
    tests = tmp_path / "tests" / "x"
    tests.mkdir(parents=True)
    (tests / "test_a.py").write_text(
        "def test_one():\n    pass\n\nclass TestB:\n    def test_c(self):\n        pass\n"
    )
    (tmp_path / "m.toml").write_text(
        """
[standard]
id = "GLI-0"
title = "t"
version = "1"
[[requirement]]
section = "1"
title = "a"
requirement = "r"
how = "h"
tests = ["tests/x/test_a.py::test_one", "tests/x/test_a.py::TestB::test_c"]
status = "met"
[[requirement]]
section = "2"
title = "b"
requirement = "r"
how = "h"
tests = [
  "tests/x/test_a.py::test_two",
  "tests/x/test_a.py::TestB::test_d",
  "tests/x/nope.py::test_one",
]
status = "met"
[[requirement]]
section = "3"
title = "c"
requirement = "r"
status = "not met"
[[requirement]]
section = "4"
title = "d"
requirement = "r"
status = "partly met"
reason = "why"
"""
    )
    found = matrix.problems(matrix.load(tmp_path / "m.toml"), tmp_path)
    assert found == [
        "GLI-0 2 b: tests/x/test_a.py::test_two: tests/x/test_a.py defines no test_two",
        "GLI-0 2 b: tests/x/test_a.py::TestB::test_d: TestB has no method test_d",
        "GLI-0 2 b: tests/x/nope.py::test_one: no file tests/x/nope.py",
        "GLI-0 3 c: 'not met' without a reason",
        "GLI-0 4 d: 'partly met' without a test that shows it",
        "GLI-0 4 d: 'partly met' without saying how",
    ]


def test_a_malformed_status_is_refused(tmp_path):
    (tmp_path / "m.toml").write_text(
        '[standard]\nid = "G"\ntitle = "t"\nversion = "1"\n'
        '[[requirement]]\nsection = "1"\ntitle = "a"\nrequirement = "r"\nstatus = "done"\n'
    )
    with pytest.raises(matrix.MatrixError, match="status 'done' is not one of"):
        matrix.load(tmp_path / "m.toml")
