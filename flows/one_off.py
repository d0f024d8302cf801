"""One URL, now: fetch it (or take the editor's file as its body), extract, diff, enqueue."""

from __future__ import annotations

import uuid
from datetime import date
from pathlib import Path
from typing import Any

from prefect import flow
from prefect.artifacts import create_markdown_artifact

import extractors
from flows.arxiv_tasks import check_paper
from flows.context import RunContext
from flows.tasks import fetch_source, process_feed, process_file, process_source
from ingest.documents import snapshot_from_file
from ingest.errors import IngestError, OlderFileError
from ingest.models import iso_z, utcnow
from ingest.pipeline.arxiv_stage import arxiv_id_of
from ingest.pipeline.feeds import FEED
from ingest.pipeline.outcome import SourceOutcome
from ingest.pipeline.process import record_failure
from ingest.pipeline.registry import load_registry, source_for
from ingest.report.run import RunReport


@flow(name="ingest-url", log_prints=True)
def ingest_url(
    url: str, file: str | None = None, extractor: str | None = None, as_of: str | None = None
) -> dict[str, Any]:
    """`as_of` (YYYY-MM-DD): with `file`, the day the file is evidence for (default: the date
    it states, else today, with a warning). A file older than the stored snapshot of URL is
    refused (OlderFileError, nothing stored)."""
    ctx = RunContext.open()
    report = RunReport(run_id=uuid.uuid4().hex[:12], kind="one-off", started=iso_z(utcnow()))
    try:
        registry = load_registry(ctx.settings.sources_file)
        source = source_for(url, registry, extractor, extractors=extractors)
        ctx.store.upsert_source(source)
        report.pending_before = ctx.store.pending_change_ids()
        outcome: SourceOutcome
        accessed = None if ctx.settings.replay else utcnow().date()  # a replay is no access
        try:
            if file:
                day = date.fromisoformat(as_of) if as_of else None
                snapshot = snapshot_from_file(url, Path(file), ctx.settings.max_bytes, day)
                outcome = process_file(
                    ctx.store, ctx.settings, source, snapshot, ctx.profiles, extractor, file
                )
            elif (arxiv_id := arxiv_id_of(url)) is not None:
                with ctx.client() as client, ctx.arxiv_client() as arxiv_client:
                    outcome = check_paper(
                        ctx.store,
                        ctx.settings,
                        arxiv_client,
                        ctx.fetcher(client),
                        ctx.profiles,
                        arxiv_id,
                        url,
                        accessed,
                        ctx.archive_pages,
                    )
                outcome.url = url
            elif source.extractor == FEED:
                with ctx.client() as client:
                    fetched = fetch_source(ctx.fetcher(client), source, ctx.store.source_state(url))
                outcome = process_feed(ctx.store, source, fetched)
            else:
                with ctx.client() as client:
                    fetched = fetch_source(ctx.fetcher(client), source, ctx.store.source_state(url))
                outcome = process_source(
                    ctx.store, ctx.settings, source, fetched, ctx.profiles, accessed
                )
        except OlderFileError:
            raise  # refused before anything was stored: no failure recorded, no report
        except IngestError as exc:
            outcome = record_failure(ctx.store, source, exc)
        report.outcomes.append(outcome)
        report.finished = iso_z(utcnow())
        path = report.write(ctx.settings.reports_dir / "one-off", report.run_id)
        create_markdown_artifact(
            report.markdown(), key="one-off-report", description=f"ingest one-off run for {url}"
        )
        result = outcome.to_json()
        result["report_file"] = str(path)
        return result
    finally:
        ctx.close()
