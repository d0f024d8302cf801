"""`ingest run URL --file FILE`: a snapshot says where its bytes came from (network, replay, local
file) and which day it is evidence for; an older file than the stored snapshot is refused, and a
file never removes a fact newer than itself; the CLI, the review page and the run report say
"read from a local file" and "historical" (issue 22)."""

from __future__ import annotations

import io
import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

import extractors
from flows.tasks import process_file
from ingest.documents import snapshot_from_file, stated_date
from ingest.errors import IngestError
from ingest.models import Snapshot, Source
from ingest.pipeline.outcome import SourceOutcome
from ingest.pipeline.process import process_snapshot
from ingest.pipeline.registry import load_registry, source_for
from ingest.profiles.io import load_profiles
from ingest.report.run import RunReport
from ingest.settings import Settings
from ingest.storage import Store
from ingest_cli.cli import main

from .conftest import GOVERNANCE, STABLE_URL

LATEST = GOVERNANCE / "persons_of_interest.7f149bc3.md"  # after the 2026-05 lead change
OLD = GOVERNANCE / "persons_of_interest.06b24a9d.rst"  # late 2024
TODAY = date(2026, 12, 1)


def _source(settings: Settings) -> Source:
    return source_for(STABLE_URL, load_registry(settings.sources_file), None, extractors=extractors)


def _removals(outcome: SourceOutcome) -> list[dict[str, object]]:
    return [c for c in outcome.changes if c["kind"] == "removed"]


def _lead_removed(outcome: SourceOutcome) -> bool:
    return any(
        c["profile"] == "alban-desmaison" and c["previous"]["qualifiers"].get("level") == "lead"  # type: ignore[index]
        for c in _removals(outcome)
    )


def _fetched_today(store: Store, settings: Settings) -> SourceOutcome:
    """The current page as a network fetch of 2026-12-01 (what a nightly stores)."""
    snap = Snapshot(
        url=STABLE_URL,
        headers={"content-type": "text/markdown"},
        body=LATEST.read_bytes(),
        fetched_at=datetime(2026, 12, 1, 3, 0, tzinfo=UTC),
    )
    source = _source(settings)
    store.upsert_source(source)
    profiles = load_profiles(settings.profiles_dir)
    return process_snapshot(store, settings, source, snap, profiles, extractors=extractors)


# -- where the bytes came from, and for which day -----------------------------------------------


def test_a_snapshot_records_its_origin_and_evidence_date(store: Store) -> None:
    fetched = Snapshot(url=STABLE_URL, body=b"x", fetched_at=datetime(2026, 12, 1, tzinfo=UTC))
    assert (fetched.origin, fetched.evidence_date) == ("network", "2026-12-01")
    replayed = Snapshot(
        url=STABLE_URL,
        body=b"y",
        headers={"x-ingest-replay": "hit", "x-ingest-replay-date": "2026-06-10"},
    )
    assert (replayed.origin, replayed.evidence_date) == ("replay", "2026-06-10")
    from_file = snapshot_from_file(STABLE_URL, LATEST, 10**8, as_of=date(2026, 6, 10))
    assert (from_file.origin, from_file.evidence_date) == ("file", "2026-06-10")
    assert from_file.evidence_basis == "given"
    for snap in (fetched, replayed, from_file):
        store.put_snapshot(snap)
        back = store.get_snapshot(snap.sha256)
        assert (back.origin, back.evidence_date) == (snap.origin, snap.evidence_date)
        meta = store.snapshot_meta(snap.sha256)
        assert meta is not None and (meta.origin, meta.evidence_date) == (
            snap.origin,
            snap.evidence_date,
        )


def _pdf_with_date(stamp: str) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.add_metadata({"/ModDate": stamp, "/CreationDate": "D:20200101000000Z"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"---\ntitle: Maintainers\ndate: 2024-03-05\n---\n# Maintainers\n", "2024-03-05"),
        (b"---\ndate: 2023-01-01\nlastmod: '2024-03-05T10:00:00Z'\n---\n# M\n", "2024-03-05"),
        (b'+++\ntitle = "M"\ndate = 2024-03-05T10:00:00Z\n+++\n# M\n', "2024-03-05"),
        (
            b'<html><head><meta property="article:published_time" content="2023-02-01">'
            b'<meta property="article:modified_time" content="2024-03-05T09:00:00+00:00">'
            b"<title>M</title></head><body><h1>M</h1></body></html>",
            "2024-03-05",
        ),
        (
            b'<!doctype html><html><head><meta name="date" content="2024-03-05">'
            b"</head><body><p>x</p></body></html>",
            "2024-03-05",
        ),
        (
            b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>'
            b"<updated>2024-03-05T00:00:00Z</updated><entry><updated>2020-01-01T00:00:00Z"
            b"</updated></entry></feed>",
            "2024-03-05",
        ),
        (_pdf_with_date("D:20240305120000Z"), "2024-03-05"),
        (b"# Maintainers\n\nUpdated on 2024-03-05, but not in a header.\n", None),
        (b"<html><body><h1>M</h1><p>2024-03-05</p></body></html>", None),
        (b"---\ndate: not a date\n---\n# M\n", None),
    ],
    ids=[
        "front-matter",
        "front-matter-lastmod",
        "toml-front-matter",
        "html-modified-time",
        "html-meta-date",
        "atom-updated",
        "pdf-moddate",
        "markdown-undated",
        "html-undated",
        "bad-date",
    ],
)
def test_a_files_stated_date(body: bytes, expected: str | None) -> None:
    found = stated_date(body)
    assert (found.isoformat() if found else None) == expected


