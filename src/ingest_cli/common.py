"""What the `ingest` commands share: clean failures (one line, exit 1, the traceback kept in the
log), --verbose, the URL argument type, running a flow, progress, terminal-safe text and JSON.
"""

from __future__ import annotations

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

from ingest.errors import IngestError, ServerError
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
            runner = isinstance(exc, ServerError)  # its details are in the runner's log
            error(str(exc), exc=exc, log=_runner_log() if runner else None)
            sys.exit(1)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except BrokenPipeError:  # `ingest extract ... | head`: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except Exception as exc:
            if _verbose():
                raise
            error(f"unexpected {type(exc).__name__}: {exc}", exc=exc, traceback=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def _verbose() -> bool:
    ctx = click.get_current_context(silent=True)
    return bool(ctx and ctx.meta.get("ingest.verbose"))


def _log_file() -> Path:
    from ingest.runner.local_server import logs_dir

    return logs_dir(get_settings()) / "ingest.log"


def _runner_log() -> Path | None:
    """The local runner's log, where a run's Prefect logs and tracebacks go (None when a
    PREFECT_API_URL runs flows in this process: their logs are in ingest.log)."""
    if os.environ.get("PREFECT_API_URL"):
        return None
    try:
        from ingest.runner.local_server import runner_log

        return runner_log(get_settings())
    except IngestError:
        return None


def error(
    message: str,
    *,
    exc: BaseException | None = None,
    log: Path | None = None,
    traceback: bool = False,
) -> None:
    """One error line on stderr, naming the log file: the line (and with `traceback` the
    traceback of `exc`) is appended to INGEST_HOME/logs/ingest.log, and the line names `log`
    (the runner's log, where a run's details are) or that file. No log file when the settings
    themselves are unusable: the line then names none."""
    kept = _keep(message, exc if traceback else None)
    where = log or kept
    shown = _safe(message)
    if where is not None and str(where) not in message:
        shown += f" (log: {where})"
    click.echo(f"error: {shown}", err=True)


def _keep(message: str, exc: BaseException | None) -> Path | None:
    """Append the error (and `exc`'s traceback) to ingest.log; where it went, if it could."""
    import traceback
    from datetime import UTC, datetime

    try:
        path = _log_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as log:
            log.write(f"--- {datetime.now(UTC).isoformat(timespec='seconds')} {sys.argv}\n")
            log.write(f"error: {message}\n")
            if exc is not None:
                log.write("".join(traceback.format_exception(exc)))
        return path
    except (OSError, IngestError):
        return None


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
        from ingest.urls import encode_url

        return encode_url(text)  # stored and shown percent-encoded: no space or escape byte


def _run_flow(op: str, args: dict[str, Any], what: str) -> dict[str, Any]:
    """Run the `nightly` or `run` flow: against PREFECT_API_URL in this process when one is
    configured, else in the workspace's local runner (started once, then reused); when that is
    not up, in this process without Prefect (`ran: locally`), the runner started for the next
    command."""
    settings = get_settings()  # a bad INGEST_* value: one clear error, before any flow starts
    ensure_home(settings)
    with _progress(what):
        if os.environ.get("PREFECT_API_URL"):
            return _run_in_process(op, args)
        from ingest.runner import local_server

        def notice(note: str) -> None:
            click.echo(f"notice: {_safe(note)}", err=True)

        state = local_server.up(settings)
        if state is None and op == "run":
            from flows.one_off_core import run_locally, runs_locally

            if runs_locally(args["url"], args.get("file")):
                # no runner up: the run here, now, and the runner started for the next command
                local_server.start_in_background(settings, on_notice=notice)
                with local_server.kept_low(settings):  # the runner starts on what is left
                    return _run_locally(run_locally, args)
        if state is None and op == "nightly":
            from flows import nightly_local

            if nightly_local.runs_locally(settings):  # the same: the nightly waits for no runner
                local_server.start_in_background(settings, on_notice=notice)
                with local_server.kept_low(settings):
                    return _run_locally(nightly_local.run_locally, args)
        if state is None:
            state = local_server.ensure(
                settings, on_wait=lambda note: progress.report(note, 0, None), on_notice=notice
            )
        progress.report("waiting for the local runner", 0, None)
        return local_server.call(
            state, op, args, on_progress=progress.report, verbose=_verbose(), on_log=_echo_log,
            workspace=settings.home,
        )  # fmt: skip


def _run_locally(
    run: Callable[[dict[str, Any]], dict[str, Any]], args: dict[str, Any]
) -> dict[str, Any]:
    """`run(args)` in this process, its log records in INGEST_HOME/logs/ingest.log (on stderr
    with --verbose), as the runner's go to its log."""
    import logging

    progress.report("running locally (the local runner starts for the next command)", 0, None)
    root = logging.getLogger()
    handler: logging.Handler
    if _verbose():
        handler = logging.StreamHandler(sys.stderr)
    else:
        path = _log_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(
        logging.Formatter("%(asctime)s | %(levelname)-7s | %(name)s - %(message)s")
    )
    root.addHandler(handler)
    try:
        return run(args)
    finally:
        root.removeHandler(handler)
        handler.close()


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


def invocation(program: str = "ingest") -> str:
    """How to type `program` (`ingest`, `prefect`) so that a hint works as printed, from how this
    process was started: under `uv run` (which sets UV and UV_RUN_RECURSION_DEPTH) `uv run
    ingest` (with `--project` when the folder is outside the project, where uv would not find
    it); `ingest` when the PATH finds this environment's script (an activated venv); else the
    script's path (`.venv/bin/ingest`, relative when under the current folder); else
    `python -m ingest_cli.cli` with this interpreter."""
    import shlex
    import shutil

    from ingest.settings import PROJECT_ROOT

    if os.environ.get("UV") or os.environ.get("UV_RUN_RECURSION_DEPTH"):
        here = Path.cwd().resolve()
        root = PROJECT_ROOT.resolve()
        if here == root or root in here.parents:
            return f"uv run {program}"
        return f"uv run --project {shlex.quote(str(root))} {program}"
    script = Path(sys.prefix) / "bin" / program
    if script.exists():
        found = shutil.which(program)
        if found and os.path.samefile(found, script):
            return program
        return shlex.quote(_shortest(script))
    module = "ingest_cli.cli" if program == "ingest" else program
    return f"{shlex.quote(_shortest(Path(sys.executable)))} -m {module}"


def _shortest(path: Path) -> str:
    """`path` relative to the current folder when it lies under it, else absolute."""
    try:
        relative = path.absolute().relative_to(Path.cwd())
    except ValueError:
        return str(path.absolute())
    return str(relative) if "/" in str(relative) else f"./{relative}"


def _next_steps(pending: int | None = None) -> None:
    """The last line after a run: what waits for an editor, and where to look at it. `pending`:
    the count the run gave (a one-off's `pending_facts`); else the store is opened to count
    (0.3 s of importing the database layer that a one-off in the runner need not pay)."""
    if pending is None:
        from ingest.storage import QueueFilter, Store

        store = Store.open(get_settings())
        try:
            pending = store.count_facts(QueueFilter(status="pending"))
        finally:
            store.close()
    if pending:
        command = invocation()
        click.echo(
            f"{pending} flag{'s' if pending != 1 else ''} pending: "
            f"{command} review serve, or {command} review list"
        )
    else:
        click.echo("nothing pending for review")


@contextmanager
def _progress(what: str) -> Iterator[None]:
    """A rich progress bar with the elapsed time on stderr while a flow runs (a terminal only:
    pipes, logs and `--json` consumers see nothing of it); it disappears when the flow ends.
    The flow's `ingest.runner.progress` reports move it: "nightly refresh: sources 300/2000".
    Without a terminal (nor TTY_COMPATIBLE or FORCE_COLOR, which rich reads) rich is not
    imported at all: 0.06 s of a command's start."""
    if not _terminal(sys.stderr):
        yield
        return
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


def _terminal(stream: Any) -> bool:
    """Whether rich may take `stream` for a terminal: a tty, or said to be one by the
    environment (TTY_COMPATIBLE, FORCE_COLOR: rich then decides)."""
    if os.environ.get("TTY_COMPATIBLE") is not None or os.environ.get("FORCE_COLOR") is not None:
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _safe(text: str) -> str:
    """Text from a source page, made harmless for a terminal (no escape sequences)."""
    return _CONTROL.sub("\N{REPLACEMENT CHARACTER}", text)


def _echo_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


def _store() -> Any:
    from ingest.storage import Store

    settings = get_settings()
    ensure_home(settings)
    return settings, Store.open(settings)
