"""A stand-in arXiv API on 127.0.0.1 for the arxiv client's tests and benchmark (no internet).

It answers `GET /api/query?...` from the recorded exchanges in fixtures/arxiv/atom/ (matched on
the `search_query` and `id_list` parameters; the recorded status and body are served), or from
`server.route`, a plain function of the query parameters that a test installs. A request with no
recording and no route gets a 404 saying which recording is missing. Every request is counted
with its parameters and headers in `server.requests`.

    with ArxivLoopback() as server:
        client = ArxivClient(settings, session=requests.Session(),
                             query_url_format=server.url_format)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

from tests.loopback import LoopbackServer

FIXTURE_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "arxiv" / "atom"

Params = dict[str, str]
# a body is bytes, or (pause in seconds, bytes) pieces written one after the other (slow servers)
Body = bytes | list[tuple[float, bytes]]
Answer = tuple[int, dict[str, str], Body]


@dataclass(frozen=True)
class Exchange:
    """One recorded request and its answer (an arxivpy-fixture.*.json file)."""

    file: str
    url: str
    status: int
    body: bytes

    @property
    def params(self) -> Params:
        return params_of(self.url)


def params_of(url: str) -> Params:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def load_exchanges() -> dict[tuple[str, str], Exchange]:
    """Recorded exchanges keyed by (search_query, id_list)."""
    found: dict[tuple[str, str], Exchange] = {}
    for path in sorted(FIXTURE_DIR.glob("arxivpy-fixture.*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        exchange = Exchange(path.name, data["url"], data["status_code"], data["body"].encode())
        params = exchange.params
        found[(params["search_query"], params["id_list"])] = exchange
    return found


def atom_feed(ids: list[str], *, total: int | None = None, start: int = 0) -> bytes:
    """A small but well-formed arXiv Atom page with one entry per id (version v1)."""
    entries = "".join(
        f"<entry><id>http://arxiv.org/abs/{escape(i)}v1</id>"
        "<updated>2021-01-02T00:00:00Z</updated><published>2021-01-01T00:00:00Z</published>"
        f"<title>Paper {escape(i)}</title><summary>s</summary>"
        f"<author><name>Author of {escape(i)}</name></author>"
        f'<link href="https://arxiv.org/pdf/{escape(i)}v1" rel="related" type="application/pdf" '
        'title="pdf"/></entry>'
        for i in ids
    )
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">'
        "<id>https://arxiv.org/api/test</id><title>arXiv Query</title>"
        "<updated>2026-01-01T00:00:00Z</updated>"
        f"<opensearch:itemsPerPage>{len(ids)}</opensearch:itemsPerPage>"
        f"<opensearch:totalResults>{len(ids) if total is None else total}</opensearch:totalResults>"
        f"<opensearch:startIndex>{start}</opensearch:startIndex>{entries}</feed>\n"
    ).encode()


def id_list_route(params: Params) -> Answer:
    """Answers any id_list query with one generated entry per id."""
    ids = [i for i in params.get("id_list", "").split(",") if i]
    return 200, {}, atom_feed(ids)


class _Handler(BaseHTTPRequestHandler):
    server: ArxivLoopback

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        params = params_of(self.path)
        self.server.requests.append((self.path, params, dict(self.headers.items())))
        answer = self.server.route(params) if self.server.route else None
        if answer is None:
            answer = self.server.recorded(params)
        status, headers, body = answer
        pieces = [(0.0, body)] if isinstance(body, bytes) else body
        self.send_response(status)
        headers = {"Content-Type": "application/atom+xml; charset=utf-8", **headers}
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(sum(len(piece) for _, piece in pieces)))
        self.end_headers()
        try:
            for pause, piece in pieces:
                time.sleep(pause)
                self.wfile.write(piece)
                self.wfile.flush()
        except OSError:
            pass  # the client gave up (the timeout tests)


class ArxivLoopback(LoopbackServer):
    def __init__(self) -> None:
        super().__init__(_Handler)
        self.exchanges = load_exchanges()
        self.route: Callable[[Params], Answer | None] | None = None
        self.requests: list[tuple[str, Params, dict[str, str]]] = []
        self.served: set[str] = set()  # recorded exchange files served so far

    @property
    def url_format(self) -> str:
        return self.base + "/api/query?{}"

    def recorded(self, params: Params) -> Answer:
        key = (params.get("search_query", ""), params.get("id_list", ""))
        exchange = self.exchanges.get(key)
        if exchange is None:
            message = f"no recorded exchange for search_query={key[0]!r} id_list={key[1]!r}: "
            message += "record one into fixtures/arxiv/atom/ or install a route"
            return 404, {"Content-Type": "text/plain"}, message.encode()
        self.served.add(exchange.file)
        return exchange.status, {}, exchange.body
