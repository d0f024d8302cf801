"""How many arXiv API calls 1,000 ids cost, measured against a loopback arXiv (must be 10).

    .venv/bin/python bench/arxiv_calls.py

Runs the real arxiv package through ArxivClient against tests/arxiv_loopback.py, which answers
any id_list query with one generated entry per id, and counts the requests the server received.
The politeness delay is kept (3 s) but slept on a fake clock, so the run takes about a second.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.fetch.arxiv_client import ArxivClient  # noqa: E402
from ingest.settings import Settings  # noqa: E402
from tests.arxiv_loopback import ArxivLoopback, id_list_route  # noqa: E402

IDS = 1000
EXPECTED_CALLS = 10


def main() -> int:
    slept: list[float] = []
    fake_now = [0.0]

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        fake_now[0] += seconds

    ids = [f"2101.{n:05d}" for n in range(IDS)]
    with ArxivLoopback() as server, requests.Session() as session:
        server.route = id_list_route
        client = ArxivClient(
            Settings(allow_private=True, http_timeout=10.0),
            session=session,
            query_url_format=server.url_format,
            sleep=sleep,
            clock=lambda: fake_now[0],
        )
        started = time.perf_counter()
        batch = client.fetch_ids(ids)
        elapsed = time.perf_counter() - started
        calls = len(server.requests)
    found = sum(1 for i in ids if i in batch.results)
    print(
        f"arxiv_calls: {IDS} ids -> {calls} calls measured at the server "
        f"({found} found, {len(batch.missing)} missing; politeness sleeps {sum(slept):g} s "
        f"on the fake clock; {elapsed:.2f} s wall)"
    )
    return 0 if calls == EXPECTED_CALLS and found == IDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
