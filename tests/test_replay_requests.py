"""The replay archive through `requests`, as the arxiv package uses it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ingest.fetch.replay import ReplayArchive, record
from ingest.fetch.replay_requests import replay_session


def test_requests_session_is_served_from_the_archive(tmp_path: Path) -> None:
    url = "https://export.arxiv.org/api/query?id_list=1&start=0"
    record(
        tmp_path,
        url,
        date(2020, 1, 1),
        b"<feed>old</feed>",
        {"content-type": "application/atom+xml"},
        "test",
    )
    record(
        tmp_path,
        url,
        date(2021, 1, 1),
        b"<feed>new</feed>",
        {"content-type": "application/atom+xml"},
        "test",
    )
    archive = ReplayArchive.load(tmp_path)
    assert replay_session(archive).get(url).content == b"<feed>new</feed>"
    old = replay_session(archive, date(2020, 6, 1)).get(url)
    assert old.status_code == 200 and old.content == b"<feed>old</feed>"
    assert old.headers["content-type"] == "application/atom+xml"
    miss = replay_session(archive).get("https://export.arxiv.org/api/query?id_list=2")
    assert miss.status_code == 404 and miss.headers["x-ingest-replay"] == "miss"
    before = replay_session(archive, date(2019, 1, 1)).get(url)
    assert before.status_code == 404
