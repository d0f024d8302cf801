"""Politeness and the run's only retry layer around `ingest.fetch.client.fetch`.

    PoliteFetcher(client, settings).fetch(url, etag=..., ...) -> FetchResult

    fetch(url)
      ├─ robots.txt of scheme://host:port   fetched once (then every INGEST_ROBOTS_TTL s) with
      │                                     the same client and checks, parsed with protego:
      │     4xx or unusable -> allow all     5xx, 429, unreachable -> refuse (transient)
      │     Disallow matching url -> RobotsDisallowedError, before the page is requested
      │     Crawl-delay -> raises the host's delay (at most INGEST_MAX_CRAWL_DELAY)
      └─ attempt 1..INGEST_MAX_ATTEMPTS, all within INGEST_SOURCE_DEADLINE of the first request
            ├─ wait for one of INGEST_HOST_CONCURRENCY slots of the host, then for its turn:
            │  starts INGEST_HOST_DELAY s apart (or a host's floor, Crawl-delay), after any pause
            ├─ ingest.fetch.client.fetch(...)             never retries by itself; ends by
            │                                     INGEST_FETCH_DEADLINE or the source's, if sooner
            └─ transient failure (ingest.fetch.client.is_transient) and attempts left:
                 Retry-After given -> the whole host pauses that long; longer than
                                      INGEST_MAX_RETRY_AFTER -> give up now, and the host's
                                      other URLs fail fast until then
                 otherwise         -> sleep random() * min(INGEST_BACKOFF_CAP,
                                                           INGEST_BACKOFF_BASE * 2**(n-1))
                 the next attempt would start past the source's deadline -> give up now

A host is its name plus any non-default port: http and https of one name share the pacing, and
two loopback servers on different ports are two hosts. Different hosts never wait for each other.
The error that ends a fetch carries `attempts` (requests made for the URL, 0 when refused before
any) and keeps its fields; when the source's deadline ended the retries, also `deadline`.
Redirects are followed inside `ingest.fetch.client.fetch`: a redirect target on another host is
neither checked against that host's robots.txt nor paced as that host.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
from protego import Protego

from ingest.errors import FetchError, HTTPStatusError, RefusedURLError, RobotsDisallowedError
from ingest.fetch.addresses import DEFAULT_PORTS, check_url
from ingest.fetch.client import FetchResult, client_mode, fetch
from ingest.fetch.transient import is_transient
from ingest.settings import Settings

PRODUCT_TOKEN = re.compile(r"[A-Za-z0-9_-]+")


@dataclass
class _Host:
    """Pacing state of one host; `lock` guards the times, `slots` the requests in flight."""

    delay: float
    slots: threading.BoundedSemaphore
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_start: float = float("-inf")  # earliest start of the next request (clock time)
    paused_until: float = float("-inf")  # set by a Retry-After


@dataclass
class _Robots:
    """One origin's robots.txt: `parser` None allows all, unless `error` says it is unreadable."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    expires: float = float("-inf")
    parser: Protego | None = None
    error: FetchError | None = None


