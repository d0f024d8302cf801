"""`ingest extract` of a PDF loads only what an extraction needs: no Prefect, no web server, no
database layer (they cost seconds of import on a user's every call)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PDF = ROOT / "fixtures" / "arxiv" / "pdf" / "2203.00130v1.pdf"
HEAVY = ("prefect", "sqlalchemy", "fastapi", "uvicorn", "starlette", "alembic")
# Runs the CLI in-process in a fresh interpreter, then lists the heavy top-level packages loaded.
PROBE = """
import sys
from ingest_cli.cli import main
try:
    main(["extract", sys.argv[1], "--url", "https://arxiv.org/pdf/2203.00130v1"])
except SystemExit as exc:
    code = exc.code
else:
    code = 0
loaded = sorted({name.split(".")[0] for name in sys.modules} & set(sys.argv[2:]))
print("LOADED " + " ".join(loaded), file=sys.stderr)
sys.exit(code)
"""


def test_extract_of_a_pdf_imports_no_flow_web_or_database_module(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(PDF), *HEAVY],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"INGEST_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    claims = [json.loads(line) for line in done.stdout.splitlines()]
    assert any(c["predicate"] == "affiliation" for c in claims)  # it did extract
    loaded = next(line for line in done.stderr.splitlines() if line.startswith("LOADED"))
    assert loaded.split()[1:] == [], loaded


def test_a_one_off_run_of_a_page_does_not_import_the_arxiv_client() -> None:
    # the one-off flow and its context load the arxiv package (and requests, lxml: 0.35 s of a
    # command's start) only when a run reads arXiv
    probe = (
        "import sys, flows.one_off_core, flows.context, ingest.pipeline.arxiv_stage\n"
        "print(' '.join(sorted({n.split('.')[0] for n in sys.modules} & {'arxiv', 'requests'})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "", done.stdout

    from ingest.fetch import arxiv_client, arxiv_ids

    assert arxiv_client.normalize_id is arxiv_ids.normalize_id  # re-exported where it was


def test_a_one_off_run_of_a_local_file_does_not_import_the_fetch_layer() -> None:
    # `ingest run URL --file F` run in the command's own process fetches nothing and reads no
    # feed: httpx (with its CLI's rich and pygments), warcio and feedparser (0.3 s of a start)
    # are imported by the runs that fetch or read a feed, and rich by a terminal's progress bar
    probe = (
        "import sys, flows.one_off_core, ingest_cli.cli\n"
        "heavy = {'httpx', 'httpcore', 'warcio', 'feedparser', 'protego', 'rich'}\n"
        "print(' '.join(sorted({n.split('.')[0] for n in sys.modules} & heavy)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "", done.stdout
