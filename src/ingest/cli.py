"""The `ingest` command line: each command parses its arguments, calls one library function and
turns domain errors into a clear message (exit 1); bad usage exits 2.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from ingest.errors import IngestError
from ingest.runner import progress
from ingest.settings import ensure_home, get_settings

F = TypeVar("F", bound=Callable[..., Any])


def _fail_cleanly(func: F) -> F:
    """Domain errors are one line on stderr and exit 1; so is anything unexpected, with its
    traceback kept in INGEST_HOME/logs/ingest.log (shown as it is with --verbose)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except IngestError as exc:
            click.echo(f"error: {_safe(str(exc))}", err=True)
            if getattr(exc, "unexpected", False):
                click.echo(f"details: {_log_hint()}", err=True)
            sys.exit(1)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except BrokenPipeError:  # `ingest extract ... | head`: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except Exception as exc:
            if _verbose():
                raise
            where = _keep_traceback(exc)
            click.echo(f"error: unexpected {type(exc).__name__}: {_safe(str(exc))}", err=True)
            click.echo(f"details: {where}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def _verbose() -> bool:
    ctx = click.get_current_context(silent=True)
    return bool(ctx and ctx.meta.get("ingest.verbose"))


def _log_file() -> Path:
    from ingest.runner.local_server import logs_dir

    return logs_dir(get_settings()) / "ingest.log"


def _log_hint() -> str:
    try:
        return str(_log_file().parent)
    except IngestError:
        return "INGEST_HOME/logs"


def _keep_traceback(exc: BaseException) -> str:
    """The traceback of an unexpected error, appended to the log file; where it went."""
    import traceback
    from datetime import UTC, datetime

    try:
        path = _log_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as log:
            log.write(f"--- {datetime.now(UTC).isoformat(timespec='seconds')} {sys.argv}\n")
            log.write("".join(traceback.format_exception(exc)))
        return str(path)
    except (OSError, IngestError):
        return "(no log file could be written)"


def _verbose_option(func: F) -> F:
    def remember(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
        if value:
            ctx.meta["ingest.verbose"] = True
        return value

    return click.option(
        "--verbose",
        "-v",
        is_flag=True,
        expose_value=False,
        callback=remember,
        help="Show Prefect's and the server's logs on stderr too.",
    )(func)


class HttpURL(click.ParamType[str]):
    """An http(s) URL with a host: anything else is bad usage (exit 2), refused before any
    import, flow or database write."""

    name = "URL"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from urllib.parse import urlsplit

        text = str(value)
        try:
            parts = urlsplit(text)
            host = parts.hostname
        except ValueError:
            parts, host = None, None
        if parts is None or parts.scheme.lower() not in ("http", "https") or not host:
            self.fail(
                f"{_safe(text)!r} is not an http:// or https:// URL with a host name", param, ctx
            )
        if parts.username is not None or parts.password is not None:
            shown = parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]).geturl()
            self.fail(f"credentials in URLs are not accepted: {_safe(shown)!r}", param, ctx)
        return text


def _run_flow(op: str, args: dict[str, Any], what: str) -> dict[str, Any]:
    """Run the `nightly` or `run` flow: against PREFECT_API_URL in this process when one is
    configured, else in the workspace's local runner (started once, then reused)."""
    settings = get_settings()  # a bad INGEST_* value: one clear error, before any flow starts
    ensure_home(settings)
    with _progress(what):
        if os.environ.get("PREFECT_API_URL"):
            return _run_in_process(op, args)
        from ingest.runner import local_server

        state = local_server.ensure(settings, on_wait=lambda note: progress.report(note, 0, None))
        progress.report("waiting for the local runner", 0, None)
        return local_server.call(
            state, op, args, on_progress=progress.report, verbose=_verbose(), on_log=_echo_log
        )


def _echo_log(line: str) -> None:
    click.echo(_safe(line), err=True)