class PoliteFetcher:
    """`ingest.fetch.client.fetch` with robots.txt, per-host pacing and retries; thread-safe."""

    def __init__(
        self,
        client: httpx.Client,
        settings: Settings,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        robots: bool = True,
        rand: Callable[[], float] = random.random,
    ) -> None:
        self.client = client
        self.settings = settings
        self.agent = product_token(settings.user_agent)
        self._sleep, self._clock, self._rand = sleep, clock, rand
        self._use_robots = robots
        self._lock = threading.Lock()  # guards the two dicts
        self._hosts: dict[str, _Host] = {}
        self._offline = client_mode(client).offline
        if self._offline:
            self._use_robots = False
        self._robots: dict[str, _Robots] = {}

    def fetch(
        self,
        url: str,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        previous_sha256: str | None = None,
        validated_url: str | None = None,
    ) -> FetchResult:
        """Fetch `url` as `ingest.fetch.client.fetch` does, politely; raises FetchError with
        `attempts`."""
        try:
            check_url(url, settings=self.settings, resolve=False)  # scheme and host first
            name, key, origin = _host_key(url)
            host = self._host(name, key)
            if self._use_robots:
                self._check_robots(url, origin, host)
        except FetchError as exc:
            raise _counted(exc, 0) from exc.__cause__
        options = {"etag": etag, "last_modified": last_modified}
        options |= {"previous_sha256": previous_sha256, "validated_url": validated_url}
        return self._with_retries(url, host, options)

    def revalidate(self, url: str, state: Mapping[str, Any] | None) -> FetchResult:
        """`fetch` with the validators stored for `url` (a source's row: etag, last_modified,
        last_sha256, final_url); a 304 or the same bytes comes back as "unchanged"."""
        state = state or {}
        return self.fetch(
            url,
            etag=state.get("etag"),
            last_modified=state.get("last_modified"),
            previous_sha256=state.get("last_sha256"),
            validated_url=state.get("final_url"),
        )

    def _host(self, name: str, key: str) -> _Host:
        with self._lock:
            if key not in self._hosts:
                delay = max(self.settings.host_delay, self.settings.host_delay_floor(name))
                if self._offline:  # a replay archive: nobody's server to be polite to
                    delay = 0.0
                slots = threading.BoundedSemaphore(self.settings.host_concurrency)
                self._hosts[key] = _Host(delay=delay, slots=slots)
            return self._hosts[key]

    def _with_retries(self, url: str, host: _Host, options: dict[str, str | None]) -> FetchResult:
        """Attempts until one succeeds, a failure is final, or the next attempt would start past
        INGEST_SOURCE_DEADLINE (counted from the first request; each attempt is cut to it too)."""
        attempt, ends = 0, float("inf")
        error: FetchError | None = None
        while True:
            attempt += 1
            with host.slots:
                if not self._wait_turn(url, host, made=attempt - 1, ends=ends):
                    raise self._out_of_time(error, attempt - 1)
                if attempt == 1:
                    ends = self._clock() + self.settings.source_deadline
                try:
                    return fetch(
                        self.client,
                        url,
                        settings=self.settings,
                        source_left=ends - self._clock(),
                        **options,
                    )
                except FetchError as exc:
                    error = exc
            wait = self._retry_wait(error, attempt, host)
            if wait is None:
                raise _counted(error, attempt)
            if self._clock() + wait >= ends:
                raise self._out_of_time(error, attempt)
            if wait > 0:
                self._sleep(wait)

    def _out_of_time(self, error: FetchError | None, attempts: int) -> FetchError:
        """The last attempt's error, saying the source's deadline stopped the retries."""
        assert error is not None, "only a retry can start too late"
        deadline = f"INGEST_SOURCE_DEADLINE={self.settings.source_deadline:g} s"
        return _counted(error, attempts, deadline=deadline)

    def _wait_turn(self, url: str, host: _Host, *, made: int, ends: float) -> bool:
        """Sleep until this request may start; refuse at once during a long Retry-After pause.

        False, without waiting or taking a turn, when the turn comes at or after `ends`.
        """
        with host.lock:
            now = self._clock()
            pause = host.paused_until - now
            if pause > self.settings.max_retry_after:
                raise FetchError(
                    url,
                    f"the server asked for a pause of {pause:.0f}s more (Retry-After); "
                    "not requested",
                    transient=True,
                    retry_after=pause,
                    attempts=made,
                )
            start = max(now, host.next_start, host.paused_until)
            if start >= ends:
                return False
            host.next_start = start + host.delay
        if start > now:
            self._sleep(start - now)
        return True

    def _retry_wait(self, error: FetchError, attempt: int, host: _Host) -> float | None:
        """Seconds to sleep before the next attempt (beyond the host's turn), None to give up."""
        if not is_transient(error):
            return None
        found = error.fields.get("retry_after")
        retry_after = None if found is None else float(found)
        if retry_after is not None:
            with host.lock:
                host.paused_until = max(host.paused_until, self._clock() + retry_after)
        if attempt >= self.settings.max_attempts:
            return None
        if retry_after is not None:  # the pause is waited in _wait_turn
            return None if retry_after > self.settings.max_retry_after else 0.0
        base, cap = self.settings.backoff_base, self.settings.backoff_cap
        return self._rand() * min(cap, base * 2.0 ** (attempt - 1))

    def _check_robots(self, url: str, origin: str, host: _Host) -> None:
        robots_url = f"{origin}/robots.txt"
        with self._lock:
            robots = self._robots.setdefault(origin, _Robots())
        with robots.lock:  # one fetch per origin; other threads wait for its answer
            if robots.expires <= self._clock():
                self._load_robots(robots, robots_url, host)
            parser, error = robots.parser, robots.error
        if error is not None:
            # the cause first (a DNS failure is not "robots.txt is unreachable")
            cause = str(error.fields.get("reason"))
            if isinstance(error, HTTPStatusError):
                why = f"{cause} for the host's robots.txt; nothing is requested from it for now"
            else:
                why = f"{cause} (reading the host's robots.txt; nothing is requested for now)"
            raise FetchError(
                url,
                why,
                transient=True,
                robots_url=robots_url,
            ) from error
        if parser is not None and not parser.can_fetch(url, self.agent):
            raise RobotsDisallowedError(url, robots_url, _rule(parser, url, self.agent), self.agent)

    def _load_robots(self, robots: _Robots, robots_url: str, host: _Host) -> None:
        """RFC 9309 §2.3.1: 2xx parsed; 4xx (or any other lasting failure) allows all;
        5xx, 429 and network failures disallow all until INGEST_ROBOTS_FAILURE_TTL has passed."""
        parser, error, ttl = None, None, self.settings.robots_ttl
        try:
            result = self._with_retries(robots_url, host, {})
        except FetchError as exc:
            if is_transient(exc):
                error, ttl = exc, self.settings.robots_failure_ttl
        else:
            body = result.snapshot.body if result.snapshot else b""
            parser = Protego.parse(body.decode("utf-8", errors="replace"))
            crawl_delay = parser.crawl_delay(self.agent)
            if crawl_delay:
                with host.lock:
                    host.delay = max(host.delay, min(crawl_delay, self.settings.max_crawl_delay))
        robots.parser, robots.error = parser, error
        robots.expires = self._clock() + ttl


