"""The one-off run (`ingest run URL`), wiring only, Prefect not imported: the Prefect flow
`flows.one_off.ingest_url` runs it with its tasks, and a command that finds no local runner up
runs it in its own process with the plain steps (`flows.steps`), said as "run locally".

An arXiv URL has no plain path (its steps are Prefect tasks with retries): `runs_locally` says
which URLs this process can take."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import extractors
from flows import steps
from flows.context import RunContext
from ingest.documents import snapshot_from_file
from ingest.errors import IngestError, OlderFileError
from ingest.models import iso_z, utcnow
from ingest.pipeline.arxiv_stage import arxiv_id_of
from ingest.pipeline.feeds import FEED
from ingest.pipeline.outcome import SourceOutcome
from ingest.pipeline.process import record_failure
from ingest.pipeline.registry import load_registry, source_for
from ingest.report.run import RunReport
from ingest.storage import QueueFilter

LOCALLY = "locally"  # `ran` of a result run in the command's own process


@dataclass(frozen=True)
class Steps:
    """The steps a one-off run calls: Prefect tasks in a flow run, plain functions otherwise;
    `check_paper` is None where arXiv URLs cannot be taken (see runs_locally)."""

    fetch_source: Callable[..., Any]
    process_source: Callable[..., SourceOutcome]
    process_file: Callable[..., SourceOutcome]
    process_feed: Callable[..., SourceOutcome]
    check_paper: Callable[..., SourceOutcome] | None = None


PLAIN = Steps(
    fetch_source=steps.fetch_source,
    process_source=steps.process_source,
    process_file=steps.process_file,
    process_feed=steps.process_feed,
)


def runs_locally(url: str, file: str | None) -> bool:
    """Whether the plain steps can take `url`: everything but an arXiv URL without --file."""
    return bool(file) or arxiv_id_of(url) is None


@dataclass
class OneOff:
    report: RunReport
    outcome: SourceOutcome
    report_file: Path
    pending_facts: int | None = None  # the queue's pending facts after the run

    def result(self) -> dict[str, Any]:
        result = self.outcome.to_json()
        result["report_file"] = str(self.report_file)
        if self.pending_facts is not None:  # the command's last line, without opening the store
            result["pending_facts"] = self.pending_facts
        return result


def run_one_off(
    run: Steps,
    url: str,
    file: str | None = None,
    extractor: str | None = None,
    as_of: str | None = None,
) -> OneOff:
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
                outcome = run.process_file(
                    ctx.store, ctx.settings, source, snapshot, ctx.profiles, extractor, file
                )
            elif (arxiv_id := arxiv_id_of(url)) is not None:
                if run.check_paper is None:
                    raise RuntimeError("an arXiv URL needs the arXiv steps (a Prefect flow run)")
                with ctx.client() as client, ctx.arxiv_client() as arxiv_client:
                    outcome = run.check_paper(
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
            else:
                with ctx.client() as client:
                    fetched = run.fetch_source(
                        ctx.fetcher(client), source, ctx.store.source_state(url)
                    )
                if source.extractor == FEED:
                    outcome = run.process_feed(ctx.store, source, fetched)
                else:
                    outcome = run.process_source(
                        ctx.store, ctx.settings, source, fetched, ctx.profiles, accessed
                    )
        except OlderFileError:
            raise  # refused before anything was stored: no failure recorded, no report
        except IngestError as exc:
            outcome = record_failure(ctx.store, source, exc)
        report.outcomes.append(outcome)
        report.finished = iso_z(utcnow())
        path = report.write(ctx.settings.reports_dir / "one-off", report.run_id)
        pending = ctx.store.count_facts(QueueFilter(status="pending"))
        return OneOff(report=report, outcome=outcome, report_file=path, pending_facts=pending)
    finally:
        ctx.close()


def run_locally(args: dict[str, Any]) -> dict[str, Any]:
    """`ingest run` in the command's own process (no runner up): the same run, plain steps, its
    result marked `ran: locally`."""
    result = run_one_off(PLAIN, **args).result()
    result["ran"] = LOCALLY
    return result
