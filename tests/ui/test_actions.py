"""The player's touches are typed actions: every one has its handler, and the .kv files and
screens name them (no action spelled as a string)."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from ui.terminal import actions
from ui.terminal.actions import PlayerAction, Touch
from ui.terminal.app import _RECORDS, _TOUCHES, KV_DIR

UI = Path(actions.__file__).resolve().parent


def test_every_action_has_exactly_one_handler() -> None:
    assert set(_TOUCHES) == set(Touch)
    records = set(typing.get_args(PlayerAction)) - {Touch}
    assert set(_RECORDS) == records


def test_the_kv_files_and_screens_call_the_player_with_typed_actions_only() -> None:
    records = {cls.__name__ for cls in typing.get_args(PlayerAction)} - {"Touch"}
    sites = matched = 0
    for path in [*KV_DIR.glob("*.kv"), *UI.glob("screens/*.py"), UI / "app.py"]:
        source = path.read_text()
        sites += source.count(".player(")
        for member, record in re.findall(r"\.player\((?:Touch\.(\w+)\)|(\w+)\()", source):
            assert member in Touch.__members__ or record in records, (path, member or record)
            matched += 1
    assert sites == matched >= 24  # every call matched: none spells an action as a string
    assert len(Touch) + len(records) == 23
