"""The data that flows through ingest, as DESIGN.md defines it.

Source -> Snapshot -> [Claim] -> resolve -> diff against Profile -> [Change] -> Decision.
JSON shapes follow the contract; new optional fields may be added, none renamed or removed.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ingest.urls import encode_url

ChangeKind = Literal["added", "changed", "removed"]
ChangeStatus = Literal["pending", "accepted", "rejected", "superseded"]
# Where a snapshot's bytes came from: fetched from the network, served by the replay archive (a
# recording of its own day), or read from a local file an editor gave (`ingest run --file`).
SnapshotOrigin = Literal["network", "replay", "file"]
# How a local file's evidence date was found: given (--as-of), stated (by the file), or
# assumed (today).
EvidenceBasis = Literal["given", "stated", "assumed"]
REPLAY_HEADERS = ("x-ingest-replay", "x-ingest-replay-date", "x-ingest-replay-as-of")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def utcnow() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def iso_z(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def stable_hash(*parts: Any, length: int = 16) -> str:
    """A short hash of JSON-serialisable parts, the same in every process and run."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:length]


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


class Source(_Model):
    """A URL the nightly refresh checks, with what the wiki cites it as."""

    url: str
    extractor: str | None = None
    title: str | None = None
    publisher: str | None = None
    kind: str | None = None  # the reference kind the wiki prints: Documentation, Paper, ...
    feed: str | None = Field(default=None, description="The feed this source was found in.")
    published: str | None = None  # when the source says it was published (YYYY-MM-DD)
    authoritative: list[str] = Field(
        default_factory=list,
        description="'predicate:object' pairs this source is authoritative for, e.g. "
        "'maintainer:PyTorch': a profile fact of that kind it no longer states is flagged removed.",
    )

    @field_validator("url", "feed")
    @classmethod
    def _encoded(cls, value: str | None) -> str | None:
        """Stored percent-encoded (`ingest.urls.encode_url`): no raw space or control byte."""
        return None if value is None else encode_url(value)


class Snapshot(_Model):
    """One response, stored once by sha256.

    `origin`: where its bytes came from (`SnapshotOrigin`); `evidence_date`: the day (YYYY-MM-DD)
    it is evidence for: a fetch's day, a recording's own date, a local file's --as-of or stated
    date. Both are worked out from the headers and `fetched_at` when not given (a replayed
    response carries `x-ingest-replay-*` headers). `evidence_basis`: for a local file, how its
    date was found (not stored).
    """

    url: str  # the URL the document was finally served from
    requested_url: str | None = None  # the URL asked for, when redirects were followed
    status_code: int = 200
    headers: dict[str, str] = Field(default_factory=dict)
    body: bytes = b""
    sha256: str = ""
    fetched_at: datetime = Field(default_factory=utcnow)
    # as given (a stored row, a local file); else read from the headers when asked
    given_origin: SnapshotOrigin | None = Field(default=None, alias="origin")
    given_evidence_date: str | None = Field(default=None, alias="evidence_date")
    evidence_basis: EvidenceBasis | None = None

    @field_validator("url", "requested_url")
    @classmethod
    def _encoded(cls, value: str | None) -> str | None:
        """Stored percent-encoded (`ingest.urls.encode_url`): no raw space or control byte."""
        return None if value is None else encode_url(value)

    def model_post_init(self, __context: Any) -> None:
        if not self.sha256:
            self.sha256 = sha256_hex(self.body)

    def _header(self, name: str) -> str | None:
        for key, value in self.headers.items():
            if key.lower() == name:
                return value
        return None

    @property
    def origin(self) -> SnapshotOrigin:
        if self.given_origin is not None:
            return self.given_origin
        return "replay" if any(self._header(h) is not None for h in REPLAY_HEADERS) else "network"

    @property
    def evidence_date(self) -> str:
        if self.given_evidence_date:
            return self.given_evidence_date
        recorded = self._header("x-ingest-replay-date")
        return recorded[:10] if recorded else self.fetched_at.date().isoformat()

    @property
    def content_type(self) -> str:
        for key, value in self.headers.items():
            if key.lower() == "content-type":
                return value.split(";")[0].strip().lower()
        return ""

    @property
    def source_url(self) -> str:
        return self.requested_url or self.url

    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Subject(_Model):
    name: str
    github: str | None = None
    orcid: str | None = None
    email: str | None = None


class Evidence(_Model):
    url: str
    sha256: str
    locator: str
    quote: str


class Claim(_Model):
    subject: Subject
    predicate: str
    object: str
    qualifiers: dict[str, Any] = Field(default_factory=dict)
    evidence: Evidence
    extractor: str

    def to_line(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, sort_keys=False)


class ProfileClaim(_Model):
    id: str
    predicate: str
    object: str
    qualifiers: dict[str, Any] = Field(default_factory=dict)
    refs: list[str] = Field(default_factory=list)


class Reference(_Model):
    """A profile's reference. `accessed`: the latest day the source was seen (a real fetch, or
    the evidence an editor accepted). Optional, added by ingest (absent from older files):
    `snapshot_sha256` and `snapshot_date`, the stored snapshot whose evidence an editor accepted
    and the day it is evidence for, and `quote`, the verbatim text of it that was accepted."""

    id: str
    title: str | None = None
    url: str | None = None
    publisher: str | None = None
    kind: str | None = None
    published: str | None = None
    accessed: str | None = None
    snapshot_sha256: str | None = None
    snapshot_date: str | None = None
    quote: str | None = None


class Profile(_Model):
    id: str
    name: str
    aliases: list[str] = Field(default_factory=list)
    accounts: dict[str, str] = Field(default_factory=dict)
    claims: list[ProfileClaim] = Field(default_factory=list)
    references: list[Reference] = Field(default_factory=list)
    reviewed: str | None = None
    updated: str | None = None

    def reference_for(self, url: str) -> Reference | None:
        for ref in self.references:
            if ref.url == url:
                return ref
        return None


class Change(_Model):
    id: str
    profile: str
    kind: ChangeKind
    claim: dict[str, Any] | None = None  # the candidate claim (None for some removals)
    previous: dict[str, Any] | None = None  # the profile claim, or None
    source_url: str
    status: ChangeStatus = "pending"
    created: str = Field(default_factory=lambda: iso_z(utcnow()))

    def to_json(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        return data


class Decision(_Model):
    change_id: str
    status: Literal["accepted", "rejected"]
    editor: str
    note: str | None = None
    decided_at: str = Field(default_factory=lambda: iso_z(utcnow()))
