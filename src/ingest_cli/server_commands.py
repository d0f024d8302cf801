"""`ingest server ...` (the workspace's local runner) and `ingest editor ...` (accounts for the
review page)."""

from __future__ import annotations

import sys
from typing import Any

import click

from ingest.runner import progress
from ingest.settings import ensure_home, get_settings
from ingest_cli.common import (
    _fail_cleanly,
    _progress,
    _store,
    error,
    invocation,
)


@click.group()
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
        f"Prefect API: {state.api_url}  "
        f"(PREFECT_API_URL={state.api_url} {invocation('prefect')} flow-run ls)"
    )
    click.echo(f"logs: {local_server.logs_dir(settings)}")


@click.group()
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
        error(f"no editor named '{name}'")
        sys.exit(1)
    click.echo(f"editor {name} removed")
