"""The command line contract of DESIGN.md: formats, exit codes, messages."""

from __future__ import annotations

import getpass
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import extractors
from ingest.settings import Settings
from ingest_cli.cli import main

from .conftest import GOVERNANCE, ROOT, STABLE_URL

LATEST = GOVERNANCE / "persons_of_interest.7f149bc3.md"


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_extract_prints_claims_as_json_lines_and_writes_nothing(workspace: Settings) -> None:
    code, out, _err = cli("extract", str(LATEST), "--url", STABLE_URL)
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 258
    assert lines[0]["subject"] == {"name": "Alban Desmaison", "github": "alband"}
    assert lines[0]["qualifiers"]["level"] == "lead"
    assert {"subject", "predicate", "object", "qualifiers", "evidence", "extractor"} <= set(
        lines[0]
    )
    assert not workspace.home.exists()


def test_extract_sniffs_format_whatever_the_url_says(workspace: Settings) -> None:
    html = GOVERNANCE / "docs-2.2.persons_of_interest.e3880b57.article-excerpt.html"
    code, out, _ = cli(
        "extract",
        str(html),
        "--url",
        "https://example.org/page.md",
        "--extractor",
        "pytorch_governance",
    )
    assert code == 0 and len(out.splitlines()) == 184


def test_extract_errors_name_the_file_and_cause(workspace: Settings, tmp_path: Path) -> None:
    stub = GOVERNANCE / "docs-stable.persons_of_interest.redirect-to-2.13.27bf56bd.html"
    code, _out, err = cli("extract", str(stub), "--url", STABLE_URL)
    assert code == 1 and "redirect stub" in err and "2.13" in err
    code, _out, err = cli("extract", str(LATEST), "--url", STABLE_URL, "--extractor", "nope")
    assert code == 1 and "no extractor named 'nope'" in err
    unknown = tmp_path / "x.txt"
    unknown.write_text("hello")
    code, _out, err = cli("extract", str(unknown), "--url", "https://example.org/x")
    assert code == 1 and "https://example.org/x" in err


def test_bad_usage_exits_2(workspace: Settings) -> None:
    assert cli("extract", str(LATEST))[0] == 2  # --url missing
    assert cli("review", "list", "--status", "maybe")[0] == 2
    assert cli("frobnicate")[0] == 2


def test_review_commands_round_trip(workspace: Settings) -> None:
    from ingest.documents import snapshot_from_file
    from ingest.models import Source
    from ingest.pipeline.process import process_snapshot
    from ingest.profiles.io import load_profiles
    from ingest.storage import Store

    store = Store.open(workspace)
    source = Source(
        url=STABLE_URL, extractor="pytorch_governance", authoritative=["maintainer:PyTorch"]
    )
    store.upsert_source(source)
    process_snapshot(
        store,
        workspace,
        source,
        snapshot_from_file(STABLE_URL, LATEST, 10**8),
        load_profiles(workspace.profiles_dir),
        extractors=extractors,
    )
    store.close()

    code, out, _ = cli("review", "list", "--json")
    changes = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(changes) == 5
    assert set(changes[0]) >= {
        "id",
        "profile",
        "kind",
        "claim",
        "previous",
        "source_url",
        "status",
        "created",
    }
    assert all(c["status"] == "pending" for c in changes)
    first, second = changes[0]["id"], changes[1]["id"]

    code, out, _ = cli("review", "show", first[:8], "--json")
    assert code == 0 and json.loads(out)["id"] == first
    code, out, _ = cli("review", "show", first[:8])
    assert code == 0 and out.startswith(first) and "profile:" in out and "statement:" in out
    assert "{" not in out and "['" not in out

    code, out, _ = cli("review", "accept", first, "--note", "ok", "--editor", "ann")
    assert code == 0 and first in out
    code, out, err = cli("review", "reject", first, second, "--editor", "bob")
    assert code == 1 and "already accepted by ann" in err and second in out
    code, out, _ = cli("review", "list", "--status", "all", "--json")
    statuses = {json.loads(x)["id"]: json.loads(x)["status"] for x in out.splitlines()}
    assert statuses[first] == "accepted" and statuses[second] == "rejected"
    code, out, _ = cli("review", "show", first, "--json")
    assert json.loads(out)["decisions"][0]["note"] == "ok"
    code, _out, err = cli("review", "accept", "doesnotexist")
    assert code == 1 and "no change with id 'doesnotexist'" in err
    # undo: the editor's own last decision, nobody else's
    code, out, _ = cli("review", "undo", "--editor", "bob")
    assert code == 0 and second in out and "pending again" in out
    code, out, _ = cli("review", "list", "--status", "all", "--json")
    statuses = {json.loads(x)["id"]: json.loads(x)["status"] for x in out.splitlines()}
    assert statuses[first] == "accepted" and statuses[second] == "pending"
    code, _out, err = cli("review", "undo", "--editor", "bob")
    assert code == 1 and "no decision to undo" in err


