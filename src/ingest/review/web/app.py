"""The review page: `create_app(settings) -> FastAPI`.

Server-rendered pages (Jinja2, autoescaped; source text never marked safe), a little JS in
static/review.js (keyboard, fetch + fragment swaps), and the security headers on every answer:
a Content-Security-Policy without inline script, X-Frame-Options DENY, nosniff, no referrer.
Only /healthz (and the login page with its static files) answer without a login.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from fastapi import FastAPI, Request
from fastapi.responses import PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.middleware.trustedhost import TrustedHostMiddleware

from ingest.review.confidence import low_confidence
from ingest.review.web.auth import Auth, LoginRequired, session_key
from ingest.review.web.evidence import TextCache
from ingest.settings import Settings, ensure_profiles
from ingest.storage import Store

HERE = Path(__file__).resolve().parent
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[
    [Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
    Awaitable[None],
]


class SecurityHeaders:
    """Adds the security headers (and no-store for pages) to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(
        self,
        scope: Scope,
        receive: Callable[[], Awaitable[Message]],
        send: Callable[[Message], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                if not static and b"cache-control" not in names:  # a route's own policy wins
                    extra.append((b"cache-control", b"no-store"))
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)


def templates() -> Jinja2Templates:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,  # every template, whatever its name
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # the package's templates: compiled once, never stat'ed per page
    )
    env.globals["low_confidence"] = low_confidence  # a claim its extractor was unsure of
    return Jinja2Templates(env=env)


def create_app(settings: Settings, store: Store | None = None) -> FastAPI:
    """The review application over the settings' store and profiles folder."""
    from ingest.review.web import pages

    app = FastAPI(title="ingest review", docs_url=None, redoc_url=None, openapi_url=None)
    ensure_profiles(settings)  # the workspace's copy of the bundled profiles, seeded once
    app.state.settings = settings
    app.state.store = store or Store.open(settings)
    app.state.auth = Auth(
        key=session_key(settings),
        max_age=int(settings.review_session_hours * 3600),
        store=app.state.store,
    )
    app.state.templates = templates()
    app.state.texts = TextCache(app.state.store)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    for router in pages.ROUTERS:
        app.include_router(router)

    @app.exception_handler(LoginRequired)
    async def login_required(request: Request, _exc: LoginRequired) -> Response:
        if request.method == "GET" and "x-fragment" not in request.headers:
            target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
            return RedirectResponse(f"/login?next={quote(target, safe='')}", status_code=303)
        return PlainTextResponse("login required", status_code=401)

    app.add_middleware(TrustedHostMiddleware, allowed_hosts=settings.review_allowed_hosts)
    app.add_middleware(SecurityHeaders)
    return app
