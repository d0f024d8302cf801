"""ArxivClient driving the REAL arxiv package against a loopback arXiv (tests/arxiv_loopback.py)."""

from __future__ import annotations

import pickle
import re
import threading
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import arxiv
import pytest
import requests

from ingest.errors import FetchError, HTTPStatusError, ReplayMissError, ResponseTooLargeError
from ingest.fetch.arxiv_client import (
    ArxivClient,
    author_query,
    normalize_id,
    split_version,
)
from ingest.fetch.transient import is_transient
from ingest.settings import Settings
from tests.arxiv_loopback import (
    ArxivLoopback,
    Exchange,
    Params,
    atom_feed,
    id_list_route,
    load_exchanges,
)

EXCHANGES = load_exchanges()
ENTRY = re.compile(rb"<entry>.*?</entry>", re.DOTALL)


class FakeClock:
    """time.monotonic and time.sleep for the politeness delay: sleeping only moves `now`."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture(scope="module")
def server() -> Iterator[ArxivLoopback]:
    with ArxivLoopback() as srv:
        yield srv


@pytest.fixture(autouse=True)
def fresh(server: ArxivLoopback) -> Iterator[None]:
    server.route = None
    server.requests.clear()
    yield
    server.route = None


@pytest.fixture
def settings() -> Settings:
    return Settings(allow_private=True, http_timeout=2.0)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(server: ArxivLoopback, settings: Settings, clock: FakeClock) -> Iterator[ArxivClient]:
    with requests.Session() as session:
        yield ArxivClient(
            settings,
            session=session,
            query_url_format=server.url_format,
            sleep=clock.sleep,
            clock=clock,
        )


def exchange(id_list: str, search_query: str = "") -> Exchange:
    return EXCHANGES[(search_query, id_list)]


def entry_of(id_list: str) -> bytes:
    match = ENTRY.search(exchange(id_list).body)
    assert match
    return match.group(0)


# --------------------------------------------------------------------------------------------
# ids


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1912.01703", "1912.01703"),
        (" 1912.01703v2 ", "1912.01703v2"),
        ("arXiv:1912.01703", "1912.01703"),
        ("ARXIV: 1912.01703", "1912.01703"),
        ("https://arxiv.org/abs/1912.01703v1", "1912.01703v1"),
        ("http://export.arxiv.org/abs/1912.01703", "1912.01703"),
        ("https://arxiv.org/pdf/1912.01703v1", "1912.01703v1"),
        ("https://arxiv.org/pdf/1912.01703v1.pdf", "1912.01703v1"),
        ("https://www.arxiv.org/abs/1912.01703/", "1912.01703"),
        ("https://arxiv.org/abs/1912.01703?context=cs#x", "1912.01703"),
        ("quant-ph/0201082v1", "quant-ph/0201082v1"),
        ("arXiv:math.AG/0601001", "math.AG/0601001"),
        ("https://arxiv.org/abs/astro-ph/0601001", "astro-ph/0601001"),
        ("abc", "abc"),  # not an id: sent as is, arXiv says why it is wrong
    ],
)
def test_normalize_id(raw: str, expected: str) -> None:
    assert normalize_id(raw) == expected


def test_split_version() -> None:
    assert split_version("1707.08567v12") == ("1707.08567", "v12")
    assert split_version("1707.08567") == ("1707.08567", None)
    assert split_version("quant-ph/0201082v1") == ("quant-ph/0201082", "v1")
    assert split_version("abc") == ("abc", None)


def test_author_query_is_safe() -> None:
    assert author_query("Alban Desmaison") == 'au:"Alban Desmaison"'
    assert author_query("  Zoë   O'Brien-Smith ") == 'au:"Zoë O\'Brien-Smith"'
    assert author_query('A" OR au:"B\\') == 'au:"A OR au: B"'
    assert author_query("Jose\u0301") == 'au:"José"'  # NFC
    with pytest.raises(ValueError):
        author_query(' " ')


# --------------------------------------------------------------------------------------------
# the recorded exchanges, through the real arxiv package


@pytest.mark.parametrize("key", sorted(k for k in EXCHANGES if k[1] and k[1] != "abc"))
def test_every_recorded_id_exchange_is_served_and_kept(
    key: tuple[str, str], client: ArxivClient, server: ArxivLoopback
) -> None:
    recorded = EXCHANGES[key]
    batch = client.fetch_ids(key[1].split(","))
    [page] = batch.pages
    assert page.status == 200 and page.body == recorded.body  # the exact bytes
    assert page.headers["content-type"].startswith("application/atom+xml")
    # the same URL arXiv was asked, on another host: deterministic, so replayable
    assert page.url.split("?", 1)[1] == recorded.url.split("?", 1)[1]
    assert page.to_snapshot().body == recorded.body
    assert len(server.requests) == 1


def test_recorded_search_exchange(server: ArxivLoopback, settings: Settings) -> None:
    recorded = exchange("", "testing")
    with ArxivClient(settings, query_url_format=server.url_format, batch_size=10) as client:
        found = client.search("testing", max_results=10)
    assert len(found.results) == 10
    assert found.results[0].get_short_id() == "2202.12139v1"
    [page] = found.pages
    assert page.url.split("?", 1)[1] == recorded.url.split("?", 1)[1]
    assert page.body == recorded.body


def test_single_id(client: ArxivClient) -> None:
    batch = client.fetch_ids(["arXiv:1605.08386"])
    result = batch.results["1605.08386"]
    assert batch.results["1605.08386v1"] is result
    assert result.title == "Heat-bath random walks with Markov bases"
    assert result.pdf_url == "https://arxiv.org/pdf/1605.08386v1"
    assert batch.missing == [] and batch.requested == ["1605.08386"]
    assert batch.results["arXiv:1605.08386"] is result  # the form the caller passed


def test_two_ids_one_unknown(client: ArxivClient, server: ArxivLoopback) -> None:
    batch = client.fetch_ids(["https://arxiv.org/abs/1707.08567", "0808.05394", "1707.08567"])
    assert batch.requested == ["0808.05394", "1707.08567"]  # de-duplicated, sorted
    assert batch.missing == ["0808.05394"]
    assert batch.results["1707.08567"].get_short_id() == "1707.08567v1"
    assert server.requests[0][1]["id_list"] == "0808.05394,1707.08567"


def test_results_out_of_order_are_indexed_by_id(client: ArxivClient, server: ArxivLoopback):
    entries = entry_of("1707.08567") + entry_of("1605.08386")  # not the order asked
    body = atom_feed([]).replace(b"<opensearch:totalResults>0", b"<opensearch:totalResults>2")
    body = body.replace(b"</feed>", entries + b"</feed>")
    server.route = lambda params: (200, {}, body)
    batch = client.fetch_ids(["1707.08567", "1605.08386"])
    assert batch.results["1605.08386"].title == "Heat-bath random walks with Markov bases"
    assert batch.results["1707.08567"].title.startswith("Proceedings of Workshop AEW10")
    assert batch.missing == []


def test_versioned_id(client: ArxivClient) -> None:
    batch = client.fetch_ids(["https://arxiv.org/pdf/2104.12255v1"])
    assert batch.results["2104.12255v1"] is batch.results["2104.12255"]
    assert batch.missing == []


def test_old_style_ids(server: ArxivLoopback, settings: Settings, clock: FakeClock) -> None:
    client = ArxivClient(  # one id a request: the two recordings were made one id at a time
        settings, query_url_format=server.url_format, batch_size=1, sleep=clock.sleep, clock=clock
    )
    batch = client.fetch_ids(["quant-ph/0201082v1", "https://arxiv.org/abs/astro-ph/0601001"])
    assert batch.requested == ["astro-ph/0601001", "quant-ph/0201082v1"]
    assert len(batch.pages) == 2 and clock.sleeps == [3.0]
    assert batch.results["quant-ph/0201082"].get_short_id() == "quant-ph/0201082v1"
    astro = batch.results["astro-ph/0601001v1"]
    assert astro.authors[0].affiliation == ["Ohio State"]
    assert batch.missing == []


def test_old_style_ids_in_one_batch(client: ArxivClient, server: ArxivLoopback) -> None:
    def route(params: Params) -> tuple[int, dict[str, str], bytes]:
        assert params["id_list"] == "astro-ph/0601001,quant-ph/0201082v1"
        entries = entry_of("quant-ph/0201082v1") + entry_of("astro-ph/0601001")
        body = atom_feed([], total=2).replace(b"</feed>", entries + b"</feed>")
        return 200, {}, body

    server.route = route
    batch = client.fetch_ids(["quant-ph/0201082v1", "astro-ph/0601001"])
    assert len(batch.pages) == 1 and batch.missing == []
    assert set(batch.results) >= {"astro-ph/0601001", "quant-ph/0201082v1", "quant-ph/0201082"}


def test_unknown_id_is_missing_not_an_error(client: ArxivClient) -> None:
    batch = client.fetch_ids(["0000.0000"])
    assert batch.results == {}
    assert batch.missing == ["0000.0000"]
    assert len(batch.pages) == 1 and batch.pages[0].status == 200


def test_no_ids_no_request(client: ArxivClient, server: ArxivLoopback) -> None:
    assert client.fetch_ids(["", "  "]).pages == []
    assert server.requests == []


def test_sends_our_user_agent(client: ArxivClient, server: ArxivLoopback, settings) -> None:
    client.fetch_ids(["1605.08386"])
    headers = {k.lower(): v for k, v in server.requests[0][2].items()}
    assert headers["user-agent"] == settings.user_agent
    assert "arxiv.py" not in headers["user-agent"]


# --------------------------------------------------------------------------------------------
# errors


def test_http_400_is_a_clear_permanent_error(client: ArxivClient) -> None:
    with pytest.raises(HTTPStatusError) as info:
        client.fetch_ids(["abc"])
    err = info.value
    assert err.status == 400
    assert "incorrect id format for abc" in str(err)
    assert "id_list=abc" in err.url and err.url in str(err)
    assert err.transient is False and not is_transient(err)
    assert isinstance(err.__cause__, arxiv.HTTPError)  # translated, not leaked


def test_http_503_is_transient_with_retry_after(client: ArxivClient, server) -> None:
    server.route = lambda params: (503, {"Retry-After": "7"}, b"busy")
    with pytest.raises(HTTPStatusError) as info:
        client.fetch_ids(["1605.08386"])
    err = info.value
    assert err.status == 503 and err.transient is True and is_transient(err)
    assert err.retry_after == 7.0
    assert not isinstance(err, arxiv.ArxivError)
    again = pickle.loads(pickle.dumps(err))  # Prefect moves errors between processes
    assert type(again) is HTTPStatusError and again.fields == err.fields
    assert len(server.requests) == 1  # num_retries=0: the caller owns the retry


def test_http_429_is_transient(client: ArxivClient, server) -> None:
    server.route = lambda params: (429, {}, b"slow down")
    with pytest.raises(HTTPStatusError) as info:
        client.search_author("Alban Desmaison")
    assert info.value.transient is True


def test_stalled_server_times_out(server: ArxivLoopback) -> None:
    release = threading.Event()

    def stall(params: Params) -> tuple[int, dict[str, str], bytes]:
        release.wait(5)
        return 200, {}, atom_feed([])

    server.route = stall
    settings = Settings(allow_private=True, http_timeout=0.3)
    started = time.monotonic()
    try:
        with (
            ArxivClient(settings, query_url_format=server.url_format) as client,
            pytest.raises(FetchError) as info,
        ):
            client.fetch_ids(["1605.08386"])
    finally:
        release.set()
    assert time.monotonic() - started < 2.0
    assert "timed out waiting for 127.0.0.1:" in str(info.value) and "after 0.3s" in str(info.value)
    assert info.value.transient is True and is_transient(info.value)


def test_stall_in_the_middle_of_the_body_times_out(server: ArxivLoopback) -> None:
    body = atom_feed(["1605.08386"])
    server.route = lambda params: (200, {}, [(0.0, body[:100]), (1.5, body[100:])])
    settings = Settings(allow_private=True, http_timeout=0.3)
    with (
        ArxivClient(settings, query_url_format=server.url_format) as client,
        pytest.raises(
            FetchError, match=r"timed out waiting for 127\.0\.0\.1:\d+ to answer, after 0\.3s"
        ) as info,
    ):
        client.fetch_ids(["1605.08386"])
    assert info.value.transient is True


def test_trickling_server_hits_the_overall_deadline(server: ArxivLoopback) -> None:
    body = atom_feed(["1605.08386"])
    pieces = [(0.05, body[i : i + 40]) for i in range(0, len(body), 40)]  # ~0.05 s apart
    assert len(pieces) * 0.05 > 0.5  # each read is fast; the whole body is not
    server.route = lambda params: (200, {}, pieces)
    settings = Settings(allow_private=True, http_timeout=0.5)
    started = time.monotonic()
    with (
        ArxivClient(settings, query_url_format=server.url_format) as client,
        pytest.raises(FetchError, match="reading the body") as info,
    ):
        client.fetch_ids(["1605.08386"])
    assert time.monotonic() - started < 1.5
    assert info.value.transient is True


def test_a_long_trickle_is_cut_at_the_deadline_not_after_a_whole_chunk(
    server: ArxivLoopback,
) -> None:
    """A read of a 64 KiB chunk waits for 64 KiB: 40 bytes every 0.05 s would take 80 s for the
    first one. The body is read as it arrives, so the deadline cuts it within a read timeout."""
    pieces = [(0.05, b"x" * 40)] * 2_000  # 80 kB over 100 s
    server.route = lambda params: (200, {}, pieces)
    settings = Settings(allow_private=True, http_timeout=0.5)
    started = time.monotonic()
    with (
        ArxivClient(settings, query_url_format=server.url_format) as client,
        pytest.raises(FetchError, match="reading the body"),
    ):
        client.fetch_ids(["1605.08386"])
    assert time.monotonic() - started < 5


def test_a_gzip_of_gzip_bomb_is_refused_at_the_cap(server: ArxivLoopback) -> None:
    import gzip
    import io
    import resource

    inner = io.BytesIO()
    with gzip.GzipFile(fileobj=inner, mode="wb", compresslevel=9) as packing:
        for _ in range(200):  # 200 MB of zeros, made a megabyte at a time
            packing.write(bytes(1_000_000))
    bomb = gzip.compress(inner.getvalue(), 9)  # ~1 kB on the wire
    server.route = lambda params: (200, {"Content-Encoding": "gzip, gzip"}, bomb)
    settings = Settings(allow_private=True, max_bytes=1_000_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with (
        ArxivClient(settings, query_url_format=server.url_format) as client,
        pytest.raises(ResponseTooLargeError),
    ):
        client.fetch_ids(["1605.08386"])
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 100_000  # decoded a piece at a time: far from the 200 MB inside


def test_body_larger_than_max_bytes_is_refused(server: ArxivLoopback) -> None:
    server.route = id_list_route
    settings = Settings(allow_private=True, http_timeout=2.0, max_bytes=500)
    with (
        ArxivClient(settings, query_url_format=server.url_format) as client,
        pytest.raises(ResponseTooLargeError),
    ):
        client.fetch_ids(["1605.08386", "1707.08567"])


def test_connection_refused_is_transient(settings: Settings) -> None:
    with ArxivLoopback() as closed:
        url_format = closed.url_format
    with (
        ArxivClient(settings, query_url_format=url_format) as client,
        pytest.raises(FetchError) as info,
    ):
        client.fetch_ids(["1605.08386"])
    assert "connection refused by 127.0.0.1:" in str(info.value) and info.value.transient is True


def test_short_page_is_transient(client: ArxivClient, server: ArxivLoopback) -> None:
    server.route = lambda params: (200, {}, atom_feed(["1605.08386"], total=2))
    with pytest.raises(FetchError) as info:
        client.fetch_ids(["1605.08386", "1707.08567"])
    err = info.value
    assert err.transient is True and is_transient(err)
    assert "short page: 1 entries where 2 were expected" in str(err)
    assert len(server.requests) == 1  # no follow-up page asked for the rest


def test_empty_later_page_is_transient(server: ArxivLoopback, settings, clock) -> None:
    def route(params: Params) -> tuple[int, dict[str, str], bytes]:
        start = int(params["start"])
        ids = [f"2101.{n:05d}" for n in range(start, start + 10)] if start == 0 else []
        return 200, {}, atom_feed(ids, total=20, start=start)

    server.route = route
    client = ArxivClient(
        settings, query_url_format=server.url_format, batch_size=10, sleep=clock.sleep, clock=clock
    )
    with pytest.raises(FetchError, match="short page: 0 entries where 10") as info:
        client.search("ti:x", max_results=20)
    assert info.value.transient is True
    assert not isinstance(info.value, arxiv.ArxivError)
    client.close()


def test_unreadable_feed_is_transient(client: ArxivClient, server) -> None:
    server.route = lambda params: (200, {}, atom_feed(["1605.08386"])[:300])
    with pytest.raises(FetchError, match="unreadable Atom feed") as info:
        client.fetch_ids(["1605.08386"])
    assert info.value.transient is True


def test_replay_miss_is_reported_as_such(tmp_path: Path, settings: Settings, clock) -> None:
    from ingest.fetch.replay import ReplayArchive, record
    from ingest.fetch.replay_requests import replay_session

    recorded = exchange("1605.08386")
    record(tmp_path, recorded.url, date(2026, 4, 12), recorded.body,
           {"content-type": "application/atom+xml"}, "test")  # fmt: skip
    archive = ReplayArchive.load(tmp_path)
    session = replay_session(archive, date(2026, 5, 1))
    with ArxivClient(settings, session=session, sleep=clock.sleep, clock=clock) as client:
        batch = client.fetch_ids(["1605.08386"])  # the default URL format: the recorded URL
        assert batch.pages[0].url == recorded.url and batch.missing == []
        with pytest.raises(ReplayMissError):
            client.fetch_ids(["1707.08567"])


# --------------------------------------------------------------------------------------------
# politeness and batching


def test_politeness_delay_across_calls(client: ArxivClient, clock: FakeClock) -> None:
    client.fetch_ids(["1605.08386"])
    assert clock.sleeps == []
    client.fetch_ids(["1707.08567"])  # another call, straight after: waits the full 3 s
    assert clock.sleeps == [3.0]
    clock.now += 1.0  # the caller did something else for a second
    client.fetch_ids(["0000.0000"])
    assert clock.sleeps == [3.0, 2.0]
    clock.now += 10.0
    client.fetch_ids(["2104.12255v1"])
    assert clock.sleeps == [3.0, 2.0]


def test_politeness_delay_with_the_real_clock(server: ArxivLoopback, settings) -> None:
    with ArxivClient(settings, query_url_format=server.url_format, delay_seconds=0.2) as client:
        started = time.monotonic()
        client.fetch_ids(["1605.08386"])
        client.fetch_ids(["1707.08567"])
    assert time.monotonic() - started >= 0.2


def test_thousand_ids_make_exactly_ten_requests(
    client: ArxivClient, server: ArxivLoopback, clock: FakeClock
) -> None:
    server.route = id_list_route
    ids = [f"2101.{n:05d}" for n in range(1000)][::-1]  # given in reverse: sorted before batching
    batch = client.fetch_ids(ids)
    assert len(server.requests) == 10 == len(batch.pages) == client.request_count
    sent = [params["id_list"].split(",") for _, params, _ in server.requests]
    assert all(len(chunk) == 100 for chunk in sent)
    assert [i for chunk in sent for i in chunk] == sorted(ids)
    assert all(params["max_results"] == "100" for _, params, _ in server.requests)
    assert batch.missing == []
    assert all(i in batch.results and f"{i}v1" in batch.results for i in ids)
    assert clock.sleeps == [3.0] * 9


def test_search_author_pages_politely(server: ArxivLoopback, settings, clock) -> None:
    seen: list[Params] = []

    def route(params: Params) -> tuple[int, dict[str, str], bytes]:
        seen.append(params)
        start, size = int(params["start"]), int(params["max_results"])
        ids = [f"2101.{n:05d}" for n in range(start, min(start + size, 25))]
        return 200, {}, atom_feed(ids, total=25, start=start)

    server.route = route
    client = ArxivClient(
        settings, query_url_format=server.url_format, batch_size=10, sleep=clock.sleep, clock=clock
    )
    found = client.search_author("Zoë O'Brien-Smith", max_results=25)
    assert found.query == 'au:"Zoë O\'Brien-Smith"'
    assert [p["search_query"] for p in seen] == [found.query] * 3
    assert [p["start"] for p in seen] == ["0", "10", "20"]
    assert len(found.results) == 25 and len(found.pages) == 3
    assert clock.sleeps == [3.0, 3.0]
    client.close()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        ArxivClient(Settings(), batch_size=0)
    with pytest.raises(ValueError):
        ArxivClient(Settings(), delay_seconds=-1)


def test_the_politeness_delay_is_the_arxiv_delay_setting() -> None:
    with ArxivClient(Settings(arxiv_delay=4.5)) as client:
        assert client.delay_seconds == 4.5
    with ArxivClient(Settings(arxiv_delay=4.5), delay_seconds=0.0) as replayed:
        assert replayed.delay_seconds == 0.0
    with pytest.raises(ValueError, match="must not be negative"):
        ArxivClient(Settings(), delay_seconds=-1.0)
