"""The queue and the editors' decisions, against a real SQLite file and real profile files."""

from __future__ import annotations

import json
import os
import threading
from datetime import date

import pytest

import extractors
from ingest.errors import AlreadyDecidedError, ChangeNotFoundError, ProfileError, ReviewError
from ingest.models import Source
from ingest.pipeline.process import process_snapshot
from ingest.profiles.io import load_profiles
from ingest.review.decisions import decide, history
from ingest.settings import Settings
from ingest.storage import Store

from .helpers import page

pytestmark = pytest.mark.postgres  # also on PostgreSQL: see tests/conftest.py

URL = "https://example.org/maintainers"
SOURCE = Source(
    url=URL,
    extractor="pytorch_governance",
    title="Maintainers",
    publisher="Example",
    kind="Documentation",
    authoritative=["maintainer:PyTorch"],
)


def lead_page(lead: tuple[str, str], core: list[tuple[str, str]]):
    return page(("Lead Core Maintainer", "", [lead]), ("Core Maintainers", "", core), url=URL)


CORE = [
    ("Soumith Chintala", "soumith"),
    ("Natalia Gimelshein", "ngimel"),
    ("Edward Yang", "ezyang"),
]


def run_page(store: Store, settings: Settings, snap):
    store.upsert_source(SOURCE)
    return process_snapshot(
        store, settings, SOURCE, snap, load_profiles(settings.profiles_dir), extractors=extractors
    )


def test_same_change_is_queued_once(store: Store, workspace: Settings) -> None:
    snap = lead_page(("Alban Desmaison", "albanD"), CORE)
    first = run_page(store, workspace, snap)
    second = run_page(store, workspace, snap)
    assert [c["id"] for c in first.changes] == [c["id"] for c in second.changes]
    assert len(store.list_changes(status="pending")) == len(first.changes) > 0


def test_accept_writes_profile_reference_and_audit(store: Store, workspace: Settings) -> None:
    run = run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    soumith_core = next(
        c
        for c in run.changes
        if c["profile"] == "soumith-chintala" and c["claim"]["qualifiers"]["level"] == "core"
    )
    done = decide(
        store,
        workspace.profiles_dir,
        soumith_core["id"],
        "accepted",
        "ed",
        note="seen on the page",
        today=date(2026, 11, 29),
    )
    assert done.status == "accepted"
    data = json.loads((workspace.profiles_dir / "soumith-chintala.json").read_text())
    added = [c for c in data["claims"] if c["qualifiers"].get("section") == "Core Maintainers"]
    assert len(added) == 1
    ref = next(r for r in data["references"] if r["id"] == added[0]["refs"][0])
    assert ref["url"] == URL and ref["title"] == "Maintainers" and ref["publisher"] == "Example"
    # accessed: the day the evidence was seen (the snapshot's, issue 22), not the decision's
    seen = store.snapshot_meta(soumith_core["claim"]["evidence"]["sha256"])
    assert seen is not None and ref["accessed"] == seen.evidence_date
    assert data["updated"] == "2026-11-29"
    entry = store.audit_entries()[0]
    assert (entry["actor"], entry["action"], entry["change_id"]) == (
        "ed",
        "accepted",
        soumith_core["id"],
    )
    assert entry["detail"]["note"] == "seen on the page"
    assert history(store, soumith_core["id"])[0]["editor"] == "ed"


def test_accepting_everything_then_rerun_flags_nothing(store: Store, workspace: Settings) -> None:
    snap = lead_page(("Alban Desmaison", "albanD"), CORE)
    run = run_page(store, workspace, snap)
    assert run.changes
    for change in run.changes:
        decide(store, workspace.profiles_dir, change["id"], "accepted", "ed")
    assert run_page(store, workspace, snap).changes == []


