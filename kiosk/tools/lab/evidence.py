"""The evidence of a lab package, computed: software identification, par sheets, simulation
confirmations, the RNG's known answers, cutoffs and short statistical runs, and the operator's
configuration options.  Every figure here is the same on every run (fixed seeds)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kiosk import __version__
from kiosk.kernel import integrity
from kiosk.kernel.analysis import families
from kiosk.kernel.analysis.model import ParSheet, fraction_json
from kiosk.terminal.core.config import TerminalConfig, to_dict
from kiosk.terminal.service.functions.config import FIELDS
from kiosk.terminal.service.functions.house_edge import wager_tables
from rng import selftest, stats
from rng.deck import Deck
from rng.generator import Csprng, RngConfig
from rng.health import Cutoffs

#: seeds whose keyed software check the package lists (a lab can ask for any other)
SOFTWARE_SEEDS = ("00", "0123456789abcdef", "ff" * 32)
#: the seed of the simulation confirmations and of the statistical runs
SIMULATION_SEED = 20261126
#: the most games a confirmation run may play (the command's --games limit)
MAX_GAMES = 10_000_000

#: what an operator may set, and its limit, for every field of the service menu's
#: configuration (kiosk.terminal.service.functions.config.FIELDS); a test keeps the two lists equal
FIELD_LIMITS: dict[str, str] = {
    "terminal_id": "1 to 16 ASCII characters; must be the id in the terminal's host certificate",
    "venue": "non-empty text; printed on every voucher",
    "denomination": "positive whole cents; every wager limit is a whole number of credits",
    "min_wager": "positive, a whole number of credits, at most max_wager",
    "max_wager": "positive, a whole number of credits, at most table_max",
    "table_max": "positive, a whole number of credits, at most credit_limit",
    "credit_limit": "positive, at least table_max; notes beyond it are returned",
    "handpay_limit": "positive; a single win at or above it locks for an attendant",
    "ticket_out_limit": "positive; a cash-out above it is a handpay",
    "accepted_notes": "at least one note value in cents",
    "decision_seconds": "0 (the default: no timer, the round waits for the player) or 1 to 600"
    " whole seconds; the rules' stated default is taken when it runs out (decision 0054)",
    "host_timeout_seconds": "positive whole seconds; a longer silence disables play at the end"
    " of the game",
    "voucher_expiry_days": "positive whole days; printed on every voucher",
    "withdrawal_lock_hours": "1 to 8760 whole hours; a second withdrawn journal head within it"
    " locks the terminal for the operator",
    "language": "en or es",
    "host_address": "non-empty HOST:PORT of the accounting host",
    "responsible_gaming_en": "one printable line of at most 80 characters, or empty for the"
    " built-in line; shown in attract mode in English",
    "responsible_gaming_es": "one printable line of at most 80 characters, or empty for the"
    " built-in line; shown in attract mode in Spanish",
}
#: when a change is allowed at all
CHANGE_RULE = (
    "Changes only through the service menu's operator role (PIN), with zero credits and no game"
    " in progress; every change is journaled with a new configuration version; a signed"
    " configuration file older than the one in force is refused (docs/service.md)."
)


def software_identification(seeds: Sequence[str] = SOFTWARE_SEEDS) -> tuple[dict[str, Any], str]:
    """(version, manifest digest, keyed checks for ``seeds``), and the manifest's text."""
    made = integrity.manifest()
    ident = {
        "version": __version__,
        "packages": list(made.packages),
        "files": len(made.entries),
        "manifest_sha256": made.digest,
        "keyed_checks": [
            {"seed": seed, "hmac_sha256": integrity.keyed_check(integrity.parse_seed(seed))}
            for seed in seeds
        ],
        "how": "HMAC-SHA256(seed, for each file: name, 0x00, size as 8 bytes big-endian, bytes);"
        " the service menu's software check, `turbokiosk software --seed HEX` and the host's"
        " authenticate command give the same answer (kiosk/kernel/integrity.py)",
    }
    return ident, made.text()


def par_sheet(edition: str) -> ParSheet:
    """The exact par sheet of ``edition`` with its default pay tables."""
    return families.par_family(edition).par_sheet_function(edition)({})


def edges_by_paytable(edition: str) -> list[dict[str, Any]]:
    """Every shipped pay table of every wager that has a choice, with its exact house edge."""
    family = families.par_family(edition)
    rows: list[dict[str, Any]] = []
    for choice in wager_tables(edition):
        for table in choice.tables:
            try:
                _basis, compute = family.edge_plan(edition, choice.wager, table)
            except ValueError:
                continue  # a choice that turns the wager off ("off") has no edge
            edge = compute()
            rows.append(
                {
                    "wager": choice.wager,
                    "label": choice.label,
                    "paytable": table,
                    "default": table == choice.default,
                    "house_edge": fraction_json(edge),
                    "house_edge_float": float(edge),
                }
            )
    return rows


