"""The review queue's routes (and, included in the one router, those of `signin` and `stored`).
Each parses its input (checked by web.params first), calls the library (ingest.review.decisions,
the store) and renders a template; POSTs need the session's CSRF token (auth.require_csrf)."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import PlainTextResponse, RedirectResponse, Response

from ingest.errors import (
    AlreadyDecidedError,
    IngestError,
)
from ingest.report.run import describe
from ingest.review.decisions import Decided, decide, record_bulk, undo_last
from ingest.review.grouping import source_titles
from ingest.review.snapshots import snapshot_time
from ingest.review.web import signin, stored
from ingest.review.web.auth import CSRF, Editor, StoreDep
from ingest.review.web.evidence import snapshot_sha256
from ingest.review.web.params import Page, is_change_id, no_nul_characters
from ingest.review.web.render import render as _render
from ingest.review.web.views import (
    KINDS,
    STATUSES,
    change_view,
    filter_query,
    parse_filter,
    queue_groups,
)
from ingest.storage import ChangeRow, QueueFilter

router = APIRouter(dependencies=[Depends(no_nul_characters)])
ACTIONS = {"accept": "accepted", "reject": "rejected"}


def _is_fragment(request: Request) -> bool:
    return "x-fragment" in request.headers


def _query_filter(
    status: str | None = "pending",
    person: str | None = None,
    source: str | None = None,
    kind: str | None = None,
) -> QueueFilter:
    """The queue filter a page was asked for (query parameters)."""
    return parse_filter(status, person, source, kind)


def _form_filter(
    status: Annotated[str, Form()] = "pending",
    person: Annotated[str, Form()] = "",
    source: Annotated[str, Form()] = "",
    kind: Annotated[str, Form()] = "",
) -> QueueFilter:
    """The queue filter a form carried along (the editor's place in the queue)."""
    return parse_filter(status, person, source, kind)


QueryFilter = Annotated[QueueFilter, Depends(_query_filter)]
FormFilter = Annotated[QueueFilter, Depends(_form_filter)]


# -- the queue -----------------------------------------------------------------------------


def _queue_context(
    request: Request, store: StoreDep, filters: QueueFilter, page: int
) -> dict[str, Any]:
    size = request.app.state.settings.review_page_size
    total = store.count_facts(filters)
    pages = max(1, -(-total // size))
    page = min(max(1, page), pages)
    facts = store.queue_facts(filters, limit=size, offset=(page - 1) * size)
    facets = store.queue_facets(filters)
    source_totals = dict(facets["source"]) if not filters.profile and not filters.kind else {}
    if not source_totals:
        source_totals = {
            url: store.count_facts(QueueFilter(filters.status, filters.profile, url, filters.kind))
            for url in {f[0].source_url for f in facts}
        }
    return {
        "filters": filters,
        "status_value": filters.status or "all",
        "statuses": STATUSES,
        "kinds": KINDS,
        "facets": facets,
        "groups": queue_groups(
            facts,
            source_totals,
            source_titles(store.source_states(sorted({m.source_url for f in facts for m in f}))),
        ),
        "total": total,
        "page": page,
        "pages": pages,
        "query": filter_query(filters),
        "page_query": lambda n: filter_query(filters, page=n),
        "bulk": None,
    }


@router.get("/")
def queue(
    request: Request,
    editor: Editor,
    store: StoreDep,
    filters: QueryFilter,
    page: Page = 1,
) -> Response:
    return _render(request, "queue.html", _queue_context(request, store, filters, page))


@router.post("/bulk", dependencies=[CSRF])
def bulk_accept(
    request: Request,
    editor: Editor,
    store: StoreDep,
    filters: FormFilter,
    ids: Annotated[list[str], Form()] = [],  # noqa: B006 (FastAPI copies defaults)
    note: Annotated[str, Form()] = "",
    confirmed: Annotated[str, Form()] = "",
) -> Response:
    """Accept the facts the editor selected, all of one kind; removals only after a confirmation
    page naming each removed statement. The decisions share one bulk id (`u` undoes them all)
    and the audit log records the bulk as one action."""
    profiles_dir = request.app.state.settings.profiles_dir
    wanted = [i for i in dict.fromkeys(ids) if is_change_id(i)]
    rows = [r for r in (store.get_change(i) for i in wanted) if r is not None]
    failed: list[tuple[str, str]] = [
        (i[:64], "not a change id") for i in dict.fromkeys(ids) if not is_change_id(i)
    ]
    kinds = sorted({r.kind for r in rows})
    context = _queue_context(request, store, filters, 1)
    if not rows:
        context["bulk"] = {
            "accepted": [],
            "conflicts": [],
            "failed": failed,
            "refused": "Nothing selected.",
        }
        return _render(request, "queue.html", context)
    if len(kinds) > 1:
        context["bulk"] = {
            "accepted": [],
            "conflicts": [],
            "failed": failed,
            "refused": "A bulk accept takes changes of one kind: select only "
            + " or only ".join(kinds)
            + " rows.",
        }
        return _render(request, "queue.html", context, status_code=400)
    if kinds == ["removed"] and confirmed != "1":
        items = [
            r.to_dict() | {"summary": describe(r), "when": snapshot_time(store, snapshot_sha256(r))}
            for r in rows
        ]
        return _render(
            request,
            "confirm_bulk.html",
            {"items": items, "filters": filters, "query": filter_query(filters), "note": note},
        )
    bulk = uuid.uuid4().hex
    done: list[Decided] = []
    conflicts: list[dict[str, Any]] = []
    for row in rows:
        try:
            done.append(
                decide(
                    store,
                    profiles_dir,
                    row.id,
                    "accepted",
                    editor,
                    note.strip() or None,
                    bulk=bulk,
                    audit=False,
                )
            )
        except AlreadyDecidedError as exc:
            conflicts.append({"id": row.id, "status": exc.fields["status"], "by": exc.fields["by"]})
        except IngestError as exc:
            failed.append((row.id, str(exc)))
    record_bulk(store, editor, "accepted", bulk, done, note.strip() or None)
    context = _queue_context(request, store, filters, 1)
    context["bulk"] = {
        "accepted": [d.change.id for d in done],
        "statements": [f"{d.change.profile}: {describe(d.change.to_json())}" for d in done],
        "kind": kinds[0],
        "conflicts": conflicts,
        "failed": failed,
    }
    return _render(request, "queue.html", context)


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
        flash = [("ok", _undo_message(undid, min(int(undone), 10_000), row))]
    return _change_response(request, store, change_id, filters, flash)


def _undo_message(undid: str, count: int, lead: ChangeRow) -> str:
    verb = undid[:-2]  # accept, reject
    what = f"the {verb} of {count} changes" if count > 1 else f"the {verb} of this change"
    pending = "They are pending again" if count > 1 else "It is pending again"
    return f"Undone: {what} ({lead['profile']}, {describe(lead)}). {pending}."


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
        flash = [("ok", f"Skipped {row['profile']}: {describe(row)}.")]
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
        flash = [("ok", f"{verb}: {row['profile']}, {describe(row)}. Press u to undo.")]
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
    if not _is_fragment(request):  # the queue page's `u`: the change page says what was undone
        query = filter_query(filters, undid=done.undid, undone=count)
        return RedirectResponse(f"/changes/{done.change.id}?{query}", status_code=303)
    row = store.get_change(done.change.id)
    flash = [("ok", _undo_message(done.undid, count, row))] if row is not None else []
    return _change_response(request, store, done.change.id, filters, flash)


# every route of the review app: the queue's, then signing in and out, then the stored things
ROUTERS = (router, signin.router, stored.router)
