"""Editors' decisions: accept or reject a queued change, exactly once, never lost.

Accepting writes the profile file atomically (claim added, updated or removed; the source's
reference added, or its `accessed` date moved on to the day the evidence was seen, with the
snapshot and quote accepted; `updated` set), records the decision with the
profile's exact text before and after, and appends to the audit log, all or nothing. When two
editors decide the same change at once, the conditional update lets exactly one through; the other
gets AlreadyDecidedError saying who decided it.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Literal

from sqlalchemy.engine import Connection

from ingest.documents import publisher_of, title_of
from ingest.errors import (
    AlreadyDecidedError,
    ChangeNotFoundError,
    ProfileError,
    ReviewError,
    StoreError,
)
from ingest.models import Change, Profile, iso_z, utcnow
from ingest.profiles.io import profile_path, read_profile, render, write_profile_text
from ingest.profiles.locks import profile_lock
from ingest.review.apply import apply_fact
from ingest.storage import HistoryEntry, QueueFilter, Store
from ingest.storage.decisions import NewDecision
from ingest.storage.rows import ChangeRow, DecisionRow, SourceRow


@dataclass
class Decided:
    change: Change  # the change decided (the fact's leading one)
    status: str
    profile_file: Path | None
    group: list[Change] = field(default_factory=list)  # every change of the fact decided


def resolve_id(store: Store, change_id: str) -> str:
    """A full change id from an id or an unambiguous prefix of at least 6 characters."""
    if store.get_change(change_id):
        return change_id
    if len(change_id) >= 6:
        found = store.find_changes(change_id)
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise ReviewError(f"change id prefix '{change_id}' is ambiguous ({len(found)} match)")
    raise ChangeNotFoundError(change_id)


class _ProfileFile:
    """The one profile file a decision rewrites, and how to put it back."""

    def __init__(self) -> None:
        self.undo: list[tuple[Path, str]] = []

    def write(self, path: Path, text: str, before: str) -> None:
        """Write the file (ProfileError naming it and the cause when it cannot be written)."""
        write_profile_text(path, text)
        self.undo.append((path, before))

    def put_back(self) -> None:
        """Restore the texts the files had before `write` (after a failed transaction)."""
        for path, before in reversed(self.undo):
            try:
                write_profile_text(path, before)
            except ProfileError as exc:
                raise ProfileError(
                    str(path),
                    "the decision was not recorded, but the file keeps the text written for it: "
                    f"it could not be put back as it was ({exc.fields['reason']})",
                ) from exc


@contextmanager
def _locked(profiles_dir: Path) -> Iterator[None]:
    """The profiles' lock; an OS error taking it (a read-only folder that has no lock file yet)
    is a ProfileError naming the file and the cause."""
    with ExitStack() as stack:
        try:
            stack.enter_context(profile_lock(profiles_dir))
        except OSError as exc:
            where = str(exc.filename or profiles_dir)
            raise ProfileError(where, f"cannot lock the profiles: {exc.strerror or exc}") from exc
        yield


@contextmanager
def profile_transaction(
    store: Store, profiles_dir: Path
) -> Iterator[tuple[Connection, _ProfileFile]]:
    """A database transaction that may rewrite one profile file, all or nothing: under the
    profiles' lock; when the transaction fails after the file was written, the file is put back.
    A file that cannot be written fails the transaction: nothing is recorded."""
    profile_file = _ProfileFile()
    try:
        with _locked(profiles_dir), store.begin() as conn:
            yield conn, profile_file
    except BaseException:
        profile_file.put_back()
        raise


def decide(
    store: Store,
    profiles_dir: Path,
    change_id: str,
    status: str,
    editor: str,
    note: str | None = None,
    today: date | None = None,
    *,
    bulk: str | None = None,
    audit: bool = True,
) -> Decided:
    """Accept or reject one pending change, and with it every pending change stating the same
    fact for the same profile (ingest.review.grouping): an accept writes ONE claim citing every
    source, a reject rejects them all. Each change gets its decision row; they share a `bulk` id
    (the one given, for a bulk action, else a new one when there are several), so undo takes them
    back together. `audit=False` leaves the audit entry to the caller (one for a whole bulk)."""
    if status not in ("accepted", "rejected"):
        raise ReviewError(f"unknown decision '{status}' (accept or reject)")
    if not editor.strip():
        raise ReviewError("a decision needs the editor's name")
    try:  # a full id is claimed at once; else it may be a prefix of one
        return _decide(store, profiles_dir, change_id, status, editor, note, today, bulk, audit)
    except ChangeNotFoundError:
        full = resolve_id(store, change_id)
    return _decide(store, profiles_dir, full, status, editor, note, today, bulk, audit)


def _decide(
    store: Store,
    profiles_dir: Path,
    change_id: str,
    status: str,
    editor: str,
    note: str | None,
    today: date | None,
    bulk: str | None,
    audit: bool,
) -> Decided:
    """`decide` for a full change id (ChangeNotFoundError when there is no such change)."""
    now = iso_z(utcnow())
    with profile_transaction(store, profiles_dir) as (conn, profile_file):
        row = _claim(store, conn, change_id, status, now)
        rows = [row, *claim_members(store, conn, row, status, now)]
        group = [r.to_change() for r in rows]
        change = group[0]
        if len(group) > 1 and bulk is None:
            bulk = uuid.uuid4().hex
        path: Path | None = None
        before = after = None
        if status == "accepted":
            path = profile_path(profiles_dir, change.profile)
            profile, before = read_profile(path)  # read here: this decision's own copy
            refs = [
                reference_for_change(store, c, r.snapshot_sha256)
                for c, r in zip(group, rows, strict=True)
            ]
            apply_fact(profile, group, refs, today or utcnow().date(), in_place=True)
            after = render(profile)
        record_group(
            store, conn, group, NewDecision(
                change_id="", status=status, editor=editor, note=note, decided_at=now,
                profile_path=str(path) if path else None, profile_before=before,
                profile_after=after, bulk=bulk,
            ),
        )  # fmt: skip
        if audit:
            extra: dict[str, Any] = {}
            if len(group) > 1:
                extra = {"changes": [c.id for c in group], "bulk": bulk}
            store.audit(
                conn,
                editor,
                status,
                change_id=change_id,
                profile=change.profile,
                note=note,
                kind=change.kind,
                source_url=change.source_url,
                **extra,
            )
        if path is not None and after is not None and before is not None:
            profile_file.write(path, after, before)
    for member in group:
        member.status = status  # type: ignore[assignment]
    return Decided(change=change, status=status, profile_file=path, group=group)


@dataclass
class BulkDecided:
    """What a bulk decision did: the facts decided, those another decision came first for
    (AlreadyDecidedError, as `decide` raises it), and the ids that failed with why."""

    done: list[Decided] = field(default_factory=list)
    conflicts: list[AlreadyDecidedError] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)


def decide_many(
    store: Store,
    profiles_dir: Path,
    change_ids: list[str],
    status: str,
    editor: str,
    note: str | None,
    bulk: str,
    today: date | None = None,
) -> BulkDecided:
    """`decide` for each change in turn (audit=False, sharing `bulk`), in ONE transaction that
    writes each profile file once, at the end: every decision records the texts before and
    after it as if the files had been written one decision at a time (undo takes the bulk back
    whole, to the text before its first decision). A change decided before (another editor, or
    an earlier fact of this bulk) is a conflict, as with `decide`. Any other error (a profile
    that cannot be read or written) undoes the whole transaction and is raised: the caller may
    then decide one by one (`decide`), which says which failed."""
    if status not in ("accepted", "rejected"):
        raise ReviewError(f"unknown decision '{status}' (accept or reject)")
    if not editor.strip():
        raise ReviewError("a decision needs the editor's name")
    now = iso_z(utcnow())
    out = BulkDecided()
    texts: dict[Path, tuple[str, str]] = {}  # file -> (its text before the bulk, after so far)
    profiles: dict[Path, Profile] = {}  # file -> the profile its latest text states
    states: dict[str, SourceRow | None] = {}  # each source's state, read once
    with profile_transaction(store, profiles_dir) as (conn, profile_file):
        for change_id in change_ids:
            try:
                row = _claim(store, conn, change_id, status, now)
            except ChangeNotFoundError as exc:
                out.failed.append((change_id, str(exc)))
                continue
            except AlreadyDecidedError as exc:
                out.conflicts.append(exc)
                continue
            rows = [row, *claim_members(store, conn, row, status, now)]
            group = [r.to_change() for r in rows]
            change = group[0]
            path: Path | None = None
            before = after = None
            if status == "accepted":
                path = profile_path(profiles_dir, change.profile)
                if path in texts:  # the bulk's own copy, as its last decision left it
                    before, profile = texts[path][1], profiles[path]
                else:
                    profile, before = read_profile(path)
                for c in group:
                    if c.source_url not in states:
                        states[c.source_url] = store.source_state(c.source_url)
                refs = [
                    reference_for_change(store, c, r.snapshot_sha256, states[c.source_url])
                    for c, r in zip(group, rows, strict=True)
                ]
                profiles[path] = apply_fact(
                    profile, group, refs, today or utcnow().date(), in_place=True
                )
                after = render(profiles[path])
                texts[path] = (texts[path][0] if path in texts else before, after)
            record_group(
                store, conn, group, NewDecision(
                    change_id="", status=status, editor=editor, note=note, decided_at=now,
                    profile_path=str(path) if path else None, profile_before=before,
                    profile_after=after, bulk=bulk,
                ),
            )  # fmt: skip
            for member in group:
                member.status = status  # type: ignore[assignment]
            out.done.append(Decided(change=change, status=status, profile_file=path, group=group))
        for path, (first, last) in texts.items():
            profile_file.write(path, last, first)
    return out


def record_bulk(
    store: Store, editor: str, status: str, bulk: str, decided: list[Decided], note: str | None
) -> None:
    """The audit log's one entry for a bulk action (its decisions were taken with audit=False)."""
    if not decided:
        return
    with store.begin() as conn:
        store.audit(
            conn,
            editor,
            f"bulk_{status}",
            change_id=decided[0].change.id,
            profile=decided[0].change.profile,
            note=note,
            bulk=bulk,
            changes=[c.id for d in decided for c in d.group],
            kind=decided[0].change.kind,
        )


