"""The offline replay archive: picking versions by date, serving them through fetch()."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import httpx
import pytest

from ingest.errors import ConfigError, ReplayMissError
from ingest.fetch.client import fetch, make_client
from ingest.fetch.replay import INDEX_NAME, ReplayArchive, record
from ingest.models import sha256_hex
from ingest.settings import BUNDLED_WEB, Settings

URL = "https://example.org/people.html"
STABLE = "https://docs.pytorch.org/docs/stable/community/persons_of_interest.html"
V213 = "https://docs.pytorch.org/docs/2.13/community/persons_of_interest.html"
V214 = "https://docs.pytorch.org/docs/2.14/community/persons_of_interest.html"
SETTINGS = Settings(allow_private=False)  # replay reaches no network: no address check needed


@pytest.fixture
def archive(tmp_path: Path) -> ReplayArchive:
    html = {"Content-Type": "text/html; charset=utf-8", "Content-Length": "1"}
    record(tmp_path, URL, "2024-01-01", b"<p>v1</p>", html, "first")
    record(tmp_path, URL, date(2025, 1, 1), b"<p>v2</p>", html, "second")
    record(tmp_path, URL, "2026-01-01", b"<p>v3</p>", html, "third")
    return ReplayArchive.load(tmp_path)


def test_versions_are_oldest_first(archive: ReplayArchive) -> None:
    versions = archive.versions(URL)
    assert [v.date.isoformat() for v in versions] == ["2024-01-01", "2025-01-01", "2026-01-01"]
    assert versions[0].note == "first"
    assert versions[0].headers == {"content-type": "text/html; charset=utf-8"}  # no length
    assert archive.versions("https://example.org/other") == []


@pytest.mark.parametrize(
    ("as_of", "body"),
    [
        (date(2024, 1, 1), b"<p>v1</p>"),
        (date(2024, 6, 1), b"<p>v1</p>"),
        (date(2025, 1, 1), b"<p>v2</p>"),
        (date(2025, 12, 31), b"<p>v2</p>"),
        (date(2030, 1, 1), b"<p>v3</p>"),
        (None, b"<p>v3</p>"),
    ],
)
def test_pick_by_as_of(archive: ReplayArchive, as_of: date | None, body: bytes) -> None:
    assert archive.pick(URL, as_of).body() == body


def test_pick_before_the_first_version_misses(archive: ReplayArchive) -> None:
    with pytest.raises(ReplayMissError) as info:
        archive.pick(URL, date(2023, 12, 31))
    assert info.value.url == URL
    assert info.value.as_of == "2023-12-31"


def test_urls_compare_normalised(archive: ReplayArchive) -> None:
    assert archive.pick("HTTPS://Example.ORG:443/people.html#team").body() == b"<p>v3</p>"
    assert archive.urls() == [URL]


def test_record_replaces_the_same_date(tmp_path: Path) -> None:
    record(tmp_path, URL, "2024-01-01", b"old", {}, "")
    record(tmp_path, URL, "2024-01-01", b"new", {}, "fixed")
    archive = ReplayArchive.load(tmp_path)
    assert len(archive) == 1
    assert archive.pick(URL).body() == b"new"
    assert not list(tmp_path.rglob("*.tmp"))


def test_fetch_through_the_transport(archive: ReplayArchive) -> None:
    with make_client(SETTINGS, archive.transport(date(2025, 6, 1))) as client:
        result = fetch(client, URL, settings=SETTINGS)
    assert result.status == "fetched"
    assert result.snapshot is not None
    assert result.snapshot.body == b"<p>v2</p>"
    assert result.snapshot.headers["content-type"] == "text/html; charset=utf-8"
    assert result.snapshot.headers["x-ingest-replay-date"] == "2025-01-01"
    assert result.etag == f'"{sha256_hex(b"<p>v2</p>")}"'


def test_conditional_304_through_the_transport(archive: ReplayArchive) -> None:
    with make_client(SETTINGS, archive.transport(date(2025, 6, 1))) as client:
        first = fetch(client, URL, settings=SETTINGS)
        again = fetch(client, URL, settings=SETTINGS, etag=first.etag)
    with make_client(SETTINGS, archive.transport(date(2026, 6, 1))) as later:
        moved_on = fetch(later, URL, settings=SETTINGS, etag=first.etag)
    assert again.status == "unchanged" and again.snapshot is None and again.http_status == 304
    assert moved_on.status == "fetched"
    assert moved_on.snapshot is not None and moved_on.snapshot.body == b"<p>v3</p>"


def test_head_and_other_methods(archive: ReplayArchive) -> None:
    with httpx.Client(transport=archive.transport()) as client:
        head = client.head(URL)
        post = client.post(URL)
    assert head.status_code == 200 and head.content == b""
    assert post.status_code == 405


def test_miss_becomes_replay_miss_error(archive: ReplayArchive) -> None:
    with make_client(SETTINGS, archive.transport(date(2025, 6, 1))) as client:
        with pytest.raises(ReplayMissError) as info:
            fetch(client, "https://example.org/unknown", settings=SETTINGS)
        assert info.value.as_of == "2025-06-01"
        assert "https://example.org/unknown" in str(info.value)
        with pytest.raises(ReplayMissError):
            fetch(client, "https://example.org/people.html?x=1", settings=SETTINGS)
    early = make_client(SETTINGS, archive.transport(date(2020, 1, 1)))
    with early, pytest.raises(ReplayMissError, match="2020-01-01"):
        fetch(early, URL, settings=SETTINGS)


def test_missing_index_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        ReplayArchive.load(tmp_path)
    assert str(tmp_path / INDEX_NAME) in str(info.value)
    assert "not found" in str(info.value)


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("{not json", "not valid JSON"),
        ('{"items": []}', '"recordings" list'),
        ('{"recordings": [{"url": "https://x/", "file": "a"}]}', 'lacks "date"'),
        ('{"recordings": [{"url": "https://x/", "date": "May 1", "file": "a"}]}', "YYYY-MM-DD"),
        ('{"recordings": [{"url": "https://x/", "date": "2024-01-01", "file": "../a"}]}',
         "outside the archive"),
    ],
)  # fmt: skip
def test_malformed_index_names_the_file(tmp_path: Path, text: str, complaint: str) -> None:
    (tmp_path / INDEX_NAME).write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        ReplayArchive.load(tmp_path)
    assert str(tmp_path / INDEX_NAME) in str(info.value)
    assert complaint in str(info.value)


def test_missing_body_file_names_it(tmp_path: Path) -> None:
    rec = record(tmp_path, URL, "2024-01-01", b"x", {}, "")
    rec.path.unlink()
    with pytest.raises(ConfigError) as info:
        ReplayArchive.load(tmp_path)
    assert str(rec.path) in str(info.value)


# The bundled archive, fixtures/web


@pytest.fixture(scope="module")
def bundled() -> ReplayArchive:
    return ReplayArchive.load(BUNDLED_WEB)


def fetch_bundled(bundled: ReplayArchive, url: str, as_of: date):
    with make_client(SETTINGS, bundled.transport(as_of)) as client:
        return fetch(client, url, settings=SETTINGS)


@pytest.mark.parametrize(
    ("as_of", "final", "marker"),
    [
        (date(2026, 5, 25), V213, b"PyTorch 2.13 documentation"),
        (date(2026, 6, 10), V214, b"PyTorch 2.14 documentation"),
    ],
)
def test_stable_stub_followed_by_as_of(bundled: ReplayArchive, as_of, final, marker) -> None:
    result = fetch_bundled(bundled, STABLE, as_of)
    assert result.final_url == final
    assert result.redirects == [final]
    assert result.snapshot is not None
    assert result.snapshot.url == final
    assert result.snapshot.requested_url == STABLE
    assert marker in result.snapshot.body


def test_stable_url_before_the_stubs_is_the_2_2_page(bundled: ReplayArchive) -> None:
    result = fetch_bundled(bundled, STABLE, date(2025, 1, 1))
    assert result.final_url == STABLE and result.redirects == []
    assert result.snapshot is not None
    assert result.snapshot.body.startswith(b'<article itemprop="articleBody"')


def test_unchanged_page_behind_the_stub_revalidates_to_304(bundled: ReplayArchive) -> None:
    first = fetch_bundled(bundled, STABLE, date(2026, 5, 25))
    with make_client(SETTINGS, bundled.transport(date(2026, 5, 30))) as client:
        result = fetch(
            client, STABLE, settings=SETTINGS, etag=first.etag, validated_url=first.final_url
        )
    assert result.status == "unchanged" and result.snapshot is None
    assert result.final_url == V213 and result.redirects == [V213]


def test_stub_after_a_304_lands_on_the_new_version(bundled: ReplayArchive) -> None:
    first = fetch_bundled(bundled, STABLE, date(2026, 5, 25))
    with make_client(SETTINGS, bundled.transport(date(2026, 6, 10))) as client:
        result = fetch(
            client, STABLE, settings=SETTINGS, etag=first.etag, validated_url=first.final_url
        )
    assert result.status == "fetched" and result.final_url == V214


def test_bundled_index_matches_its_files(bundled: ReplayArchive) -> None:
    index = json.loads((BUNDLED_WEB / INDEX_NAME).read_text(encoding="utf-8"))
    files = {r["file"] for r in index["recordings"]}
    on_disk = {
        p.relative_to(BUNDLED_WEB).as_posix()
        for p in BUNDLED_WEB.rglob("*")
        if p.is_file()
        and p.name
        not in {INDEX_NAME, "README.md", "build.py", "build_arxiv.py", "build_announcements.py"}
        and "__pycache__" not in p.parts
    }
    assert files == on_disk  # no unlisted (unused) fixture, no listed file missing
    assert len(bundled) == 12 + 19 + 8  # the governance versions, then the constructed arXiv seeds
    for entry in index["recordings"]:
        assert entry["note"], entry["url"]
        seeds = any(
            h in entry["url"]
            for h in ("arxiv.org", "pytorch.org/blog", "pytorch.org/feed", "dev-discuss")
        )
        constructed = "constructed" in entry["file"] or entry["url"] in (V213, V214) or seeds
        assert entry["note"].startswith("CONSTRUCTED") == constructed


def test_a_replay_client_is_offline_without_being_told(archive: ReplayArchive) -> None:
    from ingest.fetch.client import client_mode
    from ingest.fetch.polite import PoliteFetcher

    strict = Settings(allow_private=False, host_delay=5.0)  # no DNS, robots or pacing offline
    with make_client(strict, archive.transport(date(2025, 6, 1))) as client:
        assert client_mode(client).offline is True
        slept: list[float] = []
        fetcher = PoliteFetcher(client, strict, sleep=slept.append)
        assert fetcher.fetch(URL).status == "fetched" and fetcher.fetch(URL).status == "fetched"
    assert slept == []
