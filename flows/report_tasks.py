"""The end of a nightly run: tell the editors, write the report, publish it as artifacts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import quote

from flows.context import RunContext
from ingest.fetch.client import make_client
from ingest.report.notify import notify_run
from ingest.report.run import RunReport, write_run
from ingest.settings import Settings


@task(name="notify-editors", cache_policy=NO_CACHE)
def notify_editors(settings: Settings, report: dict[str, Any]) -> dict[str, Any] | None:
    """The webhook POST (INGEST_NOTIFY_URL); failures come back as a record, never raise.
    Never retried: a notification sent twice is worse than one noted as failed."""
    with make_client(settings) as client:
        return notify_run(client, settings, report)


def publish_nightly(ctx: RunContext, report: RunReport, name: str) -> Path:
    """Notify (if changes were queued), record the run, write its report under
    INGEST_HOME/reports (`<name>/<run_id>.md/.json/.html`, kept for every run; `<name>.md` the
    day's index: ingest.report.run.write_run) and publish the summary as Markdown and table
    artifacts. Returns the run's .html report."""
    summary = report.to_json()
    html = ctx.settings.reports_dir / name / f"{report.run_id}.html"
    told = summary | {"report_file": str(html)}
    # quote(): the report of a big run is large, and Prefect need not look inside it
    report.notification = notify_editors(ctx.settings, quote(told))  # type: ignore[call-overload]
    ctx.store.finish_run(report.run_id, summary | {"notification": report.notification})
    # its Markdown made once, for the files and the artifact (~0.3 s at 1,000 sources)
    texts = (report.to_json(), report.markdown())
    path = write_run(report, ctx.settings.reports_dir, name, texts=texts)
    create_markdown_artifact(
        texts[1], key="nightly-report", description=f"ingest nightly refresh {name}"
    )
    create_table_artifact(
        report.summary_rows(),
        key="nightly-summary",
        description=f"ingest nightly refresh {name}: sources and flags",
    )
    return path
