"""Typed rows: what the storage parts return, one dataclass per kind of row.

Each row is a plain dataclass read by attribute (`change.status`). A row is also a read-only
Mapping of its columns (`dict(row)`; the fetch layer reads a source's validators with
`state.get("etag")` without knowing the storage's types); new code reads attributes.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, fields, is_dataclass
from typing import Any, Self

from ingest.models import Change


class Row(Mapping[str, Any]):
    """A read-only Mapping view of a dataclass row's fields (see the module docstring)."""

    @classmethod
    def from_mapping(cls, data: Mapping[Any, Any]) -> Self:
        """The row of a database result: its columns by name (unknown columns are left out)."""
        names = _NAMES.get(cls)
        if names is None:  # read once per class (dataclasses.fields per row: a third of a read)
            names = _NAMES[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
        # a plain dict's get: a database row's (Mapping.get) raises and catches a KeyError
        # inside for each field its query did not select (9 of a source row's 13 when only
        # the validators are read: 180,000 a 10,000-source nightly, most of its row reads)
        get = (data if isinstance(data, dict) else dict(data.items())).get
        return cls(**{name: get(name) for name in names})

    def to_dict(self) -> dict[str, Any]:
        """Its fields, JSON values copied (what dataclasses.asdict gives for rows, whose fields
        are scalars and JSON: a queue page asks it of every change it shows, and asdict's
        generic deep copy was most of the page's time)."""
        return {name: _copied(getattr(self, name)) for name in self._names()}

    def __getitem__(self, key: str) -> Any:
        if key in self._names():
            return getattr(self, key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def _names(self) -> tuple[str, ...]:
        names = _NAMES.get(type(self))
        if names is None:
            names = _NAMES[type(self)] = tuple(f.name for f in fields(self))  # type: ignore[arg-type]
        return names


_NAMES: dict[type, tuple[str, ...]] = {}  # each row class's field names, read once


def _copied(value: Any) -> Any:
    """A copy of a JSON-like value (dicts, lists, tuples of scalars), as asdict copies them;
    anything else deep-copied as asdict does."""
    if isinstance(value, dict):
        return type(value)((k, _copied(v)) for k, v in value.items())
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_copied(v) for v in value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    return copy.deepcopy(value)


@dataclass(eq=True)
class SourceRow(Row):
    """A source's state: its registry entry, validators and what its last check found."""

    url: str
    extractor: str | None = None
    meta: dict[str, Any] | None = None  # title, publisher, kind, feed, ...
    etag: str | None = None
    last_modified: str | None = None
    last_sha256: str | None = None
    last_status: str | None = None  # fetched / unchanged / failed
    last_checked: str | None = None
    people_count: int | None = None  # distinct people in the last healthy snapshot
    fail_streak: int | None = 0
    last_error: str | None = None
    final_url: str | None = None  # the URL it was finally served from (validators belong there)
    settled: dict[str, Any] | None = None  # see ingest.pipeline.settled

    @property
    def title(self) -> str | None:
        """The registered title, if any."""
        found = (self.meta or {}).get("title")
        return str(found) if found else None


@dataclass(eq=True)
class SnapshotRow(Row):
    """A snapshot's row: where and when it was fetched, without its body."""

    sha256: str
    url: str
    requested_url: str | None
    status_code: int
    headers: dict[str, str]
    size: int
    fetched_at: str
    origin: str | None = None  # network, replay or file (None: not known)
    evidence_date: str | None = None  # the day it is evidence for (YYYY-MM-DD)


@dataclass(eq=True)
class ChangeRow(Row):
    """A queued change as stored: the Change of the contract plus the queue's bookkeeping."""

    id: str
    profile: str
    kind: str
    claim: dict[str, Any] | None
    previous: dict[str, Any] | None
    source_url: str
    status: str
    created: str
    updated: str | None = None
    evidence_key: str | None = None
    snapshot_sha256: str | None = None
    fact: str | None = None  # ingest.fact_identity.fact_key (None: a change older than migration 6)

    @property
    def fact_id(self) -> str:
        """The fact it states; a change without one is its own."""
        return self.fact or self.id

    def to_change(self) -> Change:
        return Change(
            id=self.id,
            profile=self.profile,
            kind=self.kind,  # type: ignore[arg-type]
            claim=self.claim,
            previous=self.previous,
            source_url=self.source_url,
            status=self.status,  # type: ignore[arg-type]
            created=self.created,
        )


@dataclass(frozen=True)
class ChangeValues:
    """What a proposal sets on its change row, new or seen again."""

    claim: dict[str, Any] | None
    previous: dict[str, Any] | None
    updated: str
    evidence_key: str
    snapshot_sha256: str | None
    fact: str


@dataclass(eq=True)
class DecisionRow(Row):
    """One decision on one change (accepted, rejected, undone), with the profile texts."""

    id: int
    change_id: str
    status: str
    editor: str
    note: str | None
    decided_at: str
    profile_path: str | None = None
    profile_before: str | None = None  # the exact file text before an accept (for undo)
    profile_after: str | None = None
    bulk: str | None = None  # decisions taken in one action share it


@dataclass(eq=True)
class HistoryEntry(Row):
    """A decision as `review show` and the change page list it (without the profile texts)."""

    status: str
    editor: str
    note: str | None
    decided_at: str


@dataclass(eq=True)
class AuditEntry(Row):
    """One line of the append-only audit log."""

    id: int
    at: str
    actor: str
    action: str
    change_id: str | None
    profile: str | None
    detail: dict[str, Any]


@dataclass(eq=True)
class EditorRow(Row):
    """An editor account as listed (never its password hash)."""

    name: str
    created: str
