"""Rendering a review page: the template with the session's editor and CSRF token (a session
made on this request is saved on the response)."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import Response


def render(
    request: Request, name: str, context: dict[str, Any], status_code: int = 200
) -> Response:
    session = request.app.state.auth.load(request)
    base = {"csrf_token": session.csrf, "editor": session.editor}
    response: Response = request.app.state.templates.TemplateResponse(
        request, name, base | context, status_code=status_code
    )
    if session.fresh:
        request.app.state.auth.save(response, request, session)
    return response
