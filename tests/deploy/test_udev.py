"""The udev rules: rendered from the configuration, udev itself parses them without a complaint
(``udevadm test`` reads every rules file and names each bad line), and each device gets its
stable name only when vendor, product and serial all match."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.deploy.kit import KIT, SAMPLE, in_namespace, need_root, need_tool, render

pytestmark = pytest.mark.deploy

TEMPLATE = KIT / "udev/70-turbokiosk-devices.rules.in"
NAME = "70-turbokiosk-devices.rules"


def udev_complaints(rules_dir: Path) -> list[str]:
    """What udev says about the files in ``rules_dir`` when it loads them as /etc/udev/rules.d
    (bind-mounted in a private mount namespace; the host's rules are untouched)."""
    udevadm = need_tool("udevadm")
    result = in_namespace(
        f"mount --bind {rules_dir} /etc/udev/rules.d; "
        f"{udevadm} test --action=add /sys/class/tty/tty0 2>&1 || true"
    )
    assert "Reading rules file: /etc/udev/rules.d/" in result.stdout, result.stdout[-2000:]
    return [line for line in result.stdout.splitlines() if line.startswith("/etc/udev/rules.d/")]


@pytest.fixture
def rules_dir(tmp_path: Path) -> Path:
    (tmp_path / NAME).write_text(render(TEMPLATE))
    return tmp_path


def test_rules_parse_cleanly(rules_dir: Path) -> None:
    need_root()
    assert udev_complaints(rules_dir) == []


def test_udev_names_a_bad_line(rules_dir: Path) -> None:
    """The check can fail: a broken rule is reported with its file and line."""
    need_root()
    text = render(TEMPLATE).replace('ATTRS{serial}=="BV000001"', 'ATTRS{serial}="BV000001"')
    (rules_dir / NAME).write_text(text)
    complaints = udev_complaints(rules_dir)
    assert len(complaints) == 1 and complaints[0].startswith(f"/etc/udev/rules.d/{NAME}:")


@pytest.mark.parametrize(
    ("device", "link"), [("VALIDATOR", "bill-validator"), ("PRINTER", "printer")]
)
def test_each_device_matches_vendor_product_and_serial(device: str, link: str) -> None:
    lines = [
        ln
        for ln in render(TEMPLATE).splitlines()
        if f'turbokiosk/{link}"' in ln and not ln.startswith("#")
    ]
    assert len(lines) == 1
    rule = lines[0]
    for attr, key in (("idVendor", "VENDOR"), ("idProduct", "PRODUCT"), ("serial", "SERIAL")):
        assert f'ATTRS{{{attr}}}=="{SAMPLE[f"{device}_{key}"]}"' in rule
    assert re.search(r'SYMLINK\+="turbokiosk/' + link + '"', rule)
    assert 'GROUP="dialout"' in rule and 'MODE="0660"' in rule
