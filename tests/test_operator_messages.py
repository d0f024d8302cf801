"""What the operator reads (issue 22): hints that work as printed, errors whose first words are
the cause and that name the log file, one line each."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import click
import pytest

import extractors
from ingest.documents import snapshot_from_file
from ingest.errors import FetchError
from ingest.fetch.client import make_client
from ingest.fetch.polite import PoliteFetcher
from ingest.models import Source
from ingest.pipeline.process import process_snapshot
from ingest.profiles.io import load_profiles
from ingest.settings import Settings
from ingest.storage import QueueFilter, Store

from .conftest import GOVERNANCE, ROOT, STABLE_URL


def ingest(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ingest_cli.cli", *args],
        env=env if env is not None else dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_review_serve_on_a_busy_port_is_one_error_line_and_exit_1(workspace: Settings) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = ingest("review", "serve", "--host", "127.0.0.1", "--port", str(port))
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1, lines
    assert f"127.0.0.1:{port}" in errors[0] and "already in use" in errors[0]
    assert "review page on" not in done.stderr  # the URL is printed only once it listens
    assert "Traceback" not in done.stderr


def _busy_serve(env: dict[str, str], cwd: Path, program: list[str]) -> str:
    """`review serve` on a busy port: its stderr (the note naming `editor add`, the error)."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        done = subprocess.run(
            [*program, "review", "serve", "--port", port],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1, done.stderr
    return done.stderr


def test_hints_name_the_command_as_it_was_started(workspace: Settings, tmp_path: Path) -> None:
    """The README's set-up puts nothing on the PATH: `uv run ingest ...` is what works there;
    an activated venv types `ingest`; a bare `.venv/bin/ingest` gets that path back."""
    venv_bin = Path(sys.prefix) / "bin"
    script = str(venv_bin / "ingest")
    plain = {
        k: v for k, v in os.environ.items() if not k.startswith("UV") and k not in ("VIRTUAL_ENV",)
    }
    plain["PATH"] = os.pathsep.join(
        p for p in plain.get("PATH", "").split(os.pathsep) if Path(p) != venv_bin
    )
    through_uv = plain | {"UV": "/usr/local/bin/uv", "UV_RUN_RECURSION_DEPTH": "1"}
    err = _busy_serve(through_uv, ROOT, [script])
    assert "`uv run ingest editor add NAME`" in err, err
    err = _busy_serve(through_uv, tmp_path, [script])  # elsewhere: uv is told the project
    assert f"`uv run --project {ROOT} ingest editor add NAME`" in err, err
    err = _busy_serve(plain, ROOT, [script])  # not on the PATH: the script's own path
    assert "`.venv/bin/ingest editor add NAME`" in err, err
    activated = plain | {"PATH": f"{venv_bin}{os.pathsep}{plain['PATH']}"}
    err = _busy_serve(activated, tmp_path, [script])
    assert "`ingest editor add NAME`" in err and "bin/ingest editor" not in err, err


