"""The organisation registry in memory: the compact index and the lookups candidates need.

`load_registry()` reads the bundled index (`data/ror-index.json.gz`, built from the shared ROR
file by `ingest orgs build`) or, when `INGEST_ROR_DUMP` names one, a full ROR dump (schema v2
JSON, `.json` or `.zip`, or the shared jsonl format), built into the same index in memory.
"""

from __future__ import annotations

import gzip
import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ingest.errors import ConfigError

BUNDLED_INDEX = Path(__file__).resolve().parent / "data" / "ror-index.json.gz"


@dataclass(frozen=True)
class Org:
    id: str
    name: str
    country: str
    city: str
    types: tuple[str, ...]
    status: str
    parents: tuple[str, ...]


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split()]


@dataclass
class Registry:
    """The index's columns and lookups; organisations, index lists and IDF weights are read on
    demand, so loading stays one `json.loads`."""

    columns: dict[str, list[str]]
    countries: dict[str, str]
    source: dict[str, Any]
    name_list: list[str]  # folded names
    name_orgs: list[str]  # the org indexes of each, space-separated
    acronym_orgs: dict[str, str]
    posting_text: dict[str, str]  # token -> indexes into name_list
    name_row: dict[str, int] = field(default_factory=dict)
    by_id: dict[str, int] = field(default_factory=dict)
    _idf: dict[str, float] = field(default_factory=dict)
    _cities: dict[str, set[str]] | None = None
    _children: dict[int, list[int]] | None = None
    shapes: dict[tuple[str, int], list[str]] | None = None  # spelling.py's, built on demand

    def __len__(self) -> int:
        return len(self.columns["id"])

    def org(self, i: int) -> Org:
        c = self.columns
        return Org(
            c["id"][i],
            c["name"][i],
            c["country"][i],
            c["city"][i],
            tuple(c["types"][i].split()),
            c["status"][i],
            tuple(c["parents"][i].split()),
        )

    def named(self, folded: str) -> list[int]:
        row = self.name_row.get(folded)
        return [] if row is None else _ints(self.name_orgs[row])

    def derived(self, i: int) -> frozenset[str]:
        """Names made by dropping a "(Country)" or ", City" tail, not printed by ROR."""
        text = self.columns["derived"][i]
        return frozenset(text.split("|")) if text else frozenset()

    def with_acronym(self, folded: str) -> list[int]:
        return _ints(self.acronym_orgs.get(folded, ""))

    def df(self, token: str) -> int:
        text = self.posting_text.get(token)
        return 0 if not text else text.count(" ") + 1

    def postings(self, token: str) -> list[int]:
        return _ints(self.posting_text.get(token, ""))

    def token_idf(self, token: str) -> float:
        value = self._idf.get(token)
        if value is None:
            value = math.log((len(self.name_list) + 1) / (1 + self.df(token)))
            self._idf[token] = value
        return value

    @property
    def cities(self) -> dict[str, set[str]]:
        """Folded city -> the countries of the organisations in it."""
        if self._cities is None:
            self._cities = {}
            for city, country in zip(self.columns["city"], self.columns["country"], strict=True):
                if city:
                    self._cities.setdefault(city, set()).add(country)
        return self._cities

    @property
    def children(self) -> dict[int, list[int]]:
        if self._children is None:
            self._children = {}
            for i, parents in enumerate(self.columns["parents"]):
                for parent in parents.split():
                    p = self.by_id.get(parent)
                    if p is not None:
                        self._children.setdefault(p, []).append(i)
        return self._children


def from_index(index: dict[str, Any]) -> Registry:
    if not str(index.get("format", "")).startswith("ingest-ror-index/"):
        raise ConfigError(f"not an organisation index (format {index.get('format')!r})")
    reg = Registry(
        columns=index["orgs"],
        countries=index["countries"],
        source=index.get("source", {}),
        name_list=index["names"],
        name_orgs=index["name_orgs"],
        acronym_orgs=index["acronyms"],
        posting_text=index["postings"],
    )
    reg.name_row = {name: i for i, name in enumerate(reg.name_list)}
    reg.by_id = {oid: i for i, oid in enumerate(reg.columns["id"])}
    return reg


def read_index(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rb") as handle:
        data: dict[str, Any] = json.loads(handle.read())
    return data


def _from_dump(path: Path) -> Registry:
    from ingest.orgs.build import build_index, read_records

    try:
        records = read_records(path)
    except (OSError, ValueError, KeyError) as exc:
        raise ConfigError(f"INGEST_ROR_DUMP '{path}' cannot be read as ROR records: {exc}") from exc
    return from_index(build_index(records, {"dump": str(path)}))


@lru_cache(maxsize=4)
def load_registry(dump: Path | None = None) -> Registry:
    """The registry: `dump` (a full ROR dump, or an index `ingest orgs build` wrote) if given,
    else the bundled index."""
    if dump is None:
        return from_index(read_index(BUNDLED_INDEX))
    if not dump.is_file():
        raise ConfigError(f"INGEST_ROR_DUMP '{dump}' is not a file")
    if dump.name.endswith(".json.gz"):
        index = read_index(dump)
        if str(index.get("format", "")).startswith("ingest-ror-index/"):
            return from_index(index)
    return _from_dump(dump)