def test_the_evidence_date_is_the_given_one_else_the_stated_one_else_today(
    tmp_path: Path,
) -> None:
    dated = tmp_path / "dated.md"
    dated.write_bytes(b"---\ndate: 2024-03-05\n---\n# M\n")
    snap = snapshot_from_file(STABLE_URL, dated, 10**8, today=TODAY)
    assert (snap.evidence_date, snap.evidence_basis) == ("2024-03-05", "stated")
    snap = snapshot_from_file(STABLE_URL, dated, 10**8, as_of=date(2024, 6, 1), today=TODAY)
    assert (snap.evidence_date, snap.evidence_basis) == ("2024-06-01", "given")
    snap = snapshot_from_file(STABLE_URL, LATEST, 10**8, today=TODAY)  # the page states no date
    assert (snap.evidence_date, snap.evidence_basis) == ("2026-12-01", "assumed")


# -- an old file removes nothing newer than itself; older than the stored snapshot: refused -----


def test_an_old_file_does_not_remove_a_fact_newer_than_it(
    store: Store, workspace: Settings
) -> None:
    """The 2024 page, given as of 2024-10-01, in a workspace that has no snapshot of the page:
    Alban's lead role since 2026-05-07 is history the page could not know."""
    old = snapshot_from_file(STABLE_URL, OLD, 10**8, as_of=date(2024, 10, 1))
    profiles = load_profiles(workspace.profiles_dir)
    outcome = process_file.fn(store, workspace, _source(workspace), old, profiles, None)
    assert outcome.status == "fetched" and outcome.claims > 100
    assert not _lead_removed(outcome)
    assert outcome.origin == "file" and outcome.evidence_date == "2024-10-01"


def _stored_state(store: Store) -> dict[str, object]:
    with store.begin() as conn:
        tables = ("snapshots", "claims", "changes", "fetches", "sources", "audit_log")
        return {
            t: [tuple(r) for r in conn.execute(sa.text(f"SELECT * FROM {t} ORDER BY 1"))]
            for t in tables
        }


def test_a_file_older_than_the_stored_snapshot_is_refused_and_nothing_changes(
    store: Store, workspace: Settings
) -> None:
    """The issue's run: the nightly stored today's page; the 2024 page given as a file queued 3
    removals of current facts. Now: refused, naming the file and both dates; nothing stored."""
    _fetched_today(store, workspace)
    before = _stored_state(store)
    profiles_before = {p.name: p.read_bytes() for p in workspace.profiles_dir.glob("*.json")}
    old = snapshot_from_file(STABLE_URL, OLD, 10**8, as_of=date(2024, 10, 1))
    profiles = load_profiles(workspace.profiles_dir)
    with pytest.raises(IngestError) as refused:
        process_file.fn(store, workspace, _source(workspace), old, profiles, None, file=str(OLD))
    message = str(refused.value)
    assert str(OLD) in message and "2024-10-01" in message and "2026-12-01" in message
    assert STABLE_URL in message and "--as-of" in message
    assert _stored_state(store) == before
    after = {p.name: p.read_bytes() for p in workspace.profiles_dir.glob("*.json")}
    assert after == profiles_before


def test_a_file_as_new_as_the_stored_snapshot_is_taken(store: Store, workspace: Settings) -> None:
    _fetched_today(store, workspace)
    same_day = snapshot_from_file(STABLE_URL, LATEST, 10**8, as_of=date(2026, 12, 1))
    profiles = load_profiles(workspace.profiles_dir)
    outcome = process_file.fn(store, workspace, _source(workspace), same_day, profiles, None)
    assert outcome.status == "unchanged" and not _removals(outcome)