def _run_in_process(op: str, args: dict[str, Any]) -> dict[str, Any]:
    from ingest.runner import prefect_setup

    prefect_setup.configure()
    if not _verbose():
        prefect_setup.send_logs_to(_log_file())
    from prefect.settings import temporary_settings

    with temporary_settings(updates={"flows.heartbeat_frequency": None}):
        if op == "nightly":
            from flows.nightly import nightly_refresh

            done: dict[str, Any] = nightly_refresh(**args)
            return done
        from flows.one_off import ingest_url

        one: dict[str, Any] = ingest_url(**args)
        return one


def _next_steps() -> None:
    """The last line after a run: what waits for an editor, and where to look at it."""
    from ingest.storage import QueueFilter, Store

    store = Store.open(get_settings())
    try:
        pending = store.count_facts(QueueFilter(status="pending"))
    finally:
        store.close()
    if pending:
        click.echo(
            f"{pending} flag{'s' if pending != 1 else ''} pending: "
            "ingest review serve, or ingest review list"
        )
    else:
        click.echo("nothing pending for review")


@contextmanager
def _progress(what: str) -> Iterator[None]:
    """A rich progress bar with the elapsed time on stderr while a flow runs (a terminal only:
    pipes, logs and `--json` consumers see nothing of it); it disappears when the flow ends.
    The flow's `ingest.runner.progress` reports move it: "nightly refresh: sources 300/2000"."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(stderr=True)
    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    task = bar.add_task(what, total=None)

    def moved(stage: str, done: int, total: int | None) -> None:
        bar.update(task, description=f"{what}: {stage}", completed=done)
        for shown in bar.tasks:  # update(total=None) keeps the old total; None pulses
            if shown.id == task:
                shown.total = total

    with bar, progress.listening(moved):
        yield


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _safe(text: str) -> str:
    """Text from a source page, made harmless for a terminal (no escape sequences)."""
    return _CONTROL.sub("\N{REPLACEMENT CHARACTER}", text)


def _echo_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


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
    from ingest.pipeline.process import extract_claims

    snapshot = snapshot_from_file(url, file, get_settings().max_bytes)
    _tag, claims = extract_claims(snapshot, extractor, url, extractors=extractors)
    for claim in claims:
        click.echo(claim.to_line())


@main.command()
@click.argument("url", type=HttpURL())
@click.option(
    "--file",
    "file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Take this file as the URL's body instead of fetching it.",
)
@click.option("--extractor", help="Extractor name; default: chosen by URL, then by content.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_verbose_option
@_fail_cleanly
def run(url: str, file: Path | None, extractor: str | None, as_json: bool) -> None:
    """One-off: fetch URL (or read --file), extract, diff and queue the flags. Exit 1 when the
    source failed or has no recording to replay.

    Example: ingest run https://docs.pytorch.org/docs/2.13/community/persons_of_interest.md --json
    """
    args = {"url": url, "file": str(file.resolve()) if file else None, "extractor": extractor}
    result = _run_flow("run", args, f"ingest run {url}")
    summary = {k: result[k] for k in ("url", "status", "snapshot")}
    summary["claims"] = result["claims"]
    summary["changes"] = result["changes"]
    summary["alerts"] = result["alerts"]
    for key in ("final_url", "extractor", "people", "unknown_people", "error", "report_file"):
        summary[key] = result.get(key)
    if as_json:
        _echo_json(summary)
    else:
        _print_run(summary)
    if result["status"] in ("failed", "skipped"):
        click.echo(f"error: {_safe(str(result.get('error')))}", err=True)
        sys.exit(1)
    if not as_json:
        _next_steps()


def _print_run(summary: dict[str, Any]) -> None:
    from ingest.report.run import describe

    click.echo(
        f"{summary['url']}: {summary['status']}, {summary['claims']} claims, "
        f"{len(summary['changes'])} flags"
    )
    for change in summary["changes"]:
        click.echo(
            _safe(
                f"  {change['id']}  {change['profile']:<22} {change['kind']:<8} {describe(change)}"
            )
        )
    for alert in summary["alerts"]:
        click.echo(_safe(f"  alert: {alert}"))
    if summary.get("unknown_people"):
        click.echo(f"  {len(summary['unknown_people'])} people on the page have no profile")
    if summary.get("report_file"):
        click.echo(f"  report: {summary['report_file']}")


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
    help="With --replay: use the versions in force on this day.",
)
@_verbose_option
@_fail_cleanly
def nightly(replay: str | None, as_of: Any) -> None:
    """The nightly refresh over every source; writes a report under INGEST_HOME/reports.

    Example: ingest nightly --replay fixtures/web --as-of 2026-06-10
    """
    day = as_of.date().isoformat() if as_of else None
    args = {"replay": str(Path(replay).resolve()) if replay else None, "as_of": day}
    result = _run_flow("nightly", args, "nightly refresh")
    counts, flags = result["counts"], result["flags"]
    for alert in result["alerts"]:
        click.echo(_safe(f"  alert: {alert}"))
    click.echo(
        f"nightly refresh: {counts['fetched']} fetched, {counts['unchanged']} unchanged, "
        f"{counts['failed']} failed, {counts['skipped']} not replayed; "
        f"flags: {flags.get('added', 0)} added, {flags.get('changed', 0)} changed, "
        f"{flags.get('removed', 0)} removed"
    )
    click.echo(f"report: {result['report_file']}")
    _next_steps()


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


@main.group()
def server() -> None:
    """The workspace's local runner: a Prefect server and a warm process that `ingest run` and
    `ingest nightly` use when PREFECT_API_URL is not set (started on first use)."""


@server.command("start")
@_fail_cleanly
def server_start() -> None:
    """Start the local runner now (the first `run` or `nightly` would start it anyway).

    Example: ingest server start
    """
    from ingest.runner import local_server

    settings = get_settings()
    ensure_home(settings)
    with _progress("local runner"):
        state = local_server.ensure(settings, on_wait=lambda note: progress.report(note, 0, None))
    _print_server(settings, state)


@server.command("status")
@_fail_cleanly
def server_status() -> None:
    """Say whether the local runner is up, with its pid, port and Prefect API (exit 1 if not).

    Example: ingest server status
    """
    from ingest.runner import local_server

    settings = get_settings()
    state = local_server.status(settings)
    if state is None:
        click.echo(f"not running (INGEST_HOME={settings.home})")
        sys.exit(1)
    _print_server(settings, state)


@server.command("stop")
@_fail_cleanly
def server_stop() -> None:
    """Stop the local runner and its Prefect server.

    Example: ingest server stop
    """
    from ingest.runner import local_server

    state = local_server.stop(get_settings())
    click.echo(f"stopped runner {state.pid}" if state else "not running")


def _print_server(settings: Any, state: Any) -> None:
    from ingest.runner import local_server

    stale = (
        ""
        if state.fingerprint == local_server.code_fingerprint()
        else " (older code: the next run replaces it)"
    )
    click.echo(f"running: pid {state.pid}, port {state.port}, since {state.started}{stale}")
    click.echo(
        f"Prefect API: {state.api_url}  (PREFECT_API_URL={state.api_url} prefect flow-run ls)"
    )
    click.echo(f"logs: {local_server.logs_dir(settings)}")


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
    as_json: bool,
    governance: bool,
    pages: Path | None,
    announcements: bool,
    posts: Path | None,
) -> None:
    """Score the PDF affiliation extractor against gold labels: author and linked P/R/F1 per
    file and per template, without and with metadata names (whole corpus by default).

    Example: ingest evaluate --gold fixtures/arxiv/gold --pdfs fixtures/arxiv/pdf

    Governance pages: people, people-with-section and affiliation P/R per page, per set and in
    total, then each page's misses.

    Example: ingest evaluate --governance --pages fixtures/governance-train

    Announcements: event precision, recall and dates right per post, per set and in total, then
    each post's misses.

    Example: ingest evaluate --announcements --gold fixtures/announcements-train/gold.json
    """
    if announcements or posts:
        if not announcements or governance or pages or pdfs or metadata:
            raise click.UsageError("--posts goes with --announcements (and --gold, --json only)")
        if gold is not None and not gold.is_file():
            raise click.BadParameter(f"'{gold}' is not a file", param_hint="'--gold'")
        _evaluate_announcements(gold, posts, as_json)
        return
    if gold is not None and not gold.is_dir():
        raise click.BadParameter(f"'{gold}' is a file, not a folder", param_hint="'--gold'")
    if governance or pages:
        if not governance or pdfs or metadata:
            raise click.UsageError("--pages goes with --governance; --pdfs and --metadata do not")
        _evaluate_governance(gold, pages, as_json)
        return
    from ingest import evaluate as scoring

    if as_json:
        found = scoring.evaluate_json(gold, pdfs, metadata_only=metadata)
        click.echo(json.dumps(found, indent=2, ensure_ascii=False))
    else:
        click.echo(scoring.evaluate_text(gold, pdfs, metadata_only=metadata))


@_fail_cleanly
def _evaluate_announcements(gold: Path | None, posts: Path | None, as_json: bool) -> None:
    from ingest import evaluate_announcements as scoring

    report = scoring.score(scoring.sets_for(gold, posts))
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(_safe(scoring.format_report(report)))


@_fail_cleanly
def _evaluate_governance(gold: Path | None, pages: Path | None, as_json: bool) -> None:
    from ingest import evaluate_governance as scoring
    from ingest.governance_report import format_report

    sets = scoring.sets_for(gold, pages)
    report = scoring.score(sets)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(_safe(format_report(report)))


@main.group()
def review() -> None:
    """The editors' review queue."""