def reference_for_change(
    store: Store,
    change: Change,
    snapshot_sha256: str | None,
    state: SourceRow | None | Literal[False] = False,
) -> dict[str, Any]:
    """Title, publisher, kind for the reference an accepted change cites, and what was seen
    when: `accessed` and `snapshot_date` the day the snapshot is evidence for (a recording's
    date, a local file's --as-of day, a fetch's day), `snapshot_sha256`, and the claim's
    `quote`. `state`: the source's state when the caller has read it already."""
    if state is False:
        state = store.source_state(change.source_url)
    meta = dict((state.meta if state else None) or {})
    info: dict[str, Any] = {
        "url": change.source_url,
        "title": meta.get("title"),
        "publisher": meta.get("publisher"),
        "kind": meta.get("kind"),
    }
    if snapshot_sha256:
        try:
            snap = store.get_snapshot(snapshot_sha256)
        except StoreError:
            snap = None
        if snap is not None:
            info["title"] = info["title"] or title_of(snap)
            day = snap.evidence_date or snap.fetched_at.date().isoformat()
            info["accessed"] = day
            info["snapshot_sha256"] = snap.sha256
            info["snapshot_date"] = day
    quote = ((change.claim or {}).get("evidence") or {}).get("quote")
    if quote:
        info["quote"] = str(quote)
    info["publisher"] = info["publisher"] or publisher_of(change.source_url)
    return info


