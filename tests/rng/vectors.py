"""Readers for the NIST CAVP and SP 800-90B data files kept in ``tests/rng/data``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

#: the public reference data, copied into the repository (provenance in its README.md)
RNG_DATA = Path(__file__).resolve().parent / "data"
VECTOR_SETS = ("no_reseed", "pr_false", "pr_true")


def data_file(*parts: str) -> Path:
    """A file of the RNG reference data; a missing file fails the test (never skips it)."""
    path = RNG_DATA.joinpath(*parts)
    if not path.is_file():
        pytest.fail(f"RNG reference data missing: {path}")
    return path


@dataclass(frozen=True)
class DrbgVector:
    """One CAVP HMAC_DRBG record."""

    name: str  # e.g. "pr_true/block 15/COUNT=3 (PR=True, P=256, AI=256)"
    prediction_resistance: bool
    entropy_input: bytes
    nonce: bytes
    personalization: bytes
    entropy_input_reseed: bytes | None  # pr_false only
    additional_input_reseed: bytes | None
    additional_inputs: tuple[bytes, bytes]
    entropy_inputs_pr: tuple[bytes, ...]  # pr_true only: one per generate
    returned_bits: bytes
    returned_bits_len: int  # bits


def hmac_sha256_vectors(vector_set: str) -> list[DrbgVector]:
    """The ``[SHA-256]`` records of one ``HMAC_DRBG.rsp``."""
    text = data_file("drbgvectors", vector_set, "HMAC_DRBG.rsp").read_text()
    vectors: list[DrbgVector] = []
    section = ""
    block = -1
    params: dict[str, str] = {}
    record: dict[str, list[str]] = {}

    def flush() -> None:
        if section == "SHA-256" and "ReturnedBits" in record:
            one = {key: values[0] for key, values in record.items()}
            vectors.append(
                DrbgVector(
                    name=(
                        f"{vector_set}/block {block:02d}/COUNT={one['COUNT']}"
                        f" (PR={params['PredictionResistance']},"
                        f" P={params['PersonalizationStringLen']},"
                        f" AI={params['AdditionalInputLen']})"
                    ),
                    prediction_resistance=params["PredictionResistance"] == "True",
                    entropy_input=bytes.fromhex(one["EntropyInput"]),
                    nonce=bytes.fromhex(one["Nonce"]),
                    personalization=bytes.fromhex(one["PersonalizationString"]),
                    entropy_input_reseed=(
                        bytes.fromhex(one["EntropyInputReseed"])
                        if "EntropyInputReseed" in one
                        else None
                    ),
                    additional_input_reseed=(
                        bytes.fromhex(one["AdditionalInputReseed"])
                        if "AdditionalInputReseed" in one
                        else None
                    ),
                    additional_inputs=(
                        bytes.fromhex(record["AdditionalInput"][0]),
                        bytes.fromhex(record["AdditionalInput"][1]),
                    ),
                    entropy_inputs_pr=tuple(
                        bytes.fromhex(value) for value in record.get("EntropyInputPR", [])
                    ),
                    returned_bits=bytes.fromhex(one["ReturnedBits"]),
                    returned_bits_len=int(params["ReturnedBitsLen"]),
                )
            )
        record.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            flush()
            inner = line[1:-1]
            if "=" in inner:
                key, value = (part.strip() for part in inner.split("=", 1))
                params[key] = value
                if key == "PredictionResistance" and section == "SHA-256":
                    block += 1
            else:
                section = inner
        elif "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            if key == "COUNT":
                flush()
            record.setdefault(key, []).append(value)
    flush()
    return vectors
