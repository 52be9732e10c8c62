"""Turbo editions as data: the edition files under ``kiosk/kernel/games/editions/``.

An edition file either defines a full rule set (wagers, their icon pay tables, the raise) or is
a *theme* of one (``based_on``) that only changes the title, suit S, icon, award name and
labels.  Outcome texts may use the placeholders ``{icon}``, ``{icons}`` and ``{top_award}``,
filled with the edition's (or theme's) words.

An icon pay table is a list of tiers; a tier pays its odds when the 9 cards (``scope =
"hand"``, the default) or the 3 community cards (``scope = "community"``) hold at least
``min_icons`` icons.  Only the highest-paying tier that holds is paid.  Every table must keep
a positive house edge (for the mandatory wager: with the optimal raise).

Player-visible texts (``title``, ``icon``, ``icons``, ``top_award``, the labels and the
outcomes) may be given by language, ``label = { en = "First Down", es = "Primer Down" }``, and
``languages = ["es"]`` declares a file's Spanish complete (:mod:`kiosk.kernel.games.paytable`).  An
outcome's placeholders are filled with the words of its own language.  The loaded
:class:`Edition` keeps its English texts and their translations (:attr:`Edition.translations`).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from kiosk.kernel.cards import SUIT_NAMES, SUITS
from kiosk.kernel.games import icon_odds
from kiosk.kernel.games.paytable import (
    ENGLISH,
    FieldReader,
    Glossary,
    PaytableError,
    Translations,
    read_toml,
)

EDITIONS_DIR = Path(__file__).resolve().parent / "editions"
SCOPES = ("hand", "community")
PLACEHOLDERS = ("icon", "icons", "top_award")
_MAX_ICONS = {"hand": icon_odds.MAX_HAND_ICONS, "community": icon_odds.MAX_COMMUNITY_ICONS}


@dataclass(frozen=True)
class IconTier:
    """Pays ``odds`` when the hand (or community) holds at least ``min_icons`` icons."""

    min_icons: int
    odds: Fraction
    outcome: str
    scope: str = "hand"

    def holds(self, hand_icons: int, community_icons: int) -> bool:
        """Whether this tier's condition is met."""
        icons = hand_icons if self.scope == "hand" else community_icons
        return icons >= self.min_icons

    def implies(self, other: IconTier) -> bool:
        """Whether every deal meeting this tier also meets ``other`` (the 9 cards include the
        community, so a community condition implies the same hand condition)."""
        covers = other.scope == self.scope or other.scope == "hand"
        return covers and other.min_icons <= self.min_icons


@dataclass(frozen=True)
class IconPaytable:
    """A named list of tiers; the best tier that holds is paid."""

    name: str
    description: str
    tiers: tuple[IconTier, ...]
    #: the tiers' outcomes by language (language -> English outcome -> translation)
    translations: Translations = field(default_factory=dict, compare=False)

    def award(self, hand_icons: int, community_icons: int) -> IconTier | None:
        """The paid tier, or None when the wager loses."""
        best: IconTier | None = None
        for tier in self.tiers:
            if tier.holds(hand_icons, community_icons) and (best is None or tier.odds > best.odds):
                best = tier
        return best

    def net(self, hand_icons: int, community_icons: int) -> Fraction:
        """Net result per unit wagered: the odds of the paid tier, or -1."""
        tier = self.award(hand_icons, community_icons)
        return Fraction(-1) if tier is None else tier.odds


@dataclass(frozen=True)
class RaiseRule:
    """The raise (double) of the mandatory wager, offered after the community is dealt."""

    label: str
    max_community_icons: int
    paytable: IconPaytable

    def offered(self, community_icons: int) -> bool:
        """Whether a seat may raise on a community with this many icons."""
        return community_icons <= self.max_community_icons