def _store() -> Any:
    from ingest.storage import Store

    settings = get_settings()
    ensure_home(settings)
    return settings, Store.open(settings)


@review.command("list")
@click.option(
    "--status",
    default="pending",
    show_default=True,
    type=click.Choice(["pending", "accepted", "rejected", "superseded", "all"]),
)
@click.option("--profile", help="Only changes to this profile.")
@click.option("--source", "source_url", help="Only changes from this source URL.")
@click.option("--kind", type=click.Choice(["added", "changed", "removed"]))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@_fail_cleanly
def review_list(
    status: str, profile: str | None, source_url: str | None, kind: str | None, as_json: bool
) -> None:
    """List flagged changes: one line per fact, its sources below it (one decision each).

    With --json, one Change object per line, with `group` (the fact's id: changes sharing it
    are decided together).

    Example: ingest review list --json
    """
    from ingest.report.run import describe, group_facts
    from ingest.review.grouping import fact_key, source_label, source_titles

    _settings, store = _store()
    found = store.list_changes(
        status=None if status == "all" else status,
        profile=profile,
        source_url=source_url,
        kind=kind,
    )
    if as_json:
        for change in found:
            data = change.to_json()
            _echo_json(data | {"group": fact_key(data)})
        return
    # one line per fact (and status: with --status all, a decided fact is not a pending one)
    facts = [
        group
        for status_value in dict.fromkeys(c.status for c in found)
        for group in group_facts([c.to_json() for c in found if c.status == status_value])
    ]
    titles = source_titles(store.sources.states(sorted({c.source_url for c in found})))
    for group in facts:
        lead = group[0]
        more = f"  [{len(group)} sources]" if len(group) > 1 else ""
        click.echo(
            _safe(
                f"{lead['id']}  {lead['status']:<9} {lead['profile']:<22} {lead['kind']:<8} "
                f"{describe(lead)}{more}"
            )
        )
        for change in group:
            label = source_label(change, titles.get(change["source_url"]))
            click.echo(_safe(f"    {change['id']}  {label}"))
    click.echo(f"{len(facts)} fact(s), {len(found)} change(s)", err=True)


