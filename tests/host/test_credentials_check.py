"""A terminal's host credentials are checked before a terminal is given them (install.sh) and
when the kiosk starts: each way they can be wrong is named."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.terminal.hostlink import pki
from tests.helpers.host_rig import Pki


def test_good_credentials_name_the_terminal(pki_set: Pki) -> None:
    check = pki.check_terminal_credentials(pki_set.terminal("TK-A"))
    assert check.terminal_id == "TK-A"
    assert check.issuer == "TurboKiosk Host CA"
    assert check.not_after > dt.datetime.now(dt.UTC) + dt.timedelta(days=800)
    assert check.to_text().startswith("terminal TK-A: certificate issued by TurboKiosk Host CA")


def _mixed(pki_set: Pki, **parts: bytes) -> pki.Credentials:
    good = pki_set.terminal("TK-A")
    return pki.Credentials(
        parts.get("ca", good.ca), parts.get("cert", good.cert), parts.get("key", good.key)
    )


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("rogue-ca", "not issued by the CA 'Rogue CA'"),
        ("other-key", "not the certificate's key"),
        ("host-cert", "not for client authentication"),
        ("ca-is-a-terminal", "is not a CA certificate"),
        ("garbage-cert", "certificate: not a PEM certificate"),
        ("garbage-ca", "CA: not a PEM certificate"),
        ("garbage-key", "key: not an unencrypted PEM private key"),
    ],
)
def test_wrong_credentials_are_named(pki_set: Pki, case: str, message: str) -> None:
    rogue = pki.credentials(pki_set.rogue, "TK-A")
    host = pki_set.host()
    credentials = {
        "rogue-ca": _mixed(pki_set, ca=rogue.ca),
        "other-key": _mixed(pki_set, key=pki_set.terminal("TK-B").key),
        "host-cert": _mixed(pki_set, cert=host.cert, key=host.key),
        "ca-is-a-terminal": _mixed(pki_set, ca=pki_set.terminal("TK-B").cert),
        "garbage-cert": _mixed(pki_set, cert=b"-----BEGIN CERTIFICATE-----\nAAAA\n"),
        "garbage-ca": _mixed(pki_set, ca=b"not a certificate"),
        "garbage-key": _mixed(pki_set, key=b"-----BEGIN PRIVATE KEY-----\nAAAA\n"),
    }[case]
    with pytest.raises(pki.PkiError, match=message):
        pki.check_terminal_credentials(credentials)


def test_validity_is_checked_against_now(pki_set: Pki) -> None:
    expired = pki.Credentials.load(
        pki_set.dir / pki.CA_CERT, pki_set.expired / "TK-A.crt", pki_set.expired / "TK-A.key"
    )
    with pytest.raises(pki.PkiError, match="expired on"):
        pki.check_terminal_credentials(expired)
    good = pki_set.terminal("TK-A")
    with pytest.raises(pki.PkiError, match="not valid before"):
        pki.check_terminal_credentials(good, now=dt.datetime(2000, 1, 1, tzinfo=dt.UTC))


def test_common_name_of_a_certificate(pki_set: Pki) -> None:
    assert pki.common_name(pki_set.terminal("TK-B").cert) == "TK-B"
    with pytest.raises(pki.PkiError, match="not a PEM certificate"):
        pki.common_name(b"CERT")


def _check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "host", "check-credentials", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_command_line_check(pki_set: Pki, tmp_path: Path) -> None:
    ca = str(pki_set.dir / pki.CA_CERT)
    cert, key = str(pki_set.dir / "TK-A.crt"), str(pki_set.dir / "TK-A.key")
    ok = _check("--ca", ca, "--cert", cert, "--key", key, "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["terminal_id"] == "TK-A"
    wrong = _check("--ca", ca, "--cert", cert, "--key", str(pki_set.dir / "TK-B.key"))
    assert wrong.returncode == 2
    assert wrong.stderr.strip() == "host: key: it is not the certificate's key"
    missing = _check("--ca", ca, "--cert", str(tmp_path / "none.crt"), "--key", key)
    assert missing.returncode == 2 and "cannot read credentials" in missing.stderr
