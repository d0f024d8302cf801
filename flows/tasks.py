"""Prefect tasks: one per I/O step, coarse (per source), retries on the network steps only."""

from __future__ import annotations

from datetime import date
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE

from ingest.errors import IngestError
from ingest.feeds import record_feed
from ingest.fetch import FetchResult, is_transient
from ingest.models import Profile, Snapshot, Source
from ingest.pipeline import OutcomeStatus, SourceOutcome, process_snapshot, record_failure
from ingest.polite import PoliteFetcher
from ingest.references import record_reachable
from ingest.settings import Settings
from ingest.store import Store

# arXiv's API client retries nothing itself: its tasks carry that source's single retry layer
ARXIV_RETRIES = 2
ARXIV_RETRY_DELAYS = [3.0, 10.0]  # seconds, with jitter added


def retry_transient(task: Any, task_run: Any, state: Any) -> bool:
    """Retry only what may succeed later: timeouts, connection errors, 429 and 5xx."""
    try:
        state.result()
    except Exception as exc:  # noqa: BLE001 - we classify, not handle
        return is_transient(exc)
    return False


def conditional(fetcher: PoliteFetcher, url: str, state: dict[str, Any] | None) -> FetchResult:
    """Fetch `url` with the validators stored for it (a 304 or the same bytes is unchanged)."""
    state = state or {}
    return fetcher.fetch(
        url,
        etag=state.get("etag"),
        last_modified=state.get("last_modified"),
        previous_sha256=state.get("last_sha256"),
        validated_url=state.get("final_url"),
    )


@task(name="fetch-source", cache_policy=NO_CACHE)
def fetch_source(
    fetcher: PoliteFetcher, source: Source, state: dict[str, Any] | None
) -> FetchResult:
    """The network step. Its retries (transient errors only, backoff with jitter, Retry-After
    honoured) are the PoliteFetcher's: Prefect retries nothing here, so nothing is stacked."""
    return conditional(fetcher, source.url, state)


@task(name="process-source", cache_policy=NO_CACHE)
def process_source(
    store: Store,
    settings: Settings,
    source: Source,
    fetched: FetchResult,
    profiles: dict[str, Profile],
    accessed: date | None = None,
) -> SourceOutcome:
    """Store, extract (unless unchanged), diff and enqueue one fetched source."""
    try:
        snapshot = fetched.snapshot
        status = fetched.status
        if snapshot is None:  # a 304: the stored snapshot still holds
            last = (store.source_state(source.url) or {}).get("last_sha256")
            if not last:
                raise IngestError(f"'{source.url}' answered 304 but no snapshot is stored")
            snapshot = store.get_snapshot(last)
        outcome = process_snapshot(
            store, settings, source, snapshot, profiles, status=status, accessed=accessed
        )
        store.update_source_state(
            source.url,
            etag=fetched.etag,
            last_modified=fetched.last_modified,
            final_url=fetched.final_url,
        )
        store.record_fetch(
            source.url, status, sha256=snapshot.sha256, http_status=fetched.http_status
        )
        return outcome
    except IngestError as exc:
        store.record_fetch(source.url, "failed", error=str(exc))
        return record_failure(store, source, exc)


@task(name="process-file", cache_policy=NO_CACHE)
def process_file(
    store: Store,
    settings: Settings,
    source: Source,
    snapshot: Snapshot,
    profiles: dict[str, Profile],
    extractor: str | None,
) -> SourceOutcome:
    """A one-off run on a body the editor supplied: no fetch, same pipeline."""
    state = store.source_state(source.url) or {}
    status: OutcomeStatus = (
        "unchanged" if state.get("last_sha256") == snapshot.sha256 else "fetched"
    )
    outcome = process_snapshot(
        store, settings, source, snapshot, profiles, status=status, extractor_name=extractor
    )
    store.record_fetch(source.url, status, sha256=snapshot.sha256)
    return outcome


@task(name="check-reference", cache_policy=NO_CACHE)
def check_reference(
    store: Store, settings: Settings, fetcher: PoliteFetcher, url: str, accessed: date | None
) -> SourceOutcome:
    """A cited URL no extractor reads: does it still answer?"""
    try:
        fetched = conditional(fetcher, url, store.source_state(url))
    except IngestError as exc:
        store.record_fetch(url, "failed", error=str(exc))
        return record_failure(store, Source(url=url), exc)
    return record_reachable(store, settings.profiles_dir, url, fetched, accessed)


@task(name="process-feed", cache_policy=NO_CACHE)
def process_feed(store: Store, source: Source, fetched: FetchResult) -> SourceOutcome:
    """A feed: stored, and its new entries registered as sources."""
    try:
        return record_feed(store, source, fetched)
    except IngestError as exc:
        store.record_fetch(source.url, "failed", error=str(exc))
        return record_failure(store, source, exc)