@review.command("show")
@click.argument("change_id")
@click.option("--json", "as_json", is_flag=True, help="The change as one JSON object.")
@_fail_cleanly
def review_show(change_id: str, as_json: bool) -> None:
    """Show one change in full: the statement, the profile's, the evidence, the other sources
    of the same fact and the decisions.

    Example: ingest review show 3f2a9c1d0b7e4a55
    """
    from ingest.review.decisions import history, resolve_id
    from ingest.storage import QueueFilter, row_to_change

    _settings, store = _store()
    full = resolve_id(store, change_id)
    row = store.get_change(full)
    data = row_to_change(row).to_json()
    data["decisions"] = [entry.to_dict() for entry in history(store, full)]
    siblings = [r for r in store.fact_members(row, QueueFilter(status=None)) if r["id"] != full]
    if as_json:
        data["group"] = row.get("fact") or full
        data["same_fact"] = [r["id"] for r in siblings]
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    for line in show_lines(data, siblings):
        click.echo(_safe(line))


def show_lines(data: dict[str, Any], siblings: list[dict[str, Any]]) -> list[str]:
    """`review show` for a person: labelled lines, qualifiers with human names."""
    from ingest.report.run import describe
    from ingest.review.grouping import label, show_value, source_label

    def statement(claim: dict[str, Any]) -> list[str]:
        out = [f"  {claim.get('predicate', '?')} {claim.get('object', '?')}"]
        for key, value in (claim.get("qualifiers") or {}).items():
            out.append(f"    {label(key)}: {show_value(value)}")
        return out

    lines = [
        f"{data['id']}  {data['kind']}  {data['status']}",
        f"profile:   {data['profile']}",
        f"statement: {describe(data)}",
        f"source:    {source_label(data)} ({data['source_url']})",
        f"queued:    {data['created']}",
    ]
    if data.get("previous"):
        lines += ["profile now:"] + statement(data["previous"])
    if data.get("claim"):
        lines += ["removed by the source:" if data["kind"] == "removed" else "candidate:"]
        lines += statement(data["claim"])
        evidence = data["claim"].get("evidence") or {}
        subject = data["claim"].get("subject") or {}
        if subject.get("name"):
            lines.append(f"printed as: {subject['name']}")
        if evidence.get("quote"):
            lines.append(
                f"evidence:  \u201c{evidence['quote']}\u201d ({evidence.get('locator', '')})"
            )
    if siblings:
        lines.append(f"same fact, {len(siblings)} more source(s), decided together:")
        lines += [f"  {r['id']}  {r['status']:<9} {source_label(r)}" for r in siblings]
    if data["decisions"]:
        lines.append("decisions:")
        for d in data["decisions"]:
            note = f": {d['note']}" if d.get("note") else ""
            lines.append(f"  {d['decided_at']}  {d['status']:<9} by {d['editor']}{note}")
    return lines


