"""Sessions, logins and CSRF for the review page.

A session is a signed cookie (itsdangerous, HMAC with the server's key; HttpOnly, SameSite=Strict,
Secure when the page is served over https) holding the editor's name and the session's CSRF
token. Every POST carries that token (form field `csrf_token` or header `X-CSRF-Token`) and is
refused with 403 without it. A session is only honoured while its editor's account exists.
"""

from __future__ import annotations

import hmac
import os
import secrets
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ingest.settings import Settings
from ingest.store import Store

COOKIE = "ingest_review"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
LOGIN_WINDOW_S, LOGIN_MAX_FAILURES = 300.0, 5


@dataclass
class Session:
    csrf: str
    editor: str | None = None
    fresh: bool = False  # not yet sent to the browser


class LoginRequired(Exception):
    """Raised by the `editor` dependency; the app answers with the login page or 401."""


def session_key(settings: Settings) -> str:
    if settings.review_session_secret is not None:
        return settings.review_session_secret.get_secret_value()
    path = settings.home / "review-session.key"
    if not path.exists():
        settings.home.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(48))
    return Path(path).read_text().strip()


@dataclass
class Auth:
    """The app's session signer and its login throttle."""

    key: str
    max_age: int
    failures: dict[str, deque[float]] = field(default_factory=lambda: defaultdict(deque))

    def __post_init__(self) -> None:
        self.signer = URLSafeTimedSerializer(self.key, salt="ingest-review-session")

    def load(self, request: Request) -> Session:
        raw = request.cookies.get(COOKIE)
        if raw:
            try:
                data = self.signer.loads(raw, max_age=self.max_age)
                if isinstance(data, dict) and isinstance(data.get("c"), str):
                    return Session(csrf=data["c"], editor=data.get("e"))
            except BadSignature:
                pass
        return Session(csrf=secrets.token_urlsafe(32), fresh=True)

    def save(self, response: Response, request: Request, session: Session) -> None:
        response.set_cookie(
            COOKIE,
            self.signer.dumps({"c": session.csrf, "e": session.editor}),
            max_age=self.max_age,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/",
        )

    def clear(self, response: Response) -> None:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")

    def throttled(self, name: str) -> bool:
        recent = self.failures[name]
        while recent and recent[0] < time.monotonic() - LOGIN_WINDOW_S:
            recent.popleft()
        return len(recent) >= LOGIN_MAX_FAILURES

    def failed(self, name: str) -> None:
        self.failures[name].append(time.monotonic())


def get_auth(request: Request) -> Auth:
    auth: Auth = request.app.state.auth
    return auth


def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def get_session(request: Request, auth: Annotated[Auth, Depends(get_auth)]) -> Session:
    return auth.load(request)


def current_editor(
    session: Annotated[Session, Depends(get_session)],
    store: Annotated[Store, Depends(get_store)],
) -> str:
    """The logged-in editor, whose account still exists; else LoginRequired."""
    if not session.editor or store.editor_hash(session.editor) is None:
        raise LoginRequired()
    return session.editor


async def require_csrf(request: Request, session: Annotated[Session, Depends(get_session)]) -> None:
    """Every POST: the session's token, in the form or a header, or 403."""
    sent = request.headers.get(CSRF_HEADER)
    if sent is None:
        form = await request.form()
        value = form.get(CSRF_FIELD)
        sent = value if isinstance(value, str) else None
    if session.fresh or not sent or not hmac.compare_digest(sent, session.csrf):
        raise HTTPException(status_code=403, detail="missing or wrong CSRF token")


Editor = Annotated[str, Depends(current_editor)]
CurrentSession = Annotated[Session, Depends(get_session)]
StoreDep = Annotated[Store, Depends(get_store)]
CSRF = Depends(require_csrf)
