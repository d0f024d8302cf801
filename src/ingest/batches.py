"""How the nightly cuts its sources into batches: a few coarse Prefect tasks, not two per source.

    plan_batches(sources, size)                 [Batch(sources, after=None), ...] in order
    plan_batches(sources, size, by_host=True)   each batch holds one host's sources; a host's
                                                later batches name the one they must wait for

In one process every batch shares one PoliteFetcher, so per-host pacing holds however the
batches are cut. Batches fetched in other processes (a Dask cluster) cannot share pacing: there
a batch holds a single host's URLs and a host's batches run one after another (`after`), so no
host ever sees more than one batch's requests at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

from ingest.models import Source
from ingest.polite import host_of


@dataclass(frozen=True)
class Batch:
    sources: list[Source]
    after: int | None = None  # index of the batch that must finish fetching first


def plan_batches(sources: list[Source], size: int, *, by_host: bool = False) -> list[Batch]:
    if size < 1:
        raise ValueError(f"batch size must be at least 1, not {size}")
    if not by_host:
        return [Batch(sources[i : i + size]) for i in range(0, len(sources), size)]
    hosts: dict[str, list[Source]] = {}
    for source in sources:
        hosts.setdefault(host_of(source.url), []).append(source)
    out: list[Batch] = []
    for group in hosts.values():
        previous: int | None = None
        for i in range(0, len(group), size):
            out.append(Batch(group[i : i + size], after=previous))
            previous = len(out) - 1
    return out