def test_rejected_change_is_not_proposed_again_unless_evidence_changes(
    store: Store, workspace: Settings
) -> None:
    snap = lead_page(("Alban Desmaison", "albanD"), CORE)
    run = run_page(store, workspace, snap)
    target = next(c for c in run.changes if c["profile"] == "soumith-chintala")
    decide(store, workspace.profiles_dir, target["id"], "rejected", "ed", note="no")
    again = run_page(store, workspace, snap)
    assert target["id"] not in [c["id"] for c in again.changes]
    assert store.get_change(target["id"])["status"] == "rejected"
    # the same fact printed differently (a new display name) is new evidence
    core = [("Soumith Chintala (co-creator)", "soumith")] + CORE[1:]
    changed = run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), core))
    assert target["id"] in [c["id"] for c in changed.changes]
    assert store.get_change(target["id"])["status"] == "pending"


def test_stale_pending_change_is_superseded(store: Store, workspace: Settings) -> None:
    run = run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    soumith = [c for c in run.changes if c["profile"] == "soumith-chintala"]
    assert soumith
    without = [p for p in CORE if p[1] != "soumith"] + [("Piotr Bialecki", "ptrblck")]
    run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), without))
    assert all(store.get_change(c["id"])["status"] == "superseded" for c in soumith)


def test_layout_guard_flags_no_removals(store: Store, workspace: Settings) -> None:
    many = CORE + [(f"Person {i}", f"p{i}") for i in range(20)]
    run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), many))
    pending = {c.id for c in store.list_changes(status="pending")}
    broken = page(("Core Maintainers", "", [("Edward Yang", "ezyang")]), url=URL)
    outcome = run_page(store, workspace, broken)
    assert any("layout" in a for a in outcome.alerts)
    assert not [c for c in outcome.changes if c["kind"] == "removed"]
    # nothing queued before was lost or retired
    assert pending <= {c.id for c in store.list_changes(status="pending")}
    empty = page(url=URL)
    outcome = run_page(store, workspace, empty)
    assert outcome.claims == 0 and any("no list" in a for a in outcome.alerts)


def test_decisions_are_final_and_named(store: Store, workspace: Settings) -> None:
    run = run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    cid = run.changes[0]["id"]
    decide(store, workspace.profiles_dir, cid, "rejected", "first")
    with pytest.raises(AlreadyDecidedError) as err:
        decide(store, workspace.profiles_dir, cid, "accepted", "second")
    assert err.value.by == "first" and "rejected" in str(err.value)
    with pytest.raises(ChangeNotFoundError):
        decide(store, workspace.profiles_dir, "nope", "accepted", "x")
    with pytest.raises(ReviewError):
        decide(store, workspace.profiles_dir, cid[:8], "maybe", "x")


