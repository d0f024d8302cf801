"""A nightly refresh over many generated sources on a loopback server, timed from outside.

    .venv/bin/python bench/nightly_load.py [--sources N] [--plain | --served]

`LoadServer` (ThreadingHTTPServer on 127.0.0.1) serves N small generated maintainers pages in
Markdown at /docs/<n>/community/persons_of_interest.md with an ETag (If-None-Match -> 304),
answers 404 for robots.txt and an empty Atom feed for /api/query (arXiv author queries). The
workspace `prepare` builds holds the registry (INGEST_SOURCES_FILE), one small profile without
references (INGEST_PROFILES_DIR), a fresh INGEST_HOME and its own PREFECT_HOME.

`run_nightly` runs `python -m ingest_cli.cli nightly` (or, with plain=True,
`bench/nightly_plain.py`: the same flow body without Prefect) in a subprocess and returns its
wall time, its CPU time and the peak RSS of the children waited for so far (ru_maxrss of
RUSAGE_CHILDREN is a maximum over all of them). With --served, the runs report to a running
`prefect server start` on loopback, as make bench's measured runs do.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.arxiv_loopback import atom_feed  # noqa: E402
from tests.loopback import LoopbackServer  # noqa: E402

PAGE_PATH = "/docs/{n}/community/persons_of_interest.md"


def page(n: int) -> bytes:
    """A small maintainers page: a lead, three core maintainers, two modules of two people."""
    people = [f"Person {n}-{i} ([user{n}x{i}](https://github.com/user{n}x{i}))" for i in range(8)]
    return (
        "# PyTorch Governance | Maintainers\n\n## Lead Core Maintainer\n\n"
        f"- {people[0]}\n\n## Core Maintainers\n\n- {people[1]}\n- {people[2]}\n"
        f"- (emeritus) {people[3]}\n\n## Core Module maintainers\n\n"
        f"### NN APIs (torch.nn)\n\n- {people[4]}\n- {people[5]}\n\n"
        f"### CUDA\n\n- {people[6]}\n- {people[7]}\n"
    ).encode()


class _Handler(BaseHTTPRequestHandler):
    server: LoadServer
    protocol_version = "HTTP/1.1"  # keep-alive: one connection per client thread, not per page
    # TCP_NODELAY: the headers and the body are two writes; with Nagle's algorithm the second
    # waits for the client's delayed ACK of the first (~40 ms on Linux) on a kept-alive socket
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/api/query":
            self._send(200, atom_feed([], total=0), "application/atom+xml; charset=utf-8")
            return
        body = self.server.pages.get(path)
        if body is None:
            self._send(404, b"not found\n", "text/plain")
            return
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == etag:
            with self.server.lock:
                self.server.not_modified += 1
            self._send(304, b"", None, etag)
            return
        self._send(200, body, "text/markdown; charset=utf-8", etag)

    def _send(self, status: int, body: bytes, ctype: str | None, etag: str | None = None) -> None:
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        if etag:
            self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(body)) if status != 304 else "0")
        self.end_headers()
        if status != 304:
            self.wfile.write(body)


class LoadServer(LoopbackServer):
    request_queue_size = 256

    def __init__(self, sources: int) -> None:
        super().__init__(_Handler)
        self.pages = {PAGE_PATH.format(n=n): page(n) for n in range(sources)}
        self.lock = threading.Lock()
        self.not_modified = 0


@dataclass
class Workspace:
    root: Path
    env: dict[str, str]


def prepare(
    server: LoadServer, root: Path | None = None, home: str = "home", limit: int | None = None
) -> Workspace:
    """Registry (the first `limit` pages, default all), profile and environment for a run
    against `server`: a fresh INGEST_HOME `home` under `root`, PREFECT_HOME shared under `root`.
    Bytecode is written (PYTHONDONTWRITEBYTECODE dropped), as on a machine running nightlies."""
    root = root or Path(tempfile.mkdtemp(prefix="nightly-bench-"))
    registry = [
        {
            "url": server.base + path,
            "extractor": "pytorch_governance",
            "title": "PyTorch Governance | Maintainers",
            "publisher": "Bench",
            "kind": "Documentation",
            "authoritative": ["maintainer:PyTorch"],
        }
        for path in list(server.pages)[:limit]
    ]
    sources_file = root / f"sources-{home}.json"
    sources_file.write_text(json.dumps(registry), encoding="utf-8")
    profiles = root / "profiles"
    profiles.mkdir(exist_ok=True)
    profile = {"id": "bench-person", "name": "Bench Person", "aliases": [], "claims": []}
    (profiles / "bench-person.json").write_text(json.dumps(profile), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("INGEST_")}
    env.update(
        INGEST_HOME=str(root / home),
        INGEST_SOURCES_FILE=str(sources_file),
        INGEST_PROFILES_DIR=str(profiles),
        INGEST_ALLOW_PRIVATE="1",
        INGEST_HOST_DELAY="0",
        INGEST_HOST_CONCURRENCY="20",
        INGEST_ARXIV_API_URL=server.base + "/api/query",
        INGEST_ARXIV_DELAY="0",
        PREFECT_HOME=str(root / "prefect-home"),
        PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PREFECT_API_URL", None)  # the temporary local server, as a plain nightly has
    return Workspace(root, env)


def _tree_rss_kb(root_pid: int) -> int:
    """Resident KB of `root_pid` and all its descendants now (Linux /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents[int(stat.parent.name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    tree, grew = {root_pid}, True
    while grew:
        more = {pid for pid, ppid in parents.items() if ppid in tree} - tree
        tree |= more
        grew = bool(more)
    total = 0
    for pid in tree:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def run_nightly(ws: Workspace, *, plain: bool = False) -> dict[str, Any]:
    """One nightly in a subprocess: wall seconds, its summary line, peak RSS (MB) of the children
    waited for so far (ru_maxrss: the largest single process), and the peak of the whole
    process tree's summed RSS, sampled every 0.25 s (the CLI plus Prefect's server process)."""
    if plain:
        command = [sys.executable, str(ROOT / "bench" / "nightly_plain.py")]
    else:
        command = [sys.executable, "-m", "ingest_cli.cli", "nightly"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = subprocess.Popen(
        command, env=ws.env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    tree_peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.25):
            tree_peak[0] = max(tree_peak[0], _tree_rss_kb(child.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = child.communicate()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(command[1:])} failed:\n{stdout}\n{stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    rss_kb = after.ru_maxrss  # KB on Linux
    return {
        "seconds": seconds,
        # CPU seconds of the nightly process (and the children it waited for): steadier than
        # wall time on a machine others load, which slows both but adds wall time only
        "cpu_s": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        "summary": stdout.strip().splitlines()[0] if stdout.strip() else "",
        "stderr": stderr,
        "peak_rss_mb": rss_kb / 1024,
        "tree_peak_rss_mb": tree_peak[0] / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sources", type=int, default=2000)
    parser.add_argument("--plain", action="store_true", help="the flow body without Prefect")
    parser.add_argument(
        "--served",
        action="store_true",
        help="report to a running `prefect server start` (PREFECT_API_URL), as make bench does",
    )
    args = parser.parse_args()
    with LoadServer(args.sources) as server:
        ws = prepare(server)
        with contextlib.ExitStack() as stack:
            if args.served:
                from tests.prefect_server import prefect_server

                api, _env = stack.enter_context(prefect_server(ws.root / "prefect-server"))
                ws = Workspace(ws.root, dict(ws.env, PREFECT_API_URL=api))
            for label in ("first", "re-run"):
                result = run_nightly(ws, plain=args.plain)
                rate = args.sources / result["seconds"]
                print(
                    f"{label}: {result['seconds']:.1f} s ({rate:.0f} sources/s, "
                    f"{result['cpu_s']:.1f} s CPU) {result['summary']}"
                )
        print(f"peak RSS {result['peak_rss_mb']:.0f} MB; 304s served {server.not_modified}")


if __name__ == "__main__":
    main()
