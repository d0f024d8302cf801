"""What the templates show: plain values built from store rows and profile files."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from ingest.errors import ProfileError
from ingest.fact_identity import label, show_value
from ingest.models import Profile
from ingest.profiles.io import load_profile, profile_path
from ingest.review.context import nearest_claims
from ingest.review.decisions import history
from ingest.review.grouping import source_label, source_titles
from ingest.review.snapshots import SnapshotTime, snapshot_time
from ingest.review.web.diffs import SnapshotDiff, change_diff
from ingest.review.web.evidence import Evidence, TextCache, evidence_for, snapshot_sha256
from ingest.statements import change_sentence, notation, sentence
from ingest.storage import ChangeRow, HistoryEntry, QueueFilter, Store

STATUSES = ("pending", "accepted", "rejected", "superseded")
KINDS = ("added", "changed", "removed")
QUALIFIER_ORDER = ("level", "section", "scope", "status", "role", "date", "work", "title")


def web_url(url: str | None) -> str | None:
    """The URL if a browser may follow it (http or https only: never javascript: or data:)."""
    if not url:
        return None
    return url if urlsplit(url).scheme.lower() in ("http", "https") else None


CONFIDENCES = ("0.5", "0.8", "0.9")  # "at least" choices, shown once claims carry one


def parse_filter(
    status: str | None,
    person: str | None,
    source: str | None,
    kind: str | None,
    predicate: str | None = None,
    confidence: str | None = None,
    since: str | None = None,
) -> QueueFilter:
    """QueueFilter from query parameters; unknown values fall back to 'everything'. `since`:
    the editor's "new since your last visit" boundary when they asked for new changes only."""
    status = status if status in STATUSES or status == "all" else "pending"
    return QueueFilter(
        status=None if status == "all" else status,
        profile=person or None,
        source_url=source or None,
        kind=kind if kind in KINDS else None,
        predicate=predicate or None,
        min_confidence=float(confidence) if confidence in CONFIDENCES else None,
        created_after=since or None,
    )


def filter_query(filters: QueueFilter, **extra: Any) -> str:
    """The filters as a query string (for links that keep the editor's place)."""
    params = {
        "status": filters.status or "all",
        "person": filters.profile or "",
        "source": filters.source_url or "",
        "kind": filters.kind or "",
        "predicate": filters.predicate or "",
        "confidence": "" if filters.min_confidence is None else f"{filters.min_confidence:g}",
        "new": "1" if filters.created_after else "",
    }
    params.update({k: str(v) for k, v in extra.items() if v is not None})
    return urlencode({k: v for k, v in params.items() if v})


@dataclass
class Statement:
    predicate: str
    object: str
    qualifiers: list[tuple[str, str, bool]]  # (label, value, differs from the other side)
    org: str = ""  # the organisation the printed one resolved to (qualifiers.org), if any
    org_id: str = ""  # its ROR id
    sentence: str = ""  # ingest.statements.sentence
    raw: str = ""  # the claim as JSON (the "raw claim" view)


def statement(
    claim: dict[str, Any] | None, other: dict[str, Any] | None = None
) -> Statement | None:
    if not claim:
        return None
    q = claim.get("qualifiers") or {}
    oq = (other or {}).get("qualifiers") or {}
    keys = [k for k in QUALIFIER_ORDER if k in q] + sorted(k for k in q if k not in QUALIFIER_ORDER)
    found = q.get("org")
    org: dict[str, Any] = found if isinstance(found, dict) else {}
    keys = [k for k in keys if not (k == "org" and org)]  # shown beside the object instead
    return Statement(
        predicate=str(claim.get("predicate", "?")),
        object=str(claim.get("object", "?")),
        org=str(org.get("name") or ""),
        org_id=str(org.get("ror") or ""),
        qualifiers=[
            (label(k), show_value(q[k]), other is not None and oq.get(k) != q[k]) for k in keys
        ],
        sentence=sentence(claim),
        raw=json.dumps(claim, ensure_ascii=False, indent=1, sort_keys=True),
    )


@dataclass
class ChangeView:
    row: ChangeRow
    summary: str
    candidate: Statement | None
    current: Statement | None
    related: list[Statement]
    subject: dict[str, Any]
    evidence: Evidence
    locator: str
    source_link: str | None
    profile_name: str
    decisions: list[HistoryEntry]
    decided_by: HistoryEntry | None
    prev_id: str | None
    next_id: str | None
    position: int | None = None
    flash: list[tuple[str, str]] = field(default_factory=list)  # (kind: ok/error, text)
    total: int = 0  # facts in the queue (the N of "n of N")
    sources: list[dict[str, Any]] = field(default_factory=list)  # every source of this fact
    when: SnapshotTime | None = None
    raw: str = ""  # the change's notation (`maintainer PyTorch (level module, ...)`)
    diff: SnapshotDiff | None = None  # removed/changed: the earlier snapshot against this one