def test_two_editors_racing_apply_exactly_one_decision(workspace: Settings) -> None:
    setup = Store.open(workspace)
    run = run_page(setup, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    target = next(c for c in run.changes if c["kind"] == "added")
    cid = target["id"]
    setup.close()
    results: list[str] = []
    barrier = threading.Barrier(2)

    def editor(name: str) -> None:
        own = Store.open(workspace)  # each editor its own connection pool, like two processes
        barrier.wait()
        try:
            decide(own, workspace.profiles_dir, cid, "accepted", name)
            results.append("won")
        except AlreadyDecidedError:
            results.append("lost")
        finally:
            own.close()

    threads = [threading.Thread(target=editor, args=(n,)) for n in ("ann", "bob")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["lost", "won"]
    check = Store.open(workspace)
    assert len(history(check, cid)) == 1
    profile = json.loads((workspace.profiles_dir / f"{target['profile']}.json").read_text())
    section = target["claim"]["qualifiers"]["section"]
    written = [c for c in profile["claims"] if c["qualifiers"].get("section") == section]
    assert len(written) == 1
    check.close()


def test_failed_profile_write_rolls_back(store: Store, workspace: Settings) -> None:
    run = run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    change = run.changes[0]
    path = workspace.profiles_dir / f"{change['profile']}.json"
    before = path.read_text()
    path.write_text("{not json")
    with pytest.raises(Exception, match="profile"):
        decide(store, workspace.profiles_dir, change["id"], "accepted", "ed")
    assert store.get_change(change["id"])["status"] == "pending"
    assert history(store, change["id"]) == []
    path.write_text(before)


def test_renamed_heading_seen_under_another_url_is_one_change(
    store: Store, workspace: Settings
) -> None:
    crew = [("Ann A", "anna"), ("Bob B", "bobb"), ("Alban Desmaison", "albanD")]
    old = page(("Core Module maintainers", "Performance Tools", crew), url=URL)
    run_page(store, workspace, old)
    for change in store.list_changes(status="pending"):
        decide(store, workspace.profiles_dir, change.id, "accepted", "ed")
    renamed = page(
        ("Core Module maintainers", "Profiling and Monitoring Tools", crew),
        url="https://example.org/maintainers.md",
    )
    other = Source(
        url="https://example.org/maintainers.md",
        extractor="pytorch_governance",
        authoritative=["maintainer:PyTorch"],
    )
    store.upsert_source(other)
    outcome = process_snapshot(
        store,
        workspace,
        other,
        renamed,
        load_profiles(workspace.profiles_dir),
        extractors=extractors,
    )
    alban = [
        c
        for c in outcome.changes
        if c["profile"] == "alban-desmaison"
        and c["claim"]["qualifiers"].get("section") == "Profiling and Monitoring Tools"
    ]
    assert [c["kind"] for c in alban] == ["changed"]
    assert alban[0]["previous"]["qualifiers"]["section"] == "Performance Tools"


def test_undo_restores_the_profile_byte_for_byte_and_keeps_the_log(
    store: Store, workspace: Settings
) -> None:
    from ingest.review.decisions import NothingToUndoError, undo_last

    run = run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    first, second = [c for c in run.changes if c["profile"] == "soumith-chintala"][:1] + [
        c for c in run.changes if c["profile"] != "soumith-chintala"
    ][:1]
    path = workspace.profiles_dir / f"{first['profile']}.json"
    original = path.read_bytes()
    decide(store, workspace.profiles_dir, first["id"], "accepted", "ann", note="yes")
    decide(store, workspace.profiles_dir, second["id"], "rejected", "ann")
    assert path.read_bytes() != original
    undone = undo_last(store, workspace.profiles_dir, "ann")  # the reject first
    assert (undone.change.id, undone.undid) == (second["id"], "rejected")
    undone = undo_last(store, workspace.profiles_dir, "ann")
    assert (undone.change.id, undone.undid) == (first["id"], "accepted")
    assert path.read_bytes() == original
    assert store.get_change(first["id"])["status"] == "pending"
    assert [h["status"] for h in history(store, first["id"])] == ["accepted", "undone"]
    actions = [e["action"] for e in store.audit_entries()][:4]
    assert actions == ["undone", "undone", "rejected", "accepted"]
    with pytest.raises(NothingToUndoError):
        undo_last(store, workspace.profiles_dir, "ann")
    # decided again after the undo: accepted once more, by someone else
    decide(store, workspace.profiles_dir, first["id"], "accepted", "bob")
    with pytest.raises(NothingToUndoError):
        undo_last(store, workspace.profiles_dir, "ann")


def test_undo_refuses_when_the_file_changed_since(store: Store, workspace: Settings) -> None:
    from ingest.review.decisions import UndoConflictError, undo_last

    run = run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    change = run.changes[0]
    decide(store, workspace.profiles_dir, change["id"], "accepted", "ann")
    path = workspace.profiles_dir / f"{change['profile']}.json"
    edited = path.read_text() + " "
    path.write_text(edited)
    with pytest.raises(UndoConflictError, match="changed since"):
        undo_last(store, workspace.profiles_dir, "ann")
    assert path.read_text() == edited
    assert store.get_change(change["id"])["status"] == "accepted"
    assert [h["status"] for h in history(store, change["id"])] == ["accepted"]


# -- profile files: their permissions, and a folder that cannot be written ------------------


def soumith_change(store: Store, workspace: Settings) -> dict:
    run = run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    return next(c for c in run.changes if c["profile"] == "soumith-chintala")


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o664])
def test_accept_keeps_the_profile_file_permissions(
    store: Store, workspace: Settings, mode: int
) -> None:
    change = soumith_change(store, workspace)
    path = workspace.profiles_dir / "soumith-chintala.json"
    path.chmod(mode)
    decide(store, workspace.profiles_dir, change["id"], "accepted", "ed")
    assert "Core Maintainers" in path.read_text()
    assert oct(path.stat().st_mode & 0o777) == oct(mode)


