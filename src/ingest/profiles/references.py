"""The references profiles cite: kept fresh when their source answers, flagged when it is gone.

- A source that answers and still holds (fetched or unchanged, no layout alert) refreshes the
  `accessed` date of every profile reference with its URL: the wiki prints when a source was last
  seen to support the profile. Only that field is written (atomically, under the profiles' lock),
  and the audit log says so. Replays are not accesses: they refresh nothing.
- A reference whose URL failed (404/410, or any failure) on INGEST_UNREACHABLE_AFTER consecutive
  checks becomes a `changed` flag for each citing profile: the claim is the reference with
  `status: unreachable`; the previous statement is the reference as the profile has it. One blip
  does not: a success resets the count and retires the flag.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from ingest.fetch.result import FetchResult
from ingest.files import write_atomic
from ingest.models import Change, Profile, Reference, iso_z, stable_hash, utcnow
from ingest.pipeline.outcome import SourceOutcome
from ingest.profiles.io import load_profile, profile_path, render
from ingest.profiles.locks import profile_lock
from ingest.review.queue import enqueue
from ingest.storage import Store

REACHABILITY_EXTRACTOR = "ingest/reachability"


def citing(profiles: dict[str, Profile]) -> dict[str, list[tuple[str, Reference]]]:
    """Each cited URL with the (profile id, reference) pairs that cite it."""
    out: dict[str, list[tuple[str, Reference]]] = {}
    for pid in sorted(profiles):
        for ref in profiles[pid].references:
            if ref.url:
                out.setdefault(ref.url, []).append((pid, ref))
    return out


def cited(profiles: dict[str, Profile], url: str) -> bool:
    """Whether any of these profiles cites `url` (else refresh_accessed has nothing to do and
    need not read every profile file)."""
    return any(ref.url == url for profile in profiles.values() for ref in profile.references)


def refresh_accessed(store: Store, profiles_dir: Path, url: str, day: date) -> list[str]:
    """Set `accessed` to `day` on every reference to `url`; returns the profiles written."""
    written = []
    with profile_lock(profiles_dir):
        for path in sorted(profiles_dir.glob("*.json")):
            profile = load_profile(path)
            refs = [r for r in profile.references if r.url == url and r.accessed != day.isoformat()]
            if not refs:
                continue
            for ref in refs:
                ref.accessed = day.isoformat()
            write_atomic(profile_path(profiles_dir, profile.id), render(profile).encode("utf-8"))
            with store.begin() as conn:
                store.audit(
                    conn,
                    "ingest",
                    "accessed-refreshed",
                    profile=profile.id,
                    url=url,
                    accessed=day.isoformat(),
                    references=[r.id for r in refs],
                )
            written.append(profile.id)
    return written


def unreachable_changes(
    store: Store, profiles: dict[str, Profile], after: int
) -> dict[str, list[Change]]:
    """Flags for references whose URL failed `after` times in a row, by URL."""
    out: dict[str, list[Change]] = {}
    for url, cited in citing(profiles).items():
        state = store.source_state(url)
        streak = (state.fail_streak or 0) if state else 0
        if state is None or streak < after:
            continue
        reason = state.last_error or "unreachable"
        for pid, ref in cited:
            claim: dict[str, Any] = {
                "subject": {"name": profiles[pid].name},
                "predicate": "reference",
                "object": url,
                "qualifiers": {
                    "status": "unreachable",
                    "failures": streak,
                    "reason": reason,
                    "reference": ref.id,
                },
                "evidence": {"url": url, "sha256": "", "locator": "fetch log", "quote": reason},
                "extractor": REACHABILITY_EXTRACTOR,
            }
            out.setdefault(url, []).append(
                Change(
                    id=stable_hash(pid, "changed", "reference-unreachable", ref.id, url),
                    profile=pid,
                    kind="changed",
                    claim=claim,
                    previous=ref.to_json(),
                    source_url=url,
                    created=iso_z(utcnow()),
                )
            )
    return out


def record_reachable(
    store: Store, profiles_dir: Path, url: str, fetched: FetchResult, accessed: date | None
) -> SourceOutcome:
    """A cited URL with no extractor answered: its failure count resets, a pending
    'unreachable' flag for it is retired, and (for a real access) its `accessed` dates refresh."""
    sha = None
    if fetched.snapshot is not None:
        store.put_snapshot(fetched.snapshot)
        sha = fetched.snapshot.sha256
    state = store.source_state(url)
    sha = sha or (state.last_sha256 if state else None)
    store.update_source_state(
        url,
        last_status=fetched.status,
        last_checked=iso_z(utcnow()),
        fail_streak=0,
        last_error=None,
        last_sha256=sha,
        etag=fetched.etag,
        last_modified=fetched.last_modified,
        final_url=fetched.final_url,
    )
    store.record_fetch(url, fetched.status, sha256=sha, http_status=fetched.http_status)
    enqueue(store, [], url, sha, retire_stale=True)
    if accessed is not None:
        refresh_accessed(store, profiles_dir, url, accessed)
    return SourceOutcome(
        url=url,
        status=fetched.status,
        snapshot=sha,
        final_url=fetched.final_url,
        extractor=REACHABILITY_EXTRACTOR,
    )


def flag_unreachable(
    store: Store, profiles: dict[str, Profile], after: int
) -> list[dict[str, Any]]:
    """Queue the flags for references gone `after` checks in a row; returns those now pending."""
    pending: list[dict[str, Any]] = []
    for url, changes in unreachable_changes(store, profiles, after).items():
        result = enqueue(store, changes, url, None, retire_stale=False)
        fresh = set(result.new + result.refreshed + result.reopened)
        pending += [c.to_json() for c in changes if c.id in fresh]
    return pending