def test_the_editor_comes_from_the_option_else_ingest_editor(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ingest_cli.review_commands import _editor

    monkeypatch.setenv("INGEST_EDITOR", "carol")
    assert _editor(None) == "carol" and _editor("dan") == "dan"
    monkeypatch.delenv("INGEST_EDITOR")
    assert _editor(None) == getpass.getuser()


def test_every_command_is_documented() -> None:
    readme = (ROOT / "README.md").read_text()

    def walk(group, prefix):
        for name, command in group.commands.items():
            full = f"{prefix} {name}".strip()
            if hasattr(command, "commands"):
                yield from walk(command, full)
            else:
                assert command.help and "Example:" in command.help, full
                yield full

    for full in walk(main, ""):
        assert f"ingest {full}" in readme, full


@pytest.mark.prefect
def test_run_json_through_a_real_prefect_flow(workspace: Settings) -> None:
    """`ingest run --json` in a subprocess: one real Prefect flow run, clean JSON on stdout."""
    env = dict(os.environ)
    args = [
        sys.executable,
        "-m",
        "ingest_cli.cli",
        "run",
        STABLE_URL,
        "--file",
        str(GOVERNANCE / "docs-main.persons_of_interest.4bc782c2.md"),
        "--json",
    ]
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["url"] == STABLE_URL and result["status"] == "fetched"
    assert result["claims"] == 257 and len(result["snapshot"]) == 64
    assert isinstance(result["alerts"], list)
    kinds = {(c["profile"], c["kind"]) for c in result["changes"]}
    assert ("soumith-chintala", "added") in kinds
    # the seeds are confirmed, not flagged: Alban's lead role is already in his profile
    assert not [
        c
        for c in result["changes"]
        if c["profile"] == "alban-desmaison" and c["claim"]["qualifiers"]["level"] == "lead"
    ]
    again = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert json.loads(again.stdout)["status"] == "unchanged"


def test_hostile_text_cannot_drive_the_terminal(workspace: Settings, tmp_path: Path) -> None:
    page = tmp_path / "evil.md"
    page.write_text(
        "# PyTorch Governance | Maintainers\n\n## Core Maintainers\n\n"
        "- Soumith \x1b[31mChintala\x1b[0m ([soumith](https://github.com/soumith))\n"
    )
    code, out, _ = cli("extract", str(page), "--url", STABLE_URL)
    assert code == 0 and "\x1b" not in out  # JSON escapes it
    assert "\\u001b" in out
    from ingest_cli.common import _safe

    assert "\x1b" not in _safe("a\x1b[2Jb") and "\n" in _safe("a\nb")


def test_editor_accounts_from_the_command_line(workspace: Settings) -> None:
    from ingest.review.web.passwords import authenticate
    from ingest.storage import Store

    runner = CliRunner()
    added = runner.invoke(
        main, ["editor", "add", "ann", "--password-stdin"], input="long enough pw\n"
    )
    assert added.exit_code == 0 and "editor ann added" in added.stdout
    short = runner.invoke(main, ["editor", "add", "bob", "--password-stdin"], input="short\n")
    assert short.exit_code == 1 and "too short" in short.stderr
    bad = runner.invoke(
        main, ["editor", "add", "<b>", "--password-stdin"], input="long enough pw\n"
    )
    assert bad.exit_code == 1 and "not allowed" in bad.stderr
    assert cli("editor", "list")[1].startswith("ann  (since ")
    store = Store.open(workspace)
    assert authenticate(store, "ann", "long enough pw")
    assert not authenticate(store, "ann", "long enough pW")
    assert cli("editor", "remove", "ann")[0] == 0
    assert cli("editor", "remove", "ann")[0] == 1
    assert not authenticate(store, "ann", "long enough pw")
    store.close()


@pytest.mark.parametrize("command", [["nightly"], ["run", "https://example.org/x"], ["serve"]])
def test_a_bad_setting_is_one_clear_error_before_anything_runs(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.setenv("INGEST_BATCH_SIZE", "0")
    monkeypatch.setenv("INGEST_DASK_WORKERS", "two")
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 1
    assert result.output.strip() == (
        "error: bad setting: INGEST_BATCH_SIZE='0': Input should be greater than or equal to 1; "
        "INGEST_DASK_WORKERS='two': Input should be a valid integer, unable to parse string as "
        "an integer"
    )
    assert not workspace.home.exists()  # nothing opened, nothing written


@pytest.mark.parametrize(
    "url",
    [
        "notaurl",
        "ftp://example.org/a",
        "javascript:alert(1)//governance",
        "http://",
        "file:///etc/passwd",
    ],
)
def test_run_refuses_what_is_not_an_http_url_as_bad_usage(workspace: Settings, url: str) -> None:
    code, _out, err = cli("run", url)
    assert code == 2
    assert "is not an http:// or https:// URL" in err
    assert not workspace.home.exists()  # no database, no source row, no runner


@pytest.mark.prefect
def test_a_one_off_run_that_could_not_read_its_source_exits_1(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = dict(os.environ, INGEST_REPLAY=str(ROOT / "fixtures" / "web"))
    for url, why in (
        ("https://example.org/never-recorded", "no recorded response"),
        ("https://arxiv.org/abs/9999.99999", "no recorded response"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "ingest_cli.cli", "run", url],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 1, (url, done.stdout, done.stderr)
        assert done.stderr.startswith("error: ") and why in done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"INGEST_HTTP_TIMEOUT": "-3"}, "INGEST_HTTP_TIMEOUT='-3'"),
        ({"INGEST_HTTP_TIMEOUT": "0"}, "INGEST_HTTP_TIMEOUT='0'"),
        ({"INGEST_MAX_BYTES": "-1"}, "INGEST_MAX_BYTES='-1'"),
        ({"INGEST_FETCH_DEADLINE": "0"}, "INGEST_FETCH_DEADLINE='0'"),
        ({"INGEST_HTTP_TIMEOUT": "inf"}, "INGEST_HTTP_TIMEOUT='inf': Input should be a finite"),
        ({"INGEST_REVIEW_ALLOWED_HOSTS": "notjson"}, "INGEST_REVIEW_ALLOWED_HOSTS='notjson'"),
        ({"INGEST_HOME": "/dev/null"}, "INGEST_HOME='/dev/null': Value error, not a directory"),
        ({"INGEST_HOME": "/proc/no-such-folder"}, "INGEST_HOME '/proc/no-such-folder' cannot"),
        ({"INGEST_HOME": "/sys/kernel"}, "INGEST_HOME '/sys/kernel' is not writable"),
    ],
)
def test_every_bad_setting_or_unwritable_home_is_one_line(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], named: str
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    for command in (["review", "list"], ["nightly"], ["server", "start"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1, (command, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and named in lines[0]
        assert "Traceback" not in result.output


def test_bad_ports_and_urls_with_credentials_are_bad_usage(workspace: Settings) -> None:
    code, _out, err = cli("review", "serve", "--port", "99999")
    assert code == 2 and "99999 is not in the range" in err
    code, _out, err = cli("run", "http://ann:s3cret@example.org/governance")
    assert code == 2 and "credentials in URLs are not accepted" in err
    assert "s3cret" not in err and "ann" not in err
    code, _out, err = cli("run", "javascript:alert(1)//governance", "--file", str(LATEST))
    assert code == 2 and "not an http:// or https:// URL" in err
    code, _out, err = cli("extract", str(LATEST), "--url", "javascript:alert(1)//governance")
    assert code == 2 and "not an http:// or https:// URL" in err
    assert not workspace.home.exists()


def test_extract_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """`ingest extract FILE --url URL | head`: no traceback, no error line, exit 0 (258 claims
    are more than a pipe holds, so the write after `head` has gone fails for certain)."""
    page = ROOT / "fixtures/governance/docs-2.13.persons_of_interest.97dd649d.md"
    command = f"{sys.executable} -m ingest_cli.cli extract {page} --url {STABLE_URL} | head -c 10"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, timeout=120
    )
    assert done.stdout == '{"subject"' and done.stderr == "", done.stderr
    assert done.returncode == 0


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--as-of", "2024-06-01"], "--as-of needs --replay"),
        (["--replay", str(ROOT / "fixtures" / "web"), "--fail-on", "1.5"], "--fail-on"),
        (["--fail-on", "-0.1"], "--fail-on"),
    ],
)
def test_nightly_bad_usage_is_refused_before_anything_starts(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch, args: list[str], why: str
) -> None:
    """`--as-of` without a replay archive ran live (every source failed, exit 0) and filed a
    report "as of" a day it never saw: bad usage now, refused before a flow starts."""
    import ingest_cli.cli

    started: list[dict[str, object]] = []

    def no_flow(op: str, flow_args: dict[str, object], what: str) -> dict[str, object]:
        started.append(flow_args)
        return {"counts": {}, "flags": {}, "alerts": [], "report_file": "-"}

    monkeypatch.setattr(ingest_cli.cli, "_run_flow", no_flow)
    monkeypatch.delenv("INGEST_REPLAY", raising=False)
    code, _out, err = cli("nightly", *args)
    assert code == 2, err
    assert why in err
    assert started == [] and not workspace.home.exists()


def test_nightly_as_of_goes_with_a_replay_archive_from_the_environment_too(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ingest_cli.cli

    started: list[dict[str, object]] = []

    def fake_flow(op: str, flow_args: dict[str, object], what: str) -> dict[str, object]:
        started.append(flow_args)
        counts = {"fetched": 1, "unchanged": 0, "failed": 0, "skipped": 0}
        return {"counts": counts, "flags": {}, "alerts": [], "report_file": "r.html"}

    monkeypatch.setattr(ingest_cli.cli, "_run_flow", fake_flow)
    monkeypatch.setenv("INGEST_REPLAY", str(ROOT / "fixtures" / "web"))
    code, _out, err = cli("nightly", "--as-of", "2024-06-01", "--fail-on", "0.5")
    assert code == 0, err
    assert started == [{"replay": None, "as_of": "2024-06-01", "fail_on": 0.5}]
