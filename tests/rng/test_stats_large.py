"""The statistical suite at large sizes, on OS entropy (``tox -e rng-stats``, marker
``rng_stats``): our own tests, Debian's ``rngtest``, a ``dieharder`` subset and NIST SP 800-22
(PyPI ``sp80022suite``, NIST's C code).

Every collection goes through the production path (``Csprng`` seeded from the OS; the external
tools read ``turbokiosk rng dump``).  Each test runs at 99% confidence on several independent
samples; a family passes when its failures stay within the exact binomial bound
(:func:`rng.stats.max_failures`, risk 0.001).  Results are printed; with ``RNG_STATS_REPORT`` set
they are also appended to that file.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rng import stats
from rng.deck import Deck
from rng.generator import Csprng
from tests.rng.vectors import data_file

pytestmark = pytest.mark.rng_stats

REPETITIONS = 10
DUMP = [sys.executable, "-m", "kiosk", "rng", "dump", "--stream"]


#: where to append the results as well (resolved now: the SP 800-22 test changes directory)
REPORT_FILE = (
    Path(os.environ["RNG_STATS_REPORT"]).resolve() if "RNG_STATS_REPORT" in os.environ else None
)


@pytest.fixture
def report(capsys: pytest.CaptureFixture[str]) -> Callable[[str], None]:
    """Print a line to the terminal (and to ``$RNG_STATS_REPORT``)."""

    def write(line: str) -> None:
        with capsys.disabled():
            print(line)
        if REPORT_FILE is not None:
            with REPORT_FILE.open("a") as handle:
                handle.write(line + "\n")

    return write


def judge(name: str, results: list[stats.TestResult], report: Callable[[str], None]) -> bool:
    verdict = stats.batch_verdict(results)
    report(f"{name}: {verdict.line()}")
    return verdict.passed


# -- our tests -------------------------------------------------------------------------------


def test_card_by_position_over_a_million_shuffles(report):
    generator = Csprng()
    deck = Deck(generator)

    def decks(count: int) -> Iterator[tuple[int, ...]]:
        for _ in range(count):
            deck.new_round()
            yield deck.deal(52)

    results = [stats.card_position_test(decks(100_000), 52) for _ in range(REPETITIONS)]
    assert judge("ours", results, report)


def test_all_720_orderings_of_a_six_card_deck(report):
    deck = Deck(Csprng(), 6)

    def orders(count: int) -> Iterator[tuple[int, ...]]:
        for _ in range(count):
            deck.new_round()
            yield deck.deal(6)

    results = [stats.permutation_test(orders(72_000), 6) for _ in range(REPETITIONS)]
    assert judge("ours", results, report)


@pytest.mark.parametrize("n", [52, 9, 256])
def test_runs_correlation_pairs_and_frequency_of_scaled_draws(report, n):
    generator = Csprng()
    batches = [[generator.randbelow(n) for _ in range(1_000_000)] for _ in range(REPETITIONS)]
    families: dict[str, Callable[[list[int]], stats.TestResult]] = {
        "runs": lambda d: stats.runs_test(d, n),
        "lag 1": lambda d: stats.serial_correlation_test(d, n, 1),
        "lag 2": lambda d: stats.serial_correlation_test(d, n, 2),
        "lag 3": lambda d: stats.serial_correlation_test(d, n, 3),
        "pairs": lambda d: stats.serial_pairs_test(d, n),
        "frequency": lambda d: stats.frequency_test(d, n),
    }
    verdicts = [judge("ours", [test(b) for b in batches], report) for test in families.values()]
    assert all(verdicts)


# -- rngtest (FIPS 140-2 tests, Debian rng-tools5) ---------------------------------------------

RNGTEST_BLOCKS = 5000  # 20,000-bit blocks: 12.5 MB
RNGTEST_GOOD_FAILURE_RATE = 0.0012  # measured on /dev/urandom: 21 of 20,000 blocks fail


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed (deploy/system-packages-rng-stats.txt)")
    return path


def test_rngtest_fips_140_2(report):
    data = Csprng().random_bytes(4 + 2500 * RNGTEST_BLOCKS)  # 32 bits prime the continuous test
    run = subprocess.run(
        [tool("rngtest"), "-c", str(RNGTEST_BLOCKS)], input=data, capture_output=True, check=False
    )
    text = run.stderr.decode()
    successes = int(re.search(r"successes: (\d+)", text).group(1))  # type: ignore[union-attr]
    failures = int(re.search(r"failures: (\d+)", text).group(1))  # type: ignore[union-attr]
    allowed = stats.max_failures(RNGTEST_BLOCKS, RNGTEST_GOOD_FAILURE_RATE)
    for line in text.splitlines():
        if "FIPS 140-2" in line:
            report(f"rngtest: {line.removeprefix('rngtest: ')}")
    report(f"rngtest: {failures} of {RNGTEST_BLOCKS} blocks failed (at most {allowed} allowed)")
    assert successes + failures == RNGTEST_BLOCKS
    assert failures <= allowed


# -- dieharder subset ------------------------------------------------------------------------

# test number -> name; the full `dieharder -a` report is kept in docs/rng-evidence/.
DIEHARDER_SUBSET = {
    0: "diehard_birthdays",
    1: "diehard_operm5",
    2: "diehard_rank_32x32",
    3: "diehard_rank_6x8",
    4: "diehard_bitstream",
    9: "diehard_count_1s_byt",
    10: "diehard_parking_lot",
    11: "diehard_2dsphere",
    12: "diehard_3dsphere",
    13: "diehard_squeeze",
    15: "diehard_runs",
    16: "diehard_craps",
    100: "sts_monobit",
    101: "sts_runs",
    202: "rgb_permutations",
    205: "dab_bytedistrib",
    206: "dab_dct",
    209: "dab_monobit2",
}


@pytest.mark.parametrize("test_number", sorted(DIEHARDER_SUBSET), ids=DIEHARDER_SUBSET.get)
def test_dieharder(report, test_number):
    dieharder = tool("dieharder")
    dump = subprocess.Popen(DUMP, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        run = subprocess.run(
            [dieharder, "-g", "200", "-d", str(test_number), "-Y", "1"],
            stdin=dump.stdout,
            capture_output=True,
            text=True,
            check=False,
            timeout=1200,
        )
    finally:
        assert dump.stdout is not None
        dump.stdout.close()
        dump.terminate()
        dump.wait()
    rows = [
        line for line in run.stdout.splitlines() if re.search(r"\|\s*(PASSED|WEAK|FAILED)", line)
    ]
    for row in rows:
        report(f"dieharder: {' '.join(row.split())}")
    assert rows, run.stdout + run.stderr
    assert not [row for row in rows if "FAILED" in row]


# -- NIST SP 800-22 (sp80022suite) -----------------------------------------------------------

STS_SEQUENCES = int(os.environ.get("RNG_STATS_STS_SEQUENCES", "40"))
STS_BITS = 1_000_000
# name, arguments before the sequence, number of p-values the wrapper returns the minimum of
STS_TESTS: tuple[tuple[str, tuple[int, ...], int], ...] = (
    ("frequency", (), 1),
    ("block_frequency", (128,), 1),
    ("cumulative_sums", (), 2),
    ("runs", (), 1),
    ("longest_run_of_ones", (), 1),
    ("rank", (), 1),
    ("discrete_fourier_transform", (), 1),
    ("non_overlapping_template_matchings", (9,), 148),
    ("overlapping_template_matchings", (9,), 1),
    ("universal", (), 1),
    ("approximate_entropy", (10,), 1),
    ("random_excursions", (), 8),
    ("random_excursions_variant", (), 18),
    ("serial", (16,), 2),
    ("linear_complexity", (500,), 1),
)
_BITS = [bytes((byte >> (7 - i)) & 1 for i in range(8)) for byte in range(256)]


def sidak(alpha: float, count: int) -> float:
    """Per-p-value level that keeps the minimum of ``count`` p-values at level ``alpha``."""
    return float(1 - (1 - alpha) ** (1 / count))


def test_nist_sp800_22(report, tmp_path, monkeypatch):
    sts = importlib.import_module("sp80022suite")  # only in the rng-stats environment
    # NIST's C code opens templates/template9 relative to the working directory.
    (tmp_path / "templates").mkdir()
    shutil.copy(data_file("sts_templates", "template9"), tmp_path / "templates" / "template9")
    monkeypatch.chdir(tmp_path)
    generator = Csprng()
    p_values: dict[str, list[float]] = {name: [] for name, _, _ in STS_TESTS}
    not_applicable = dict.fromkeys(p_values, 0)
    for _ in range(STS_SEQUENCES):
        bits = b"".join(_BITS[b] for b in generator.random_bytes(STS_BITS // 8))
        for name, args, _count in STS_TESTS:
            try:
                p_values[name].append(getattr(sts, name)(*args, bits))
            except ValueError as error:  # random excursions: fewer than 500 cycles
                if "cycles" not in str(error):
                    raise
                not_applicable[name] += 1
    passed = True
    for name, _args, count in STS_TESTS:
        level = stats.ALPHA if count == 1 else sidak(stats.ALPHA, count)
        values = p_values[name]
        if not values:  # only possible for random excursions on very few sequences
            report(f"sp800-22: {name}: not applicable to any of the {STS_SEQUENCES} sequences")
            continue
        failures = sum(p < level for p in values)
        allowed = stats.max_failures(len(values))
        ok = failures <= allowed
        passed &= ok
        note = f", {not_applicable[name]} not applicable" if not_applicable[name] else ""
        level_text = f"{level:.2e} (min of {count})" if count > 1 else f"{level:g}"
        report(
            f"sp800-22: {name}: {len(values) - failures}/{len(values)} sequences pass at p >= "
            f"{level_text}{note}; allowed failures {allowed}; "
            f"median p={sorted(values)[len(values) // 2]:.4f} {'pass' if ok else 'FAIL'}"
        )
    assert passed
