"""The nightly refresh: every registered source and every reference a profile cites.

ingest nightly                          live, over the network
ingest nightly --replay fixtures/web    offline, from recorded responses
ingest nightly --replay DIR --as-of 2024-06-01   the versions in force that day
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any

from prefect import flow

from flows.arxiv_tasks import check_arxiv
from flows.context import RunContext
from flows.report_tasks import publish_nightly
from flows.tasks import check_reference, fetch_source, process_feed, process_source
from ingest.errors import IngestError
from ingest.feeds import FEED
from ingest.models import Source, iso_z, utcnow
from ingest.outcome import SourceOutcome
from ingest.pipeline import record_failure
from ingest.polite import PoliteFetcher
from ingest.references import flag_unreachable
from ingest.registry import load_registry, plan
from ingest.report import RunReport


def check_sources(
    ctx: RunContext,
    fetcher: PoliteFetcher,
    sources: list[Source],
    accessed: date | None,
    run_id: str,
) -> list[SourceOutcome]:
    """Sources fetched concurrently (per-host limits in the fetch layer), processed one by one
    (the database has one writer). Feeds register their entries as sources."""
    futures = [
        (source, fetch_source.submit(fetcher, source, ctx.store.source_state(source.url)))
        for source in sources
    ]
    outcomes = []
    for source, future in futures:
        try:
            fetched = future.result()
        except IngestError as exc:
            ctx.store.record_fetch(source.url, "failed", error=str(exc), run_id=run_id)
            outcomes.append(record_failure(ctx.store, source, exc))
            continue
        if source.extractor == FEED:
            outcomes.append(process_feed(ctx.store, source, fetched))
        else:
            outcomes.append(
                process_source(ctx.store, ctx.settings, source, fetched, ctx.profiles, accessed)
            )
    return outcomes


@flow(name="nightly-refresh", log_prints=True)
def nightly_refresh(replay: str | None = None, as_of: str | None = None) -> dict[str, Any]:
    ctx = RunContext.open()
    day = date.fromisoformat(as_of) if as_of else None
    report = RunReport(
        run_id=uuid.uuid4().hex[:12],
        kind="nightly",
        started=iso_z(utcnow()),
        as_of=as_of,
        replay=replay,
    )
    accessed = None if replay else utcnow().date()  # a replay is not an access
    try:
        todo = plan(load_registry(ctx.settings.sources_file), ctx.profiles)
        for source in todo.sources:
            ctx.store.upsert_source(source)
        ctx.store.start_run(report.run_id, "nightly")
        with ctx.client(replay, day) as client:
            fetcher = ctx.fetcher(client)
            report.outcomes += check_sources(ctx, fetcher, todo.sources, accessed, report.run_id)
            # what the feeds announced, this run's new entries included
            found = [
                s
                for s in ctx.store.discovered_sources()
                if s.url not in {t.url for t in todo.sources}
            ]
            report.outcomes += check_sources(ctx, fetcher, found, accessed, report.run_id)
            report.outcomes += [
                check_reference(ctx.store, ctx.settings, fetcher, url, accessed)
                for url, _why in todo.reachability
            ]
            with ctx.arxiv_client(replay, day) as arxiv_client:
                report.outcomes += check_arxiv(
                    ctx.store,
                    ctx.settings,
                    arxiv_client,
                    fetcher,
                    ctx.profiles,
                    accessed,
                    ctx.archive_pages,
                )
        report.unreachable = flag_unreachable(ctx.store, ctx.profiles)
        report.finished = iso_z(utcnow())
        name = as_of or utcnow().date().isoformat()
        path = publish_nightly(ctx, report, name)
        result = report.to_json()
        result["report_file"] = str(path)
        return result
    finally:
        ctx.close()
