"""Signed configuration files: round trip, and every kind of tampering refused."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.terminal.core.config import TerminalConfig, to_dict
from kiosk.terminal.service import audit_log
from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import ServiceError
from kiosk.terminal.service.functions.config_file import (
    KEY_NAME,
    SignatureError,
    export_text,
    key_id,
    signing_key,
    verified_config,
)
from tests.helpers.service_rig import ServiceRig


def test_export_then_import_restores_the_configuration(
    make_srig: Callable[..., ServiceRig], tmp_path: Path
) -> None:
    """A file goes to a terminal holding the same key: a restore, or the venue's terminals."""
    source, target = make_srig(name="a"), make_srig(name="b")
    session = source.enter(Role.OPERATOR)
    session.call("config_change", {"changes": {"venue": "Riverside", "max_wager": 2500}})
    path = tmp_path / "saved.json"
    exported = session.call("config_export", {"path": str(path)})
    assert exported.data["version"] == 2  # the version in force (1) plus one
    shutil.copy(source.data_dir / "service" / KEY_NAME, target.data_dir / "service" / KEY_NAME)
    outcome = target.enter(Role.OPERATOR).call("config_import", {"path": str(path)})
    assert outcome.lines == (
        "max_wager: $100.00 -> $25.00",
        "venue: Demo Casino -> Riverside",
        "configuration version: 0 -> 2",
    )
    assert target.runtime.state.config.venue == "Riverside"
    assert target.runtime.state.config.max_wager == 2500
    assert target.runtime.state.config_version == 2
    key = (source.data_dir / "service" / KEY_NAME).stat()
    assert key.st_mode & 0o777 == 0o600 and key.st_size == 32
    # the version is in the import's audit record
    with target.terminal.reading() as journal:
        record = audit_log.entries(journal, action="config_import", last=1)[0].record
    assert (record["before"]["config_version"], record["after"]["config_version"]) == (0, 2)


def test_an_older_file_is_refused_and_nothing_applied(srig: ServiceRig, tmp_path: Path) -> None:
    """Rolling limits back with an older, validly signed file: one line, nothing changed."""
    session = srig.enter(Role.OPERATOR)
    session.call("config_change", {"changes": {"max_wager": 2500}})  # version 1
    path = tmp_path / "old.json"
    session.call("config_export", {"path": str(path)})  # version 2
    session.call("config_change", {"changes": {"max_wager": 5000}})  # version 2
    session.call("config_change", {"changes": {"max_wager": 7500}})  # version 3
    with pytest.raises(ServiceError) as refused:
        session.call("config_import", {"path": str(path)})
    assert str(refused.value) == "configuration version 2 is not newer than the one in force, 3"
    assert srig.runtime.state.config.max_wager == 7500
    assert srig.runtime.state.config_version == 3
    # an export with an explicit newer version is the technician's way to a newer file
    newer = tmp_path / "newer.json"
    session.call("config_export", {"path": str(newer), "version": 9})
    with pytest.raises(ServiceError, match="version: 3 is not newer than the one in force, 3"):
        session.call("config_export", {"path": str(tmp_path / "x.json"), "version": 3})
    session.call("config_change", {"changes": {"max_wager": 1000}})  # version 4
    session.call("config_import", {"path": str(newer)})
    assert srig.runtime.state.config.max_wager == 7500
    assert srig.runtime.state.config_version == 9
    with pytest.raises(ServiceError, match="configuration version 9 is not newer than the one"):
        session.call("config_import", {"path": str(newer)})  # the same file twice


def test_default_export_path(srig: ServiceRig) -> None:
    outcome = srig.enter(Role.OPERATOR).call("config_export")
    path = Path(outcome.data["path"])
    assert path.parent == srig.data_dir / "service" / "exports"
    assert path.name.startswith("config-TK-0001-") and path.suffix == ".json"
    assert verified_config(path.read_text(), signing_key(srig.data_dir / "service"))


def _tamper(text: str, change: str) -> str:
    data = json.loads(text)
    if change == "config":
        data["config"]["max_wager"] = 1_000_000
    elif change == "header":
        data["exported_at"] += 1
    elif change == "signature":
        data["signature"]["value"] = "0" * 64
    elif change == "unsigned":
        del data["signature"]
    elif change == "format":
        data["format"] = "something-else"
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("config", "the signature does not match"),
        ("header", "the signature does not match"),
        ("signature", "the signature does not match"),
        ("unsigned", "the file is not signed"),
        ("format", "not a configuration file"),
    ],
)
def test_a_tampered_file_is_refused_and_nothing_applied(
    srig: ServiceRig, tmp_path: Path, change: str, message: str
) -> None:
    key = signing_key(srig.data_dir / "service")
    text = export_text(TerminalConfig(venue="Tampered"), key, 1)
    assert verified_config(text, key)[0]["venue"] == "Tampered"
    path = tmp_path / "bad.json"
    path.write_text(_tamper(text, change))
    session = srig.enter(Role.OPERATOR)
    with pytest.raises(ServiceError, match=message):
        session.call("config_import", {"path": str(path)})
    assert srig.runtime.state.config == TerminalConfig()


def test_another_terminals_key_is_refused_by_name(tmp_path: Path) -> None:
    ours, theirs = signing_key(tmp_path / "a"), signing_key(tmp_path / "b")
    text = export_text(TerminalConfig(), theirs, 1)
    with pytest.raises(SignatureError, match=f"key id {key_id(theirs)}, this terminal's is"):
        verified_config(text, ours)
    assert signing_key(tmp_path / "a") == ours  # made once, then kept


def test_a_signed_file_is_still_validated(srig: ServiceRig, tmp_path: Path) -> None:
    key = signing_key(srig.data_dir / "service")
    config = to_dict(TerminalConfig())
    config["max_wager"] = 60_000
    body = {"format": "turbokiosk-config", "version": 2, "terminal_id": "TK-0001"}
    body.update(exported_at=1, config=config, config_version=5)
    from kiosk.terminal.service.functions.config_file import _mac

    signed = {
        **body,
        "signature": {"algorithm": "HMAC-SHA256", "key_id": key_id(key), "value": _mac(key, body)},
    }
    path = tmp_path / "bad-values.json"
    path.write_text(json.dumps(signed))
    with pytest.raises(ServiceError, match="max_wager: must not exceed table_max"):
        srig.enter(Role.OPERATOR).call("config_import", {"path": str(path)})
