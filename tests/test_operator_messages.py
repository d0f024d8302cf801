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
