"""Review page speed with 10,000 pending changes in a temporary SQLite store, through the ASGI app.

    python bench/review_page.py

Measures the queue page (p50/p95 over 50 requests, pages spread over the queue), the accept
round trip (POST accept -> the next change's fragment; p95 over 200 decisions, each writing a
profile file) and a bulk accept of 100 facts (one confirmed POST /bulk -> the queue page).
Targets: p95 <= 50 ms for both; the bulk <= 500 ms. Also printed: the process's CPU time per
operation (server and test client), steadier than wall time on a machine others load too.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402

from ingest.review.web.app import create_app  # noqa: E402
from ingest.review.web.passwords import add_editor  # noqa: E402
from ingest.settings import BUNDLED_PROFILES, Settings  # noqa: E402
from ingest.storage import QueueFilter, Store  # noqa: E402
from tests.web_helpers import PASSWORD, csrf_of, login, many_pending  # noqa: E402

PENDING, QUEUE_REQUESTS, DECISIONS, TARGET_MS = 10_000, 50, 200, 50.0
BULK, BULK_TARGET_MS = 100, 500.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="review-bench-"))
    try:
        shutil.copytree(BUNDLED_PROFILES, tmp / "profiles")
        settings = Settings(home=tmp / "home", profiles_dir=tmp / "profiles")
        store = Store.open(settings)
        many_pending(store, PENDING)
        add_editor(store, "bench", PASSWORD)
        client = TestClient(create_app(settings, store), base_url="http://127.0.0.1")
        login(client, "bench")
        pages = store.count_changes(QueueFilter()) // settings.review_page_size
        client.get("/")  # warm up templates and caches
        cpu = time.process_time()
        queue_ms = []
        for i in range(QUEUE_REQUESTS):
            page = 1 + (i * 37) % pages
            started = time.perf_counter()
            answer = client.get(f"/?page={page}")
            queue_ms.append((time.perf_counter() - started) * 1000)
            assert answer.status_code == 200 and f"Page {page} of" in answer.text
        queue_cpu = (time.process_time() - cpu) * 1000 / QUEUE_REQUESTS
        ids = [r["id"] for r in store.queue_rows(QueueFilter(), limit=DECISIONS)]
        token = csrf_of(client.get(f"/changes/{ids[0]}").text)
        accept_ms = []
        cpu = time.process_time()
        for change_id in ids:
            started = time.perf_counter()
            answer = client.post(
                f"/changes/{change_id}/decide",
                data={"action": "accept", "csrf_token": token},
                headers={"X-Fragment": "1"},
            )
            accept_ms.append((time.perf_counter() - started) * 1000)
            assert answer.status_code == 200 and 'id="change"' in answer.text, answer.text[:200]
        accept_cpu = (time.process_time() - cpu) * 1000 / DECISIONS
        bulk_ids = [r["id"] for r in store.queue_rows(QueueFilter(), limit=BULK)]
        started, cpu = time.perf_counter(), time.process_time()
        answer = client.post("/bulk", data={"csrf_token": token, "ids": bulk_ids, "confirmed": "1"})
        bulk_ms = (time.perf_counter() - started) * 1000
        bulk_cpu = (time.process_time() - cpu) * 1000
        assert answer.status_code == 200 and f"Accepted {BULK} changes" in answer.text
        left = store.count_changes(QueueFilter())
        store.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"pending changes: {PENDING} (after the run: {left})")
    print(
        f"queue page       ({QUEUE_REQUESTS} requests): p50 {statistics.median(queue_ms):6.1f} ms"
        f"   p95 {pct(queue_ms, 0.95):6.1f} ms"
    )
    print(
        f"accept -> next   ({DECISIONS} decisions): p50 {statistics.median(accept_ms):6.1f} ms"
        f"   p95 {pct(accept_ms, 0.95):6.1f} ms"
    )
    print(f"bulk accept      ({BULK} facts): {bulk_ms:6.1f} ms")
    print(
        f"CPU per operation: queue page {queue_cpu:.1f} ms, accept -> next {accept_cpu:.1f} ms, "
        f"bulk {bulk_cpu:.1f} ms"
    )
    worst = max(pct(queue_ms, 0.95), pct(accept_ms, 0.95))
    met = worst <= TARGET_MS and bulk_ms <= BULK_TARGET_MS
    verdict = "ok" if met else "OVER"
    print(f"target p95 <= {TARGET_MS:.0f} ms, bulk <= {BULK_TARGET_MS:.0f} ms: {verdict}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
