"""Signing in and out, and the health check: the routes that need no editor."""

from __future__ import annotations

from math import ceil
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from ingest.review.web.auth import CSRF, CurrentSession, StoreDep
from ingest.review.web.params import no_nul_characters
from ingest.review.web.passwords import authenticate
from ingest.review.web.render import render as _render
from ingest.storage import QueueFilter

router = APIRouter(dependencies=[Depends(no_nul_characters)])


@router.get("/healthz")
def healthz(store: StoreDep) -> dict[str, str]:
    store.count_changes(QueueFilter(status="pending", kind="added"))  # the database answers
    return {"status": "ok"}


def _safe_next(target: str | None) -> str:
    """Only paths on this site (no //host, no scheme): no open redirect after login."""
    if target and target.startswith("/") and not target.startswith(("//", "/\\")):
        return target
    return "/"


@router.get("/login")
def login_page(request: Request, next: str | None = None) -> Response:
    return _render(request, "login.html", {"next": _safe_next(next), "error": None})


@router.post("/login", dependencies=[CSRF])
def login(
    request: Request,
    store: StoreDep,
    session: CurrentSession,
    name: Annotated[str, Form()] = "",
    password: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "/",
) -> Response:
    auth = request.app.state.auth
    name = name.strip()
    client = request.client.host if request.client else "unknown"
    wait = auth.throttle.wait(client, name)
    if wait > 0:
        error, status = f"Too many failed logins: try again in {ceil(wait)} s.", 429
    elif authenticate(store, name, password):
        auth.throttle.succeeded(client, name)
        auth.sign_in(session, name)  # a new session (and CSRF token) on login
        store.start_visit(name)  # the queue's "new" is what came since the last look
        response = RedirectResponse(_safe_next(next), status_code=303)
        auth.save(response, request, session)
        return response
    else:
        auth.throttle.failed(client, name)
        error, status = "Wrong name or password.", 401
    return _render(
        request, "login.html", {"next": _safe_next(next), "error": error}, status_code=status
    )


@router.post("/logout", dependencies=[CSRF])
def logout(request: Request, session: CurrentSession) -> Response:
    """Sign out: the cookie is dropped and every session of this editor ends on the server too
    (a copy of the cookie taken before is refused)."""
    request.app.state.auth.sign_out(session)
    response = RedirectResponse("/login", status_code=303)
    request.app.state.auth.clear(response)
    return response
