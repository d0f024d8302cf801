"""Bulk decisions from the queue: the rows an editor ticked, in any source's group, accepted or
rejected in ONE action after a confirmation page naming every statement.

A bulk takes rows of one kind (a mix is refused with 400). Its decisions share one bulk id, so
`u` (or `ingest review undo`) takes the whole bulk back, and the audit log records it as one
`bulk_accepted` / `bulk_rejected` entry listing its changes.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import PlainTextResponse, Response

from ingest.errors import AlreadyDecidedError, IngestError
from ingest.review.decisions import Decided, decide, decide_many, record_bulk
from ingest.review.grouping import source_label, source_titles
from ingest.review.snapshots import snapshot_time
from ingest.review.web.auth import CSRF, Editor, StoreDep
from ingest.review.web.evidence import snapshot_sha256
from ingest.review.web.filters import FormFilter, profile_name_of, queue_context
from ingest.review.web.params import is_change_id, no_nul_characters
from ingest.review.web.render import render as _render
from ingest.review.web.views import filter_query
from ingest.statements import change_sentence, person
from ingest.storage import ChangeRow, Store

router = APIRouter(dependencies=[Depends(no_nul_characters)])
BULK_ACTIONS = {"accept": "accepted", "reject": "rejected"}
KIND_WORDS = {"added": "additions", "changed": "changes", "removed": "removals"}


def _said(request: Request, row: ChangeRow) -> str:
    return f"{person(row.profile, profile_name_of(request, row.profile))}: {change_sentence(row)}"


def _items(request: Request, store: Store, rows: list[ChangeRow]) -> list[dict[str, Any]]:
    titles = source_titles(store.source_states(sorted({r.source_url for r in rows})))
    return [
        row.to_dict()
        | {
            "person": person(row.profile, profile_name_of(request, row.profile)),
            "summary": change_sentence(row),
            "source": source_label(row, titles.get(row.source_url)),
            "when": snapshot_time(store, snapshot_sha256(row)),
        }
        for row in rows
    ]


@router.post("/bulk", dependencies=[CSRF])
def bulk_decide(
    request: Request,
    editor: Editor,
    store: StoreDep,
    filters: FormFilter,
    ids: Annotated[list[str], Form()] = [],  # noqa: B006 (FastAPI copies defaults)
    note: Annotated[str, Form()] = "",
    confirmed: Annotated[str, Form()] = "",
    action: Annotated[str, Form()] = "accept",
) -> Response:
    """Accept or reject the facts the editor selected (any groups), all of one kind, after a
    confirmation page naming each statement (`confirmed=1` is the confirmation's own POST)."""
    status = BULK_ACTIONS.get(action)
    if status is None:
        return PlainTextResponse("action must be accept or reject", status_code=400)
    profiles_dir = request.app.state.settings.profiles_dir
    wanted = [i for i in dict.fromkeys(ids) if is_change_id(i)]
    found = store.get_changes(wanted)  # one query, not one per row
    rows = [found[i] for i in wanted if i in found]
    failed: list[tuple[str, str]] = [
        (i[:64], "not a change id") for i in dict.fromkeys(ids) if not is_change_id(i)
    ]
    kinds = sorted({r.kind for r in rows})
    refused = ""
    if not rows:
        refused = "Nothing selected."
    elif len(kinds) > 1:
        refused = (
            f"A bulk {action} takes changes of one kind: select only "
            + " or only ".join(kinds)
            + " rows."
        )
    if refused:
        context = queue_context(request, store, filters, 1)  # the queue as it is, nothing done
        context["bulk"] = {"done": [], "conflicts": [], "failed": failed, "refused": refused}
        return _render(request, "queue.html", context, status_code=400 if rows else 200)
    if confirmed != "1":
        return _render(
            request,
            "confirm_bulk.html",
            {
                "items": _items(request, store, rows),
                "action": action,
                "kind": kinds[0],
                "kind_words": KIND_WORDS[kinds[0]],
                "filters": filters,
                "query": filter_query(filters),
                "note": note,
            },
        )
    bulk = uuid.uuid4().hex
    done: list[Decided] = []
    conflicts: list[dict[str, Any]] = []
    try:  # one transaction, each profile file written once
        many = decide_many(
            store, profiles_dir, [r.id for r in rows], status, editor, note.strip() or None, bulk
        )
    except IngestError:  # a profile that cannot be read or written: one by one, to say which
        many = None
    if many is not None:
        done = many.done
        conflicts = [
            {"id": exc.fields["change_id"], "status": exc.fields["status"], "by": exc.fields["by"]}
            for exc in many.conflicts
        ]
        failed += many.failed
    for row in rows if many is None else []:
        try:
            done.append(
                decide(
                    store,
                    profiles_dir,
                    row.id,
                    status,
                    editor,
                    note.strip() or None,
                    bulk=bulk,
                    audit=False,
                )  # fmt: skip
            )
        except AlreadyDecidedError as exc:
            conflicts.append({"id": row.id, "status": exc.fields["status"], "by": exc.fields["by"]})
        except IngestError as exc:
            failed.append((row.id, str(exc)))
    record_bulk(store, editor, status, bulk, done, note.strip() or None)
    context = queue_context(request, store, filters, 1)
    context["bulk"] = {
        "done": [d.change.id for d in done],
        "verb": status.capitalize(),
        "statements": [_said(request, r) for r in rows if any(d.change.id == r.id for d in done)],
        "kind": kinds[0],
        "kind_words": KIND_WORDS[kinds[0]],
        "conflicts": conflicts,
        "failed": failed,
    }
    return _render(request, "queue.html", context)
