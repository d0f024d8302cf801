"""One decision per fact: grouping, the one count, one claim with every source, reports kept."""

from __future__ import annotations

import json
from datetime import date

import pytest

from ingest.fact_identity import fact_key, label, show_value
from ingest.models import Change
from ingest.report.run import describe, unknown_people
from ingest.review.decisions import decide, undo_last
from ingest.review.grouping import source_label
from ingest.review.queue import enqueue
from ingest.settings import Settings
from ingest.storage import QueueFilter, Store
from ingest_cli.common import invocation

from .conftest import ROOT
from .test_nightly import nightly

FAIR = "Facebook AI Research"


def affiliation(paper: str, org: str = FAIR, profile: str = "soumith-chintala") -> Change:
    claim = {
        "subject": {"name": "Soumith Chintala"},
        "predicate": "affiliation",
        "object": org,
        "qualifiers": {
            "work": f"arXiv:{paper}",
            "date": "2017-01-26",
            "affiliation_text": org,
            "position": 2,
        },
        "evidence": {
            "url": f"https://arxiv.org/pdf/{paper}v1",
            "sha256": "0" * 64,
            "locator": "page 1",
            "quote": org,
        },
        "extractor": "arxiv_pdf/2",
    }
    return Change(
        id=f"{paper.replace('.', '')}{org[:3].lower()}0000"[:16],
        profile=profile,
        kind="added",
        claim=claim,
        source_url=f"https://arxiv.org/pdf/{paper}",
    )


def queue(store: Store, *found: Change) -> None:
    for change in found:
        enqueue(store, [change], change.source_url, None, retire_stale=False)


def test_same_affiliation_on_several_papers_is_one_fact() -> None:
    a, b = affiliation("1511.06434"), affiliation("1701.07875")
    assert fact_key(a.to_json()) == fact_key(b.to_json())
    assert fact_key(a.to_json()) != fact_key(affiliation("1701.07875", "Meta").to_json())
    other = affiliation("1701.07875", profile="natalia-gimelshein")
    assert fact_key(a.to_json()) != fact_key(other.to_json())
    assert source_label(a.to_json()) == "arXiv:1511.06434"


def role(url: str, **qualifiers: object) -> dict[str, object]:
    return {
        "profile": "alban-desmaison",
        "kind": "added",
        "source_url": url,
        "claim": {"predicate": "maintainer", "object": "PyTorch", "qualifiers": qualifiers},
    }


def test_the_same_role_from_the_page_and_an_announcement_is_one_fact() -> None:
    page = "https://docs.pytorch.org/docs/stable/community/persons_of_interest.html"
    post = "https://dev-discuss.pytorch.org/t/alban-desmaison-and-piotr-bialecki/2280"
    core_page = role(page, level="core", section="Core Maintainers", status="current")
    core_post = role(post, level="core", status="current", since="2024-03-01", event="joined")
    assert fact_key(core_page) == fact_key(core_post)
    module_page = role(
        page,
        level="module",
        section="NestedTensor (torch.nested)",
        scope="torch.nested",
        status="current",
        group="Core Module maintainers",
    )
    module_post = role(post, level="module", scope="torch.nested", status="current", since="x")
    assert fact_key(module_page) == fact_key(module_post)
    # what the role is still tells facts apart: another level, scope or status
    assert fact_key(core_page) != fact_key(role(page, level="lead", status="current"))
    assert fact_key(module_page) != fact_key(role(post, level="module", scope="torch.nn"))
    assert fact_key(core_page) != fact_key(role(post, level="core", status="emeritus"))
    # a module role an editor gave by its heading alone keeps the heading as what it is
    assert fact_key(role(page, level="module", section="CUDA")) != fact_key(
        role(page, level="module", section="NVFuser")
    )


def test_a_replayed_snapshot_reads_as_history() -> None:
    from ingest.review.snapshots import SnapshotTime, snapshot_words

    old = SnapshotTime(fetched="2026-12-01", recorded="2024-01-30", as_of=None, historical=True)
    assert snapshot_words(old) == (
        "2024-01-30 (stored 2026-12-01): historical, a replayed recording, "
        "not the page as it is today"
    )
    live = SnapshotTime(fetched="2026-12-01", recorded=None, as_of=None, historical=False)
    assert snapshot_words(live) == "2026-12-01"