def test_write_atomic_keeps_modes_and_new_files_follow_the_umask(tmp_path) -> None:
    from ingest.files import write_atomic

    kept = tmp_path / "kept.json"
    kept.write_bytes(b"old")
    kept.chmod(0o604)
    write_atomic(kept, b"new")
    assert kept.read_bytes() == b"new" and kept.stat().st_mode & 0o777 == 0o604
    for umask, expected in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o644)):
        old = os.umask(umask)
        try:
            fresh = tmp_path / f"new-{umask:o}.json"
            write_atomic(fresh, b"x")
        finally:
            os.umask(old)
        assert fresh.stat().st_mode & 0o777 == expected, oct(umask)
    secret = tmp_path / "state.json"  # an explicit mode: never wider, even for a moment
    write_atomic(secret, b"token", mode=0o600)
    assert secret.stat().st_mode & 0o777 == 0o600
    kept.chmod(0o644)
    write_atomic(kept, b"again", mode=0o600)
    assert kept.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "kept.json",
        "new-2.json",
        "new-22.json",
        "new-77.json",
        "state.json",
    ]  # no temporary file left behind


def assert_nothing_recorded(store: Store, change_id: str, path, before: bytes, audit: int) -> None:
    assert store.get_change(change_id)["status"] == "pending"
    assert history(store, change_id) == []
    assert len(store.audit_entries(1000)) == audit
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_accept_that_cannot_write_the_profile_is_a_clear_error_and_records_nothing(
    store: Store, workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a read-only profiles folder does (simulated: the tests may run as root)."""
    change = soumith_change(store, workspace)
    path = workspace.profiles_dir / "soumith-chintala.json"
    before, audit = path.read_bytes(), len(store.audit_entries(1000))
    real_replace = os.replace

    def refused(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(os, "replace", refused)
    with pytest.raises(ProfileError) as err:
        decide(store, workspace.profiles_dir, change["id"], "accepted", "ed")
    assert str(err.value) == f"profile '{path}': cannot write: Permission denied"
    assert err.value.path == str(path)
    assert_nothing_recorded(store, change["id"], path, before, audit)
    monkeypatch.setattr(os, "replace", real_replace)  # writable again: the change is still there
    decide(store, workspace.profiles_dir, change["id"], "accepted", "ed")
    assert store.get_change(change["id"])["status"] == "accepted"


def test_accept_that_cannot_take_the_profiles_lock_is_a_clear_error(
    store: Store, workspace: Settings
) -> None:
    change = soumith_change(store, workspace)
    path = workspace.profiles_dir / "soumith-chintala.json"
    before, audit = path.read_bytes(), len(store.audit_entries(1000))
    lock = workspace.profiles_dir / ".ingest.lock"
    lock.unlink(missing_ok=True)
    lock.mkdir()  # cannot be opened as the lock file, even by root
    with pytest.raises(ProfileError, match=r"\.ingest\.lock'?: cannot lock the profiles: "):
        decide(store, workspace.profiles_dir, change["id"], "accepted", "ed")
    assert_nothing_recorded(store, change["id"], path, before, audit)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_accept_into_a_read_only_profiles_folder(store: Store, workspace: Settings) -> None:
    change = soumith_change(store, workspace)
    path = workspace.profiles_dir / "soumith-chintala.json"
    before, audit = path.read_bytes(), len(store.audit_entries(1000))
    (workspace.profiles_dir / ".ingest.lock").touch()
    workspace.profiles_dir.chmod(0o555)
    try:
        with pytest.raises(ProfileError, match="cannot write: Permission denied"):
            decide(store, workspace.profiles_dir, change["id"], "accepted", "ed")
    finally:
        workspace.profiles_dir.chmod(0o755)
    assert_nothing_recorded(store, change["id"], path, before, audit)
