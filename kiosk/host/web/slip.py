"""A handpay slip as a PDF to print and sign (fpdf2, in the host extra only).

One A5 page: the terminal, seat, kind and amount (in figures and in words, as on a voucher),
when the terminal locked up for it and when (and by whom) it was reset, who printed the slip
and when, and lines for the attendant's, the witness's and the player's signatures.  The same
handpay printed by the same user at the same instant gives the same bytes.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fpdf import FPDF

from kiosk.host.web.floor import Handpay
from kiosk.kernel.money_text import dollars
from kiosk.kernel.time_text import local_stamp
from kiosk.terminal.devices.voucher import amount_in_words


def _latin(text: str) -> str:
    """The core fonts' characters only (an odd name cannot break the slip)."""
    return text.encode("latin-1", "replace").decode("latin-1")


def handpay_slip_pdf(handpay: Handpay, printed_by: str, printed_ms: int) -> bytes:
    """The slip of ``handpay``, printed by ``printed_by`` at ``printed_ms``."""
    pdf = FPDF(format=(148, 210))  # A5, in millimetres
    pdf.set_creation_date(datetime.fromtimestamp(printed_ms / 1000, tz=UTC))
    pdf.set_title(f"Handpay {handpay.terminal_id} {dollars(handpay.value_cents)}")
    pdf.set_author("TurboKiosk host")
    pdf.set_auto_page_break(auto=False)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 20)
    pdf.cell(0, 12, "HANDPAY SLIP", new_x="LMARGIN", new_y="NEXT", align="C")
    pdf.set_font("Helvetica", "B", 28)
    pdf.cell(0, 16, dollars(handpay.value_cents), new_x="LMARGIN", new_y="NEXT", align="C")
    pdf.set_font("Helvetica", "", 10)
    words = amount_in_words(handpay.value_cents)
    pdf.multi_cell(0, 5, words, new_x="LMARGIN", new_y="NEXT", align="C")
    pdf.ln(4)
    status = (
        f"paid {local_stamp(handpay.paid_ms)}"
        + (f" by {handpay.paid_by}" if handpay.paid_by else "")
        if handpay.paid_ms
        else "NOT PAID YET (the terminal is waiting for the attendant)"
    )
    rows = [
        ("Terminal", handpay.terminal_id),
        ("Seat", str(handpay.seat)),
        ("Kind", handpay.what),
        ("Amount", dollars(handpay.value_cents)),
        ("Locked up", local_stamp(handpay.at_ms)),
        ("Status", status),
        ("Journal row", f"{handpay.journal_seq} ({handpay.message_id})"),
        ("Slip printed", f"{local_stamp(printed_ms)} by {printed_by}"),
    ]
    for label, value in rows:
        pdf.set_font("Helvetica", "B", 11)
        pdf.cell(32, 7, label)
        pdf.set_font("Helvetica", "", 11)
        pdf.multi_cell(0, 7, _latin(value), new_x="LMARGIN", new_y="NEXT", align="L")
    pdf.ln(8)
    for who in ("Attendant", "Witness (supervisor)", "Player"):
        pdf.ln(10)
        y = pdf.get_y()
        pdf.line(pdf.l_margin, y, pdf.w - pdf.r_margin, y)
        pdf.set_font("Helvetica", "", 9)
        pdf.cell(0, 5, f"{who}: signature, name and badge", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