def _editor(editor: str | None) -> str:
    if editor:
        return editor
    return get_settings().editor or getpass.getuser()


def _decide(ids: tuple[str, ...], status: str, note: str | None, editor: str | None) -> None:
    from ingest.review.decisions import decide

    settings, store = _store()
    failed = 0
    for change_id in ids:
        try:
            done = decide(store, settings.profiles_dir, change_id, status, _editor(editor), note)
        except IngestError as exc:
            click.echo(f"error: {exc}", err=True)
            failed += 1
            continue
        where = f" -> {done.profile_file}" if done.profile_file else ""
        click.echo(f"{done.change.id} {status}{where}")
        for other in done.group[1:]:
            click.echo(f"{other.id} {status} (same fact)")
    if failed:
        sys.exit(1)


_note = click.option("--note", help="Why: kept with the decision in the audit log.")
_editor_opt = click.option("--editor", help="Who decides (default: $INGEST_EDITOR or the user).")


@review.command("accept")
@click.argument("ids", nargs=-1, required=True)
@_note
@_editor_opt
@_fail_cleanly
def review_accept(ids: tuple[str, ...], note: str | None, editor: str | None) -> None:
    """Accept changes: write them into the profiles, with their references.

    Example: ingest review accept 3f2a9c1d0b7e4a55 --note "checked on the page"
    """
    _decide(ids, "accepted", note, editor)


