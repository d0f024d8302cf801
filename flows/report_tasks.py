"""The end of a nightly run: tell the editors, write the report, publish it as artifacts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import quote

from flows import steps
from flows.context import RunContext
from ingest.report.run import RunReport
from ingest.settings import Settings

notify_editors = task(name="notify-editors", cache_policy=NO_CACHE)(steps.notify_editors)


def _notify(settings: Settings, report: dict[str, Any]) -> dict[str, Any] | None:
    # quote(): the report of a big run is large, and Prefect need not look inside it
    told: dict[str, Any] | None = notify_editors(settings, quote(report))  # type: ignore[call-overload]
    return told


def publish_nightly(ctx: RunContext, report: RunReport, name: str) -> Path:
    """Notify (a task), record the run, write its report (`flows.steps.write_nightly`) and
    publish the summary as Markdown and table artifacts. Returns the run's .html report."""
    path, texts = steps.write_nightly(ctx, report, name, _notify)
    create_markdown_artifact(
        texts[1], key="nightly-report", description=f"ingest nightly refresh {name}"
    )
    create_table_artifact(
        report.summary_rows(),
        key="nightly-summary",
        description=f"ingest nightly refresh {name}: sources and flags",
    )
    return path