@dataclass(frozen=True)
class IconWager:
    """A wager settled on icons, with the pay tables a property may choose from."""

    id: str
    label: str
    mandatory: bool
    paytables: tuple[IconPaytable, ...]
    default: str

    def paytable(self, name: str) -> IconPaytable:
        """The table called ``name``."""
        for table in self.paytables:
            if table.name == name:
                return table
        known = ", ".join(t.name for t in self.paytables)
        raise PaytableError(self.id, None, f"no pay table named {name!r} (known: {known})")


@dataclass(frozen=True)
class Edition:
    """One playable Turbo edition (a rule set or a theme of one)."""

    id: str
    title: str
    rules: str
    based_on: str | None
    suit: int
    icon: str
    icons: str
    top_award: str
    wagers: tuple[IconWager, ...]
    raise_rule: RaiseRule
    nine_card_bonus_label: str
    nine_card_bonus_default: str
    source: str
    #: every player-visible text of the file by language (language -> English -> translation)
    translations: Translations = field(default_factory=dict, compare=False)

    @property
    def main(self) -> IconWager:
        """The mandatory wager the raise is tied to."""
        return next(w for w in self.wagers if w.mandatory)

    @property
    def suit_name(self) -> str:
        """Name of suit S, e.g. ``"spades"``."""
        return SUIT_NAMES[self.suit]

    def wager(self, wager_id: str) -> IconWager | None:
        """The icon wager with this id, if the edition has one."""
        return next((w for w in self.wagers if w.id == wager_id), None)


def should_raise(rule: RaiseRule, community: icon_odds.Composition) -> bool:
    """The optimal decision: raise exactly when offered and the raise's conditional EV > 0."""
    if not rule.offered(icon_odds.icons_of(community)):
        return False
    return raise_ev(rule, community) > 0


@cache
def raise_ev(rule: RaiseRule, community: icon_odds.Composition) -> Fraction:
    """Exact expected net of the raise (per unit raised) given the community's composition."""
    return icon_odds.conditional_ev(rule.paytable.net, community)


def main_wager_ev(table: IconPaytable, rule: RaiseRule) -> Fraction:
    """Exact expected net of the mandatory wager per unit, raising optimally."""
    total = 0
    weighted = Fraction(0)
    for community, count in icon_odds.community_classes():
        ev = icon_odds.conditional_ev(table.net, community)
        if should_raise(rule, community):
            ev += raise_ev(rule, community)
        weighted += count * ev
        total += count
    return weighted / total


def edition_ids(directory: Path = EDITIONS_DIR) -> tuple[str, ...]:
    """Ids of the editions in ``directory``: full rule sets first, then themes, each sorted."""
    ids = sorted(_ids(directory))
    bases = [i for i in ids if "based_on" not in _raw(i, directory)]
    return (*bases, *(i for i in ids if i not in bases))


@cache
def load_edition(edition_id: str, directory: Path = EDITIONS_DIR) -> Edition:
    """The edition ``edition_id`` (packaged, unless another directory is named), fully
    validated (:class:`PaytableError`)."""
    data = _raw(edition_id, directory)
    source = _source(edition_id, directory)
    if "based_on" not in data:
        return _Parser(source, None).edition(data, edition_id)
    read = FieldReader(source).declared(data)
    read.keys(data, "", ("id", "title", "based_on", "suit", "icon", "icons"), _THEME_OPTIONAL)
    base_id = read.name(data["based_on"], "based_on")
    if base_id not in _ids(directory):
        raise read.error("based_on", f"no edition named {base_id!r}")
    base = _raw(base_id, directory)
    if "based_on" in base:
        raise read.error("based_on", f"{base_id!r} is itself a theme; name a full rule set")
    load_edition(base_id, directory)  # the base must be valid on its own
    merged = _apply_theme(read, base, data)
    return _Parser(source, base_id).edition(merged, edition_id)


