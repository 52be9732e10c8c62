"""The requirement matrix: every test it names exists, every requirement has evidence or a
reason, and the pages are the TOML rendered."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.tools.lab import matrix

ROOT = Path(__file__).resolve().parents[2]

#: a standard with one source its version was read from
HEAD = """
[standard]
id = "GLI-0"
title = "t"
version = "1"
version_sources = ["s1"]
[[source]]
id = "s1"
url = "https://example.org/gli-0"
shows = "the contents of chapter 1"
"""


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
        f"{page.name} is stale: run python -m kiosk.tools.lab.matrix"
    )


def test_the_check_finds_a_missing_test_a_missing_reason_and_no_evidence(tmp_path):
    tests = tmp_path / "tests" / "x"
    tests.mkdir(parents=True)
    (tests / "test_a.py").write_text(
        "def test_one():\n    pass\n\nclass TestB:\n    def test_c(self):\n        pass\n"
    )
    (tmp_path / "m.toml").write_text(
        HEAD
        + """
[[requirement]]
section = "1"
title = "a"
requirement = "r"
how = "h"
tests = ["tests/x/test_a.py::test_one", "tests/x/test_a.py::TestB::test_c"]
status = "met"
verified = true
source = "s1"
check = "seen"
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
verified = false
check = "not seen"
[[requirement]]
section = "3"
title = "c"
requirement = "r"
status = "not met"
verified = false
check = "not seen"
[[requirement]]
section = "4"
title = "d"
requirement = "r"
status = "partly met"
reason = "why"
verified = false
check = "not seen"
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
        HEAD + '[[requirement]]\nsection = "1"\ntitle = "a"\nrequirement = "r"\n'
        'status = "done"\nverified = false\ncheck = "c"\n'
    )
    with pytest.raises(matrix.MatrixError, match="status 'done' is not one of"):
        matrix.load(tmp_path / "m.toml")


def test_the_check_finds_verification_claims_without_a_source(tmp_path):
    (tmp_path / "m.toml").write_text(
        HEAD.replace('version_sources = ["s1"]', 'version_sources = ["s1", "s9"]')
        + """
[[source]]
id = "s2"
url = "https://example.org/unused"
shows = "nothing this matrix cites"
[[requirement]]
section = "1"
title = "a"
requirement = "r"
status = "not applicable"
reason = "why"
verified = true
check = "seen"
[[requirement]]
section = "2"
title = "b"
requirement = "r"
status = "not applicable"
reason = "why"
verified = false
source = "s3"
check = "cut off"
[[requirement]]
section = "3"
title = "c"
requirement = "r"
status = "not applicable"
reason = "why"
verified = false
[[requirement]]
section = "4"
title = "d"
requirement = "r"
status = "not applicable"
reason = "why"
verified = true
source = "s1"
"""
    )
    assert matrix.problems(matrix.load(tmp_path / "m.toml"), tmp_path) == [
        "GLI-0: version source 's9' is not a [[source]]",
        "GLI-0 1 a: verified without a source",
        "GLI-0 2 b: source 's3' is not a [[source]]",
        "GLI-0 3 c: 'verified = false' without a check saying why the number is not confirmed",
        "GLI-0 4 d: 'verified = true' without a check saying what was seen",
        "GLI-0: source 's2' is cited by nothing",
    ]


def test_a_version_read_from_no_source_is_a_problem(tmp_path):
    (tmp_path / "m.toml").write_text(
        HEAD.replace('version_sources = ["s1"]\n', "")
        + '[[requirement]]\nsection = "1"\ntitle = "a"\nrequirement = "r"\n'
        'status = "not applicable"\nreason = "w"\nverified = true\nsource = "s1"\ncheck = "c"\n'
    )
    assert matrix.problems(matrix.load(tmp_path / "m.toml"), tmp_path) == [
        "GLI-0: version '1' names no source it was read from"
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("verified = false", 'verified = "no"'), "'verified' must be true or false"),
        (("verified = false\n", ""), "'verified' must be true or false"),
        (("https://example.org/gli-0", "example.org/gli-0"), "is not an http\\(s\\) address"),
        (('shows = "the', 'page = 3\nshows = "the'), "unknown key 'page'"),
    ],
)
def test_malformed_verification_fields_are_refused(tmp_path, change, message):
    text = HEAD + (
        '[[requirement]]\nsection = "1"\ntitle = "a"\nrequirement = "r"\n'
        'status = "not applicable"\nreason = "w"\nverified = false\ncheck = "c"\n'
    )
    assert change[0] in text
    (tmp_path / "m.toml").write_text(text.replace(change[0], change[1], 1))
    with pytest.raises(matrix.MatrixError, match=message):
        matrix.load(tmp_path / "m.toml")


def test_a_source_listed_twice_is_refused(tmp_path):
    source = HEAD[HEAD.index("[[source]]") :]
    (tmp_path / "m.toml").write_text(
        HEAD + source + '[[requirement]]\nsection = "1"\ntitle = "a"\nrequirement = "r"\n'
        'status = "not applicable"\nreason = "w"\nverified = false\ncheck = "c"\n'
    )
    with pytest.raises(matrix.MatrixError, match="id 's1' is listed twice"):
        matrix.load(tmp_path / "m.toml")


@pytest.mark.parametrize("name", matrix.STANDARD_FILES)
def test_every_section_says_whether_it_was_verified_and_the_page_says_it_plainly(name):
    standard = matrix.load(matrix.compliance_dir(ROOT) / name)
    page = matrix.render(standard)
    assert standard.version_sources
    for source in standard.sources:
        assert source.url in page
    unverified = page[page.index("## Section numbers not verified") :]
    unverified = unverified[: unverified.index("\n## ")]
    for r in standard.requirements:
        row = f"| {r.section} | **{r.title}**:"
        line = next(x for x in page.splitlines() if x.startswith(row))
        if r.verified:
            assert line.endswith(f"| yes [{r.source}] |") and standard.source(r.source)
            assert f"**{r.section} {r.title}**" not in unverified
        else:
            assert line.endswith("| **no** |")
            assert f"- **{r.section} {r.title}**: {r.check}" in unverified


def test_unverified_lists_every_section_not_verified(capsys):
    assert matrix.main(["--unverified"]) == 0
    lines = capsys.readouterr().out.splitlines()
    standards = matrix.load_all(ROOT)
    expected = [
        f"{s.id} {r.section} {r.title}: {r.check}"
        for s in standards
        for r in s.requirements
        if not r.verified
    ]
    assert lines == expected and expected
