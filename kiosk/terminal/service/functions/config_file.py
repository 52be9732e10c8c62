"""Signed, versioned configuration files: export, and import with signature and version checked.

A file is JSON::

    {"format": "turbokiosk-config", "version": 2, "config_version": <n>, "terminal_id": ...,
     "exported_at": <epoch ms>, "config": {...},
     "signature": {"algorithm": "HMAC-SHA256", "key_id": <16 hex>, "value": <64 hex>}}

The signature is HMAC-SHA256 over the canonical JSON (sorted keys, no spaces) of everything but
``signature``, with the terminal's signing key: 32 random bytes made on first use in
``<data_dir>/service/config-signing.key`` (mode 0600).  ``key_id`` is the first 8 bytes of the
key's SHA-256, so a file signed elsewhere is refused by name.  An HMAC key, not a public-key
signature, because the file only travels back to a terminal holding the same key: the same
terminal (a restore), or terminals an operator gave one venue key by copying that file.  Any
change to the file, a byte of the configuration or of the header, fails the check, and nothing
of a refused file is applied.

**Configuration versions.**  The terminal state holds the version of the configuration in force
(``config_version``, 0 on a new terminal); every change in the menu makes it one more, an import
makes it the file's.  An export carries the version in force plus one (or a higher one given
with ``--version``), so the file is newer than everything the terminal had when it was
exported, and any change after the export makes it stale.  An import whose ``config_version``
is not newer than the version in force is refused with one line (``configuration version 7 is
not newer than the one in force, 9``): an older, validly signed file cannot roll limits back.
A file of format 1 (no configuration version) is refused: export it again.

Every file read here is read with a size bound and only when it is a regular file
(:func:`kiosk.kernel.bounded_read.read_bounded`): ``/dev/zero``, a FIFO, a directory or a 100 MB
file is refused with one line before anything is applied.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kiosk.kernel.bounded_read import InputFileError, read_bounded, read_bounded_text
from kiosk.terminal.core.config import TerminalConfig, to_dict
from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import Context, Outcome, ServiceError, ServiceFunction
from kiosk.terminal.service.functions.config import _config_watch, apply_config

FORMAT = "turbokiosk-config"
VERSION = 2
#: the most a configuration file may hold (a configuration is a few kilobytes)
CONFIG_FILE_LIMIT = 256 * 1024
ALGORITHM = "HMAC-SHA256"
KEY_NAME = "config-signing.key"


class SignatureError(ValueError):
    """A configuration file that is not ours, not intact, or not a configuration file."""


def signing_key(service_dir: Path) -> bytes:
    """The terminal's signing key (made on first use)."""
    path = Path(service_dir) / KEY_NAME
    try:
        key = read_bounded(path, 64, what="signing key")
    except InputFileError:
        if os.path.lexists(path):
            raise
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_bytes(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(key)
            fh.flush()
            os.fsync(fh.fileno())
    if len(key) != 32:
        raise SignatureError(f"{path}: a signing key is 32 bytes, not {len(key)}")
    return key


def key_id(key: bytes) -> str:
    """First 8 bytes of the key's SHA-256, in hex."""
    return hashlib.sha256(key).hexdigest()[:16]


def _mac(key: bytes, body: Mapping[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def export_text(
    config: TerminalConfig, key: bytes, exported_at: int, config_version: int = 1
) -> str:
    """The signed file's text."""
    body = {
        "format": FORMAT,
        "version": VERSION,
        "config_version": config_version,
        "terminal_id": config.terminal_id,
        "exported_at": exported_at,
        "config": to_dict(config),
    }
    signature = {"algorithm": ALGORITHM, "key_id": key_id(key), "value": _mac(key, body)}
    return json.dumps({**body, "signature": signature}, indent=2, sort_keys=True) + "\n"


def verified_config(text: str, key: bytes) -> tuple[dict[str, Any], int]:
    """The configuration in a signed file and its version, the signature checked first.

    SignatureError for a file that is not ours, not intact, or has no configuration version.
    """
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SignatureError(f"not a configuration file: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SignatureError(f"not a configuration file (format is not {FORMAT!r})")
    if data.get("version") == 1:
        raise SignatureError(
            "configuration file format 1 has no configuration version: export it again"
        )
    if data.get("version") != VERSION:
        raise SignatureError(f"configuration file format {data.get('version')!r} is not {VERSION}")
    signature = data.pop("signature", None)
    if not isinstance(signature, dict) or signature.get("algorithm") != ALGORITHM:
        raise SignatureError("the file is not signed (no HMAC-SHA256 signature)")
    if signature.get("key_id") != key_id(key):
        raise SignatureError(
            f"signed with another key (key id {signature.get('key_id')}, this terminal's is "
            f"{key_id(key)})"
        )
    value = signature.get("value")
    if not isinstance(value, str) or not hmac.compare_digest(value, _mac(key, data)):
        raise SignatureError("the signature does not match: the file was changed after export")
    config = data.get("config")
    if not isinstance(config, dict):
        raise SignatureError("the file holds no configuration")
    version = data.get("config_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SignatureError(f"the file holds no configuration version ({version!r})")
    return config, version


def default_export_path(ctx: Context, config: TerminalConfig) -> Path:
    """``<data_dir>/service/exports/config-<terminal>-<UTC time>.json``."""
    stamp = datetime.fromtimestamp(ctx.now() / 1000, UTC).strftime("%Y%m%dT%H%M%SZ")
    return ctx.service_dir / "exports" / f"config-{config.terminal_id}-{stamp}.json"


def config_export(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Write the configuration as a signed file (args: path; default under the data dir)."""
    state = ctx.terminal.state()
    config = state.config
    version = args.get("version") or state.config_version + 1
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError(f"version: a whole number, not {version!r}")
    if version <= state.config_version:
        raise ServiceError(
            f"version: {version} is not newer than the one in force, {state.config_version}"
        )
    path = Path(args["path"]) if args.get("path") else default_export_path(ctx, config)
    key = signing_key(ctx.service_dir)
    text = export_text(config, key, ctx.now(), version)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    line = (
        f"Configuration version {version} exported to {path} (signed, key id {key_id(key)}; "
        f"version in force {state.config_version})"
    )
    return Outcome("Configuration exported", (line,), {"path": str(path), "version": version})


def _import_watch(ctx: Context, args: Mapping[str, Any]) -> dict[str, Any]:
    state = ctx.terminal.state()
    return {**_config_watch(ctx, args), "config_version": state.config_version}


def config_import(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Apply a signed configuration file (args: path) after checking its signature."""
    if not args.get("path"):
        raise ServiceError("path: the configuration file to import", "err_no_file")
    path = str(args["path"])
    text = read_bounded_text(path, CONFIG_FILE_LIMIT, what="configuration file")
    key = signing_key(ctx.service_dir)
    config, version = verified_config(text, key)
    in_force = ctx.terminal.state().config_version
    if version <= in_force:
        raise ServiceError(
            f"configuration version {version} is not newer than the one in force, {in_force}",
            "err_import_not_newer",
            version=version,
            in_force=in_force,
        )
    source = f"import of {path} (key id {key_id(key)})"
    outcome = apply_config(ctx, config, version=version, source=source)
    lines = (*outcome.lines, f"configuration version: {in_force} -> {version}")
    return Outcome("Configuration imported", lines, {**outcome.data, "version": version})


FUNCTIONS = (
    ServiceFunction(
        "config_export",
        "Export configuration",
        Role.OPERATOR,
        config_export,
        help="write a signed configuration file",
    ),
    ServiceFunction(
        "config_import",
        "Import configuration",
        Role.OPERATOR,
        config_import,
        watch=_import_watch,
        writes=True,
        help="apply a signed configuration file",
    ),
)