def test_the_next_step_after_a_run_names_the_command_as_started(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from ingest_cli.common import _next_steps

    store = Store.open(workspace)
    source = Source(
        url=STABLE_URL, extractor="pytorch_governance", authoritative=["maintainer:PyTorch"]
    )
    store.upsert_source(source)
    page = GOVERNANCE / "persons_of_interest.7f149bc3.md"
    process_snapshot(
        store,
        workspace,
        source,
        snapshot_from_file(STABLE_URL, page, 10**8),
        load_profiles(workspace.profiles_dir),
        extractors=extractors,
    )
    pending = store.count_facts(QueueFilter(status="pending"))
    store.close()
    monkeypatch.setenv("UV", "/usr/local/bin/uv")
    monkeypatch.chdir(ROOT)

    @click.command()
    def last_line() -> None:
        _next_steps()

    out = CliRunner().invoke(last_line).output
    assert out.strip() == (
        f"{pending} flags pending: uv run ingest review serve, or uv run ingest review list"
    )


# -- errors: the root cause first, one line -------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _polite_error(settings: Settings, url: str) -> FetchError:
    with make_client(settings) as client:
        fetcher = PoliteFetcher(client, settings, sleep=lambda _s: None)
        with pytest.raises(FetchError) as info:
            fetcher.fetch(url)
    return info.value


QUICK = {"host_delay": 0.0, "max_attempts": 2, "backoff_base": 0.0}


@pytest.mark.parametrize("allow_private", [False, True])
def test_an_unresolvable_host_is_said_first_and_once(
    monkeypatch: pytest.MonkeyPatch, allow_private: bool
) -> None:
    """Was: "robots.txt at '…/robots.txt' is unreachable (connection failed: [Errno -2] Name or
    service not known), so …", the cause in the middle (and printed twice by `ingest run`)."""

    def resolver(host: object, *args: object, **kwargs: object) -> list[object]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    settings = Settings(allow_private=allow_private, **QUICK)
    error = _polite_error(settings, "https://nowhere.invalid/people")
    assert error.reason.startswith("DNS lookup failed: no such host 'nowhere.invalid'"), error
    assert str(error).count("robots.txt") <= 1 and "\n" not in str(error)
    assert error.transient


def test_a_refused_connection_is_said_first() -> None:
    port = _closed_port()
    error = _polite_error(Settings(allow_private=True, **QUICK), f"http://127.0.0.1:{port}/p")
    assert error.reason.startswith(f"connection refused by 127.0.0.1:{port}"), error
    assert "Errno" not in str(error)


def test_a_timeout_is_said_first() -> None:
    with socket.socket() as silent:  # accepts connections (the backlog), never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        settings = Settings(allow_private=True, http_timeout=0.3, **QUICK)
        error = _polite_error(settings, f"http://127.0.0.1:{port}/p")
    assert error.reason.startswith("timed out"), error
    assert f"127.0.0.1:{port}" in error.reason


def test_an_arxiv_connection_failure_is_one_short_line() -> None:
    """Was: "connection failed: HTTPConnectionPool(host='127.0.0.1', port=…): Max retries
    exceeded with url: /api/query?… (Caused by NewConnectionError('<urllib3.connection…
    object at 0x…>: Failed to establish a new connection: [Errno 111] Connection refused'))"."""
    from ingest.fetch.arxiv_client import ArxivClient

    port = _closed_port()
    settings = Settings(allow_private=True, http_timeout=2.0)
    url_format = f"http://127.0.0.1:{port}/api/query?{{}}"
    with (
        ArxivClient(settings, query_url_format=url_format) as client,
        pytest.raises(FetchError) as info,
    ):
        client.fetch_ids(["1605.08386"])
    reason = info.value.reason
    assert reason == f"connection refused by 127.0.0.1:{port}", reason
    assert len(str(info.value)) < 300 and "object at 0x" not in str(info.value)
    assert info.value.transient


def test_a_failed_one_off_says_its_error_once(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from ingest_cli import cli

    error = "could not fetch url 'http://127.0.0.1:9/p': connection refused by 127.0.0.1:9"
    failed = {
        "url": "http://127.0.0.1:9/p",
        "status": "failed",
        "snapshot": None,
        "claims": 0,
        "changes": [],
        "alerts": [f"failed: {error}"],
        "error": error,
    }
    monkeypatch.setattr(cli, "_run_flow", lambda *_args: failed)
    result = CliRunner().invoke(cli.main, ["run", "http://127.0.0.1:9/p"])
    assert result.exit_code == 1
    assert error not in result.stdout, result.stdout
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith(f"error: {error}"), errors


# -- every error line names the log file ----------------------------------------------------


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error: ")]


def test_every_error_line_names_the_log_file(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from ingest_cli import cli

    log = workspace.home / "logs" / "ingest.log"
    runner_log = workspace.home / "logs" / "runner.log"
    # a domain error: the line names the log, which keeps it
    result = CliRunner().invoke(cli.main, ["review", "accept", "deadbeefcafe"])
    assert result.exit_code == 1
    [line] = _error_lines(result.stderr)
    assert "no change with id 'deadbeefcafe'" in line and line.endswith(f"(log: {log})"), line
    assert "no change with id 'deadbeefcafe'" in log.read_text()
    # an editor that is not there
    result = CliRunner().invoke(cli.main, ["editor", "remove", "nobody"])
    assert result.exit_code == 1
    [line] = _error_lines(result.stderr)
    assert "nobody" in line and line.endswith(f"(log: {log})"), line
    # something unexpected: one line (no second "details:" line), its traceback in the log
    monkeypatch.setattr(cli, "_run_flow", lambda *_args: 1 / 0)
    result = CliRunner().invoke(cli.main, ["nightly"])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: unexpected ZeroDivisionError"), lines
    assert lines[0].endswith(f"(log: {log})")
    assert "Traceback" in log.read_text() and "ZeroDivisionError" in log.read_text()
    # a one-off run whose source failed in the local runner: its log is the runner's
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    failed = {
        "url": "https://example.org/p",
        "status": "failed",
        "snapshot": None,
        "claims": 0,
        "changes": [],
        "alerts": [],
        "error": "could not fetch url 'https://example.org/p': connection refused",
    }
    monkeypatch.setattr(cli, "_run_flow", lambda *_args: failed)
    result = CliRunner().invoke(cli.main, ["run", "https://example.org/p"])
    [line] = _error_lines(result.stderr)
    assert line.endswith(f"(log: {runner_log})"), line