def load_icon_paytable(path: Path, edition: Edition, wager: IconWager) -> IconPaytable:
    """An operator's pay table file for an icon wager (``name``, ``description``, ``tiers``),
    checked like a packaged one, positive house edge included."""
    source = str(path)
    data = read_toml(path, source)
    parser = _Parser(source, None, _edition_names(edition))
    parser.declare(data)
    read = parser.read
    read.keys(data, "", ("name", "description", "tiers"), ("languages",))
    name = read.name(data["name"], "name")
    if name != path.stem:
        raise read.error("name", f"must equal the file name {path.stem!r}, got {name!r}")
    description = read.text(data["description"], "description")
    table = parser.paytable(name, description, data["tiers"], "tiers")
    parser.check_edge(wager.mandatory, table, edition.raise_rule, "tiers")
    return table


_THEME_OPTIONAL = ("top_award", "labels", "description", "languages")
_EDITION_REQUIRED = (
    "id",
    "title",
    "rules",
    "suit",
    "icon",
    "icons",
    "top_award",
    "raise",
    "nine_card_bonus",
    "wagers",
)


def _ids(directory: Path) -> set[str]:
    return {f.stem for f in directory.glob("*.toml")}


def _source(edition_id: str, directory: Path) -> str:
    path = directory / f"{edition_id}.toml"
    return f"editions/{path.name}" if directory == EDITIONS_DIR else str(path)


@cache
def _raw(edition_id: str, directory: Path) -> Mapping[str, Any]:
    if edition_id not in _ids(directory):
        raise PaytableError("editions", None, f"no edition named {edition_id!r}")
    return read_toml(directory / f"{edition_id}.toml", _source(edition_id, directory))


def _edition_names(edition: Edition) -> dict[str, dict[str, str]]:
    """The edition's placeholder words by language (English where it has no translation)."""
    english = {"icon": edition.icon, "icons": edition.icons, "top_award": edition.top_award}
    names = {ENGLISH: english}
    for language, texts in edition.translations.items():
        names[language] = {key: texts.get(word, word) for key, word in english.items()}
    return names


def _apply_theme(
    read: FieldReader, base: Mapping[str, Any], theme: Mapping[str, Any]
) -> dict[str, Any]:
    """The base's data with the theme's words and labels laid over it."""
    merged: dict[str, Any] = {
        **base,
        "raise": dict(base["raise"]),
        "nine_card_bonus": dict(base["nine_card_bonus"]),
        "wagers": {k: dict(v) for k, v in base["wagers"].items()},
    }
    for key in ("id", "title", "suit", "icon", "icons", "top_award"):
        if key in theme:
            merged[key] = theme[key]
    merged.pop("languages", None)  # the theme's file declares its own languages
    if "languages" in theme:
        merged["languages"] = theme["languages"]
    rules = f"{base['rules']}; theme of {theme['based_on']}"
    if "description" in theme:
        rules = f"{rules}: {read.text(theme['description'], 'description')}"
    merged["rules"] = rules
    labels = read.table(theme.get("labels", {}), "labels")
    for key, label in labels.items():
        field = f"labels.{key}"
        read.words(label, field)
        if key == "raise":
            merged["raise"]["label"] = label
        elif key == "nine_card_bonus":
            merged["nine_card_bonus"]["label"] = label
        elif key in merged["wagers"]:
            merged["wagers"][key]["label"] = label
        else:
            known = ", ".join([*merged["wagers"], "raise", "nine_card_bonus"])
            raise read.error(field, f"is not a wager of {theme['based_on']} (known: {known})")
    return merged


