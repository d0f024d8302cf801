"""The `ingest` command line: each command parses its arguments, calls one library function and
turns domain errors into a clear message (exit 1); bad usage exits 2.
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from ingest.settings import get_settings
from ingest_cli.common import (
    HttpURL,
    _echo_json,
    _fail_cleanly,
    _next_steps,
    _run_flow,
    _runner_log,
    _safe,
    _verbose_option,
    error,
)
from ingest_cli.orgs_commands import orgs
from ingest_cli.review_commands import review
from ingest_cli.server_commands import editor, server
from ingest_cli.train_commands import train

# A command's process ends without the collector scanning its heap again: at exit the
# interpreter ran full collections over everything left (modules, SQLAlchemy, httpx, the run's
# caches): an unchanged 10,000-source nightly took 1.8 s from its last line to its exit, 0.1 s
# frozen. Frozen objects are still freed; only cycles go uncollected, and every file and
# database the commands write is closed (and flushed) explicitly before they return.
atexit.register(gc.freeze)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ingest")
def main() -> None:
    """ingest: keep the AI People Wiki's profiles honest.

    Fetches sources, extracts candidate claims with evidence, compares them with the profiles and
    queues every difference for an editor. Settings come from INGEST_* environment variables.
    """


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--url", required=True, type=HttpURL(), help="The URL the document was (or would be) served at."
)
@click.option("--extractor", help="Extractor name; default: chosen by URL, then by content.")
@_fail_cleanly
def extract(file: Path, url: str, extractor: str | None) -> None:
    """Print the claims in FILE as JSON lines; writes nothing.

    Example: ingest extract page.md --url https://docs.pytorch.org/docs/stable/community/persons_of_interest.html
    """
    import extractors
    from ingest.documents import snapshot_from_file
    from ingest.pipeline.process import cap_alert, extract_claims

    settings = get_settings()
    snapshot = snapshot_from_file(url, file, settings.max_bytes)
    _tag, extracted = extract_claims(snapshot, extractor, url, settings, extractors=extractors)
    for claim in extracted.claims:
        click.echo(claim.to_line())
    if extracted.dropped:
        click.echo(f"warning: {cap_alert(snapshot, extracted)}", err=True)


@main.command()
@click.argument("url", type=HttpURL())
@click.option(
    "--file",
    "file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Take this file as the URL's body instead of fetching it.",
)
@click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="With --file: the day the file is evidence for (default: the date it states, else "
    "today, with a warning).",
)
@click.option("--extractor", help="Extractor name; default: chosen by URL, then by content.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_verbose_option
@_fail_cleanly
def run(url: str, file: Path | None, as_of: Any, extractor: str | None, as_json: bool) -> None:
    """One-off: fetch URL (or read --file), extract, diff and queue the flags. Exit 1 when the
    source failed or has no recording to replay, or when --file is older than the snapshot of
    URL already stored (refused: nothing is stored).

    Example: ingest run https://docs.pytorch.org/docs/2.13/community/persons_of_interest.md --json
    """
    from datetime import date

    day = as_of.date() if as_of else None
    if day is not None and file is None:
        raise click.UsageError("--as-of goes with --file (the day the file is evidence for)")
    if day is not None and day > date.today():
        raise click.BadParameter(f"{day} is in the future", param_hint="'--as-of'")
    args: dict[str, Any] = {
        "url": url,
        "file": str(file.resolve()) if file else None,
        "extractor": extractor,
    }
    if day is not None:
        args["as_of"] = day.isoformat()
    result = _run_flow("run", args, f"ingest run {url}")
    summary = {k: result[k] for k in ("url", "status", "snapshot")}
    summary["claims"] = result["claims"]
    summary["changes"] = result["changes"]
    summary["alerts"] = result["alerts"]
    if result.get("ran"):  # run in this process (no runner was up): said
        summary["ran"] = result["ran"]
    for key in ("final_url", "extractor", "people", "unknown_people", "error", "report_file"):
        summary[key] = result.get(key)
    if result.get("origin") == "file":  # read from a local file: said, with its day
        for key in ("origin", "file", "evidence_date", "warnings"):
            summary[key] = result.get(key)
    for warning in result.get("warnings") or []:
        click.echo(f"warning: {_safe(str(warning))}", err=True)
    if as_json:
        _echo_json(summary)
    else:
        _print_run(summary)
    if result["status"] in ("failed", "skipped"):
        # a run in the runner keeps its details in the runner's log, one here in ingest.log
        error(str(result.get("error")), log=None if result.get("ran") else _runner_log())
        sys.exit(1)
    if not as_json:
        _next_steps(result.get("pending_facts"))


def _print_run(summary: dict[str, Any]) -> None:
    from ingest.report.run import describe, file_words

    click.echo(
        f"{summary['url']}: {summary['status']}, {summary['claims']} claims, "
        f"{len(summary['changes'])} flags"
    )
    if summary.get("origin") == "file":
        click.echo(_safe(f"  {file_words(summary)}"))
    for change in summary["changes"]:
        click.echo(
            _safe(
                f"  {change['id']}  {change['profile']:<22} {change['kind']:<8} {describe(change)}"
            )
        )
    failed = f"failed: {summary.get('error')}"
    for alert in summary["alerts"]:
        if alert != failed:  # the error is the one line on stderr, not said twice
            click.echo(_safe(f"  alert: {alert}"))
    if summary.get("unknown_people"):
        click.echo(f"  {len(summary['unknown_people'])} people on the page have no profile")
    if summary.get("report_file"):
        click.echo(f"  report: {summary['report_file']}")
    if summary.get("ran") == "locally":
        click.echo("  run locally (no local runner was up; it is starting for the next command)")


@main.command()
@click.option(
    "--replay",
    type=click.Path(exists=True, file_okay=False),
    help="Serve recorded responses from this archive instead of the network.",
)
@click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="With --replay (or INGEST_REPLAY): use the versions in force on this day.",
)
@click.option(
    "--fail-on",
    "fail_on",
    type=click.FloatRange(0.0, 1.0),
    default=1.0,
    show_default=True,
    metavar="FRACTION",
    help="Exit 1 (and fail the Prefect flow run) when this share of the sources or more "
    "failed; 1.0: only when all did, 0: when any did. The report and flags are kept.",
)
@_verbose_option
@_fail_cleanly
def nightly(replay: str | None, as_of: Any, fail_on: float) -> None:
    """The nightly refresh over every source; writes a report under INGEST_HOME/reports. Exit 1
    when the share of failed sources reaches --fail-on (by default: when every source failed).

    Example: ingest nightly --replay fixtures/web --as-of 2026-06-10
    """
    if as_of and not replay and not os.environ.get("INGEST_REPLAY"):
        raise click.UsageError(
            "--as-of needs --replay DIR (or INGEST_REPLAY): a live run fetches today's pages, "
            "not that day's"
        )
    from ingest.errors import SourcesFailedError

    day = as_of.date().isoformat() if as_of else None
    args = {
        "replay": str(Path(replay).resolve()) if replay else None,
        "as_of": day,
        "fail_on": fail_on,
    }
    failed = None
    try:
        result = _run_flow("nightly", args, "nightly refresh")
    except SourcesFailedError as exc:  # the run went through: its summary, then exit 1
        result, failed = exc.result, str(exc)
    counts = result["counts"]
    new = result.get("new_flags", result["flags"])  # (a result without the split: all new)
    pending = result.get("still_pending", 0)
    for alert in result["alerts"]:
        click.echo(_safe(f"  alert: {alert}"))
    if result.get("ran") == "locally":
        click.echo("run locally (no local runner was up; it is starting for the next command)")
    click.echo(
        f"nightly refresh: {counts['fetched']} fetched, {counts['unchanged']} unchanged, "
        f"{counts['failed']} failed, {counts['skipped']} not replayed; "
        f"new tonight: {new.get('added', 0)} added, {new.get('changed', 0)} changed, "
        f"{new.get('removed', 0)} removed; still pending: {pending} flag{'s' * (pending != 1)}"
    )
    click.echo(f"report: {result['report_file']}")
    _next_steps()
    if failed:
        click.echo(f"error: {_safe(failed)}", err=True)
        sys.exit(1)


@main.command()
@_fail_cleanly
def serve() -> None:
    """Serve the Prefect deployments `nightly-refresh` (on INGEST_SCHEDULE_CRON) and `ingest-url`
    against the Prefect server at PREFECT_API_URL, until SIGTERM or Ctrl-C.

    Example: PREFECT_API_URL=http://127.0.0.1:4200/api ingest serve
    """
    get_settings()  # a bad INGEST_* value: one clear error, before anything is served
    from ingest.runner import prefect_setup

    prefect_setup.configure()
    from prefect.settings import PREFECT_API_URL

    if not PREFECT_API_URL.value():
        raise click.UsageError(
            "set PREFECT_API_URL to a running Prefect server "
            "(`prefect server start`: http://127.0.0.1:4200/api)"
        )
    from flows.deployments import serve_all

    serve_all()


@main.command()
@click.option(
    "--gold",
    type=click.Path(exists=True, path_type=Path),
    help="Folder of gold *.json labels (default: fixtures/arxiv/gold and gold-train); with "
    "--announcements a gold.json file.",
)
@click.option(
    "--pdfs",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder of the PDFs they label (default: fixtures/arxiv/pdf and pdf-train).",
)
@click.option("--metadata", is_flag=True, help="Only the run with gold names as arXiv metadata.")
@click.option(
    "--cv",
    is_flag=True,
    help="PDFs: leave-one-template-family-out figures (the line model refitted per fold) beside "
    "the training ones, both name modes (a few minutes). With --governance: the learned "
    "decision refitted leave-one-project-out, beside the training figures; with "
    "--announcements: the event decision refitted leave-one-project-out.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--governance",
    is_flag=True,
    help="Score the governance extractors instead (gold rows of fixtures/governance-train, "
    "PEP 13, PyTorch); --gold then names a folder of <page>.json gold files.",
)
@click.option(
    "--pages",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="With --governance: the folder of the labelled pages (default: the --gold folder's "
    "parent; without --gold, every default set).",
)
@click.option(
    "--fit",
    is_flag=True,
    help="With --governance: as --cv, then write the model fitted on every labelled page "
    "(calibrated on the cross-validated scores) to extractors/people/data/governance_model.json. "
    "With --announcements: the same for the event decision "
    "(extractors/announcements/data/event_model.json).",
)
@click.option(
    "--announcements",
    is_flag=True,
    help="Score the announcement extractor instead (gold events of fixtures/announcements-train "
    "and the announcement fixtures); --gold then names one gold.json file.",
)
@click.option(
    "--posts",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="With --announcements: the folder of the labelled posts (default: the --gold file's "
    "folder; without --gold, every default set).",
)
def evaluate(
    gold: Path | None,
    pdfs: Path | None,
    metadata: bool,
    cv: bool,
    as_json: bool,
    governance: bool,
    pages: Path | None,
    announcements: bool,
    posts: Path | None,
    fit: bool,
) -> None:
    """Score the PDF affiliation extractor against gold labels: author and linked P/R/F1 per
    file and per template, without and with metadata names (whole corpus by default).

    Example: ingest evaluate --gold fixtures/arxiv/gold --pdfs fixtures/arxiv/pdf

    With --cv: training and cross-validated (leave one template family out) figures.

    Example: ingest evaluate --cv

    Governance pages: people, people-with-section and affiliation P/R per page, per set and in
    total, then each page's misses.

    Example: ingest evaluate --governance --pages fixtures/governance-train

    The learned decision, honestly: training and leave-one-project-out figures side by side
    (--fit also rewrites the shipped model).

    Example: ingest evaluate --governance --cv

    Announcements: event precision, recall and dates right per post, per set and in total, then
    each post's misses.

    Example: ingest evaluate --announcements --gold fixtures/announcements-train/gold.json

    The learned event decision, honestly: leave-one-project-out figures beside the training ones
    (--fit also rewrites extractors/announcements/data/event_model.json).

    Example: ingest evaluate --announcements --cv
    """
    if cv and not (governance or pages or announcements):
        if posts or gold or pdfs or metadata:
            raise click.UsageError(
                "--cv scores the whole PDF corpus, or with --governance the "
                "governance pages (and takes --json only)"
            )
        from ingest_cli.evaluate import arxiv_cv

        click.echo(arxiv_cv.cv_json() if as_json else arxiv_cv.cv_text())
        return
    if announcements or posts:
        if not announcements or governance or pages or pdfs or metadata:
            raise click.UsageError("--posts goes with --announcements (and --gold, --json only)")
        if gold is not None and not gold.is_file():
            raise click.BadParameter(f"'{gold}' is not a file", param_hint="'--gold'")
        if cv or fit:
            _cross_validate_announcements(gold, posts, as_json, write=fit)
        else:
            _evaluate_announcements(gold, posts, as_json)
        return
    if gold is not None and not gold.is_dir():
        raise click.BadParameter(f"'{gold}' is a file, not a folder", param_hint="'--gold'")
    if governance or pages:
        if not governance or pdfs or metadata:
            raise click.UsageError("--pages goes with --governance; --pdfs and --metadata do not")
        if cv or fit:
            _cross_validate_governance(gold, pages, as_json, write=fit)
        else:
            _evaluate_governance(gold, pages, as_json)
        return
    if cv or fit:
        raise click.UsageError("--cv and --fit go with --governance or --announcements")
    from ingest_cli.evaluate import arxiv as scoring

    if as_json:
        found = scoring.evaluate_json(gold, pdfs, metadata_only=metadata)
        click.echo(json.dumps(found, indent=2, ensure_ascii=False))
    else:
        click.echo(scoring.evaluate_text(gold, pdfs, metadata_only=metadata))


@_fail_cleanly
def _evaluate_announcements(gold: Path | None, posts: Path | None, as_json: bool) -> None:
    from ingest_cli.evaluate import announcements as scoring
    from ingest_cli.evaluate import announcements_report as report_text

    report = scoring.score(scoring.sets_for(gold, posts))
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(_safe(report_text.format_report(report)))


@_fail_cleanly
def _cross_validate_announcements(
    gold: Path | None, posts: Path | None, as_json: bool, *, write: bool
) -> None:
    from ingest_cli.evaluate import announcements as scoring
    from ingest_cli.evaluate import announcements_model as learned
    from ingest_cli.evaluate import announcements_report as report_text

    result = learned.cross_validate(scoring.sets_for(gold, posts))
    if write:
        learned.write_model(result.model)
    if as_json:
        click.echo(json.dumps(learned.to_json(result), indent=2, ensure_ascii=False))
    else:
        click.echo(_safe(report_text.format_report(result.cv)))
        click.echo("")
        click.echo(_safe(learned.format_comparison(result)))


@_fail_cleanly
def _evaluate_governance(gold: Path | None, pages: Path | None, as_json: bool) -> None:
    from ingest_cli.evaluate import governance as scoring
    from ingest_cli.evaluate.governance_report import format_report

    sets = scoring.sets_for(gold, pages)
    report = scoring.score(sets)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(_safe(format_report(report)))


@_fail_cleanly
def _cross_validate_governance(
    gold: Path | None, pages: Path | None, as_json: bool, *, write: bool
) -> None:
    from ingest_cli.evaluate import governance as scoring
    from ingest_cli.evaluate import governance_model as learned
    from ingest_cli.evaluate.governance_calibration import format_calibration
    from ingest_cli.evaluate.governance_report import format_report

    result = learned.cross_validate(scoring.sets_for(gold, pages))
    if write:
        learned.write_model(result.model)
    calibration = result.calibration
    if as_json:
        found = {"folds": result.folds, "training": result.training.to_json(),
                 "cv": result.cv.to_json(),
                 "calibration": calibration.to_json() if calibration else None}  # fmt: skip
        click.echo(json.dumps(found, indent=2, ensure_ascii=False))
    else:
        click.echo(_safe(format_report(result.cv)))
        click.echo("")
        click.echo(_safe(learned.format_comparison(result)))
        if calibration is not None:
            click.echo("")
            click.echo(format_calibration(calibration))


main.add_command(server)
main.add_command(review)
main.add_command(editor)
main.add_command(train)
main.add_command(orgs)


if __name__ == "__main__":  # pragma: no cover
    main()
