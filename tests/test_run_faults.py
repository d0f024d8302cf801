"""`ingest run` against a hostile loopback server, through the command line contract only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from ingest.settings import Settings

from .conftest import GOVERNANCE
from .loopback import LoopbackServer, QuietHandler, reply

PAGE = (GOVERNANCE / "persons_of_interest.7f149bc3.md").read_bytes()


class Hostile:
    """/page.md answers the page, then (after `break_page`) an empty 200; /secret is disallowed
    by robots.txt; /login answers a login form."""

    def __init__(self) -> None:
        self.broken = False
        self.requests: list[str] = []
        outer = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                outer.requests.append(self.path)
                if self.path == "/robots.txt":
                    body, kind = b"User-agent: *\nDisallow: /secret\n", "text/plain"
                elif self.path == "/page.md":
                    body, kind = (b"" if outer.broken else PAGE), "text/markdown"
                elif self.path == "/login":
                    body = (
                        b"<html><head><title>Sign in</title></head><body><form>"
                        b"<input type=password name=p></form></body></html>"
                    )
                    kind = "text/html"
                else:
                    body, kind = b"secret", "text/plain"
                reply(self, 200, body, kind)

        self.httpd = LoopbackServer(Handler).start()
        self.base = self.httpd.base


@pytest.fixture
def hostile() -> Iterator[Hostile]:
    server = Hostile()
    yield server
    server.httpd.close()


def run(url: str, *extra: str, private: bool = True) -> tuple[int, dict | None, str]:
    env = dict(os.environ, INGEST_HOST_DELAY="0", INGEST_ARXIV_DELAY="0")
    if private:
        env["INGEST_ALLOW_PRIVATE"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "ingest_cli.cli", "run", url, "--json", *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = json.loads(done.stdout) if done.stdout.strip() else None
    return done.returncode, out, done.stderr


@pytest.mark.prefect
def test_hostile_server_through_the_contract(workspace: Settings, hostile: Hostile) -> None:
    page = f"{hostile.base}/page.md"
    code, good, _ = run(page, "--extractor", "pytorch_governance")
    assert code == 0 and good["status"] == "fetched" and good["claims"] == 258

    hostile.broken = True  # an empty 200 after a good version: an alert, no removals
    code, empty, _ = run(page, "--extractor", "pytorch_governance")
    assert code == 0 and empty["status"] == "fetched" and empty["claims"] == 0
    assert any("layout" in a for a in empty["alerts"])
    assert not [c for c in empty["changes"] if c["kind"] == "removed"]

    code, refused, err = run(f"{hostile.base}/secret")  # robots.txt says no
    assert code == 1 and refused["status"] == "failed"
    assert "robots.txt" in err and f"{hostile.base}/secret" in err
    assert "/secret" not in hostile.requests

    seen = len(hostile.requests)  # a private address without INGEST_ALLOW_PRIVATE
    code, _out, err = run(page, private=False)
    assert code == 1 and "127.0.0.1" in err and len(hostile.requests) == seen
