"""The queue's filters (query parameters or a form's fields: the editor's place in the queue)
and what the queue page shows (`queue_context`), shared by the queue's routes and the bulk's."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from fastapi import Depends, Form, Request

from ingest.review.grouping import source_titles
from ingest.review.web.auth import Editor, StoreDep
from ingest.review.web.views import (
    CONFIDENCES,
    KINDS,
    STATUSES,
    filter_query,
    load_profile_or_none,
    parse_filter,
    queue_groups,
)
from ingest.storage import QueueFilter

EVERYTHING = "0000"  # "new since your last visit" before the first visit: everything


def _since(store: StoreDep, editor: str, new: str) -> str | None:
    if new != "1":
        return None
    return store.last_visit(editor) or EVERYTHING


def _query_filter(
    store: StoreDep,
    editor: Editor,
    status: str | None = "pending",
    person: str | None = None,
    source: str | None = None,
    kind: str | None = None,
    predicate: str | None = None,
    confidence: str | None = None,
    new: str = "",
) -> QueueFilter:
    """The queue filter a page was asked for (query parameters)."""
    since = _since(store, editor, new)
    return parse_filter(status, person, source, kind, predicate, confidence, since)


def _form_filter(
    store: StoreDep,
    editor: Editor,
    status: Annotated[str, Form()] = "pending",
    person: Annotated[str, Form()] = "",
    source: Annotated[str, Form()] = "",
    kind: Annotated[str, Form()] = "",
    predicate: Annotated[str, Form()] = "",
    confidence: Annotated[str, Form()] = "",
    new: Annotated[str, Form()] = "",
) -> QueueFilter:
    """The queue filter a form carried along (the editor's place in the queue)."""
    since = _since(store, editor, new)
    return parse_filter(status, person, source, kind, predicate, confidence, since)


QueryFilter = Annotated[QueueFilter, Depends(_query_filter)]
FormFilter = Annotated[QueueFilter, Depends(_form_filter)]


def queue_context(
    request: Request, store: StoreDep, filters: QueueFilter, page: int, since: str | None = None
) -> dict[str, Any]:
    """What the queue page shows; `since`: the editor's last visit (entries after it are new)."""
    size = request.app.state.settings.review_page_size
    facets = store.queue_facets(filters)
    # a status's whole queue, which the facets count: every fact names its person, so the
    # person facet's counts add up to the status's facts
    whole = filters == QueueFilter(filters.status) and filters.status is not None
    total = sum(n for _p, n in facets["person"]) if whole else store.count_facts(filters)
    pages = max(1, -(-total // size))
    page = min(max(1, page), pages)
    facts = store.queue_facts(filters, limit=size, offset=(page - 1) * size)
    source_totals = dict(facets["source"]) if filters == QueueFilter(filters.status) else {}
    if not source_totals:
        source_totals = {
            url: store.count_facts(replace(filters, source_url=url))
            for url in {f[0].source_url for f in facts}
        }
    profiles_dir = request.app.state.settings.profiles_dir
    wanted = {f[0].profile for f in facts} | {p for p, _n in facets.get("person", [])}
    profiles = {p: load_profile_or_none(profiles_dir, p) for p in wanted}
    new = QueueFilter(status="pending", created_after=since or EVERYTHING)
    new_count = (
        total  # new since before the first visit: every pending fact
        if new.created_after == EVERYTHING and whole and filters.status == "pending"
        else store.count_facts(new)
    )
    return {
        "filters": filters,
        "status_value": filters.status or "all",
        "statuses": STATUSES,
        "kinds": KINDS,
        "confidences": CONFIDENCES,
        "facets": facets,
        "names": {p: prof.name for p, prof in profiles.items() if prof is not None},
        "groups": queue_groups(
            facts,
            source_totals,
            source_titles(store.source_states(sorted({m.source_url for f in facts for m in f}))),
            profiles,
            since,
        ),
        "since": since,
        "new_count": new_count,
        "total": total,
        "page": page,
        "pages": pages,
        "query": filter_query(filters),
        "page_query": lambda n: filter_query(filters, page=n),
        "bulk": None,
        "undone": None,
    }


def profile_name_of(request: Request, profile_id: str) -> dict[str, str]:
    """{id: the profile's name} ({} when it cannot be read), read once per request (a bulk
    names one person in many statements; a decision never changes a profile's name)."""
    names: dict[str, dict[str, str]] | None = getattr(request.state, "profile_names", None)
    if names is None:
        names = request.state.profile_names = {}
    if profile_id not in names:
        found = load_profile_or_none(request.app.state.settings.profiles_dir, profile_id)
        names[profile_id] = {profile_id: found.name} if found else {}
    return names[profile_id]