def test_human_labels_and_values() -> None:
    assert label("affiliation_text") == "printed affiliation"
    assert show_value(["Pierre Sermanet", "Yann LeCun"]) == "Pierre Sermanet, Yann LeCun"


@pytest.mark.postgres
def test_one_accept_writes_one_claim_citing_every_source_and_undo_takes_all_back(
    store: Store, workspace: Settings
) -> None:
    papers = ("1511.06434", "1701.07875", "1912.01703")
    queue(store, *(affiliation(p) for p in papers), affiliation("2311.16098", "Meta"))
    assert store.count_changes(QueueFilter()) == 4 and store.count_facts(QueueFilter()) == 2
    entries = store.queue_facts(QueueFilter(), limit=10)
    assert sorted(len(e) for e in entries) == [1, 3]
    path = workspace.profiles_dir / "soumith-chintala.json"
    before = path.read_bytes()
    first = next(e for e in entries if len(e) == 3)[0]["id"]
    done = decide(store, workspace.profiles_dir, first, "accepted", "ann", today=date(2026, 12, 1))
    assert len(done.group) == 3
    profile = json.loads(path.read_text())
    claims = [c for c in profile["claims"] if c["object"] == FAIR]
    assert len(claims) == 1
    urls = {r["id"]: r.get("url") for r in profile["references"]}
    assert {urls[r] for r in claims[0]["refs"]} == {f"https://arxiv.org/pdf/{p}" for p in papers}
    assert store.count_facts(QueueFilter()) == 1
    assert store.audit_entries()[0]["detail"]["changes"] == [c.id for c in done.group]
    back = undo_last(store, workspace.profiles_dir, "ann")
    assert len(back.group) == 3 and path.read_bytes() == before
    assert store.count_facts(QueueFilter()) == 2
    # a reject rejects every change of the fact, each remembered
    done = decide(store, workspace.profiles_dir, first, "rejected", "ann")
    assert {store.get_change(c.id)["status"] for c in done.group} == {"rejected"}


def test_unknown_people_merged_across_sources_and_variants() -> None:
    sources = [
        {"url": "https://a", "unknown_people": ["Adam Paszke", "Zach DeVito"]},
        {"url": "https://b", "unknown_people": ["Adam Paszke (apaszke)", "Zach Devito (zdevito)"]},
        {"url": "https://c", "unknown_people": ["ZACH DEVITO"]},
    ]
    people = unknown_people(sources)
    assert [p.name for p in people] == ["Adam Paszke", "Zach DeVito"]
    assert people[0].handles == ["apaszke"] and people[0].sources == ["https://a", "https://b"]
    assert people[1].sources == ["https://a", "https://b", "https://c"]


def test_unknown_people_on_every_source_listed_once_each_handle_once() -> None:
    """A person printed on each of many sources (the nightly's 10,000): one entry, every source
    once in first-seen order, a handle once whatever its case, the first spelling kept."""
    sources = [
        {"url": f"https://s/{n}", "unknown_people": ["Ann Lee (AnnL)", f"Bo {n}", "ann lee (annl)"]}
        for n in range(3000)
    ] + [{"url": "https://s/7", "unknown_people": ["ANN LEE"]}]
    people = unknown_people(sources)
    assert len(people) == 3001 and people[0].name == "Ann Lee"
    assert people[0].handles == ["AnnL"]
    assert people[0].sources == [f"https://s/{n}" for n in range(3000)]
    assert [p.name for p in people[1:4]] == ["Bo 0", "Bo 1", "Bo 10"]  # by folded name


