"""The technician's integrity checks: RNG self-test, software authentication, store check."""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

from kiosk.kernel import integrity
from kiosk.terminal.service import audit_log
from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import Context, Outcome, ServiceError, ServiceFunction
from kiosk.terminal.store.audit import audit
from kiosk.terminal.store.journal import IntegrityError
from rng.entropy import DEFAULT_ALPHA_LOG2, DEFAULT_CLAIMED_ENTROPY
from rng.errors import SelfTestFailure
from rng.health import Cutoffs
from rng.selftest import KNOWN_ANSWERS, check_health_tests, run_known_answer


def rng_selftest(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Known-answer tests of the DRBG, the health tests' own check, the generator's counters."""
    generator = ctx.terminal.rng
    claimed = generator.config.claimed_entropy if generator else DEFAULT_CLAIMED_ENTROPY
    alpha = generator.config.alpha_log2 if generator else DEFAULT_ALPHA_LOG2
    cutoffs = Cutoffs.derive(claimed, alpha)
    results: list[dict[str, Any]] = []
    for answer in KNOWN_ANSWERS:
        try:
            got = run_known_answer(answer)
            passed = hmac.compare_digest(got, bytes.fromhex(answer.returned_bits))
        except Exception as exc:  # any failure of the DRBG is a failed known answer
            passed, got = False, repr(exc).encode()
        results.append(
            {
                "test": f"HMAC_DRBG known answer {answer.source}",
                "passed": passed,
                "kind": "known_answer",
                "source": answer.source,
            }
        )
    try:
        check_health_tests(cutoffs)
        health_problem = None
    except SelfTestFailure as exc:
        health_problem = str(exc)
    results.append(
        {
            "test": f"health tests trip at their cutoffs (RCT {cutoffs.rct}, APT "
            f"{cutoffs.apt}/{cutoffs.apt_window})",
            "passed": health_problem is None,
            "kind": "health",
            "rct": cutoffs.rct,
            "apt": cutoffs.apt,
            "apt_window": cutoffs.apt_window,
            **({"problem": health_problem} if health_problem else {}),
        }
    )
    lines = [f"{'pass' if r['passed'] else 'FAIL'}  {r['test']}" for r in results]
    status: dict[str, Any] | None = None
    if generator is not None:
        st = generator.status()
        status = {
            "healthy": st.healthy,
            "failure": st.failure,
            "reseeds": st.reseeds,
            "requests_since_reseed": st.requests_since_reseed,
            "seconds_since_reseed": round(st.seconds_since_reseed, 1),
            "bytes_out": st.bytes_out,
        }
        lines.append(
            f"Generator: {'healthy' if st.healthy else 'FAILED: ' + str(st.failure)}; "
            f"{st.reseeds} reseeds, {st.requests_since_reseed} requests and "
            f"{st.seconds_since_reseed:.0f} s since the last, {st.bytes_out:,} bytes out"
        )
    else:
        lines.append("Generator counters: kept by the terminal's process (not this one)")
    lines.append(
        f"Health-test cutoffs: claimed {cutoffs.h} bits/byte, alpha 2**-{cutoffs.alpha_log2}"
    )
    passed = all(r["passed"] for r in results)
    title = "RNG self-test " + ("passed" if passed else "FAILED")
    data = {
        "passed": passed,
        "results": results,
        "status": status,
        "cutoffs": {"h": cutoffs.h, "alpha_log2": cutoffs.alpha_log2},
    }
    return Outcome(title, (title, *lines), data, ok=passed)


def software_manifest(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """SHA-256 of every installed program file, and the digest of the manifest."""
    made = integrity.manifest()
    lines = [
        f"Packages: {', '.join(made.packages)}; {len(made.entries)} program files",
        f"Manifest SHA-256: {made.digest}",
    ]
    if args.get("full"):
        lines += [entry.line() for entry in made.entries]
    data = {
        "digest": made.digest,
        "files": len(made.entries),
        "packages": list(made.packages),
        "entries": [{"path": x.path, "size": x.size, "sha256": x.sha256} for x in made.entries],
    }
    return Outcome("Software authentication", tuple(lines), data)


def software_hmac(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """HMAC-SHA256 of every program file with a seed typed in (hex)."""
    try:
        seed = integrity.parse_seed(str(args.get("seed", "")))
    except ValueError as exc:
        raise ServiceError(str(exc), "err_seed") from None
    value = integrity.keyed_check(seed)
    lines = (f"Seed: {seed.hex()}", f"HMAC-SHA256: {value}")
    return Outcome("Software authentication (seeded)", lines, {"seed": seed.hex(), "hmac": value})


def store_check(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """The non-volatile store: journal chain, checksums, replay, credits, meters, audit log."""
    report = audit(ctx.terminal.data_dir)
    with ctx.terminal.reading() as journal:
        try:
            records = audit_log.verify(journal)
            report.passed(f"service audit log: chain of {records} records holds")
        except IntegrityError as exc:
            report.failed(f"service audit log: {exc}")
    lines = report.to_text().splitlines()
    title = "Store check " + ("passed" if report.ok else "FAILED")
    data = {"ok": report.ok, "checks": report.checks, "problems": report.problems}
    return Outcome(title, tuple(lines), data, ok=report.ok)


FUNCTIONS = (
    ServiceFunction(
        "rng_selftest",
        "RNG self-test",
        Role.TECHNICIAN,
        rng_selftest,
        help="DRBG known answers, health-test check, generator counters",
    ),
    ServiceFunction(
        "software",
        "Software authentication",
        Role.TECHNICIAN,
        software_manifest,
        help="SHA-256 manifest of every program file",
    ),
    ServiceFunction(
        "software_hmac",
        "Software HMAC with a seed",
        Role.TECHNICIAN,
        software_hmac,
        help="HMAC-SHA256 of every program file",
    ),
    ServiceFunction(
        "store_check",
        "Store integrity check",
        Role.TECHNICIAN,
        store_check,
        help="journal chain, checksums, replay, meters, audit log",
    ),
)