@review.command("reject")
@click.argument("ids", nargs=-1, required=True)
@_note
@_editor_opt
@_fail_cleanly
def review_reject(ids: tuple[str, ...], note: str | None, editor: str | None) -> None:
    """Reject changes: they are not proposed again unless their evidence changes.

    Example: ingest review reject 3f2a9c1d0b7e4a55 --note "old page"
    """
    _decide(ids, "rejected", note, editor)


@review.command("undo")
@_note
@_editor_opt
@_fail_cleanly
def review_undo(note: str | None, editor: str | None) -> None:
    """Undo your last decision that still stands (a bulk or a fact's decision whole): the
    changes are pending again and the profile file is restored as it was before.

    Example: ingest review undo --note "accepted the wrong one"
    """
    from ingest.review.decisions import undo_last

    settings, store = _store()
    done = undo_last(store, settings.profiles_dir, _editor(editor), note)
    where = (
        f" -> {done.profile_file} restored"
        if done.profile_file and done.undid == "accepted"
        else ""
    )
    for change in done.group or [done.change]:
        click.echo(f"{change.id} pending again (the {done.undid[:-2]} is undone){where}")


@review.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=8765,
    show_default=True,
    type=click.IntRange(1, 65535),
    help="Port to listen on.",
)
@_fail_cleanly
def review_serve(host: str, port: int) -> None:
    """Serve the editors' review page (login with an account from `ingest editor add`).

    Example: ingest review serve --port 8765
    """
    import uvicorn

    from ingest.review.web.app import create_app

    settings, store = _store()
    if host not in ("0.0.0.0", "::") and host not in settings.review_allowed_hosts:
        settings = settings.model_copy(  # a copy: the settings as read stay as they were
            update={"review_allowed_hosts": [*settings.review_allowed_hosts, host]}
        )
    if not store.list_editors():
        click.echo("note: no editor accounts yet; add one with `ingest editor add NAME`", err=True)
    click.echo(f"review page on http://{host}:{port}/", err=True)
    uvicorn.run(create_app(settings, store), host=host, port=port, log_level="warning")


@main.group()
def editor() -> None:
    """Editor accounts for the review page."""


@editor.command("add")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@_fail_cleanly
def editor_add(name: str, password_stdin: bool) -> None:
    """Add an editor account, or set a new password for it (hashed with scrypt).

    Example: echo "$PASSWORD" | ingest editor add ann --password-stdin
    """
    from ingest.review.web.passwords import add_editor

    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    _settings, store = _store()
    created = add_editor(store, name, password)
    click.echo(f"editor {name} {'added' if created else 'password changed'}")


@editor.command("list")
@_fail_cleanly
def editor_list() -> None:
    """List editor accounts.

    Example: ingest editor list
    """
    _settings, store = _store()
    for row in store.list_editors():
        click.echo(f"{row['name']}  (since {row['created']})")


@editor.command("remove")
@click.argument("name")
@_fail_cleanly
def editor_remove(name: str) -> None:
    """Remove an editor account; its open sessions stop working at once.

    Example: ingest editor remove ann
    """
    _settings, store = _store()
    if not store.remove_editor(name):
        click.echo(f"error: no editor named '{name}'", err=True)
        sys.exit(1)
    click.echo(f"editor {name} removed")


if __name__ == "__main__":  # pragma: no cover
    main()
