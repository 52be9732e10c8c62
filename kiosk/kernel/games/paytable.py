"""Reading and checking pay-table data files (TOML).

Every data file of a game — an edition, a pay table — is read through :class:`FieldReader`,
which turns any defect into a :class:`PaytableError` naming the file, the field and what is
wrong.  A loader builds its value only from a fully checked file, so nothing is ever loaded
from a bad one.

Packaged tables live under ``kiosk/kernel/games/paytables/<kind>/NAME.toml``.  An operator adds
tables without code changes either by giving a file path wherever a table name is accepted, or by
listing extra directories (laid out like the packaged one) in the environment variable
``TURBOKIOSK_PAYTABLES`` (separated by ``os.pathsep``).

**Languages.**  A player-visible text of a data file (a title, a wager name, an outcome) is
either a string, in English, or a table of the same text by language::

    label = { en = "First Down", es = "Primer Down" }

Every language must be one the terminal offers (:data:`LANGUAGES`) and ``en`` is required.  A
file that lists a language in ``languages = ["es"]`` declares its texts in that language
complete: then every player-visible text must have it.  A text without a translation is shown
in English.  :class:`Glossary` collects a file's translations (English text -> its
translation), which is how a screen translates a journaled outcome.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from kiosk.kernel.bounded_read import SMALL_FILE, InputFileError, read_bounded

PACKAGED_DIR = Path(__file__).resolve().parent / "paytables"
PATH_VARIABLE = "TURBOKIOSK_PAYTABLES"
#: The largest pay-table or edition file read (the packaged ones are a few kilobytes).
MAX_FILE_BYTES = SMALL_FILE
_NAME = re.compile(r"^[a-z0-9][a-z0-9.+_-]*$")
_ODDS = re.compile(r"^\s*(\d+)\s*(?::|to)\s*(\d+)\s*$")
#: The languages player-visible texts may be written in: the terminal's, English first.
LANGUAGES = ("en", "es")
ENGLISH = LANGUAGES[0]
#: Translations of a file's texts: language -> English text -> the text in that language.
Translations = Mapping[str, Mapping[str, str]]


class PaytableError(ValueError):
    """A pay-table or edition file that cannot be used; says which file, field and why."""

    def __init__(self, source: str, field: str | None, problem: str) -> None:
        where = f"{source}: field '{field}'" if field else source
        super().__init__(f"{where}: {problem}")
        self.source = source
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class FieldReader:
    """Checked access to the fields of one parsed data file; errors name ``source``."""

    source: str
    complete: tuple[str, ...] = ()  # languages the file declares complete

    def declared(self, data: Mapping[str, Any]) -> FieldReader:
        """This reader, holding the file to the languages its ``languages`` field lists."""
        raw = data.get("languages", [])
        if not isinstance(raw, list):
            raise self.error("languages", f"must be an array of languages, got {_shown(raw)}")
        offered = LANGUAGES[1:]
        for language in raw:
            if language not in offered:
                raise self.error(
                    "languages",
                    f"{language!r} is not a language the terminal translates to "
                    f"(offered: {', '.join(offered)})",
                )
        return FieldReader(self.source, tuple(raw))

    def error(self, field: str | None, problem: str) -> PaytableError:
        """An error about ``field`` of this file (``None``: the file as a whole)."""
        return PaytableError(self.source, field, problem)

    def table(self, value: Any, field: str) -> Mapping[str, Any]:
        """``value`` as a TOML table."""
        if not isinstance(value, dict):
            raise self.error(field, f"must be a table, got {_shown(value)}")
        return value

    def keys(
        self,
        data: Mapping[str, Any],
        prefix: str,
        required: Sequence[str],
        optional: Sequence[str] = (),
    ) -> None:
        """Refuse a missing required key or a key that is neither required nor optional."""
        for key in required:
            if key not in data:
                raise self.error(_join(prefix, key), "is missing")
        allowed = set(required) | set(optional)
        for key in data:
            if key not in allowed:
                known = ", ".join(sorted(allowed))
                raise self.error(_join(prefix, key), f"is not a known field (known: {known})")

    def text(self, value: Any, field: str) -> str:
        """A non-empty string."""
        if not isinstance(value, str) or not value.strip():
            raise self.error(field, f"must be a non-empty string, got {_shown(value)}")
        return value

    def words(self, value: Any, field: str) -> dict[str, str]:
        """A player-visible text by language (``en`` always): a string (English) or a table
        ``{ en = "...", es = "..." }``; every language the file declares complete is required."""
        if isinstance(value, str):
            texts = {ENGLISH: self.text(value, field)}
        elif isinstance(value, dict):
            for language in value:
                if language not in LANGUAGES:
                    raise self.error(
                        f"{field}.{language}",
                        f"{language!r} is not a language of the terminal "
                        f"(offered: {', '.join(LANGUAGES)})",
                    )
            if ENGLISH not in value:
                raise self.error(field, "needs its English text 'en'")
            texts = {lang: self.text(text, f"{field}.{lang}") for lang, text in value.items()}
        else:
            raise self.error(
                field,
                f"must be a non-empty string, got {_shown(value)} "
                "(or a table of texts by language)",
            )
        for language in self.complete:
            if language not in texts:
                raise self.error(
                    field,
                    f"has no {language!r} text, yet the file declares its {language!r} texts "
                    f"complete (languages = {_listed(self.complete)})",
                )
        return texts

    def name(self, value: Any, field: str) -> str:
        """An identifier: lower-case letters, digits, ``. + _ -``."""
        text = self.text(value, field)
        if not _NAME.match(text):
            raise self.error(field, f"must use only a-z, 0-9, '.', '+', '_' and '-', got {text!r}")
        return text

    def integer(self, value: Any, field: str, low: int, high: int) -> int:
        """An integer in ``low..high`` (booleans are not integers here)."""
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(field, f"must be an integer, got {_shown(value)}")
        if not low <= value <= high:
            raise self.error(field, f"must be between {low} and {high}, got {value}")
        return value

    def positive_integer(self, value: Any, field: str) -> int:
        """An integer > 0."""
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise self.error(field, f"must be a positive integer, got {_shown(value)}")
        return value

    def boolean(self, value: Any, field: str) -> bool:
        """``true`` or ``false``."""
        if not isinstance(value, bool):
            raise self.error(field, f"must be true or false, got {_shown(value)}")
        return value

    def odds(self, value: Any, field: str) -> Fraction:
        """Win odds: an integer ``n`` (n to 1) or a string ``"n:d"`` / ``"n to d"``, > 0."""
        if isinstance(value, int) and not isinstance(value, bool):
            if value <= 0:
                raise self.error(field, f"must be positive odds, got {value}")
            return Fraction(value)
        if isinstance(value, str):
            match = _ODDS.match(value)
            if match and int(match[2]) > 0 and int(match[1]) > 0:
                return Fraction(int(match[1]), int(match[2]))
        raise self.error(
            field, f'must be odds like 2, "3:2" or "3 to 2" (both > 0), got {_shown(value)}'
        )


class Glossary:
    """The translations of the texts read from one file, by language and English text.

    The same English text translated two ways in one file is refused: a screen translates a
    journaled outcome by its English text, so each must have one translation.
    """

    def __init__(self, read: FieldReader) -> None:
        self.read = read
        self._by_language: dict[str, dict[str, str]] = {}

    def add(self, texts: Mapping[str, str], field: str) -> str:
        """Record ``texts`` (language -> text, English included); the English text."""
        english = texts[ENGLISH]
        for language, text in texts.items():
            if language == ENGLISH:
                continue
            known = self._by_language.setdefault(language, {})
            if known.setdefault(english, text) != text:
                raise self.read.error(
                    f"{field}.{language}",
                    f"translates {english!r} as {text!r}, but the file already translates it "
                    f"as {known[english]!r}",
                )
        return english

    def translations(self) -> dict[str, dict[str, str]]:
        """Everything recorded: language -> English text -> translation."""
        return {language: dict(texts) for language, texts in self._by_language.items()}


def merged(*parts: Translations) -> dict[str, dict[str, str]]:
    """Several files' translations as one (a later part wins on the same English text)."""
    out: dict[str, dict[str, str]] = {}
    for part in parts:
        for language, texts in part.items():
            out.setdefault(language, {}).update(texts)
    return out


