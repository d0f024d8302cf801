"""Prefect tasks and wiring for arXiv: metadata in batches, author queries, PDFs once per version.

The network steps (`arxiv-metadata`, `arxiv-author-query`, and the PDF through `fetch-source`)
carry the run's only retries; processing is plain library code (ingest.pipeline.arxiv_stage).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE

import extractors
from flows.tasks import fetch_source, retry_transient
from ingest.errors import IngestError
from ingest.fetch.arxiv_client import ArxivBatchResult, ArxivClient, ArxivSearchResult
from ingest.fetch.arxiv_session import AtomPage
from ingest.fetch.client import FetchResult
from ingest.fetch.polite import PoliteFetcher
from ingest.fetch.transient import is_transient
from ingest.models import Profile, Snapshot, Source
from ingest.pipeline.arxiv_stage import (
    Paper,
    author_names,
    cited_ids,
    papers_in,
    pdf_is_current,
    pdf_source,
    process_metadata,
    process_pdf,
    process_search,
)
from ingest.pipeline.outcome import OutcomeStatus, SourceOutcome
from ingest.pipeline.process import combine, record_failure
from ingest.settings import Settings
from ingest.storage import Store

# arXiv's API client retries nothing itself: its tasks are that source's single retry layer
# (transient errors only, with jitter), as many times as INGEST_ARXIV_RETRIES says (see
# `retrying`); nothing is cached across runs
ARXIV_TASK: dict[str, Any] = {
    "retry_jitter_factor": 0.5,
    "retry_condition_fn": retry_transient,
    "cache_policy": NO_CACHE,
}


@task(name="arxiv-metadata", **ARXIV_TASK)
def fetch_metadata(client: ArxivClient, ids: list[str]) -> ArxivBatchResult:
    return client.fetch_ids(ids)


@task(name="arxiv-author-query", **ARXIV_TASK)
def search_author(client: ArxivClient, name: str) -> ArxivSearchResult:
    return client.search_author(name)


def retrying(query: Any, settings: Settings) -> Any:
    """An arXiv query task with the run's retry settings (INGEST_ARXIV_RETRIES and
    INGEST_ARXIV_RETRY_DELAYS, the last delay repeated when there are more retries)."""
    delays = list(settings.arxiv_retry_delays)
    delays += delays[-1:] * max(0, settings.arxiv_retries - len(delays))
    return query.with_options(
        retries=settings.arxiv_retries, retry_delay_seconds=delays[: max(1, settings.arxiv_retries)]
    )


@task(name="process-arxiv-metadata", cache_policy=NO_CACHE)
def process_metadata_task(
    store: Store,
    settings: Settings,
    batch: ArxivBatchResult,
    ids: list[str],
    profiles: dict[str, Profile],
    accessed: date | None = None,
) -> list[SourceOutcome]:
    return process_metadata(
        store, settings, batch.pages, ids, profiles, accessed, extractors=extractors
    )


@task(name="process-arxiv-pdf", cache_policy=NO_CACHE)
def process_pdf_task(
    store: Store,
    settings: Settings,
    paper: Paper,
    snapshot: Snapshot,
    profiles: dict[str, Profile],
    status: OutcomeStatus,
    accessed: date | None = None,
) -> SourceOutcome:
    try:
        return process_pdf(
            store,
            settings,
            paper,
            snapshot,
            profiles,
            status=status,
            accessed=accessed,
            extractors=extractors,
        )
    except IngestError as exc:
        return record_failure(store, pdf_source(paper.id, paper.title), exc, fetch=True)


def read_pdf(
    store: Store,
    settings: Settings,
    http: PoliteFetcher,
    paper: Paper,
    profiles: dict[str, Profile],
    accessed: date | None = None,
    fetch: Callable[..., FetchResult] = fetch_source,
    process: Callable[..., SourceOutcome] = process_pdf_task,
) -> SourceOutcome:
    """The paper's PDF, read once per version: a version read before is re-diffed, not fetched.

    `fetch` and `process` are the tasks; tests pass their plain functions (`.fn`)."""
    stored = pdf_is_current(store, paper)
    if stored:
        return process(
            store, settings, paper, store.get_snapshot(stored), profiles, "unchanged", accessed
        )
    try:
        fetched = fetch(http, Source(url=paper.pdf_url), None)
    except IngestError as exc:
        return record_failure(store, pdf_source(paper.id, paper.title), exc, fetch=True)
    if fetched.snapshot is None:  # no validators were sent, so a 304 cannot happen
        raise IngestError(f"'{paper.pdf_url}' answered 304 to an unconditional request")
    return process(store, settings, paper, fetched.snapshot, profiles, "fetched", accessed)


def plain_retrying(query: Any, settings: Settings) -> Any:
    """`retrying` for a run with no flow run (a nightly in the command's own process): the
    task's function, tried again on transient errors only, as many times and after the same
    delays (jittered as Prefect does, +-50%)."""
    delays = list(settings.arxiv_retry_delays)
    delays += delays[-1:] * max(0, settings.arxiv_retries - len(delays))

    def call(*args: Any) -> Any:
        attempt = 0
        while True:
            try:
                return query.fn(*args)
            except Exception as exc:
                if attempt >= settings.arxiv_retries or not is_transient(exc):
                    raise
            delay = delays[min(attempt, len(delays) - 1)] if delays else 0.0
            time.sleep(delay * random.uniform(0.5, 1.5))
            attempt += 1

    return call


def check_arxiv(
    store: Store,
    settings: Settings,
    arxiv_client: ArxivClient,
    http: PoliteFetcher,
    profiles: dict[str, Profile],
    accessed: date | None = None,
    keep: Callable[[list[AtomPage]], None] | None = None,
    *,
    plain: bool = False,
) -> list[SourceOutcome]:
    """The arXiv part of the nightly refresh (wiring only). `plain`: with the tasks' functions
    (`plain_retrying` for the queries), for a nightly run outside any flow run."""
    query = plain_retrying if plain else retrying
    metadata = process_metadata_task.fn if plain else process_metadata_task
    fetch: Callable[..., FetchResult] = fetch_source.fn if plain else fetch_source
    process: Callable[..., SourceOutcome] = process_pdf_task.fn if plain else process_pdf_task
    outcomes: list[SourceOutcome] = []
    papers: dict[str, Paper] = {}
    ids = cited_ids(profiles)
    if ids:
        try:
            batch = query(fetch_metadata, settings)(arxiv_client, ids)
            if keep:
                keep(batch.pages)
        except IngestError as exc:
            outcomes.append(
                record_failure(store, Source(url="https://export.arxiv.org/api/query"), exc)
            )
        else:
            outcomes += metadata(store, settings, batch, ids, profiles, accessed)
            papers = {
                pid: paper
                for pid, (paper, _snap) in papers_in(batch.pages, extractors=extractors).items()
            }
    new: dict[str, Paper] = {}
    for pid in sorted(profiles):
        for name in author_names(profiles[pid]):
            try:
                found = query(search_author, settings)(arxiv_client, name)
                if keep:
                    keep(found.pages)
            except IngestError as exc:
                outcomes.append(
                    record_failure(store, Source(url=f"arxiv author query {name}"), exc)
                )
                continue
            outcome, mine = process_search(
                store, settings, pid, found.query, found.pages, profiles, extractors=extractors
            )
            if outcome is not None:
                outcomes.append(outcome)
            for paper in mine:
                if paper.id not in papers:
                    new.setdefault(paper.id, paper)
    todo = list(papers.values()) + sorted(new.values(), key=lambda p: p.id)[: settings.max_new_pdfs]
    for paper in todo:
        outcomes.append(read_pdf(store, settings, http, paper, profiles, accessed, fetch, process))
    return outcomes


def check_paper(
    store: Store,
    settings: Settings,
    arxiv_client: ArxivClient,
    http: PoliteFetcher,
    profiles: dict[str, Profile],
    arxiv_id: str,
    asked_url: str,
    accessed: date | None = None,
    keep: Callable[[list[AtomPage]], None] | None = None,
) -> SourceOutcome:
    """One paper, now (`ingest run https://arxiv.org/abs/<id>`): metadata, then its PDF.

    The outcome is the asked URL's (the PDF's for a /pdf/ URL), with the other's flags and
    alerts folded in.
    """
    batch = retrying(fetch_metadata, settings)(arxiv_client, [arxiv_id])
    if keep:
        keep(batch.pages)
    [meta] = process_metadata_task(store, settings, batch, [arxiv_id], profiles, accessed)
    found = papers_in(batch.pages, extractors=extractors)
    if arxiv_id not in found:
        return meta
    paper = found[arxiv_id][0]
    if "/pdf/" in asked_url:
        paper = replace(paper, pdf_url=asked_url)
    pdf = read_pdf(store, settings, http, paper, profiles, accessed)
    return combine(pdf, meta) if "/pdf/" in asked_url else combine(meta, pdf)