def source_rows(
    store: Store, members: list[ChangeRow], cache: TextCache | None = None
) -> list[dict[str, Any]]:
    """Each source of one fact: what tells it apart, its link, its quote and snapshot date, and
    (with `cache`) its own evidence: the quote marked at its locator in its own snapshot."""
    out = []
    titles = source_titles(store.source_states([m.source_url for m in members]))
    for m in members:
        evidence = (m.claim or {}).get("evidence") or {}
        out.append(
            {
                "id": m.id,
                "label": source_label(m, titles.get(m.source_url)),
                "url": m.source_url,
                "link": web_url(m.source_url),
                "quote": str(evidence.get("quote") or ""),
                "locator": str(evidence.get("locator") or ""),
                "when": snapshot_time(store, m.get("snapshot_sha256") or evidence.get("sha256")),
                "status": m.status,
                "evidence": None
                if cache is None
                else evidence_for(
                    cache,
                    snapshot_sha256(m),
                    str(evidence.get("quote") or ""),
                    str(evidence.get("locator") or ""),
                ).for_claim(m.claim or {}),
            }
        )
    return out


def load_profile_or_none(profiles_dir: Path, profile_id: str) -> Profile | None:
    try:
        return load_profile(profile_path(profiles_dir, profile_id))
    except ProfileError:
        return None


def change_view(
    store: Store, cache: TextCache, profiles_dir: Path, row: ChangeRow, filters: QueueFilter
) -> ChangeView:
    claim = row.claim or {}
    previous = row.previous
    profile = load_profile_or_none(profiles_dir, row.profile)
    related: list[Statement] = []
    if profile is not None and not previous:  # the nearest facts it states (other works)
        related = [st for c in nearest_claims(profile, row) for st in [statement(c)] if st]
    evidence = claim.get("evidence") or {}
    members = store.fact_members(row, QueueFilter(status=row.status))
    if not any(m.id == row.id for m in members):
        members = [row, *members]
    decisions = history(store, row.id)
    decided_by = decisions[-1] if row.status != "pending" and decisions else None
    prev_id, next_id, position = store.fact_place(filters, row)
    return ChangeView(
        row=row,
        summary=change_sentence(row),
        raw=notation(row),
        diff=change_diff(store, cache, row, profile),
        candidate=statement(claim, previous if row.kind == "changed" else None),
        current=statement(previous, claim if row.kind == "changed" else None),
        related=related,
        subject=claim.get("subject") or {},
        evidence=evidence_for(
            cache,
            row.get("snapshot_sha256") or evidence.get("sha256"),
            evidence.get("quote", ""),
            str(evidence.get("locator") or ""),
        ),
        locator=str(evidence.get("locator") or ""),
        source_link=web_url(row.source_url),
        profile_name=profile.name if profile else row.profile,
        decisions=decisions,
        decided_by=decided_by,
        prev_id=prev_id,
        next_id=next_id,
        position=position,
        total=store.count_facts(filters),
        sources=source_rows(store, members, cache),
        when=snapshot_time(store, row.get("snapshot_sha256") or evidence.get("sha256")),
    )


@dataclass
class QueueGroup:
    source_url: str
    source_link: str | None
    total: int
    items: list[dict[str, Any]]


def queue_groups(
    facts: list[list[ChangeRow]] | list[ChangeRow],
    source_totals: dict[str, int],
    titles: dict[str, str] | None = None,
    profiles: dict[str, Profile | None] | None = None,
    since: str | None = None,
) -> list[QueueGroup]:
    """Queue entries under the source of their leading change: one entry per fact (a list of
    its changes; a bare row is a fact of one), naming every source that states it (`titles`:
    source URL -> title, for papers), the person by the profile's name and, for an addition,
    what the profile already states about it (`profiles`: id -> the profile); `new` when it
    was queued after `since` (the editor's last visit)."""
    titles = titles or {}
    profiles = profiles or {}
    groups: list[QueueGroup] = []
    # what a profile already states about a predicate and object: the same for every entry of
    # a page that adds it (a page of one person's memberships of one project reads it once)
    already: dict[tuple[str, str, str], list[str]] = {}
    for entry in facts:
        members = entry if isinstance(entry, list) else [entry]
        row = members[0]
        if not groups or groups[-1].source_url != row.source_url:
            groups.append(
                QueueGroup(
                    source_url=row.source_url,
                    source_link=web_url(row.source_url),
                    total=source_totals.get(row.source_url, 0),
                    items=[],
                )
            )
        claim = row.claim or {}
        profile = profiles.get(row.profile)
        key = (row.profile, str(claim.get("predicate") or ""), str(claim.get("object") or ""))
        if profile and not row.previous and key not in already:
            already[key] = [sentence(c) for c in nearest_claims(profile, row)]
        groups[-1].items.append(
            dict(row)  # the template reads it: no copy of its claim
            | {
                "summary": change_sentence(row),
                "raw": notation(row),
                "person": profile.name if profile else row.profile,
                "already": already.get(key, []) if profile and not row.previous else [],
                "new": since is None or str(row.created) >= since,
                "subject_name": (claim.get("subject") or {}).get("name", ""),
                "sources": [
                    {
                        "label": source_label(m, titles.get(m.source_url)),
                        "url": m.source_url,
                        "id": m.id,
                    }
                    for m in members
                ],
                "members": [m.id for m in members],
            }
        )
    return groups


@dataclass
class ProfileView:
    profile: Profile
    claims: list[tuple[Statement, list[dict[str, Any]]]]  # statement, its references


def profile_view(profile: Profile) -> ProfileView:
    refs = {r.id: r.model_dump() | {"link": web_url(r.url)} for r in profile.references}
    claims = []
    for c in profile.claims:
        st = statement(c.model_dump())
        if st is not None:
            claims.append(
                (st, [refs.get(r, {"id": r, "title": None, "link": None}) for r in c.refs])
            )
    return ProfileView(profile=profile, claims=claims)