def read_toml(path: Path, source: str) -> dict[str, Any]:
    """The parsed contents of a TOML file; a missing, unreadable or malformed file is refused.

    The file is read through :func:`~kiosk.kernel.bounded_read.read_bounded`: only a regular file of
    at most :data:`MAX_FILE_BYTES` is read (``/dev/zero`` or a FIFO is refused without reading).
    """
    try:
        raw = read_bounded(path, MAX_FILE_BYTES, what="file")
    except InputFileError as exc:
        problem = str(exc).removeprefix(f"file {os.fspath(path)}: ")
        raise PaytableError(source, None, f"cannot be read ({problem})") from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise PaytableError(source, None, f"is not UTF-8 text ({exc.reason})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise PaytableError(source, None, f"is not valid TOML ({exc})") from exc


def search_dirs(kind: str, environ: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """Directories holding tables of ``kind``: the packaged one, then the operator's."""
    env = os.environ if environ is None else environ
    extra = [Path(p) / kind for p in env.get(PATH_VARIABLE, "").split(os.pathsep) if p]
    return (PACKAGED_DIR / kind, *extra)


def is_file_reference(name_or_file: str) -> bool:
    """Whether a table choice names a file (a path or a ``.toml`` name) rather than a table."""
    return name_or_file.endswith(".toml") or "/" in name_or_file or os.sep in name_or_file


def table_names(kind: str, environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Names of every table of ``kind`` in the search directories, sorted."""
    names = {
        path.stem
        for directory in search_dirs(kind, environ)
        if directory.is_dir()
        for path in directory.glob("*.toml")
    }
    return tuple(sorted(names))


def locate(
    kind: str, name_or_file: str, environ: Mapping[str, str] | None = None
) -> tuple[Path, str]:
    """The file of a table choice and the source name errors will use.

    A file reference is used as given.  A name must exist in exactly one search directory;
    a name found in two directories is refused rather than letting one silently shadow the
    other.
    """
    if is_file_reference(name_or_file):
        return Path(name_or_file), name_or_file
    found = [
        directory / f"{name_or_file}.toml"
        for directory in search_dirs(kind, environ)
        if (directory / f"{name_or_file}.toml").is_file()
    ]
    if not found:
        known = ", ".join(table_names(kind, environ)) or "none"
        raise PaytableError(kind, None, f"no pay table named {name_or_file!r} (known: {known})")
    if len(found) > 1:
        places = ", ".join(str(path) for path in found)
        raise PaytableError(kind, None, f"pay table {name_or_file!r} is ambiguous: {places}")
    path = found[0]
    packaged = path.parent == PACKAGED_DIR / kind
    return path, f"{kind}/{path.name}" if packaged else str(path)


def _listed(languages: Sequence[str]) -> str:
    return "[" + ", ".join(f'"{language}"' for language in languages) + "]"


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return repr(value)
