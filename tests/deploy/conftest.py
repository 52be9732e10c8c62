"""Session fixtures of the deployment tests: one installed chroot for every module that needs it."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest

from tests.deploy.chroot import HOST_CREDENTIALS, VERSION, Chroot, made_chroot


@pytest.fixture(scope="session")
def chroot() -> Iterator[Chroot]:
    """A bootstrapped bookworm tree with the kit, the bundle and the PKI in /srv/kit."""
    with made_chroot() as made:
        yield made


@pytest.fixture(scope="session")
def first_install(chroot: Chroot) -> subprocess.CompletedProcess[str]:
    """The installer's first run: configuration, release key, bundle, host credentials and
    where the devices' copies of their pairing keys go."""
    return chroot.install(
        "--config /srv/kit/terminal.conf --trust-key /srv/kit/release-key.pub.pem",
        f"--bundle /srv/kit/turbokiosk-{VERSION}.tkb",
        HOST_CREDENTIALS,
        "--device-copies /srv/kit/device-copies",
    )
