"""The nightly refresh: every registered source and every reference a profile cites.

ingest nightly                          live, over the network
ingest nightly --replay fixtures/web    offline, from recorded responses
ingest nightly --replay DIR --as-of 2024-06-01   the versions in force that day
ingest nightly --fail-on 0.5            fail the run when half its sources or more failed

A run whose failed share of sources reaches `fail_on` (default 1.0: all of them) raises
SourcesFailedError after its report is written and its flags queued: the flow run is Failed,
the command exits 1, and cron (or Prefect's automations) can tell.

This is the Prefect flow, with its tasks; the wiring is `flows.nightly_core`'s, shared with the
nightly a command runs in its own process when no runner is up (`flows.nightly_local`).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from prefect import flow
from prefect.utilities.annotations import quote

from flows import nightly_core
from flows.arxiv_tasks import check_arxiv
from flows.context import RunContext
from flows.crashes import current_flow_run_id, recover_crashed
from flows.dask_runner import dask_runner
from flows.nightly_core import NightlySteps, Remote, batch_answers
from flows.report_tasks import publish_nightly
from flows.tasks import check_reference, fetch_batch, fetch_batch_remote, process_batch
from ingest.fetch.polite import PoliteFetcher
from ingest.models import Source
from ingest.pipeline.outcome import SourceOutcome

__all__ = ["Remote", "batch_answers", "check_sources", "nightly_refresh", "tasks"]


def tasks() -> NightlySteps:
    """The nightly's steps as this module's Prefect tasks (looked up when called). quote():
    Prefect would otherwise walk every source, answer and profile of a batch looking for
    futures in the parameters (seconds per run at 2,000 sources)."""
    return NightlySteps(
        fetch=lambda fetcher, jobs: fetch_batch.submit(fetcher, jobs),
        process=process_batch,
        check_reference=check_reference,
        check_arxiv=check_arxiv,
        publish=publish_nightly,
        recover=recover_crashed,
        flow_run_id=current_flow_run_id,
        fan_out=dask_runner,
        fetch_remote=fetch_batch_remote,
        big=quote,
    )


def check_sources(
    ctx: RunContext,
    fetcher: PoliteFetcher,
    sources: list[Source],
    accessed: date | None,
    run_id: str,
    remote: Remote | None = None,
    stage: str = "sources",
) -> list[SourceOutcome]:
    """`flows.nightly_core.check_sources` with this module's tasks."""
    return nightly_core.check_sources(
        tasks(), ctx, fetcher, sources, accessed, run_id, remote, stage
    )


@flow(name="nightly-refresh", log_prints=True)
def nightly_refresh(
    replay: str | None = None, as_of: str | None = None, fail_on: float = 1.0
) -> dict[str, Any]:
    return nightly_core.run_nightly(tasks(), replay, as_of, fail_on)
