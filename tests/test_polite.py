"""PoliteFetcher against real HTTP servers on 127.0.0.1 (started here; no internet).

Each test scripts its server: a path answers with its replies in order, the last one repeating.
Time is fake (a clock that moves only when the fetcher sleeps) except where threads must really
overlap.
"""

from __future__ import annotations

import pickle
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler

import httpx
import pytest

from ingest.errors import FetchError, HTTPStatusError, RobotsDisallowedError
from ingest.fetch.client import make_client
from ingest.fetch.polite import PoliteFetcher, product_token
from ingest.fetch.transient import is_transient
from ingest.settings import Settings

from .loopback import LoopbackServer


@dataclass
class Reply:
    status: int = 200
    body: bytes = b"ok\n"
    headers: dict[str, str] | None = None
    hold: float = 0.0  # seconds to wait before answering
    gate: threading.Event | None = None  # answer only once this is set


class Handler(BaseHTTPRequestHandler):
    server: ScriptedServer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:
        srv = self.server
        with srv.lock:
            srv.log.append(self.path)
            replies = srv.routes.get(self.path, [Reply(404, b"no such route")])
            reply = replies.pop(0) if len(replies) > 1 else replies[0]
            srv.in_flight += 1
            srv.most_in_flight = max(srv.most_in_flight, srv.in_flight)
        counted = [True]

        def done() -> None:
            with srv.lock:
                if counted[0]:
                    srv.in_flight -= 1
                    counted[0] = False

        try:
            if reply.gate is not None:
                reply.gate.wait(10)
            time.sleep(reply.hold)
            self.send_response(reply.status)
            for key, value in {"Content-Type": "text/plain", **(reply.headers or {})}.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            done()  # before the body: the client cannot finish (and send again) until it has it
            self.wfile.write(reply.body)
        except OSError:
            pass  # the client gave up (a timeout test)
        finally:
            done()


class ScriptedServer(LoopbackServer):
    def __init__(self) -> None:
        super().__init__(Handler, poll_interval=0.05)
        self.routes: dict[str, list[Reply]] = {}
        self.log: list[str] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.most_in_flight = 0

    def url(self, path: str) -> str:
        return self.base + path

    def robots(self, text: str | None, status: int = 200) -> None:
        self.routes["/robots.txt"] = [Reply(status, (text or "").encode())]


def _serve() -> Iterator[ScriptedServer]:
    with ScriptedServer() as srv:
        yield srv


server = pytest.fixture(_serve)
other_server = pytest.fixture(_serve)


