"""``turbokiosk lab-package``: a reduced bundle (one edition, short runs) is complete, its sums
match its files and its seeded signatures are the software checks; bad arguments write
nothing.  Marked ``lab`` (tox -e lab; matplotlib is slow on a shared machine): the bundle
with its PDF built twice is the same bytes but for its cover, and the PDF opens with the
pages it should have."""

from __future__ import annotations

import datetime
import hashlib
import json
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.kernel import integrity
from kiosk.terminal.service.functions.config import FIELDS
from kiosk.tools.lab import bundle, evidence

EDITION = "icon-v2"
OPTIONS = bundle.BundleOptions((EDITION,), games=1000, rng_runs=evidence.RngRuns(300, 3000))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One reduced bundle without its PDF, by the command (the default run's end to end)."""
    out = tmp_path_factory.mktemp("lab") / "a"
    argv = ["lab-package", "--out", str(out), "--edition", EDITION, "--games", "1000"]
    assert main([*argv, "--rng-decks", "300", "--no-pdf", "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def with_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One reduced bundle with its PDF."""
    out = tmp_path_factory.mktemp("lab") / "a"
    return bundle.build(out, OPTIONS, today=lambda: datetime.date(2026, 11, 26)).out


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.lab
def test_a_reduced_bundle_is_reproducible_and_complete(with_pdf, tmp_path):
    again = bundle.build(tmp_path / "b", OPTIONS, today=lambda: datetime.date(2026, 11, 27))
    a, b = _files(with_pdf), _files(again.out)
    assert a.keys() == b.keys()
    differ = sorted(name for name in a if a[name] != b[name])
    assert differ == [bundle.COVER]
    assert b"2026-11-26" in a[bundle.COVER] and b"2026-11-27" in b[bundle.COVER]


def test_a_reduced_bundle_is_complete(built):
    a = _files(built)
    for name in (
        "software/identification.json",
        "software/manifest.txt",
        f"par-sheets/{EDITION}.json",
        "simulations.json",
        "rng/evidence.json",
        "compliance/gli-11.md",
        "compliance/gli-24.toml",
        "configuration.json",
    ):
        assert name in a, name
    assert "par-sheets.pdf" not in a
    runs = json.loads(a["simulations.json"])["runs"]
    assert [r["edition"] for r in runs] == [EDITION]
    assert all(w["standard_error"] > 0 for w in runs[0]["wagers"])
    assert runs[0]["agrees"] and runs[0]["bound_standard_errors"] >= 3.0
    rng = json.loads(a["rng/evidence.json"])
    assert rng["known_answer_tests"] and all(k["passed"] for k in rng["known_answer_tests"])
    assert rng["power_up_self_test"] == "passed"
    assert rng["health_test_cutoffs"]["repetition_count_cutoff"] > 1
    sheet = json.loads(a[f"par-sheets/{EDITION}.json"])
    assert sheet["edition"] == EDITION and sheet["wagers"]
    assert sheet["house_edge_by_paytable"], "every shipped pay table with its edge"


def test_the_bundle_manifest_matches_its_files(built):
    out = built
    listed = {}
    for line in (out / bundle.SUMS).read_text().splitlines():
        digest, name = line.split("  ", 1)
        listed[name] = digest
    on_disk = set(_files(out)) - {bundle.SUMS, bundle.COVER}
    assert set(listed) == on_disk
    for name, digest in listed.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest, name
    manifest = (out / "software/manifest.txt").read_text()
    assert manifest == integrity.manifest().text()


@pytest.mark.lab
def test_the_pdf_opens_with_its_pages(with_pdf):
    import pypdfium2 as pdfium  # the lab extra (tox -e lab); the default run needs none of it

    pdf = pdfium.PdfDocument(with_pdf / "par-sheets.pdf")
    # cover, then per edition: summary, outcomes, edges by pay table; then the simulations
    assert len(pdf) == 1 + 3 * len(OPTIONS.editions) + 1
    first = pdf[0].get_textpage().get_text_range()
    assert "TurboKiosk par sheets" in first
    summary = pdf[1].get_textpage().get_text_range()
    assert "house edge" in summary and "hit frequency" in summary
    image = pdf[2].render(scale=0.5).to_pil()
    assert (
        image.size[0] > 300 and len(image.convert("L").getcolors(maxcolors=1 << 16) or ()) > 10
    )  # drawn, not blank


def test_the_seeded_signatures_are_the_software_checks(built):
    ident = json.loads((built / "software/identification.json").read_text())
    assert ident["manifest_sha256"] == integrity.manifest().digest
    assert [c["seed"] for c in ident["keyed_checks"]] == list(evidence.SOFTWARE_SEEDS)
    for check in ident["keyed_checks"]:
        assert check["hmac_sha256"] == integrity.keyed_check(integrity.parse_seed(check["seed"]))


def test_every_operator_field_has_its_limit():
    assert set(evidence.FIELD_LIMITS) == {spec.name for spec in FIELDS}
    options = evidence.configuration_options()
    assert [f["name"] for f in options["fields"]] == [spec.name for spec in FIELDS]
    assert all(f["default"] is not None for f in options["fields"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--edition", "turbo-curling"], "unknown edition 'turbo-curling'"),
        (["--games", "5"], "--games"),
        (["--rng-decks", "x"], "--rng-decks"),
    ],
)
def test_bad_arguments_are_one_line_and_write_nothing(tmp_path, capsys, args, message):
    out = tmp_path / "bundle"
    code: int | str | None
    try:
        code = main(["lab-package", "--out", str(out), *args])
    except SystemExit as exc:  # argparse's own errors leave through SystemExit
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_directory_that_is_not_empty_is_refused(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(bundle.BundleError, match="exists and is not an empty directory"):
        bundle.build(tmp_path, OPTIONS)
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_ctrl_c_writes_nothing_and_exits_130(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C during a simulation: no bundle, no partial directory, one line, 130."""

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(evidence, "simulation", interrupted)
    out = tmp_path / "bundle"
    argv = ["lab-package", "--out", str(out), "--edition", EDITION, "--games", "1000"]
    assert main([*argv, "--rng-decks", "300", "--no-pdf", "--quiet"]) == 130
    assert list(tmp_path.iterdir()) == []
    assert capsys.readouterr().err.splitlines() == [
        "turbokiosk lab-package: interrupted: nothing written"
    ]


def test_the_simulations_tell_their_rounds_and_use_exact_errors(built: Path) -> None:
    """Each confirmation's errors are the par sheet's; progress reaches every game."""
    runs = json.loads((built / "simulations.json").read_text())["runs"]
    assert {w["standard_error_basis"] for r in runs for w in r["wagers"]} == {"exact"}
    told: list[int] = []
    evidence.simulation(EDITION, 1000, progress=told.append)
    assert told[-1] == 1000


def test_the_default_confirmation_is_ten_million_games() -> None:
    assert bundle.BundleOptions((EDITION,)).games == 10_000_000
    from kiosk.tools.cli import lab_package

    assert lab_package.DEFAULT_GAMES == 10_000_000
