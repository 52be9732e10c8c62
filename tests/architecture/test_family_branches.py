"""No layer outside kiosk/kernel/games and the per-family modules tests which game family it
holds."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.family_branches import ROOT, family_branches, scanned_files


def test_no_family_branch_outside_the_games_layer_and_the_family_modules() -> None:
    found = family_branches()
    assert not found, "family branches outside kiosk/kernel/games and the families packages:\n" + (
        "\n".join(map(str, found))
    )


def test_the_scan_covers_every_layer_and_skips_only_the_family_modules() -> None:
    scanned = {p.relative_to(ROOT).as_posix() for p in scanned_files()}
    for layer_file in (
        "kiosk/terminal/presentation/table.py",
        "kiosk/terminal/textui/show.py",
        "kiosk/terminal/service/functions/house_edge.py",
        "kiosk/tools/cli/par_sheet.py",
        "ui/terminal/app.py",
    ):
        assert layer_file in scanned
    assert not any(p.startswith("kiosk/kernel/games/") for p in scanned)
    assert not any("/families/" in p for p in scanned)


def test_the_scan_finds_each_kind_of_branch(tmp_path: Path) -> None:
    """The check can fail: every kind of branch it looks for, planted in a layer, is found."""
    source = '''
from kiosk.kernel.games.turbo import TurboRules
from kiosk.kernel.games.registry import STADIUM_ID

def view(game, edition):
    """Mentions "stadium" in a docstring, which is allowed."""
    if isinstance(game, TurboRules):
        return 1
    if hasattr(game, "edition"):
        return 2
    if edition == "stadium-3cp" or edition == STADIUM_ID:
        return 3
    match edition:
        case "turbo-football":
            return 4
    return {"turbo": 0.3}[screen_name(name="stadium")]
'''
    layer = tmp_path / "kiosk" / "terminal" / "presentation"
    layer.mkdir(parents=True)
    (layer / "planted.py").write_text(source)
    allowed = tmp_path / "kiosk" / "terminal" / "presentation" / "families"
    allowed.mkdir()
    (allowed / "turbo.py").write_text(source)
    (tmp_path / "kiosk" / "kernel" / "games").mkdir(parents=True)
    (tmp_path / "kiosk" / "kernel" / "games" / "turbo.py").write_text(source)
    found = family_branches(tmp_path)
    assert {b.path for b in found} == {"kiosk/terminal/presentation/planted.py"}
    assert [b.line for b in found] == [2, 7, 9, 11, 14, 16]
    kinds = {b.kind for b in found}
    assert "isinstance against a family's rules" in kinds
    assert "hasattr of a family's attribute" in kinds
    assert "match on a family or edition name" in kinds
    assert "import of a family's rules class" in kinds
    ast.parse(source)  # the planted code is valid Python
