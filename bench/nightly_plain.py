"""The nightly flow's body without Prefect, for measuring Prefect's share of a run.

    INGEST_...=... .venv/bin/python bench/nightly_plain.py

Runs `flows.nightly.nightly_refresh.fn()` (the flow's own function: no flow run, no API) with
every Prefect task in the loaded `flows.*` modules replaced by its plain function, `.submit` by a
thread pool future (the fetches are bounded by the PoliteFetcher's per-host slots either way),
and the artifact functions (prefect.artifacts.create_*) by nothing. Everything else (fetching,
storing, extracting, diffing, the report file) is the same code. Prints the CLI's summary line.
"""

from __future__ import annotations

import sys
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from ingest.runner import prefect_setup  # noqa: E402

prefect_setup.configure()  # nothing should reach Prefect here; if it does, offline and quiet

from prefect import Task  # noqa: E402
from prefect.utilities.annotations import quote  # noqa: E402

import flows.nightly  # noqa: E402

POOL = ThreadPoolExecutor(max_workers=64)


class PlainTask:
    """A task's function, callable directly or through `.submit` (a concurrent future)."""

    def __init__(self, task: Task[Any, Any]) -> None:
        self.fn = task.fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        named = dict(zip(kwargs, unquoted(kwargs.values()), strict=True))
        return self.fn(*unquoted(args), **named)

    def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
        return POOL.submit(self.__call__, *args, **kwargs)

    def with_options(self, **options: Any) -> PlainTask:
        """Retries and the like are Prefect's: the plain function is the same."""
        return self


def unquoted(values: Any) -> list[Any]:
    """The values with prefect's quote() taken off, as the task engine does."""
    return [v.unquote() if isinstance(v, quote) else v for v in values]


def _no_artifact(*args: Any, **kwargs: Any) -> None:
    return None


def without_prefect() -> None:
    for module_name, module in list(sys.modules.items()):
        if module_name != "flows" and not module_name.startswith("flows."):
            continue
        for name, value in list(vars(module).items()):
            if isinstance(value, Task):
                setattr(module, name, PlainTask(value))
            elif callable(value) and getattr(value, "__module__", "") == "prefect.artifacts":
                setattr(module, name, _no_artifact)


def main() -> None:
    without_prefect()
    result = flows.nightly.nightly_refresh.fn()
    counts = result.get("counts", {})
    print(
        f"nightly refresh (plain): {counts.get('fetched')} fetched, "
        f"{counts.get('unchanged')} unchanged, {counts.get('failed')} failed"
    )
    POOL.shutdown()


if __name__ == "__main__":
    main()
