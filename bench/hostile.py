"""Peak memory and time of every bounded hostile case of issues 17 and 29, one child process at
a time.

    uv run python bench/hostile.py [--json]

The parse cases are tests/test_hostile_parse.py's CASES (the same child scripts; the test runs
them all at once, so its wall times are contended: these are not). The fetch cases serve a
gzip-of-gzip bomb (1 GiB of zeros in 2.5 KB, INGEST_MAX_BYTES=1 MiB and the default 50 MB) and a
one-byte-every-0.1-s trickle (INGEST_HTTP_TIMEOUT=3 alone, so the deadline is its default
4 x 3 s) from a loopback server in this process. Issue 29's cases: tests/test_hostile_nesting.py's
(500 kB of unclosed `[` on a Markdown line, 100,000-deep YAML/TOML/JSON, 1,000 YAML indents,
through the pipeline) and two profile files (a 200 MB name, 300,000 claims) read by
`load_profiles`. Peak memory is each child's VmHWM.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_hostile_fetch import HostileServer, bomb  # noqa: E402
from tests.test_hostile_nesting import CASES as NESTING  # noqa: E402
from tests.test_hostile_parse import CASES, CHILD, PIPELINE  # noqa: E402

PROFILE = """
import json, tempfile
from pathlib import Path
from ingest.profiles.io import load_profiles
folder = Path(tempfile.mkdtemp())
{write}
def run():
    try:
        load_profiles(folder)
    except Exception as exc:
        return str(exc)[-110:]
    return "loaded"
"""
PROFILE_CASES = {
    "profile_name_200mb": PROFILE.format(
        write="""with (folder / "huge.json").open("w") as out:
    out.write('{"id": "huge", "name": "')
    for _ in range(200):
        out.write("a" * (1 << 20))
    out.write('"}')"""
    ),
    "profile_claims_300k": PROFILE.format(
        write="""claims = [{"id": f"c{i}", "predicate": "maintainer", "object": "X"}
          for i in range(300_000)]
(folder / "many.json").write_text(json.dumps({"id": "many", "name": "M", "claims": claims}))
del claims"""
    ),
}
ISSUE_29 = {
    **{
        name: PIPELINE.format(setup=f"URL = {url!r}\nBODY = ({body}).encode()")
        for name, (url, body) in NESTING.items()
    },
    **PROFILE_CASES,
}

FETCH = """
import os
from ingest.fetch.client import fetch, make_client
from ingest.settings import Settings
def run():
    settings = Settings()
    try:
        with make_client(settings) as client:
            fetch(client, os.environ["BENCH_URL"], settings=settings)
    except Exception as exc:
        return str(exc)[:160]
    return "fetched"
"""


def child(setup: str, env: dict[str, str]) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as home:
        full = {k: v for k, v in os.environ.items() if not k.startswith("INGEST_")}
        full.update(INGEST_HOME=f"{home}/home", INGEST_PROFILES_DIR=home, **env)
        done = subprocess.run(
            [sys.executable, "-c", CHILD.format(setup=setup)],
            cwd=ROOT, env=full, capture_output=True, text=True, timeout=900,
        )  # fmt: skip
    if done.returncode:
        return {"error": done.stderr[-500:]}
    report: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    bomb(2)
    rows = []
    with HostileServer() as server:
        fetches = {
            "bomb_gzip_gzip_1mib": {"INGEST_MAX_BYTES": str(1 << 20), "BENCH_URL": "/bomb/2"},
            "bomb_gzip_gzip_50mb": {"BENCH_URL": "/bomb/2"},
            "trickle_timeout_3": {"INGEST_HTTP_TIMEOUT": "3", "BENCH_URL": "/trickle"},
        }
        for name, env in fetches.items():
            env = {**env, "INGEST_ALLOW_PRIVATE": "1", "BENCH_URL": server.base + env["BENCH_URL"]}
            rows.append((name, child(FETCH, env)))
        for name, setup in {**CASES, **ISSUE_29}.items():
            rows.append((name, child(setup, {})))
    for name, report in rows:
        if args.json:
            print(json.dumps({"case": name, **report}))
        elif "error" in report:
            print(f"{name:24} ERROR {report['error']}")
        else:
            result = json.dumps(report["result"])[:110]
            print(
                f"{name:24} peak {report['peak_mb']:7.1f} MB  wall {report['wall']:6.2f} s  "
                f"cpu {report['cpu']:6.2f} s  {result}"
            )


if __name__ == "__main__":
    main()