def product_token(user_agent: str) -> str:
    """The robots.txt product token of a User-Agent: "ingest" for "ingest/0.1 (...)"."""
    found = PRODUCT_TOKEN.match(user_agent.strip())
    return found.group(0).lower() if found else "*"


def host_of(url: str) -> str:
    """The pacing key of `url` (host[:port]); a URL with no usable host is its own key."""
    try:
        return _host_key(url)[1] or url
    except RefusedURLError:
        return url


def _host_key(url: str) -> tuple[str, str, str]:
    """(host, host[:port], scheme://host[:port]); the port only when not the scheme's default."""
    parts = urlsplit(url)
    scheme, name = parts.scheme.lower(), (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError as exc:
        raise RefusedURLError(url, f"invalid port: {exc}") from exc
    shown = f"[{name}]" if ":" in name else name
    key = shown if port in (None, DEFAULT_PORTS.get(scheme)) else f"{shown}:{port}"
    return name, key, f"{scheme}://{key}"


def _rule(parser: Protego, url: str, agent: str) -> str:
    """The robots.txt rule that disallows `url`, as "Disallow: /pattern" (protego keeps it
    private: if its internals change, a general description is given instead)."""
    try:
        from protego._utils import _quote_path

        rule_set = parser._get_matching_rule_set(agent)
        path = _quote_path(url)
        for rule in rule_set._rules if rule_set else ():  # sorted: the first match decides
            if rule.value.match(path):
                return f"{rule.field.capitalize()}: {rule.value._pattern}"
    except (ImportError, AttributeError, TypeError):
        pass
    return "a Disallow rule"


def _counted(error: FetchError, attempts: int, *, deadline: str | None = None) -> FetchError:
    """`error` with the number of attempts made, in its fields (kept through pickling), and the
    deadline that stopped the retries, if one did (as "INGEST_SOURCE_DEADLINE=600 s")."""
    error.fields["attempts"] = attempts
    error.attempts = attempts  # type: ignore[attr-defined]
    note = f"gave up after {attempts} attempts" if attempts > 1 else ""
    if deadline:
        error.fields["deadline"] = deadline
        error.deadline = deadline  # type: ignore[attr-defined]
        tried = f"gave up after {attempts} attempt{'s' if attempts != 1 else ''}"
        note = f"{tried}: the next would start past {deadline}"
    if note:
        error.message = f"{error.message} ({note})"
        error.args = (error.message,)
    return error
