"""Prefect tasks: one per I/O step, coarse (per batch of sources in the nightly, per source in a
one-off run); retries live in the fetch layer, not here."""

from __future__ import annotations

import os
import socket
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from typing import Any

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows.context import open_client, replay_of
from ingest.errors import IngestError
from ingest.feeds import FEED, record_feed
from ingest.fetch import FetchResult, is_transient
from ingest.models import Profile, Snapshot, Source
from ingest.pipeline import (
    OutcomeStatus,
    SourceOutcome,
    process_snapshot,
    record_failure,
    store_change,
)
from ingest.polite import PoliteFetcher
from ingest.references import record_reachable, refresh_accessed
from ingest.settings import Settings
from ingest.settled import settled_changes, settled_outcome
from ingest.store import Store
from ingest.warc import WarcWriter

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


FetchJob = tuple[Source, dict[str, Any] | None]  # a source and its stored validators
FetchAnswer = FetchResult | IngestError  # what a batch fetch gives back for each job


def fetch_all(fetcher: PoliteFetcher, jobs: list[FetchJob]) -> list[FetchAnswer]:
    """Every job's answer in order, up to INGEST_FETCH_THREADS at once; a failed fetch is its
    error (already retried by the fetcher), never an exception that loses the batch."""

    def one(job: FetchJob) -> FetchAnswer:
        try:
            return conditional(fetcher, job[0].url, job[1])
        except IngestError as exc:
            return exc
        except Exception as exc:  # noqa: BLE001 - a bug on one page must not sink the batch
            return IngestError(f"unexpected error fetching '{job[0].url}': {exc!r}")

    threads = min(fetcher.settings.fetch_threads, len(jobs))
    if threads <= 1:
        return [one(job) for job in jobs]
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="ingest-fetch") as pool:
        return list(pool.map(one, jobs))


@task(name="fetch-batch", cache_policy=NO_CACHE)
def fetch_batch(fetcher: PoliteFetcher, jobs: list[FetchJob]) -> list[FetchAnswer]:
    """One batch's network step in this process, with the run's shared fetcher."""
    return fetch_all(fetcher, jobs)


@task(name="fetch-batch-remote", cache_policy=NO_CACHE)
def fetch_batch_remote(
    settings: Settings, jobs: list[FetchJob], replay: str | None, as_of: date | None
) -> list[FetchAnswer]:
    """One batch's network step in another process (a Dask worker): from plain data, with a
    client, fetcher and WARC file of its own. The batch holds one host's URLs (see
    ingest.batches), so the host's pacing holds although no fetcher is shared."""
    archive = None if replay_of(settings, replay) else WarcWriter(settings.warc_dir)
    try:
        with open_client(settings, replay, as_of, archive) as client:
            answers = fetch_all(PoliteFetcher(client, settings), jobs)
        get_run_logger().info(
            "fetched a batch of %d sources in process %d on %s",
            len(jobs),
            os.getpid(),
            socket.gethostname(),
        )
        return answers
    finally:
        if archive is not None:
            archive.close()


@task(name="process-batch", cache_policy=NO_CACHE)
def process_batch(
    store: Store,
    settings: Settings,
    jobs: list[FetchJob],
    answers: list[FetchAnswer],
    profiles: dict[str, Profile],
    accessed: date | None,
    run_id: str,
) -> list[SourceOutcome]:
    """Store, extract, diff and enqueue one fetched batch, source by source (one writer). An
    unchanged source whose last check still holds (ingest.settled) is only recorded as checked:
    no extraction, no diff, no queue writes; those records go in one transaction per batch."""
    states = store.source_states([source.url for source, _state in jobs])
    settled_ids = [cid for state in states.values() for cid in settled_changes(state)]
    statuses = store.change_statuses(settled_ids) if settled_ids else {}
    cited = {ref.url for profile in profiles.values() for ref in profile.references}
    quick: list[dict[str, Any]] = []
    outcomes: list[SourceOutcome] = []
    for (source, _state), answer in zip(jobs, answers, strict=True):
        if isinstance(answer, IngestError):
            outcomes.append(record_failure(store, source, answer, fetch=True, run_id=run_id))
            continue
        if source.extractor == FEED:
            outcomes.append(feed_fetched(store, source, answer))
            continue
        state = states.get(source.url)
        outcome = None
        if answer.status == "unchanged" and state:
            sha = answer.snapshot.sha256 if answer.snapshot else state.get("last_sha256")
            ratio = settings.layout_min_ratio
            outcome = settled_outcome(state, str(sha), profiles, ratio, statuses)
        if outcome is None:
            outcomes.append(source_fetched(store, settings, source, answer, profiles, accessed))
            # its queue writes may touch changes other sources settled on: read them again
            statuses = store.change_statuses(settled_ids) if settled_ids else {}
            continue
        outcome.changes = [
            store_change(store, cid)
            for cid, status in settled_changes(state).items()
            if status == "pending"
        ]
        quick.append(
            {
                "url": source.url,
                "sha256": outcome.snapshot,
                "http_status": answer.http_status,
                "etag": answer.etag,
                "last_modified": answer.last_modified,
                "final_url": answer.final_url,
            }
        )
        if accessed is not None and source.url in cited:
            refresh_accessed(store, settings.profiles_dir, source.url, accessed)
        outcomes.append(outcome)
    store.record_unchanged(quick, run_id)
    return outcomes


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
    return source_fetched(store, settings, source, fetched, profiles, accessed)


def source_fetched(
    store: Store,
    settings: Settings,
    source: Source,
    fetched: FetchResult,
    profiles: dict[str, Profile],
    accessed: date | None = None,
) -> SourceOutcome:
    """`process_source` without the task: the full check of one fetched source."""
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
        return record_failure(store, source, exc, fetch=True)


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
        return record_failure(store, Source(url=url), exc, fetch=True)
    return record_reachable(store, settings.profiles_dir, url, fetched, accessed)


@task(name="process-feed", cache_policy=NO_CACHE)
def process_feed(store: Store, source: Source, fetched: FetchResult) -> SourceOutcome:
    """A feed: stored, and its new entries registered as sources."""
    return feed_fetched(store, source, fetched)


def feed_fetched(store: Store, source: Source, fetched: FetchResult) -> SourceOutcome:
    """`process_feed` without the task."""
    try:
        return record_feed(store, source, fetched)
    except IngestError as exc:
        return record_failure(store, source, exc, fetch=True)