def history(store: Store, change_id: str) -> list[HistoryEntry]:
    """The decisions taken on a change, oldest first (without the profile texts)."""
    return store.decision_history(change_id)


class NothingToUndoError(ReviewError):
    """The editor has no decision left that can be undone."""

    def __init__(self, editor: str) -> None:
        super().__init__(f"editor '{editor}' has no decision to undo", editor=editor)


class UndoConflictError(ReviewError):
    """The profile file changed after the accept: restoring it would lose that later edit."""

    def __init__(self, change_id: str, path: str) -> None:
        super().__init__(
            f"cannot undo the accept of change '{change_id}': profile file '{path}' changed "
            "since it was written (undo the later decisions first, or edit the file by hand)",
            change_id=change_id,
            path=path,
        )


@dataclass
class Undone:
    change: Change
    undid: str  # the status taken back: accepted or rejected
    profile_file: Path | None
    group: list[Change] = field(default_factory=list)  # every change put back to pending


def undo_last(store: Store, profiles_dir: Path, editor: str, note: str | None = None) -> Undone:
    """Take back the editor's last decision that still stands, a bulk one (a fact's changes, a
    bulk accept: the decisions sharing a `bulk` id) whole.

    The changes go back to pending; after an accept each profile file is restored exactly to its
    text before the action, refused (UndoConflictError) unless the file is still exactly what the
    action wrote. The undo is recorded as decisions (status `undone`) and one audit entry; no row
    is changed or deleted. Called again, it takes back the decision before that one.
    """
    now = iso_z(utcnow())
    with profile_transaction(store, profiles_dir) as (conn, profile_file):
        last = store.last_standing(conn, editor)
        if last is None:
            raise NothingToUndoError(editor)
        taken: list[DecisionRow] = [last]
        if last.bulk:
            taken = store.standing_in_bulk(conn, editor, last.bulk)
        # per profile file: the text before the first decision, the text after the last one
        files: dict[str, tuple[str | None, str | None]] = {}
        for d in taken:
            if d.status == "accepted" and d.profile_path:
                first_before = files.get(d.profile_path, (d.profile_before, None))[0]
                files[d.profile_path] = (first_before, d.profile_after)
        back: list[Change] = []
        for d in taken:
            if not store.move_change(conn, d.change_id, d.status, "pending", now):
                raise NothingToUndoError(editor)
            row = store.get_change(d.change_id, conn)
            assert row is not None
            back.append(row.to_change())
        writes: list[tuple[Path, str, str]] = []
        for name, (restored, written) in files.items():
            path = Path(name)
            try:
                current = path.read_text(encoding="utf-8")
            except OSError as exc:
                raise ProfileError(str(path), f"cannot read: {exc.strerror or exc}") from exc
            if current != written:
                raise UndoConflictError(last.change_id, str(path))
            if restored is not None:
                writes.append((path, restored, current))
        undo_bulk = uuid.uuid4().hex if len(taken) > 1 else None
        for d in taken:
            where: str | None = d.profile_path if d.status == "accepted" else None
            texts = files.get(where) if where else None
            store.record_decision(
                conn,
                NewDecision(
                    change_id=d.change_id,
                    status="undone",
                    editor=editor,
                    note=note,
                    decided_at=now,
                    profile_path=where,
                    profile_before=texts[1] if texts else None,
                    profile_after=texts[0] if texts else None,
                    bulk=undo_bulk,
                ),
            )
        extra: dict[str, Any] = {}
        if len(taken) > 1:
            extra = {"changes": [c.id for c in back], "bulk": last.bulk}
        store.audit(
            conn,
            editor,
            "undone",
            change_id=last.change_id,
            profile=back[0].profile,
            note=note,
            undid=last.status,
            decision=last.id,
            source_url=back[0].source_url,
            **extra,
        )
        for path, restored, current in writes:
            profile_file.write(path, restored, current)
    lead = next(c for c in back if c.id == last.change_id)
    path_of = Path(last.profile_path) if last.profile_path else None
    return Undone(change=lead, undid=last.status, profile_file=path_of, group=back)


def _claim(store: Store, conn: Connection, change_id: str, status: str, now: str) -> ChangeRow:
    """Move a pending change to `status` and return it; else why not: ChangeNotFoundError, or
    AlreadyDecidedError naming who decided it first."""
    row = store.claim_change(conn, change_id, "pending", status, now)
    if row is not None:
        return row
    found = store.get_change(change_id, conn)
    if found is None:
        raise ChangeNotFoundError(change_id)
    raise AlreadyDecidedError(change_id, found.status, store.last_decider(conn, change_id))


def claim_members(
    store: Store, conn: Connection, row: ChangeRow, status: str, now: str
) -> list[ChangeRow]:
    """The other pending changes of `row`'s fact, each moved to `status` in `conn` (those another
    editor decided meanwhile are left out): one decision takes the whole fact."""
    return [
        other
        for other in store.fact_members(row, QueueFilter(status="pending"), conn)
        if store.move_change(conn, other.id, "pending", status, now)
    ]


def record_group(
    store: Store, conn: Connection, group: list[Change], decision: NewDecision
) -> None:
    """`decision` recorded once for every change of the group (its change_id set per member)."""
    for member in group:
        store.record_decision(conn, dataclasses.replace(decision, change_id=member.id))
