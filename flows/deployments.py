"""The two deployments an editor sees in the Prefect UI, served by `ingest serve`.

    nightly-refresh   nightly_refresh on INGEST_SCHEDULE_CRON (03:00) in INGEST_SCHEDULE_TIMEZONE
                      (UTC); never two at once: a deployment concurrency limit of 1 that cancels
                      the newcomer (a run still going at the next 03:00 is not queued behind)
    ingest-url        ingest_url(url, file, extractor, as_of): a one-off run started from the UI

`prefect.yaml` describes the same two for a process work pool (`prefect deploy --all`);
tests/test_deployments.py checks the two agree.
"""

from __future__ import annotations

from prefect import serve
from prefect.client.schemas.objects import ConcurrencyLimitConfig, ConcurrencyLimitStrategy
from prefect.deployments.runner import RunnerDeployment
from prefect.schedules import Cron

from flows.nightly import nightly_refresh
from flows.one_off import ingest_url
from ingest.settings import Settings, get_settings

NIGHTLY = "nightly-refresh"
ONE_OFF = "ingest-url"
TAGS = ["ingest"]


def nightly_concurrency() -> ConcurrencyLimitConfig:
    """One nightly run at a time; a run that would be the second is cancelled, not queued."""
    return ConcurrencyLimitConfig(limit=1, collision_strategy=ConcurrencyLimitStrategy.CANCEL_NEW)


def deployments(settings: Settings) -> list[RunnerDeployment]:
    nightly = RunnerDeployment.from_flow(
        nightly_refresh,
        name=NIGHTLY,
        schedule=Cron(settings.schedule_cron, timezone=settings.schedule_timezone),
        concurrency_limit=nightly_concurrency(),
        description="The nightly refresh over every source and cited reference.",
        tags=TAGS,
    )
    one_off = RunnerDeployment.from_flow(
        ingest_url,
        name=ONE_OFF,
        description="One URL now: fetch, extract, diff and queue the flags (give `url`).",
        tags=TAGS,
    )
    return [nightly, one_off]


def serve_all(settings: Settings | None = None) -> None:
    """Register both deployments with the Prefect API (PREFECT_API_URL) and run their flow runs
    in this process's children until SIGTERM or Ctrl-C."""
    serve(*deployments(settings or get_settings()))
