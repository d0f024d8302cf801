"""Sessions, logins and CSRF for the review page.

A session is a signed cookie (itsdangerous, HMAC with the server's key; HttpOnly, SameSite=Strict,
Secure when the page is served over https) holding the editor's name, the account's session epoch
and the session's CSRF token. Every POST carries that token (form field `csrf_token` or header
`X-CSRF-Token`) and is refused with 403 without it.

A session is only honoured while its epoch is the account's current one (checked on every
request, `Store.session_epoch`). The epoch is random and replaced on sign-out, on a password
change and when an account is removed and created again, so a cookie captured before any of
these never works again. Signing out ends every session of that editor, in every browser.
"""

from __future__ import annotations

import hmac
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ingest.review.web.throttle import LoginThrottle
from ingest.settings import Settings
from ingest.storage import Store

COOKIE = "ingest_review"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"


@dataclass
class Session:
    csrf: str
    editor: str | None = None  # only set when the session is still honoured
    epoch: str | None = None
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
    """The app's session signer, the accounts' store (session epochs) and the login throttle."""

    key: str
    max_age: int
    store: Store
    throttle: LoginThrottle = field(default_factory=LoginThrottle)

    def __post_init__(self) -> None:
        self.signer = URLSafeTimedSerializer(self.key, salt="ingest-review-session")

    def load(self, request: Request) -> Session:
        """The request's session (read once per request): signed in only while the cookie's
        session epoch is still its editor's current one; else a session without an editor."""
        cached = getattr(request.state, "ingest_session", None)
        if isinstance(cached, Session):
            return cached
        session = self._read(request.cookies.get(COOKIE))
        request.state.ingest_session = session
        return session

    def _read(self, raw: str | None) -> Session:
        if raw:
            try:
                data = self.signer.loads(raw, max_age=self.max_age)
            except BadSignature:
                data = None
            if isinstance(data, dict) and isinstance(data.get("c"), str):
                session = Session(csrf=data["c"])
                editor, epoch = data.get("e"), data.get("v")
                if (
                    isinstance(editor, str)
                    and isinstance(epoch, str)
                    and self.honoured(editor, epoch)  # not signed out, the account unchanged
                ):
                    session.editor, session.epoch = editor, epoch
                return session
        return Session(csrf=secrets.token_urlsafe(32), fresh=True)

    def honoured(self, editor: str, epoch: str) -> bool:
        """The account exists and this is its current session epoch."""
        current = self.store.session_epoch(editor)
        return current is not None and hmac.compare_digest(current.encode(), epoch.encode())

    def sign_in(self, session: Session, editor: str) -> None:
        """A new session for the editor (new CSRF token) under the account's current epoch."""
        epoch = self.store.session_epoch(editor) or self.store.renew_session_epoch(editor)
        session.editor, session.epoch = editor, epoch
        session.csrf = secrets.token_urlsafe(32)

    def sign_out(self, session: Session) -> None:
        """End every session of the session's editor, this one included (a new epoch)."""
        if session.editor:
            self.store.renew_session_epoch(session.editor)
        session.editor = session.epoch = None

    def save(self, response: Response, request: Request, session: Session) -> None:
        response.set_cookie(
            COOKIE,
            self.signer.dumps({"c": session.csrf, "e": session.editor, "v": session.epoch}),
            max_age=self.max_age,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/",
        )

    def clear(self, response: Response) -> None:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")


def get_auth(request: Request) -> Auth:
    auth: Auth = request.app.state.auth
    return auth


def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def get_session(request: Request, auth: Annotated[Auth, Depends(get_auth)]) -> Session:
    return auth.load(request)


def current_editor(session: Annotated[Session, Depends(get_session)]) -> str:
    """The logged-in editor, whose session is still honoured (Auth.load); else LoginRequired."""
    if not session.editor:
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
