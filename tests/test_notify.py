"""The webhook: one POST with Slack's JSON when changes were queued; failures noted, not raised."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ingest.pipeline.outcome import SourceOutcome
from ingest.report.notify import message, notify_run
from ingest.report.run import RunReport
from ingest.settings import Settings

from .loopback import LoopbackServer, QuietHandler, reply


class Hook:
    """A loopback webhook: records each POST's body, answers with `status`."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.status = 200
        hook = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                hook.bodies.append(json.loads(self.rfile.read(length)))
                reply(self, hook.status, b"ok")

        self.server = LoopbackServer(Handler)
        self.url = self.server.base + "/hooks/T0/SECRET"


@pytest.fixture
def hook() -> Iterator[Hook]:
    h = Hook()
    with h.server:
        yield h


def _report(changes: int) -> dict[str, Any]:
    return {
        "run_id": "r1",
        "kind": "nightly",
        "counts": {"fetched": 3, "unchanged": 1, "failed": 0, "skipped": 0},
        "flags": {"added": changes} if changes else {},
        "sources": [
            {
                "url": "https://example.org/a",
                "changes": [{"id": str(i), "kind": "added"} for i in range(changes)],
            }
        ],
        "unreachable": [],
        "report_file": "output/reports/2026-06-10.html",
    }


def _settings(url: str | None, allow_private: bool = True) -> Settings:
    return Settings(notify_url=url, allow_private=allow_private)


def test_posts_once_with_slack_json(hook: Hook) -> None:
    with httpx.Client() as client:
        done = notify_run(client, _settings(hook.url), _report(2))
    assert done == {"sent": True, "message": "sent to http://127.0.0.1", "error": None}
    assert hook.bodies == [{"text": message(_report(2))}]
    text = hook.bodies[0]["text"]
    assert "2 new flags tonight (2 added)" in text and "3 fetched" in text


def test_nothing_queued_or_no_url_sends_nothing(hook: Hook) -> None:
    with httpx.Client() as client:
        assert notify_run(client, _settings(hook.url), _report(0)) is None
        assert notify_run(client, _settings(None), _report(2)) is None
    assert hook.bodies == []


def test_a_failing_webhook_is_reported_not_raised(hook: Hook) -> None:
    hook.status = 500
    with httpx.Client() as client:
        done = notify_run(client, _settings(hook.url), _report(1))
    assert done is not None and not done["sent"] and done["error"] == "HTTP 500"
    assert len(hook.bodies) == 1
    hook.server.shutdown()  # and a webhook that is down
    hook.server.server_close()
    with httpx.Client() as client:
        done = notify_run(client, _settings(hook.url), _report(1))
    assert done is not None and not done["sent"] and "ConnectError" in done["error"]
    assert "SECRET" not in done["message"]  # the webhook's token stays out of reports


def test_private_addresses_refused_unless_allowed(hook: Hook) -> None:
    with httpx.Client() as client:
        done = notify_run(client, _settings(hook.url, allow_private=False), _report(1))
        bad = notify_run(client, _settings("file:///etc/passwd"), _report(1))
    assert done is not None and not done["sent"] and "refused" in done["message"]
    assert "loopback" in done["message"] and "SECRET" not in done["message"]
    assert bad is not None and not bad["sent"]
    assert hook.bodies == []


def test_slack_special_characters_are_escaped() -> None:
    report = _report(1)
    report["run_id"] = "<!channel> & co"
    assert "&lt;!channel&gt; &amp; co" in message(report)


def _flag(n: int, kind: str = "added") -> dict[str, Any]:
    claim = {"predicate": "maintainer", "object": f"Project {n}", "qualifiers": {}}
    return {"id": f"c{n}", "profile": "ann", "kind": kind, "claim": claim, "previous": None}


def _rerun(pending_before: set[str]) -> RunReport:
    """A run whose source states three flags, of which `pending_before` were queued already."""
    report = RunReport(run_id="r2", kind="nightly", started="2026-06-11T03:00:00Z")
    flags = [_flag(0), _flag(1), _flag(2, "changed")]
    report.outcomes.append(
        SourceOutcome(url="https://example.org/a", status="unchanged", changes=flags)
    )
    report.pending_before = frozenset(pending_before)
    return report


def test_a_rerun_that_found_nothing_new_says_so_and_sends_nothing(hook: Hook) -> None:
    """The backlog was counted as tonight's: "3 new changes queued" on a re-run that found
    nothing new. New tonight (first queued by this run) and still pending are told apart."""
    old = _rerun({"c0", "c1", "c2"}).to_json()
    assert old["flags"] == {"added": 2, "changed": 1} and old["facts"] == 3  # kept as they were
    assert old["new"] == {"flags": {}, "facts": 0, "changes": 0, "ids": []}
    assert old["still_pending"] == {"flags": {"added": 2, "changed": 1}, "facts": 3, "changes": 3}
    with httpx.Client() as client:
        assert notify_run(client, _settings(hook.url), old) is None
    assert hook.bodies == []

    mixed = _rerun({"c0", "c2"})
    data = mixed.to_json()
    assert data["new"] == {"flags": {"added": 1}, "facts": 1, "changes": 1, "ids": ["c1"]}
    assert data["still_pending"]["facts"] == 2
    with httpx.Client() as client:
        assert notify_run(client, _settings(hook.url), data) is not None
    text = hook.bodies[0]["text"]
    assert "1 new flag tonight (1 added), 2 still pending" in text, text
    md = mixed.markdown()
    assert "| new: added | changed | removed | still pending |" in md
    assert "| 1 | 0 | 0 | 2 |" in md
    assert "(3 facts, 3 changes: 1 new, 2 still pending)" in md
    from ingest.report.html import render_html

    page = render_html(data)
    assert "1 new in this run (first queued by it), 2 still pending from before it." in page
    assert page.count("<td>new</td>") == 1
