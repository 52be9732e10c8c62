"""The voucher's text, its ITF pattern, and its rendering read back by a barcode scanner."""

from pathlib import Path

import pytest
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from kiosk.terminal.devices.ports import Voucher
from kiosk.terminal.devices.voucher import (
    amount_in_figures,
    amount_in_words,
    grouped_number,
    itf_modules,
    number_in_words,
    render_png,
    voucher_lines,
)
from tests.helpers.device_link import VOUCHER


@pytest.mark.parametrize(
    ("cents", "words"),
    [
        (0, "ZERO DOLLARS AND ZERO CENTS"),
        (1, "ZERO DOLLARS AND ONE CENT"),
        (101, "ONE DOLLAR AND ONE CENT"),
        (2000, "TWENTY DOLLARS AND ZERO CENTS"),
        (123_456, "ONE THOUSAND TWO HUNDRED THIRTY-FOUR DOLLARS AND FIFTY-SIX CENTS"),
        (100_000_000, "ONE MILLION DOLLARS AND ZERO CENTS"),
        (1_100_101_999, "ELEVEN MILLION ONE THOUSAND NINETEEN DOLLARS AND NINETY-NINE CENTS"),
    ],
)
def test_amount_in_words(cents, words):
    assert amount_in_words(cents) == words


def test_number_words_are_unique_up_to_ten_thousand():
    words = {number_in_words(n) for n in range(10_000)}
    assert len(words) == 10_000


def test_figures_and_grouping():
    assert amount_in_figures(123_456) == "$1,234.56"
    assert grouped_number("001234567890123456") == "00-1234-5678-9012-3456"
    lines = voucher_lines(VOUCHER)
    assert lines[2] == "VALIDATION 00-1234-5678-9012-3456"
    assert "2025-11-24" in lines[3] and "TICKET # 0007" in lines[3]
    assert lines[7] == "VOID AFTER 2025-12-24 (30 DAYS)"
    with pytest.raises(ValueError, match="18 digits"):
        voucher_lines(Voucher("12345", 1, "T", "V", 0, 1, 1))


def test_itf_pattern_has_start_and_stop():
    modules = itf_modules(VOUCHER.validation_number)
    assert modules.startswith("1010")  # narrow bar, space, bar, space
    assert modules.endswith("11101")  # wide bar, narrow space, narrow bar
    # 9 digit pairs; each digit has 2 wide (3 modules) and 3 narrow elements: 9 modules
    assert len(modules) == 4 + 9 * 2 * 9 + 5


@settings(max_examples=15, deadline=None)
@given(st.text("0123456789", min_size=18, max_size=18), st.integers(1, 10**9))
def test_rendered_voucher_scans_back(tmp_path_factory, number, cents):
    path = tmp_path_factory.mktemp("v") / "v.png"
    render_png(Voucher(number, cents, "TK-0001", "Demo Casino", 1_764_000_000_000, 30, 1), path)
    (code,) = zxingcpp.read_barcodes(Image.open(path))
    assert (code.format, code.text) == (zxingcpp.BarcodeFormat.ITF, number)


def test_void_voucher_is_marked(tmp_path: Path):
    plain = render_png(VOUCHER, tmp_path / "a.png")
    void = render_png(VOUCHER, tmp_path / "b.png", void=True)
    assert Image.open(plain).tobytes() != Image.open(void).tobytes()
