"""The review queue's routes (and, in ROUTERS, those of `bulk`, `signin` and `stored`).
Each parses its input (checked by web.params first), calls the library (ingest.review.decisions,
the store) and renders a template; POSTs need the session's CSRF token (auth.require_csrf)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import PlainTextResponse, RedirectResponse, Response

from ingest.errors import (
    AlreadyDecidedError,
    IngestError,
)
from ingest.review.decisions import decide, undo_last
from ingest.review.web import bulk, signin, stored
from ingest.review.web.auth import CSRF, Editor, StoreDep
from ingest.review.web.filters import FormFilter, QueryFilter, profile_name_of, queue_context
from ingest.review.web.params import Page, is_change_id, no_nul_characters
from ingest.review.web.render import render as _render
from ingest.review.web.views import change_view, filter_query
from ingest.statements import change_sentence, person
from ingest.storage import ChangeRow, QueueFilter

router = APIRouter(dependencies=[Depends(no_nul_characters)])
ACTIONS = {"accept": "accepted", "reject": "rejected"}


def _is_fragment(request: Request) -> bool:
    return "x-fragment" in request.headers


# -- the queue -----------------------------------------------------------------------------


@router.get("/")
def queue(
    request: Request,
    editor: Editor,
    store: StoreDep,
    filters: QueryFilter,
    page: Page = 1,
    undone: str = "",
) -> Response:
    """The queue; `undone=1` (the redirect after an undo from here) names what was undone."""
    since = store.seen_queue(editor)
    context = queue_context(request, store, filters, page, since)
    if undone == "1":
        context["undone"] = _last_undo(request, store, editor)
    return _render(request, "queue.html", context)


def _said(request: Request, row: ChangeRow) -> str:
    return f"{person(row.profile, profile_name_of(request, row.profile))}: {change_sentence(row)}"


def _last_undo(request: Request, store: StoreDep, editor: str) -> dict[str, Any] | None:
    """The editor's latest undo, with each statement it put back (for the queue's flash)."""
    entries, _total = store.audit_page(20, actor=editor, action="undone")
    if not entries:
        return None
    entry = entries[0]
    ids = entry["detail"].get("changes") or [entry["change_id"]]
    rows = [r for r in (store.get_change(str(i)) for i in ids) if r is not None]
    return {
        "undid": str(entry["detail"].get("undid") or ""),
        "statements": [_said(request, r) for r in rows],
    }


# -- one change ----------------------------------------------------------------------------


def _change_response(
    request: Request,
    store: StoreDep,
    change_id: str,
    filters: QueueFilter,
    flash: list[tuple[str, str]] | None = None,
    status_code: int = 200,
) -> Response:
    row = store.get_change(change_id) if is_change_id(change_id) else None
    if row is None:
        return _render(
            request,
            "empty.html" if _is_fragment(request) else "queue_done.html",
            {"filters": filters, "query": filter_query(filters), "flash": flash or []},
            status_code=404 if flash is None else status_code,
        )
    state = request.app.state
    view = change_view(store, state.texts, state.settings.profiles_dir, row, filters)
    view.flash = flash or []
    name = "_change.html" if _is_fragment(request) else "change.html"
    context = {"view": view, "filters": filters, "query": filter_query(filters)}
    return _render(request, name, context, status_code=status_code)


@router.get("/changes/{change_id}")
def change_page(
    request: Request,
    change_id: str,
    editor: Editor,
    store: StoreDep,
    filters: QueryFilter,
    undid: str = "",
    undone: str = "",
) -> Response:
    """One change; `undid`/`undone` (set by the redirect after an undo from the queue page)
    say what the undo took back, so the editor sees it, as after an undo on this page."""
    flash = None
    row = store.get_change(change_id) if is_change_id(change_id) else None
    if row is not None and undid in ("accepted", "rejected") and undone.isdigit():
        who = person(row.profile, profile_name_of(request, row.profile))
        flash = [("ok", _undo_message(undid, min(int(undone), 10_000), row, who))]
    return _change_response(request, store, change_id, filters, flash)


def _undo_message(undid: str, count: int, lead: ChangeRow, who: str) -> str:
    verb = undid[:-2]  # accept, reject
    what = f"the {verb} of {count} changes" if count > 1 else f"the {verb} of this change"
    pending = "They are pending again" if count > 1 else "It is pending again"
    return f"Undone: {what} ({who}: {change_sentence(lead)}). {pending}."


def _next_after(store: StoreDep, filters: QueueFilter, row: ChangeRow) -> str | None:
    """The next change in the queue after this one, else the first one left (not this one)."""
    found = store.fact_neighbour(filters, row, forward=True)
    if found is None:
        first = store.queue_rows(filters, limit=1)
        found = first[0].id if first and first[0].id != row.id else None
    return found


@router.post("/changes/{change_id}/decide", dependencies=[CSRF])
def decide_change(
    request: Request,
    change_id: str,
    editor: Editor,
    store: StoreDep,
    filters: FormFilter,
    action: Annotated[str, Form()],
    note: Annotated[str, Form()] = "",
) -> Response:
    row = store.get_change(change_id) if is_change_id(change_id) else None
    if row is None:
        return PlainTextResponse("no such change", status_code=404)
    note_text = note.strip() or None
    said = f"{person(row.profile, profile_name_of(request, row.profile))}: {change_sentence(row)}"
    if action == "skip":
        if note_text:
            with store.begin() as conn:
                store.audit(
                    conn,
                    editor,
                    "skipped",
                    change_id=change_id,
                    profile=row.profile,
                    note=note_text,
                )
        flash = [("ok", f"Skipped {said}.")]
    elif action in ACTIONS:
        try:
            decide(
                store,
                request.app.state.settings.profiles_dir,
                change_id,
                ACTIONS[action],
                editor,
                note_text,
            )
        except AlreadyDecidedError as exc:
            who = f" by {exc.fields['by']}" if exc.fields["by"] else ""
            flash = [("error", f"This change was already {exc.fields['status']}{who}.")]
            return _change_response(request, store, change_id, filters, flash, 409)
        except IngestError as exc:
            return _change_response(request, store, change_id, filters, [("error", str(exc))], 409)
        verb = ACTIONS[action].capitalize()
        if row.kind == "removed":
            verb += " removal"
        flash = [("ok", f"{verb}: {said}. Press u to undo.")]
    else:
        return PlainTextResponse("action must be accept, reject or skip", status_code=400)
    following = _next_after(store, filters, row)
    if following is None:
        return _render(
            request,
            "empty.html" if _is_fragment(request) else "queue_done.html",
            {"filters": filters, "query": filter_query(filters), "flash": flash},
        )
    return _change_response(request, store, following, filters, flash)


@router.post("/undo", dependencies=[CSRF])
def undo(
    request: Request,
    editor: Editor,
    store: StoreDep,
    filters: FormFilter,
    current: Annotated[str, Form()] = "",
) -> Response:
    current = current if is_change_id(current) else ""
    try:
        done = undo_last(store, request.app.state.settings.profiles_dir, editor)
    except IngestError as exc:
        if current:
            return _change_response(request, store, current, filters, [("error", str(exc))], 409)
        return PlainTextResponse(str(exc), status_code=409)
    count = len(done.group) or 1
    if not _is_fragment(request):  # the queue page's `u`: back to the queue, naming every one
        return RedirectResponse(f"/?{filter_query(filters, undone=1)}", status_code=303)
    row = store.get_change(done.change.id)
    who = person(done.change.profile, profile_name_of(request, done.change.profile))
    flash = [("ok", _undo_message(done.undid, count, row, who))] if row is not None else []
    return _change_response(request, store, done.change.id, filters, flash)


# every route of the review app: the queue's, then signing in and out, then the stored things
ROUTERS = (router, bulk.router, signin.router, stored.router)
