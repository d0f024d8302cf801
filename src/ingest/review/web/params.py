"""What the review page accepts as input, checked before anything reaches the store or a file.

A hostile URL or form gets 400, 404 or 422, never a 500: NUL characters are refused everywhere
(PostgreSQL text cannot hold them, file names cannot either), page numbers are bounded (SQL
integers are), change and profile ids must have their shape (else 404, as for any unknown id).
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import HTTPException, Query, Request

MAX_PAGE = 1_000_000  # far beyond any queue; keeps LIMIT/OFFSET inside a 64-bit integer
CHANGE_ID = re.compile(r"[0-9A-Za-z]{1,64}")  # ingest.models.stable_hash: 16 hex digits
NUL = "\x00"

Page = Annotated[int, Query(ge=1, le=MAX_PAGE, description="Page number, from 1.")]


def is_change_id(value: str) -> bool:
    """Whether a change could have this id (one that cannot is answered 404 without a query)."""
    return CHANGE_ID.fullmatch(value) is not None


async def no_nul_characters(request: Request) -> None:
    """Every route: 400 when the path, a query parameter or a form field holds a NUL."""
    values: list[str] = [request.scope["path"]]
    values.extend(v for item in request.query_params.multi_items() for v in item)
    if request.method == "POST":
        form = await request.form()  # parsed once per request, shared with the route
        for name, value in form.multi_items():
            values.append(name)
            if isinstance(value, str):
                values.append(value)
    if any(NUL in value for value in values):
        raise HTTPException(status_code=400, detail="NUL characters are not allowed")
