"""Degraded inputs that used to take seconds to minutes (issue 29): 500 kB of unclosed `[` on
one Markdown list line (32 s), nesting 100,000 deep in YAML, TOML or JSON ("unexpected
RecursionError" after up to 13 s). Each is refused before any parser, measured in a child
process (CPU seconds, peak memory), through the same pipeline step as a fetched source."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ingest.errors import DocumentTooNestedError
from ingest.models import Snapshot
from ingest.nesting import data_nesting, unclosed_brackets

from .test_hostile_parse import CHILD, PIPELINE

ROOT = Path(__file__).resolve().parent.parent
DEEP = 100_000

CASES = {
    "markdown_brackets": (
        "https://example.org/MAINTAINERS.md",
        "'# People\\n\\n- ' + '[' * 500_000",
    ),
    "yaml_deep": ("https://example.org/people.yaml", f"'a: ' + '[' * {DEEP} + ']' * {DEEP}"),
    "toml_deep": ("https://example.org/people.toml", f"'a = ' + '[' * {DEEP} + ']' * {DEEP}"),
    "json_deep": ("https://example.org/people.json", f"'[' * {DEEP} + ']' * {DEEP}"),
    "yaml_indented": (
        "https://example.org/deep.yaml",
        "''.join(' ' * i + 'k:\\n' for i in range(1000))",
    ),
}


def run_case(url: str, body: str, home: Path) -> dict[str, Any]:
    setup = f"URL = {url!r}\nBODY = ({body}).encode()"
    env = {k: v for k, v in os.environ.items() if not k.startswith("INGEST_")}
    env.update(INGEST_HOME=str(home / "home"), INGEST_PROFILES_DIR=str(home))
    child = subprocess.run(
        [sys.executable, "-c", CHILD.format(setup=PIPELINE.format(setup=setup))],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert child.returncode == 0, child.stderr[-2000:]
    return dict(json.loads(child.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("case", sorted(CASES))
def test_degraded_documents_are_refused_in_well_under_a_second(case: str, tmp_path: Path) -> None:
    report = run_case(*CASES[case], tmp_path)
    print(case, report)
    assert report["result"]["status"] == "failed", report
    assert "refused before parsing" in report["result"]["error"], report
    assert "RecursionError" not in report["result"]["error"], report
    assert report["wall"] < 1.0 and report["peak_mb"] < 300, report


def test_the_measures_are_exact_on_ordinary_text() -> None:
    assert data_nesting('{"a": [1, {"b": "[[[[[["}]}', "json", limit=0) == 3
    assert data_nesting("a:\n  b:\n    c: 1\n  d: 2\n", "yaml") == 3
    assert unclosed_brackets("[a](b) [c] [[x]]\n\n[open") == 1


def test_a_normal_markdown_list_of_links_passes() -> None:
    from ingest.documents import check_nesting

    body = "# People\n\n" + "".join(f"- [Ada {i}](https://x.org/{i}) [gh]\n" for i in range(5000))
    check_nesting(Snapshot(url="https://example.org/P.md", body=body.encode()))
    deep = Snapshot(url="https://example.org/x.json", body=b"[" * 200 + b"]" * 200)
    with pytest.raises(DocumentTooNestedError, match="200 deep"):
        check_nesting(deep)
