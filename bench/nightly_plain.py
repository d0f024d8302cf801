"""The nightly without Prefect, for measuring Prefect's share of a run.

    INGEST_...=... .venv/bin/python bench/nightly_plain.py

Runs `flows.nightly_local.run_locally`: the nightly a command runs in its own process when no
local runner is up, the same wiring as the Prefect flow (`flows.nightly_core`) with plain steps
(the fetch batches on a thread pool, no flow or task runs, no artifacts). Everything else
(fetching, storing, extracting, diffing, the report files) is the same code. Prints the CLI's
summary line.
"""

from __future__ import annotations

import atexit
import gc
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from flows.nightly_local import run_locally  # noqa: E402


def main() -> None:
    atexit.register(gc.freeze)  # the process ends as the CLI's does (ingest_cli.cli)
    result = run_locally({})
    counts = result.get("counts", {})
    print(
        f"nightly refresh (plain): {counts.get('fetched')} fetched, "
        f"{counts.get('unchanged')} unchanged, {counts.get('failed')} failed"
    )


if __name__ == "__main__":
    main()