@pytest.mark.prefect
def test_readme_nightly_counts_agree_and_every_run_report_is_kept(workspace: Settings) -> None:
    web = str(ROOT / "fixtures" / "web")
    first = nightly("--replay", web)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.strip().splitlines()
    ingest = invocation()  # the command as this run was started (`uv run ingest` under uv)
    assert lines[-1].endswith(f"flags pending: {ingest} review serve, or {ingest} review list")
    assert lines[-2].startswith("report: ") and lines[-2].endswith(".html")
    summary = next(x for x in lines if x.startswith("nightly refresh:"))
    told = summary.split("new tonight:")[1].replace(",", " ").replace(";", " ").split()
    flags = sum(int(w) for w in told if w.isdigit())  # new tonight + still pending
    store = Store.open(workspace)
    try:
        pending = store.count_facts(QueueFilter())
        entries = store.queue_facts(QueueFilter(), limit=1000)
        keys = [
            (e[0]["profile"], e[0]["kind"], fact_key(e[0])) for e in entries
        ]  # one entry per distinct fact per profile
        assert len(keys) == len(set(keys)) == pending
        # what an editor reads: no two entries say the same thing of one person
        shown = [(e[0]["profile"], e[0]["kind"], describe(e[0])) for e in entries]
        assert len(shown) == len(set(shown)), shown
        sizes = {(e[0]["profile"], e[0]["claim"]["object"]): len(e) for e in entries}
        assert sizes[("soumith-chintala", FAIR)] == 4  # four papers, one entry: the 2023 paper's
        # "Meta" is the same ROR organisation as "Facebook AI Research" (issue 27)
        assert sizes[("natalia-gimelshein", "NVIDIA")] == 2
        changes = store.count_changes(QueueFilter())
        assert changes > pending
    finally:
        store.close()
    day = sorted(workspace.reports_dir.glob("20*.json"))[-1]
    report = json.loads(day.read_text())
    assert flags == sum(report["flags"].values()) == report["facts"] == pending
    assert report["changes"] == changes  # distinct changes, never (change, source) pairs
    assert lines[-1].startswith(f"{pending} flags pending")
    md = day.with_suffix(".md").read_text()
    assert f"({pending} facts," in md
    second = nightly("--replay", web)
    assert second.returncode == 0, second.stderr
    runs = sorted((workspace.reports_dir / day.stem).glob("*.json"))
    assert len(runs) == 2
    index = day.with_suffix(".md").read_text()
    assert all(f"{day.stem}/{r.stem}.md" in index for r in runs)


def test_review_list_shows_one_line_per_fact_and_json_keeps_one_change_per_line(
    store: Store, workspace: Settings
) -> None:
    from .test_cli import cli

    papers = ("1511.06434", "1701.07875", "1912.01703")
    queue(store, *(affiliation(p) for p in papers))
    code, out, err = cli("review", "list")
    assert code == 0 and "1 fact(s), 3 change(s)" in err
    lines = out.splitlines()
    assert len(lines) == 4 and lines[0].endswith("[3 sources]")
    assert [line.split()[-1] for line in lines[1:]] == [f"arXiv:{p}" for p in papers]
    code, out, _ = cli("review", "list", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 3 and len({r["group"] for r in rows}) == 1
    code, out, _ = cli("review", "show", rows[0]["id"])
    assert "printed affiliation: Facebook AI Research" in out and "affiliation_text" not in out
    assert "same fact, 2 more source(s)" in out
    # two ids of one fact: the first decides the fact, the second is not an error
    code, out, err = cli("review", "accept", rows[0]["id"], rows[1]["id"], "--editor", "ann")
    assert code == 0 and out.count("accepted") == 3 and "error" not in err, err
    code, out, _ = cli("review", "undo", "--editor", "ann")
    assert code == 0 and out.count("pending again") == 3


def test_a_readers_confidence_is_no_part_of_the_fact() -> None:
    """Claims carry `qualifiers.confidence` (how sure the reader is, per printing): the same
    affiliation read from three papers with three confidences is still one fact, one decision."""
    changes = [affiliation(p) for p in ("1511.06434", "1701.07875", "1912.01703")]
    for change, sure in zip(changes, (0.91, 0.55, 0.78), strict=True):
        assert change.claim is not None
        change.claim["qualifiers"]["confidence"] = sure
    assert len({fact_key(c.to_json()) for c in changes}) == 1
    changes[1].claim["qualifiers"]["work"] = "arXiv:1511.06434"  # type: ignore[index]
    changes[1].claim["object"] = "NVIDIA"  # type: ignore[index]
    assert len({fact_key(c.to_json()) for c in changes}) == 2
