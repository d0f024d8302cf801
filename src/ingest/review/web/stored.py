"""What an editor looks up beside the queue: a change's stored snapshot and its PDF evidence
image, a profile with its pending flags, the audit log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import PlainTextResponse, Response

from ingest.errors import NotPdfError, PdfEvidenceError, ProfileError, StoreError
from ingest.profiles.io import load_profile, profile_names, profile_path, valid_profile_id
from ingest.review.web.auth import Editor, StoreDep
from ingest.review.web.evidence import is_pdf, snapshot_sha256
from ingest.review.web.params import Page, is_change_id, no_nul_characters
from ingest.review.web.pdf_evidence import ImageCache, claim_targets
from ingest.review.web.render import render as _render
from ingest.review.web.views import filter_query, profile_view, queue_groups
from ingest.statements import change_sentence, person
from ingest.storage import QueueFilter

router = APIRouter(dependencies=[Depends(no_nul_characters)])
AUDIT_PAGE = 100
MAX_LISTED = 200  # statements listed for one audit entry (a bulk's)


@router.get("/changes/{change_id}/snapshot")
def snapshot(change_id: str, editor: Editor, store: StoreDep, download: bool = False) -> Response:
    """The stored snapshot as bytes, as text/plain or a download: never rendered as HTML.
    A PDF is always a download, as application/pdf."""
    row = store.get_change(change_id) if is_change_id(change_id) else None
    sha = snapshot_sha256(row)
    if not sha:
        return PlainTextResponse("no stored snapshot for this change", status_code=404)
    try:
        snap = store.get_snapshot(sha)
    except StoreError as exc:
        return PlainTextResponse(str(exc), status_code=404)
    headers = {
        "content-security-policy": "sandbox; default-src 'none'",
        "x-content-type-options": "nosniff",
    }
    if is_pdf(snap):
        headers["content-disposition"] = f'attachment; filename="{sha[:16]}.pdf"'
        return Response(snap.body, media_type="application/pdf", headers=headers)
    headers["content-disposition"] = f'attachment; filename="{sha}.txt"' if download else "inline"
    return Response(snap.body, media_type="text/plain; charset=utf-8", headers=headers)


@router.get("/changes/{change_id}/evidence.png")
def evidence_image(request: Request, change_id: str, editor: Editor, store: StoreDep) -> Response:
    """Page 1 of the change's stored PDF, cropped to the person's name and the quote, both
    highlighted (ingest.review.web.pdf_evidence; rendered once, then served from INGEST_HOME)."""
    row = store.get_change(change_id) if is_change_id(change_id) else None
    sha = snapshot_sha256(row)
    if row is None or not sha:
        return PlainTextResponse("no stored snapshot for this change", status_code=404)

    def load_pdf() -> bytes:
        return store.get_snapshot(sha).body

    images = ImageCache.under(request.app.state.settings.home)
    try:
        png = images.png(sha, row.id, load_pdf, claim_targets(row.claim or {}))
    except (StoreError, NotPdfError) as exc:
        return PlainTextResponse(str(exc), status_code=404)
    except (PdfEvidenceError, ValueError) as exc:
        return PlainTextResponse(str(exc), status_code=422)
    return Response(png, media_type="image/png", headers={"cache-control": "private"})


@router.get("/profiles/{profile_id}")
def profile_page(request: Request, profile_id: str, editor: Editor, store: StoreDep) -> Response:
    if not valid_profile_id(profile_id):
        return PlainTextResponse("no such profile", status_code=404)
    try:
        profile = load_profile(profile_path(request.app.state.settings.profiles_dir, profile_id))
    except ProfileError:
        return PlainTextResponse("no such profile", status_code=404)
    pending = store.queue_facts(QueueFilter(status="pending", profile=profile_id), limit=100)
    context = {
        "view": profile_view(profile),
        "pending": queue_groups(pending, {}),
        "pending_total": store.count_facts(QueueFilter(status="pending", profile=profile_id)),
        "query": filter_query(QueueFilter(status="pending", profile=profile_id)),
    }
    return _render(request, "profile.html", context)


def _statements(
    store: StoreDep, entry: Mapping[str, Any], names: dict[str, str]
) -> list[dict[str, str]]:
    """Each change an audit entry is about, with its own profile (a bulk spans several)."""
    detail = entry.get("detail") or {}
    ids = [str(i) for i in (detail.get("changes") or [])] or (
        [str(entry["change_id"])] if entry.get("change_id") else []
    )
    out = []
    for change_id in ids[:MAX_LISTED]:
        row = store.get_change(change_id) if is_change_id(change_id) else None
        if row is None:
            continue
        out.append(
            {
                "id": row.id,
                "profile": row.profile,
                "person": person(row.profile, names),
                "kind": row.kind,
                "text": change_sentence(row),
            }
        )
    return out


@router.get("/audit")
def audit_page(
    request: Request,
    editor: Editor,
    store: StoreDep,
    page: Page = 1,
    actor: str = "",
    action: str = "",
    person_id: Annotated[str, Query(alias="person")] = "",
) -> Response:
    """The audit log, newest first: each entry's statements in words (a bulk's each with its
    own profile), who and when; filtered by editor, action and profile."""
    wanted = {"actor": actor or None, "action": action or None, "profile": person_id or None}
    entries, total = store.audit_page(AUDIT_PAGE, (page - 1) * AUDIT_PAGE, **wanted)
    pages = max(1, -(-total // AUDIT_PAGE))
    if page > pages:  # past the end: the last page, as the queue does
        page = pages
        entries, total = store.audit_page(AUDIT_PAGE, (page - 1) * AUDIT_PAGE, **wanted)
    names = profile_names(request.app.state.settings.profiles_dir)
    actors, actions = store.audit_choices()
    rows = [e.to_dict() | {"statements": _statements(store, e, names)} for e in entries]
    query = urlencode({k: v for k, v in (("actor", actor), ("action", action),
                                         ("person", person_id)) if v})  # fmt: skip
    return _render(
        request,
        "audit.html",
        {
            "entries": rows,
            "page": page,
            "pages": pages,
            "total": total,
            "actors": actors,
            "actions": actions,
            "people": sorted(names.items(), key=lambda kv: kv[1]),
            "names": names,
            "wanted": {"actor": actor, "action": action, "person": person_id},
            "query": query,
        },
    )