class FakeTime:
    """A monotonic clock that only moves when someone sleeps; every sleep is recorded."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []
        self._lock = threading.Lock()

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.sleeps.append(seconds)
            self.now += seconds


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


@pytest.fixture
def make(fake: FakeTime) -> Iterator[Callable[..., PoliteFetcher]]:
    """make(robots=..., rand=..., real_time=..., **settings) -> a fetcher on a fresh client."""
    clients: list[httpx.Client] = []

    def build(
        *, robots: bool = True, rand: Callable[[], float] = lambda: 1.0, real_time: bool = False,
        **overrides: object,
    ) -> PoliteFetcher:  # fmt: skip
        options: dict[str, object] = {"allow_private": True, "http_timeout": 2.0, "host_delay": 0.0}
        settings = Settings(**{**options, **overrides})  # type: ignore[arg-type]
        clients.append(make_client(settings))
        if real_time:
            return PoliteFetcher(clients[-1], settings, robots=robots, rand=rand)
        return PoliteFetcher(
            clients[-1], settings, sleep=fake.sleep, clock=fake.clock, robots=robots, rand=rand
        )

    yield build
    for client in clients:
        client.close()


# robots.txt


def test_disallowed_url_is_refused_before_it_is_requested(server: ScriptedServer, make) -> None:
    server.robots("User-agent: *\nDisallow: /private\n")
    server.routes["/public"] = [Reply()]
    fetcher = make()
    with pytest.raises(RobotsDisallowedError) as caught:
        fetcher.fetch(server.url("/private/page"))
    err = caught.value
    assert err.url == server.url("/private/page")
    assert err.rule == "Disallow: /private"
    assert err.robots_url == server.url("/robots.txt")
    assert err.user_agent == "ingest"
    assert err.attempts == 0
    assert "disallows it for user agent 'ingest' (rule 'Disallow: /private')" in str(err)
    assert not is_transient(err)
    assert server.log == ["/robots.txt"]  # the page itself was never requested
    assert fetcher.fetch(server.url("/public")).http_status == 200  # allowed, and requested
    assert server.log == ["/robots.txt", "/public"]


def test_our_own_group_is_used_by_product_token(server: ScriptedServer, make) -> None:
    server.robots("User-agent: ingest\nDisallow: /mine\n\nUser-agent: *\nDisallow: /\n")
    server.routes["/page"] = [Reply()]
    fetcher = make()
    assert fetcher.fetch(server.url("/page")).status == "fetched"
    with pytest.raises(RobotsDisallowedError):
        fetcher.fetch(server.url("/mine"))


def test_robots_404_allows_everything(server: ScriptedServer, make) -> None:
    server.robots("gone", status=404)
    server.routes["/page"] = [Reply()]
    assert make().fetch(server.url("/page")).status == "fetched"
    assert server.log == ["/robots.txt", "/page"]


def test_robots_500_refuses_the_host_as_transient(server: ScriptedServer, make) -> None:
    server.robots("broken", status=500)
    fetcher = make(max_attempts=2)
    for _ in range(2):
        with pytest.raises(FetchError) as caught:
            fetcher.fetch(server.url("/page"))
        err = caught.value
        assert is_transient(err)
        assert err.url == server.url("/page")
        assert err.robots_url == server.url("/robots.txt")
        assert "HTTP 500 (Internal Server Error) for the host's robots.txt" in str(err)
        assert err.attempts == 0
    # robots.txt was tried max_attempts times, once; the page was never requested
    assert server.log == ["/robots.txt", "/robots.txt"]


def test_robots_fetched_once_for_many_pages_and_threads(server: ScriptedServer, make) -> None:
    server.robots("User-agent: *\nDisallow: /private\n")
    server.routes["/robots.txt"][0].hold = 0.2  # threads pile up behind the first fetch
    for n in range(8):
        server.routes[f"/p{n}"] = [Reply()]
    fetcher = make(host_concurrency=8)
    threads = [
        threading.Thread(target=fetcher.fetch, args=(server.url(f"/p{n}"),)) for n in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert server.log.count("/robots.txt") == 1
    assert sorted(server.log[1:]) == [f"/p{n}" for n in range(8)]


def test_crawl_delay_raises_the_host_delay(server: ScriptedServer, make, fake: FakeTime) -> None:
    server.robots("User-agent: *\nCrawl-delay: 5\n")
    server.routes["/a"] = [Reply()]
    fetcher = make(host_delay=1.0)
    fetcher.fetch(server.url("/a"))
    fetcher.fetch(server.url("/a"))
    assert fake.sleeps == [1.0, 5.0]  # robots.txt at 0 (delay still 1), pages at 1 and 6


# retries


def test_503_with_retry_after_is_retried_after_that_long(
    server: ScriptedServer, make, fake: FakeTime
) -> None:
    server.routes["/p"] = [Reply(503, b"busy", {"Retry-After": "2"}), Reply()]
    assert make(robots=False).fetch(server.url("/p")).status == "fetched"
    assert fake.sleeps == [2.0]
    assert server.log == ["/p", "/p"]


def test_429_then_200_backs_off_with_jitter(server: ScriptedServer, make, fake: FakeTime) -> None:
    server.routes["/p"] = [Reply(429, b"slow down"), Reply()]
    assert make(robots=False, rand=lambda: 0.25).fetch(server.url("/p")).http_status == 200
    assert fake.sleeps == [0.25]  # full jitter: random() * BACKOFF_BASE


def test_503_three_times_gives_up_with_attempts(
    server: ScriptedServer, make, fake: FakeTime
) -> None:
    server.routes["/p"] = [Reply(503, b"busy")]
    with pytest.raises(HTTPStatusError) as caught:
        make(robots=False).fetch(server.url("/p"))
    err = caught.value
    assert (err.status, err.attempts, err.url) == (503, 3, server.url("/p"))
    assert "gave up after 3 attempts" in str(err)
    assert is_transient(err)
    assert fake.sleeps == [1.0, 2.0]  # exponential: up to 1 s, then up to 2 s
    assert server.log == ["/p"] * 3
    copy = pickle.loads(pickle.dumps(err))  # Prefect moves errors between processes
    assert (type(copy), copy.status, copy.attempts, str(copy)) == (
        HTTPStatusError, 503, 3, str(err),
    )  # fmt: skip


def test_404_is_not_retried(server: ScriptedServer, make, fake: FakeTime) -> None:
    with pytest.raises(HTTPStatusError) as caught:
        make(robots=False).fetch(server.url("/missing"))
    assert (caught.value.status, caught.value.attempts) == (404, 1)
    assert fake.sleeps == []
    assert server.log == ["/missing"]


def test_timeout_then_success(server: ScriptedServer, make) -> None:
    server.routes["/slow"] = [Reply(hold=1.5), Reply()]
    result = make(robots=False, http_timeout=0.3).fetch(server.url("/slow"))
    assert result.http_status == 200
    assert server.log == ["/slow", "/slow"]


def test_too_long_retry_after_gives_up_and_pauses_the_host(
    server: ScriptedServer, make, fake: FakeTime
) -> None:
    server.routes["/p"] = [Reply(503, b"busy", {"Retry-After": "200"})]
    fetcher = make(robots=False, max_retry_after=120.0)
    with pytest.raises(HTTPStatusError) as caught:
        fetcher.fetch(server.url("/p"))
    assert (caught.value.attempts, caught.value.retry_after) == (1, 200.0)
    with pytest.raises(FetchError, match="asked for a pause") as paused:
        fetcher.fetch(server.url("/other"))  # the host is left alone until then
    assert is_transient(paused.value) and paused.value.attempts == 0
    assert server.log == ["/p"]
    assert fake.sleeps == []


def test_a_retry_after_past_a_raised_limit_is_not_shortened(
    server: ScriptedServer, make, fake: FakeTime
) -> None:
    """INGEST_MAX_RETRY_AFTER=600 and `Retry-After: 3600`: give up, do not wait 300 s and ask
    again early (a second copy of the limit, 300 s, once cut the server's answer short)."""
    server.routes["/p"] = [Reply(503, b"busy", {"Retry-After": "3600"}), Reply()]
    fetcher = make(robots=False, max_retry_after=600.0, source_deadline=10_000.0)
    with pytest.raises(HTTPStatusError) as caught:
        fetcher.fetch(server.url("/p"))
    assert (caught.value.attempts, caught.value.retry_after) == (1, 3600.0)
    assert server.log == ["/p"] and fake.sleeps == []


def test_source_deadline_stops_a_backoff_that_would_pass_it(
    server: ScriptedServer, make, fake: FakeTime
) -> None:
    server.routes["/p"] = [Reply(503, b"busy")]
    with pytest.raises(HTTPStatusError) as caught:
        make(robots=False, max_attempts=10, source_deadline=2.5).fetch(server.url("/p"))
    err = caught.value
    assert (err.status, err.attempts, err.deadline) == (503, 2, "INGEST_SOURCE_DEADLINE=2.5 s")
    assert str(err).endswith(
        "(gave up after 2 attempts: the next would start past INGEST_SOURCE_DEADLINE=2.5 s)"
    )
    assert is_transient(err)
    assert fake.sleeps == [1.0]  # the next backoff, up to 2 s, would end at 3 s
    assert server.log == ["/p"] * 2
    assert pickle.loads(pickle.dumps(err)).deadline == err.deadline


def test_source_deadline_stops_a_retry_after_pause_that_would_pass_it(
    server: ScriptedServer, make, fake: FakeTime
) -> None:
    server.routes["/p"] = [Reply(503, b"busy", {"Retry-After": "5"}), Reply()]
    with pytest.raises(HTTPStatusError) as caught:
        make(robots=False, source_deadline=4.0).fetch(server.url("/p"))
    assert (caught.value.attempts, caught.value.deadline) == (1, "INGEST_SOURCE_DEADLINE=4 s")
    assert "(gave up after 1 attempt: the next would start past" in str(caught.value)
    assert fake.sleeps == []
    assert server.log == ["/p"]


def test_a_stalled_server_is_cut_at_the_fetch_deadline_then_retried(
    server: ScriptedServer, make
) -> None:
    server.routes["/slow"] = [Reply(hold=3.0), Reply()]
    fetcher = make(
        robots=False, rand=lambda: 0.0, http_timeout=2.0, fetch_deadline=0.3, real_time=True
    )
    started = time.monotonic()
    assert fetcher.fetch(server.url("/slow")).http_status == 200
    assert time.monotonic() - started < 1.0  # cut at 0.3 s, not after the 2 s read timeout
    assert server.log == ["/slow", "/slow"]


# pacing


def test_requests_to_one_host_start_host_delay_apart(
    server: ScriptedServer, make, fake: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.routes["/a"] = [Reply()]
    fetcher = make(robots=False, host_delay=1.0)
    for _ in range(3):
        fetcher.fetch(server.url("/a"))
    assert fake.sleeps == [1.0, 1.0]
    fake.sleeps.clear()
    slower = make(robots=False, host_delay=1.0, host_delays={"127.0.0.1": 3.0})  # a floor
    for _ in range(3):
        slower.fetch(server.url("/a"))
    assert fake.sleeps == [3.0, 3.0]


def test_other_hosts_are_not_held_up(
    server: ScriptedServer, other_server: ScriptedServer, make
) -> None:
    gate = threading.Event()
    server.routes["/held"] = [Reply(gate=gate)]
    other_server.routes["/b"] = [Reply()]
    fetcher = make(robots=False, real_time=True, host_delay=30.0, host_concurrency=1)
    held = threading.Thread(target=fetcher.fetch, args=(server.url("/held"),))
    held.start()
    while server.in_flight == 0:  # host A: a request in flight, its next turn 30 s away
        time.sleep(0.01)
    started = time.monotonic()
    assert fetcher.fetch(other_server.url("/b")).http_status == 200
    assert time.monotonic() - started < 2.0
    gate.set()
    held.join(10)
    assert server.log == ["/held"] and other_server.log == ["/b"]


def test_host_concurrency_is_respected(server: ScriptedServer, make) -> None:
    server.routes["/p"] = [Reply(hold=0.2)]
    fetcher = make(robots=False, real_time=True, host_concurrency=2)
    threads = [threading.Thread(target=fetcher.fetch, args=(server.url("/p"),)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(server.log) == 6
    assert server.most_in_flight == 2


# small pieces


def test_product_token() -> None:
    assert product_token("ingest/0.1 (AI People Wiki; +mailto:x@example.org)") == "ingest"
    assert product_token("My-Bot") == "my-bot"
    assert product_token("") == "*"


def test_robots_error_survives_pickling() -> None:
    err = RobotsDisallowedError("http://h/x", "http://h/robots.txt", "Disallow: /x", "ingest")
    copy = pickle.loads(pickle.dumps(err))
    assert (type(copy), copy.rule, copy.robots_url, str(copy)) == (
        RobotsDisallowedError, "Disallow: /x", "http://h/robots.txt", str(err),
    )  # fmt: skip


# settings: each tunable is read from Settings, one definition each


def test_backoff_follows_its_settings(server: ScriptedServer, make, fake: FakeTime) -> None:
    server.routes["/p"] = [Reply(503, b"busy")]
    with pytest.raises(HTTPStatusError):
        make(robots=False, max_attempts=4, backoff_base=0.5, backoff_cap=1.5).fetch(
            server.url("/p")
        )
    assert fake.sleeps == [0.5, 1.0, 1.5]  # doubling from INGEST_BACKOFF_BASE, capped


def test_an_unreadable_robots_txt_is_asked_again_after_its_ttl(
    server: ScriptedServer, make, fake: FakeTime
) -> None:
    server.routes["/robots.txt"] = [Reply(503, b"busy"), Reply(404, b"none")]
    fetcher = make(max_attempts=1, robots_failure_ttl=30.0)
    with pytest.raises(FetchError, match="for the host's robots.txt"):
        fetcher.fetch(server.url("/page"))
    fake.now += 29.0
    with pytest.raises(FetchError, match="for the host's robots.txt"):
        fetcher.fetch(server.url("/page"))  # still within INGEST_ROBOTS_FAILURE_TTL
    fake.now += 1.0
    server.routes["/page"] = [Reply()]
    assert fetcher.fetch(server.url("/page")).http_status == 200
    assert server.log == ["/robots.txt", "/robots.txt", "/page"]


def test_arxiv_hosts_are_paced_by_the_one_arxiv_delay() -> None:
    settings = Settings(allow_private=True, host_delay=0.0, arxiv_delay=7.0)
    assert settings.host_delay_floor("export.arxiv.org") == 7.0
    assert settings.host_delay_floor("arxiv.org") == 7.0
    assert settings.host_delay_floor("example.org") == 0.0
    fake = FakeTime()

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"%PDF-1.4")

    with make_client(settings, httpx.MockTransport(answer)) as client:
        fetcher = PoliteFetcher(client, settings, sleep=fake.sleep, clock=fake.clock, robots=False)
        for paper in ("1", "2", "3"):
            fetcher.fetch(f"https://arxiv.org/pdf/{paper}")
    assert fake.sleeps == [7.0, 7.0]


# offline is said, not guessed from the transport's type


def test_a_mock_transport_keeps_robots_and_pacing_unless_offline_is_said() -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        return httpx.Response(200, content=b"ok")

    settings = Settings(allow_private=True, host_delay=2.0)
    for offline, expected_paths, expected_sleeps in (
        (False, ["/robots.txt", "/a", "/b"], [2.0, 2.0]),  # robots.txt is paced too
        (True, ["/a", "/b"], []),
    ):
        seen.clear()
        fake = FakeTime()
        with make_client(settings, httpx.MockTransport(answer), offline=offline) as client:
            fetcher = PoliteFetcher(client, settings, sleep=fake.sleep, clock=fake.clock)
            fetcher.fetch("https://example.org/a")
            fetcher.fetch("https://example.org/b")
        assert (seen, fake.sleeps) == (expected_paths, expected_sleeps)
