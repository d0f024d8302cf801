"""HTTP servers on 127.0.0.1 for the tests and the benchmarks: the one thing they share.

class MyServer(LoopbackServer): ...            # subclass with its own state
with MyServer(MyHandler) as srv:               # serving on a free port in a daemon thread
    httpx.get(srv.base + "/page")

reply(handler, 200, b"body", "text/plain")     # status, Content-Type, Content-Length, body
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

TEXT_PLAIN = "text/plain; charset=utf-8"


class LoopbackServer(ThreadingHTTPServer):
    """A threading HTTP server on a free loopback port. Use it as a context manager (or
    `start()` and `close()`): it serves from a daemon thread until closed."""

    daemon_threads = True

    def __init__(self, handler: type[BaseHTTPRequestHandler], poll_interval: float = 0.5) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self.serve_forever, args=(poll_interval,), daemon=True
        )

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # routes that break their own connection, clients that give up: not news

    def start(self) -> Self:
        self._thread.start()
        return self

    def close(self) -> None:
        self.shutdown()
        self.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that keeps the test output clean, with a one-call answer."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
        """`reply` with Content-Type text/plain unless `headers` say otherwise."""
        reply(self, status, body, headers={"Content-Type": TEXT_PLAIN, **(headers or {})})


def reply(
    handler: BaseHTTPRequestHandler,
    status: int,
    body: bytes,
    content_type: str | None = None,
    headers: dict[str, str] | None = None,
) -> None:
    """Answer with `status`, the headers, a Content-Length (the body's, unless `headers` give
    one: a route may lie about it on purpose) and `body`."""
    handler.send_response(status)
    if content_type:
        handler.send_header("Content-Type", content_type)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    if "Content-Length" not in (headers or {}):
        handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)
