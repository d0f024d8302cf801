"""Prefect tasks and wiring for arXiv: metadata in batches, author queries, PDFs once per version.

The network steps (`arxiv-metadata`, `arxiv-author-query`, and the PDF through `fetch-source`)
carry the run's only retries; processing is plain library code (ingest.pipeline.arxiv_stage).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE

import extractors
from flows import arxiv_steps
from flows.tasks import fetch_source, retry_transient
from ingest.fetch.arxiv_client import ArxivBatchResult, ArxivClient, ArxivSearchResult
from ingest.fetch.arxiv_session import AtomPage
from ingest.fetch.polite import PoliteFetcher
from ingest.fetch.result import FetchResult
from ingest.models import Profile
from ingest.pipeline.arxiv_stage import Paper, papers_in
from ingest.pipeline.outcome import SourceOutcome
from ingest.pipeline.process import combine
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
    return arxiv_steps.fetch_metadata(client, ids)


@task(name="arxiv-author-query", **ARXIV_TASK)
def search_author(client: ArxivClient, name: str) -> ArxivSearchResult:
    return arxiv_steps.search_author(client, name)


def retrying(query: Any, settings: Settings) -> Any:
    """An arXiv query task with the run's retry settings (INGEST_ARXIV_RETRIES and
    INGEST_ARXIV_RETRY_DELAYS, the last delay repeated when there are more retries)."""
    delays = arxiv_steps.retry_delays(settings)
    return query.with_options(
        retries=settings.arxiv_retries, retry_delay_seconds=delays[: max(1, settings.arxiv_retries)]
    )


process_metadata_task = task(name="process-arxiv-metadata", cache_policy=NO_CACHE)(
    arxiv_steps.process_metadata_step
)
process_pdf_task = task(name="process-arxiv-pdf", cache_policy=NO_CACHE)(
    arxiv_steps.process_pdf_step
)


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
    """`arxiv_steps.read_pdf` with the tasks; tests pass their plain functions (`.fn`)."""
    return arxiv_steps.read_pdf(store, settings, http, paper, profiles, accessed, fetch, process)


def check_arxiv(
    store: Store,
    settings: Settings,
    arxiv_client: ArxivClient,
    http: PoliteFetcher,
    profiles: dict[str, Profile],
    accessed: date | None = None,
    keep: Callable[[list[AtomPage]], None] | None = None,
) -> list[SourceOutcome]:
    """The arXiv part of the nightly refresh in a flow run: `arxiv_steps.check_arxiv` with the
    tasks (`flows.nightly_local` runs it with the plain steps)."""
    return arxiv_steps.check_arxiv(
        store,
        settings,
        arxiv_client,
        http,
        profiles,
        accessed,
        keep,
        query=retrying,
        metadata_query=fetch_metadata,
        author_query=search_author,
        metadata=process_metadata_task,
        fetch=fetch_source,
        process=process_pdf_task,
    )


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