def test_run_as_of_is_bad_usage_without_a_file_or_in_the_future(workspace: Settings) -> None:
    runner = CliRunner()
    done = runner.invoke(main, ["run", STABLE_URL, "--as-of", "2024-10-01"])
    assert done.exit_code == 2 and "--as-of" in done.stderr
    done = runner.invoke(main, ["run", STABLE_URL, "--file", str(OLD), "--as-of", "2999-01-01"])
    assert done.exit_code == 2 and "future" in done.stderr


# -- said on the CLI, the review page and the run report ----------------------------------------


def _file_run(store: Store, workspace: Settings) -> SourceOutcome:
    """The 2024 page given as of 2024-10-01 after a nightly of today: historical; its changes
    (added people of 2024) are queued, marked as read from a local file."""
    old = snapshot_from_file(STABLE_URL, OLD, 10**8, as_of=date(2024, 10, 1))
    old.fetched_at = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    profiles = load_profiles(workspace.profiles_dir)
    outcome = process_file.fn(store, workspace, _source(workspace), old, profiles, None)
    assert outcome.changes
    return outcome


def test_review_show_says_read_from_a_local_file_and_historical(
    store: Store, workspace: Settings
) -> None:
    change = _file_run(store, workspace).changes[0]
    runner = CliRunner()
    shown = runner.invoke(main, ["review", "show", str(change["id"]), "--json"])
    assert shown.exit_code == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["origin"] == "file" and data["historical"] is True
    assert data["snapshot_date"] == "2024-10-01"
    text = runner.invoke(main, ["review", "show", str(change["id"])]).stdout
    assert "snapshot:  2024-10-01 (stored 2026-12-01): historical, read from a local file" in text


def test_the_review_page_says_read_from_a_local_file(store: Store, workspace: Settings) -> None:
    from fastapi.testclient import TestClient

    from ingest.review.web.app import create_app
    from ingest.review.web.passwords import add_editor

    from .web_helpers import PASSWORD, login

    change = _file_run(store, workspace).changes[0]
    add_editor(store, "ann", PASSWORD)
    with TestClient(create_app(workspace, store), base_url="http://127.0.0.1") as client:
        assert login(client, "ann").status_code == 303
        page = client.get(f"/changes/{change['id']}").text
    assert 'data-snapshot-date="2024-10-01"' in page and 'data-origin="file"' in page
    assert "<strong>historical</strong>" in page and "read from a local file" in page


def test_the_run_report_says_read_from_a_local_file(store: Store, workspace: Settings) -> None:
    outcome = _file_run(store, workspace)
    outcome.file = str(OLD)
    report = RunReport(run_id="r1", kind="one-off", started="2026-12-01T09:00:00Z")
    report.outcomes.append(outcome)
    text = report.markdown()
    assert f"read from a local file `{OLD}`" in text
    assert "evidence for 2024-10-01" in text and "historical" in text
    source = report.to_json()["sources"][0]
    assert (source["origin"], source["evidence_date"], source["file"]) == (
        "file",
        "2024-10-01",
        str(OLD),
    )


def test_the_next_nightly_reads_the_page_again_and_clears_what_a_file_queued(
    store: Store, workspace: Settings
) -> None:
    """An undated old file (taken as today's, with a warning) queued removals, and the next
    nightly did not clear them: its conditional request got a 304 for the page's old validators,
    so the file stayed the page's last snapshot. A file run drops the validators: the nightly
    reads the page in full, and what the file queued and the page does not state is retired."""
    live = _fetched_today(store, workspace)
    store.update_source_state(
        STABLE_URL, etag='"e1"', last_modified="Mon, 30 Nov 2026 10:00:00 GMT"
    )
    undated = snapshot_from_file(STABLE_URL, OLD, 10**8)
    assert undated.evidence_basis == "assumed"
    profiles = load_profiles(workspace.profiles_dir)
    outcome = process_file.fn(store, workspace, _source(workspace), undated, profiles, None)
    assert outcome.warnings and "states no date" in outcome.warnings[0]
    queued = [str(c["id"]) for c in _removals(outcome)]
    assert queued  # the editor was warned; the removals are queued for review
    state = store.source_state(STABLE_URL)
    assert state is not None and state.etag is None and state.last_modified is None
    again = Snapshot(
        url=STABLE_URL,
        headers={"content-type": "text/markdown"},
        body=LATEST.read_bytes(),
        fetched_at=datetime(2026, 12, 2, 3, 0, tzinfo=UTC),
    )
    assert again.sha256 == live.snapshot
    source = _source(workspace)
    process_snapshot(store, workspace, source, again, profiles, extractors=extractors)
    assert all(store.get_change(i)["status"] != "pending" for i in queued)