def simulation(
    edition: str,
    games: int,
    seed: int = SIMULATION_SEED,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """A seeded confirmation run of ``edition`` (one seat, default tables) against its par,
    on every core, each wager's standard error from the par sheet's exact variance.  A Ctrl-C
    is :class:`KeyboardInterrupt` here: a partial run is no confirmation."""
    run = families.par_family(edition).simulate(
        edition, games, {}, seed=seed, seats=1, mode=None, progress=progress
    )
    if run.interrupted:
        raise KeyboardInterrupt
    return {
        "edition": edition,
        "games": games,
        "seed": seed,
        "agrees": run.agrees(),
        "bound_standard_errors": run.bound,
        "checks": run.checks,
        "wagers": [
            {
                "wager": w.wager_id,
                "observed_edge": w.observed_edge,
                "standard_error": w.std_error,
                "standard_error_basis": w.error_basis,
                "exact_edge": fraction_json(w.exact_edge),
                "exact_edge_float": float(w.exact_edge),
                "z": w.z,
            }
            for w in run.pooled
        ],
    }


def _reproducible_reader(seed: bytes) -> Callable[[int], bytes]:
    reads = 0

    def read(n_bytes: int) -> bytes:
        nonlocal reads
        reads += 1
        return hashlib.shake_256(seed + reads.to_bytes(8, "big")).digest(n_bytes)

    return read


@dataclass(frozen=True)
class RngRuns:
    """How many decks and draws the statistical runs use."""

    decks: int = 20_000
    draws: int = 200_000


def rng_evidence(runs: RngRuns = RngRuns()) -> dict[str, Any]:
    """Known answers, health-test cutoffs, the power-up self-test and short statistical runs
    of the production generator on a reproducible entropy source."""
    known = [
        {
            "source": answer.source,
            "expected": answer.returned_bits,
            "passed": selftest.run_known_answer(answer).hex() == answer.returned_bits,
        }
        for answer in selftest.KNOWN_ANSWERS
    ]
    config = RngConfig()
    cutoffs = Cutoffs.derive(config.claimed_entropy, config.alpha_log2)
    production = Csprng()
    seed = str(SIMULATION_SEED).encode()
    generator = Csprng(entropy_read=_reproducible_reader(seed), clock=lambda: 0.0)
    deck = Deck(generator)
    decks = []
    for _ in range(runs.decks):
        deck.new_round()
        decks.append(deck.deal(deck.remaining))
    draws = [generator.randbelow(52) for _ in range(runs.draws)]
    results = [
        stats.card_position_test(decks, 52),
        stats.frequency_test(draws, 52),
        stats.runs_test(draws, 52),
        stats.serial_correlation_test(draws, 52),
        stats.serial_pairs_test(draws, 52),
    ]
    return {
        "algorithm": "HMAC_DRBG (NIST SP 800-90A) with SHA-256, OS entropy with SP 800-90B"
        " health tests, rejection scaling, Fisher-Yates shuffle (docs/rng.md)",
        "known_answer_tests": known,
        "power_up_self_test": "passed" if production.failure is None else production.failure,
        "health_test_cutoffs": {
            "claimed_min_entropy_bits_per_byte": str(cutoffs.h),
            "alpha": f"2**-{cutoffs.alpha_log2}",
            "repetition_count_cutoff": cutoffs.rct,
            "adaptive_proportion_cutoff": cutoffs.apt,
            "adaptive_proportion_window": cutoffs.apt_window,
        },
        "statistical_runs": {
            "entropy": f"SHAKE-256 of seed {SIMULATION_SEED} (reproducible) through the"
            " production Csprng, Deck and scaling",
            "decks": runs.decks,
            "draws_below_52": runs.draws,
            "results": [{"line": r.line(), "passed": r.passed} for r in results],
        },
        "long_runs": "tox -e rng-stats: rngtest (FIPS 140-2), a dieharder subset and NIST"
        " SP 800-22 on large samples; the last reports are in rng/ of this package",
    }


def configuration_options() -> dict[str, Any]:
    """Every field an operator may change, its default and its limit, and the editions' pay
    tables an operator may choose."""
    defaults = to_dict(TerminalConfig())
    return {
        "rule": CHANGE_RULE,
        "fields": [
            {
                "name": spec.name,
                "label": spec.label,
                "kind": spec.kind,
                "default": defaults.get(spec.name),
                "limit": FIELD_LIMITS[spec.name],
                **({"choices": list(spec.choices)} if spec.choices else {}),
            }
            for spec in FIELDS
        ],
        "pay_tables": [
            {
                "edition": edition,
                "wager": choice.wager,
                "tables": list(choice.tables),
                "default": choice.default,
            }
            for edition in families.edition_ids()
            for choice in wager_tables(edition)
        ],
    }
