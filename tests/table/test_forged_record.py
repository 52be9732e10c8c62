"""Issue 23's evidence, kept as it was found: a seat's loss edited into a win in the table
journal with the chain recomputed showed in ``table meters``, and ``table serve`` started.  Since
decision 0036 the journal's heads are signed by the table's own signer: the first ``serve`` of
this release adopts (signs) the journal a previous release wrote, and after the forgery
``serve`` locks with one line while ``meters`` and ``audit`` refuse."""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
from pathlib import Path

from kiosk.cli import main
from kiosk.table.core.controller import TableController
from kiosk.table.core.journal import TableJournal
from kiosk.terminal.hostlink import pki
from tests.helpers.table import CountingDecks, config, play
from tests.helpers.table_cli import env, turbokiosk
from tests.table.tamper import forge_a_win


def cli(where: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["table", "--data-dir", str(where), *args])
    return code, out.getvalue(), err.getvalue()


def test_a_loss_forged_into_a_win_is_refused_by_serve_meters_and_audit(tmp_path: Path) -> None:
    """Issue 23's evidence: a seat's loss edited into a win in the table journal, the chain
    recomputed, showed in ``table meters`` and ``table serve`` started.  Now the journal is
    signed: serve locks with one line, meters and audit refuse."""
    where = tmp_path / "table"
    where.mkdir()
    path = where / "table-T1.sqlite3"
    ctl = TableController(config(), path, CountingDecks())  # as a previous release wrote it
    play(ctl, 3)
    ctl.close()
    pki_dir = tmp_path / "pki"
    pki.ensure_pki(pki_dir, ("table-T1",))
    serve = [
        *["table", "--data-dir", str(where), "serve", "--edition", "stadium-3cp"],
        *["--pki-dir", str(pki_dir), "--listen", "127.0.0.1:0"],
    ]
    first = subprocess.Popen(turbokiosk(*serve), env=env(), stdout=subprocess.PIPE, text=True)
    assert first.stdout is not None
    try:
        lines = [first.stdout.readline()]
        while "serving on" not in lines[-1] and lines[-1]:
            lines.append(first.stdout.readline())
        assert "serving on" in lines[-1], lines
    finally:
        first.terminate()
        first.wait(timeout=60)
    code, honest, _ = cli(where, "meters", "--json")
    assert code == 0
    forged = forge_a_win(path, random.Random(1))
    code, out, err = cli(where, "meters", "--json")
    assert (code, out) == (1, ""), f"{forged}: the forged payout shown"
    assert len(err.strip().splitlines()) == 1 and "signature does not verify" in err
    again = subprocess.run(
        turbokiosk(*serve), env=env(), capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 3 and "serving on" not in again.stdout
    assert again.stderr.strip().splitlines() == [
        "turbokiosk: table T1 locked: table journal head row "
        f"{TableJournal(path, 'T1', readonly=True).head[0]}: the signature does not verify"
    ]
    code, _, err = cli(where, "audit")
    assert code == 1 and "signature does not verify" in err
    assert any("unsigned table journal of a previous release adopted" in x for x in lines)
    assert json.loads(honest)["table"]["paid"] >= 0
