"""A nightly over N loopback sources on a local Dask cluster of 2 workers, against PostgreSQL.

    uv run python bench/nightly_dask_pg.py [--sources 10000] [--workers 2]

Issue 30's "scale past one machine stays on the existing engines": the same generated sources
as bench/nightly_load.py, the real `ingest nightly` (Prefect, its temporary server) with
INGEST_DASK_ADDRESS=local (a LocalCluster of `--workers` processes fetching the batches, see
flows/dask_runner.py) and INGEST_DATABASE_URL a fresh PostgreSQL database.

The server: INGEST_BENCH_DATABASE_URL (or INGEST_TEST_DATABASE_URL) when set, a database there
being created for the run and dropped after; else a throwaway one started with scripts/postgres
in a temporary folder and stopped after, when PostgreSQL's server binaries are installed.
Without a server, or without prefect-dask, it prints `skipped: <why>` and exits 3 (run_all.py
writes the row as skipped with that reason). Otherwise it prints one JSON line: sources,
seconds, sources_per_s, the run's summary and peak RSS.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

import nightly_load  # noqa: E402

SKIPPED = 3  # exit status: not measured, for the reason printed


def missing() -> str | None:
    """Why the bench cannot run here, or None."""
    for module in ("prefect_dask", "dask.distributed"):
        if importlib.util.find_spec(module.split(".")[0]) is None:
            return f"{module} is not installed (uv sync installs prefect-dask)"
    if not os.environ.get("INGEST_BENCH_DATABASE_URL") and not os.environ.get(
        "INGEST_TEST_DATABASE_URL"
    ):
        servers = glob.glob("/usr/lib/postgresql/*/bin/pg_ctl") or shutil.which("pg_ctl")
        if not servers:
            return "no PostgreSQL: set INGEST_BENCH_DATABASE_URL or install its server binaries"
    return None


@contextmanager
def server() -> Iterator[str]:
    """The URL of a PostgreSQL server to make databases on (a given one, or a throwaway)."""
    given = os.environ.get("INGEST_BENCH_DATABASE_URL") or os.environ.get(
        "INGEST_TEST_DATABASE_URL"
    )
    if given:
        yield given
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-pg-"))
    script = str(ROOT / "scripts" / "postgres")
    try:
        started = subprocess.run(
            [script, "start", str(folder)], capture_output=True, text=True, check=True
        )
        yield started.stdout.strip().split("=", 1)[1].strip("'")
    finally:
        subprocess.run([script, "stop", str(folder)], capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """A new, empty database on `url`'s server (dropped after): its URL."""
    import sqlalchemy as sa

    from ingest.storage.database import database_url

    base = sa.engine.make_url(database_url(url))
    name = f"bench_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(  # C collation, as the tests' databases
                f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'"
            )
        yield base.set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()


def measure(sources: int, workers: int) -> dict[str, object]:
    with (
        nightly_load.LoadServer(sources) as load,
        server() as url,
        fresh_database(url) as database,
    ):
        ws = nightly_load.prepare(load)
        try:
            ws.env.update(
                INGEST_DATABASE_URL=database,
                INGEST_DASK_ADDRESS="local",
                INGEST_DASK_WORKERS=str(workers),
            )
            result = nightly_load.run_nightly(ws)
        finally:
            shutil.rmtree(ws.root, ignore_errors=True)
    return {
        "sources": sources,
        "workers": workers,
        "seconds": round(result["seconds"], 2),
        "sources_per_s": round(sources / result["seconds"], 1),
        "summary": result["summary"],
        "tree_peak_rss_mb": round(result["tree_peak_rss_mb"]),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sources", type=int, default=10000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    why = missing()
    if why:
        print(f"skipped: {why}")
        return SKIPPED
    print(json.dumps(measure(args.sources, args.workers)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
