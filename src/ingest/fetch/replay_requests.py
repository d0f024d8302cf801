"""The replay archive for code that speaks `requests` (the arxiv package) instead of httpx.

`replay_session(archive, as_of)` returns a `requests.Session` whose every request is answered by
the archive's own httpx transport, so both stacks see the same recordings, misses and 304s.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import httpx
import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

from ingest.fetch.replay import ReplayArchive


class ReplayAdapter(BaseAdapter):
    """A requests transport adapter that serves recorded responses, never the network."""

    def __init__(self, archive: ReplayArchive, as_of: date | None = None) -> None:
        super().__init__()
        self._transport = archive.transport(as_of)

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: Any = True,
        cert: Any = None,
        proxies: Any = None,
    ) -> requests.Response:
        raw = request.body
        body = raw.encode() if isinstance(raw, str) else raw if isinstance(raw, bytes) else b""
        answer = self._transport.handle_request(
            httpx.Request(
                request.method or "GET",
                request.url or "",
                headers={
                    k: v if isinstance(v, str) else v.decode("latin-1")
                    for k, v in request.headers.items()
                },
                content=body,
            )
        )
        answer.read()
        response = requests.Response()
        response.status_code = answer.status_code
        response.headers = CaseInsensitiveDict(dict(answer.headers))
        response._content = answer.content
        response.url = request.url or ""
        response.request = request
        response.encoding = answer.encoding
        response.reason = answer.reason_phrase
        return response

    def close(self) -> None:
        self._transport.close()


def replay_session(archive: ReplayArchive, as_of: date | None = None) -> requests.Session:
    session = requests.Session()
    adapter = ReplayAdapter(archive, as_of)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session
