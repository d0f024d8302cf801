"""Prefect tasks: one per I/O step, coarse (per batch of sources in the nightly, per source in a
one-off run); retries live in the fetch layer, not here."""

from __future__ import annotations

import os
import socket
from datetime import date
from typing import Any

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

import extractors
from flows.context import open_client, replay_of
from ingest.errors import IngestError
from ingest.fetch.client import FetchResult
from ingest.fetch.polite import PoliteFetcher
from ingest.fetch.transient import is_transient
from ingest.fetch.warc import WarcWriter
from ingest.models import Profile, Snapshot, Source
from ingest.pipeline.batches import (
    FetchAnswer,
    FetchJob,
    feed_fetched,
    fetch_all,
    process_fetched,
    source_fetched,
)
from ingest.pipeline.local_file import file_warnings, refuse_older_file
from ingest.pipeline.outcome import OutcomeStatus, SourceOutcome
from ingest.pipeline.process import process_snapshot, record_failure
from ingest.profiles.references import record_reachable
from ingest.settings import Settings
from ingest.storage import SourceRow, Store


def retry_transient(task: Any, task_run: Any, state: Any) -> bool:
    """Retry only what may succeed later: timeouts, connection errors, 429 and 5xx."""
    try:
        state.result()
    except Exception as exc:  # noqa: BLE001 - we classify, not handle
        return is_transient(exc)
    return False


@task(name="fetch-source", cache_policy=NO_CACHE)
def fetch_source(fetcher: PoliteFetcher, source: Source, state: SourceRow | None) -> FetchResult:
    """The network step. Its retries (transient errors only, backoff with jitter, Retry-After
    honoured) are the PoliteFetcher's: Prefect retries nothing here, so nothing is stacked."""
    return fetcher.revalidate(source.url, state)


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
    ingest.pipeline.batches), so the host's pacing holds although no fetcher is shared."""
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
    """Store, extract, diff and enqueue one fetched batch (unchanged sources whose last check
    still holds: only recorded as checked), in this process: the database has one writer."""
    return process_fetched(
        store, settings, jobs, answers, profiles, accessed, run_id, extractors=extractors
    )


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
    return source_fetched(
        store, settings, source, fetched, profiles, accessed, extractors=extractors
    )


@task(name="process-file", cache_policy=NO_CACHE)
def process_file(
    store: Store,
    settings: Settings,
    source: Source,
    snapshot: Snapshot,
    profiles: dict[str, Profile],
    extractor: str | None,
    file: str | None = None,
) -> SourceOutcome:
    """A one-off run on a body the editor supplied (`file`): no fetch, same pipeline. A file
    older than the newest stored snapshot of the URL is refused before anything is stored
    (OlderFileError; see ingest.pipeline.local_file)."""
    refuse_older_file(store, source.url, snapshot, file)
    state = store.source_state(source.url)
    status: OutcomeStatus = (
        "unchanged" if state and state.last_sha256 == snapshot.sha256 else "fetched"
    )
    outcome = process_snapshot(
        store,
        settings,
        source,
        snapshot,
        profiles,
        status=status,
        extractor_name=extractor,
        extractors=extractors,
    )
    store.record_fetch(source.url, status, sha256=snapshot.sha256)
    state = store.source_state(source.url)
    if state and state.last_sha256 == snapshot.sha256 and (state.etag or state.last_modified):
        # the page's validators belong to the page's last fetched version, no longer its last
        # snapshot: a 304 for them would keep the file's reading; the next nightly reads it all
        store.update_source_state(source.url, etag=None, last_modified=None)
    outcome.file = file
    outcome.origin = snapshot.origin
    outcome.evidence_date = snapshot.evidence_date
    outcome.warnings += file_warnings(snapshot, file)
    return outcome


@task(name="check-reference", cache_policy=NO_CACHE)
def check_reference(
    store: Store, settings: Settings, fetcher: PoliteFetcher, url: str, accessed: date | None
) -> SourceOutcome:
    """A cited URL no extractor reads: does it still answer?"""
    try:
        fetched = fetcher.revalidate(url, store.source_state(url))
    except IngestError as exc:
        return record_failure(store, Source(url=url), exc, fetch=True)
    return record_reachable(store, settings.profiles_dir, url, fetched, accessed)


@task(name="process-feed", cache_policy=NO_CACHE)
def process_feed(store: Store, source: Source, fetched: FetchResult) -> SourceOutcome:
    """A feed: stored, and its new entries registered as sources."""
    return feed_fetched(store, source, fetched, extractors=extractors)
