"""The RNG reference data in the repository is byte for byte what its README lists."""

from __future__ import annotations

import hashlib
import re

from tests.rng.vectors import RNG_DATA


def test_every_data_file_matches_the_checksum_in_its_readme() -> None:
    readme = (RNG_DATA / "README.md").read_text()
    listed = {
        name: digest
        for digest, name in re.findall(
            r"^([0-9a-f]{64})  (\S+)$", readme.split("## Provenance")[0], re.M
        )
    }
    present = {
        str(p.relative_to(RNG_DATA))
        for p in RNG_DATA.rglob("*")
        if p.is_file() and p.name != "README.md"
    }
    assert set(listed) == present
    for name, digest in listed.items():
        assert hashlib.sha256((RNG_DATA / name).read_bytes()).hexdigest() == digest, name