class _Parser:
    """Validates one edition or pay-table file; every error names the file and field."""

    def __init__(
        self,
        source: str,
        based_on: str | None,
        names: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        self.read = FieldReader(source)
        self.based_on = based_on
        self.names = {language: dict(words) for language, words in (names or {}).items()}
        self.glossary = Glossary(self.read)

    def declare(self, data: Mapping[str, Any]) -> None:
        """Hold the file to the languages it declares complete."""
        self.read = self.read.declared(data)
        self.glossary = Glossary(self.read)

    def say(self, raw: Any, field: str) -> str:
        """A player-visible text: its English, with its translations recorded."""
        return self.glossary.add(self.read.words(raw, field), field)

    def edition(self, data: Mapping[str, Any], stem: str) -> Edition:
        self.declare(data)
        read = self.read
        read.keys(data, "", _EDITION_REQUIRED, ("languages",))
        edition_id = read.name(data["id"], "id")
        if edition_id != stem:
            raise read.error("id", f"must equal the file name {stem!r}, got {edition_id!r}")
        suit_letter = read.text(data["suit"], "suit")
        if suit_letter not in SUITS:
            raise read.error("suit", f"must be one of 's', 'h', 'd', 'c', got {suit_letter!r}")
        self.names = {}
        for key in PLACEHOLDERS:
            texts = read.words(data[key], key)
            self.glossary.add(texts, key)
            for language, word in texts.items():
                self.names.setdefault(language, {})[key] = word
        english = self.names[ENGLISH]
        raise_rule = self.raise_rule(read.table(data["raise"], "raise"))
        bonus = read.table(data["nine_card_bonus"], "nine_card_bonus")
        read.keys(bonus, "nine_card_bonus", ("label", "default"))
        wagers = self.wagers(read.table(data["wagers"], "wagers"))
        edition = Edition(
            id=edition_id,
            title=self.say(data["title"], "title"),
            rules=read.text(data["rules"], "rules"),
            based_on=self.based_on,
            suit=SUITS.index(suit_letter),
            icon=english["icon"],
            icons=english["icons"],
            top_award=english["top_award"],
            wagers=wagers,
            raise_rule=raise_rule,
            nine_card_bonus_label=self.say(bonus["label"], "nine_card_bonus.label"),
            nine_card_bonus_default=read.name(bonus["default"], "nine_card_bonus.default"),
            source=read.source,
            translations=self.glossary.translations(),
        )
        self.check_edges(edition)
        return edition

    def raise_rule(self, data: Mapping[str, Any]) -> RaiseRule:
        self.read.keys(data, "raise", ("label", "max_community_icons", "tiers"))
        return RaiseRule(
            label=self.say(data["label"], "raise.label"),
            max_community_icons=self.read.integer(
                data["max_community_icons"],
                "raise.max_community_icons",
                0,
                icon_odds.MAX_COMMUNITY_ICONS,
            ),
            paytable=self.paytable("raise", "the raise", data["tiers"], "raise.tiers"),
        )

    def wagers(self, data: Mapping[str, Any]) -> tuple[IconWager, ...]:
        read = self.read
        if not data:
            raise read.error("wagers", "must define at least one wager")
        wagers: list[IconWager] = []
        for wager_id, raw in data.items():
            prefix = f"wagers.{wager_id}"
            read.name(wager_id, prefix)
            if wager_id in ("raise", "nine_card_bonus"):
                raise read.error(prefix, "is a reserved spot id")
            body = read.table(raw, prefix)
            read.keys(body, prefix, ("label", "default", "paytables"), ("mandatory",))
            mandatory = read.boolean(body.get("mandatory", False), f"{prefix}.mandatory")
            tables_raw = read.table(body["paytables"], f"{prefix}.paytables")
            if not tables_raw:
                raise read.error(f"{prefix}.paytables", "must define at least one pay table")
            tables = tuple(
                self.wager_paytable(name, table, f"{prefix}.paytables.{name}")
                for name, table in tables_raw.items()
            )
            default = read.name(body["default"], f"{prefix}.default")
            if default not in {t.name for t in tables}:
                raise read.error(f"{prefix}.default", f"names no pay table of {wager_id}")
            label = self.say(body["label"], f"{prefix}.label")
            wagers.append(IconWager(wager_id, label, mandatory, tables, default))
        mandatory_ids = [w.id for w in wagers if w.mandatory]
        if len(mandatory_ids) != 1:
            raise read.error(
                "wagers", f"exactly one wager must be mandatory, got {mandatory_ids or 'none'}"
            )
        return tuple(wagers)

    def paytable(self, name: str, description: str, tiers_raw: Any, field: str) -> IconPaytable:
        """A table's tiers (array at ``field``), each checked and none dominated by another."""
        read = self.read
        if not isinstance(tiers_raw, list) or not tiers_raw:
            raise read.error(field, "must be a non-empty array of tiers")
        own = Glossary(read)  # this table's outcomes, for a table chosen from another file
        tiers = tuple(self.tier(item, f"{field}[{i}]", own) for i, item in enumerate(tiers_raw))
        for i, tier in enumerate(tiers):
            for j, other in enumerate(tiers):
                if i != j and tier.implies(other) and _pays_over(other, tier, j < i):
                    raise read.error(
                        f"{field}[{i}]",
                        f"is never paid: {field}[{j}] holds whenever it does and pays at "
                        "least as much",
                    )
        return IconPaytable(name, description, tiers, own.translations())

    def wager_paytable(self, name: str, raw: Any, field: str) -> IconPaytable:
        """One of a wager's pay tables: ``tiers`` and an optional ``description``."""
        read = self.read
        read.name(name, field)
        data = read.table(raw, field)
        read.keys(data, field, ("tiers",), ("description",))
        description = read.text(data.get("description", name), f"{field}.description")
        return self.paytable(name, description, data["tiers"], f"{field}.tiers")

    def tier(self, raw: Any, field: str, own: Glossary) -> IconTier:
        read = self.read
        data = read.table(raw, field)
        read.keys(data, field, ("min_icons", "pays", "outcome"), ("scope",))
        scope = data.get("scope", "hand")
        if scope not in SCOPES:
            raise read.error(f"{field}.scope", f"must be 'hand' or 'community', got {scope!r}")
        return IconTier(
            min_icons=read.integer(data["min_icons"], f"{field}.min_icons", 1, _MAX_ICONS[scope]),
            odds=read.odds(data["pays"], f"{field}.pays"),
            outcome=self.outcome(data["outcome"], f"{field}.outcome", own),
            scope=scope,
        )

    def outcome(self, raw: Any, field: str, own: Glossary) -> str:
        """An outcome text with its placeholders filled in each language's words (English
        words where a language has none)."""
        filled: dict[str, str] = {}
        for language, text in self.read.words(raw, field).items():
            where = field if isinstance(raw, str) else f"{field}.{language}"
            try:
                used = [n for _, n, _, _ in string.Formatter().parse(text) if n is not None]
            except ValueError as exc:
                raise self.read.error(where, f"has a malformed placeholder ({exc})") from exc
            for name in used:
                if name not in PLACEHOLDERS:
                    known = ", ".join("{" + p + "}" for p in PLACEHOLDERS)
                    raise self.read.error(where, f"unknown placeholder {{{name}}} (known: {known})")
            words = {**self.names.get(ENGLISH, {}), **self.names.get(language, {})}
            filled[language] = text.format(**words)
        own.add(filled, field)
        return self.glossary.add(filled, field)

    def check_edges(self, edition: Edition) -> None:
        for wager in edition.wagers:
            for table in wager.paytables:
                field = f"wagers.{wager.id}.paytables.{table.name}"
                self.check_edge(wager.mandatory, table, edition.raise_rule, field)

    def check_edge(self, mandatory: bool, table: IconPaytable, rule: RaiseRule, field: str) -> None:
        """Refuse a table that favours the player (the mandatory wager with optimal raises)."""
        ev = main_wager_ev(table, rule) if mandatory else icon_odds.expected(table.net)
        if ev >= 0:
            raise self.read.error(
                field,
                f"gives the player an advantage of {float(ev):.4%}; the house edge must be "
                "positive",
            )


def _pays_over(other: IconTier, tier: IconTier, listed_first: bool) -> bool:
    """Whether ``other`` wins over ``tier`` when both hold (ties go to the first listed)."""
    return other.odds > tier.odds or (other.odds == tier.odds and listed_first)
