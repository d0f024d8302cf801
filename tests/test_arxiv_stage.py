"""The arXiv stage: which papers are checked, and what metadata and PDFs mean for the profiles.

Runs the library functions (and the PDF task's body) on the replay archive's constructed answers
for the seed papers; no network, no Prefect server.
"""

from __future__ import annotations

import httpx
import pytest

import extractors
from flows.arxiv_tasks import process_pdf_task, read_pdf
from flows.tasks import fetch_source
from ingest.fetch.arxiv_session import AtomPage
from ingest.fetch.client import make_client
from ingest.fetch.polite import PoliteFetcher
from ingest.fetch.replay import ReplayArchive
from ingest.models import Profile, ProfileClaim, Snapshot
from ingest.pipeline.arxiv_stage import (
    ATOM_EXTRACTOR,
    PDF_EXTRACTOR,
    Paper,
    arxiv_id_of,
    author_names,
    cited_ids,
    papers_in,
    process_metadata,
    process_pdf,
    process_search,
)
from ingest.profiles.io import load_profiles
from ingest.settings import BUNDLED_WEB, Settings
from ingest.storage import Store

ARCHIVE = ReplayArchive.load(BUNDLED_WEB)


def page_for(fragment: str) -> AtomPage:
    url = next(u for u in ARCHIVE.urls() if "export.arxiv.org" in u and fragment in u)
    rec = ARCHIVE.pick(url)
    return AtomPage(url=url, status=200, headers=dict(rec.headers), body=rec.body())


def batch_page() -> AtomPage:
    return page_for("id_list=1511.06434%2C")


def test_the_stage_names_the_extractors_it_is_handed() -> None:
    # ingest does not import extractors: the sources it registers name them by these constants
    assert extractors.ARXIV_ATOM.NAME == ATOM_EXTRACTOR
    assert extractors.ARXIV_PDF.NAME == PDF_EXTRACTOR
    assert extractors.get(ATOM_EXTRACTOR) is extractors.ARXIV_ATOM
    assert extractors.get(PDF_EXTRACTOR) is extractors.ARXIV_PDF


def test_arxiv_ids_from_urls_and_works() -> None:
    assert arxiv_id_of("https://arxiv.org/abs/1912.01703") == "1912.01703"
    assert arxiv_id_of("https://arxiv.org/pdf/1912.01703v2") == "1912.01703"
    assert arxiv_id_of("http://export.arxiv.org/abs/quant-ph/0201082v1") == "quant-ph/0201082"
    assert arxiv_id_of("https://arxiv.org/pdf/1912.01703v1.pdf") == "1912.01703"
    assert arxiv_id_of("arXiv:2410.21276") == "2410.21276"
    assert arxiv_id_of("doi:10.1145/3620665.3640366") is None
    assert arxiv_id_of("https://pytorch.org/assets/pytorch2-2.pdf") is None
    assert arxiv_id_of("https://arxiv.org/abs/not-an-id") is None


def test_cited_papers_and_author_names_of_the_bundled_profiles(workspace: Settings) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    ids = cited_ids(profiles)
    assert {
        "1912.01703",
        "1602.08124",
        "1805.02867",
        "2410.21276",
        "1511.06434",
        "1701.07875",
        "2311.16098",
    } == set(ids)
    assert author_names(profiles["alban-desmaison"]) == ["Alban Desmaison", "A. Desmaison"]


def test_metadata_confirms_cited_authorship_and_flags_what_profiles_lack(
    store: Store, workspace: Settings
) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    ids = cited_ids(profiles)
    outcomes = {
        o.url: o
        for o in process_metadata(
            store, workspace, [batch_page()], ids, profiles, extractors=extractors
        )
    }
    assert len(outcomes) == len(ids)
    gpt = outcomes["https://arxiv.org/abs/2410.21276"]
    assert gpt.status == "failed" and "2410.21276" in (gpt.error or "")
    paper = outcomes["https://arxiv.org/abs/1912.01703"]
    assert paper.status == "fetched" and paper.claims == 21
    flagged = {(c["profile"], c["kind"], c["claim"]["object"]) for c in paper.changes}
    # Natalia's and Alban's authorship are confirmed; Soumith's profile lacks it
    assert flagged == {("soumith-chintala", "added", "arXiv:1912.01703")}
    assert "Adam Paszke" in paper.unknown_people
    again = process_metadata(store, workspace, [batch_page()], ids, profiles, extractors=extractors)
    assert {o.url: o.status for o in again}["https://arxiv.org/abs/1912.01703"] == "unchanged"


def seed_paper(arxiv_id: str) -> tuple[Paper, Snapshot]:
    return papers_in([batch_page()], extractors=extractors)[arxiv_id]


def pdf_snapshot(paper: Paper) -> Snapshot:
    rec = ARCHIVE.pick(paper.pdf_url)
    return Snapshot(url=paper.pdf_url, headers=dict(rec.headers), body=rec.body())


def test_pdf_confirms_the_seed_affiliations(store: Store, workspace: Settings) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    paper, _ = seed_paper("1912.01703")
    outcome = process_pdf(
        store,
        workspace,
        paper,
        pdf_snapshot(paper),
        profiles,
        status="fetched",
        extractors=extractors,
    )
    assert outcome.status == "fetched" and not outcome.alerts
    flags = [
        (c["profile"], c["kind"], c["claim"]["predicate"], c["claim"]["object"])
        for c in outcome.changes
    ]
    # Gimelshein with NVIDIA and Desmaison with Oxford are in the profiles: confirmed
    assert not [
        f
        for f in flags
        if f[0] in ("natalia-gimelshein", "alban-desmaison") and f[2] == "affiliation"
    ]
    assert ("soumith-chintala", "added", "affiliation", "Facebook AI Research") in flags


def test_an_older_papers_affiliation_is_never_removed_by_a_newer_one(
    store: Store, workspace: Settings
) -> None:
    profile = Profile(
        id="ada",
        name="Natalia Gimelshein",
        claims=[
            ProfileClaim(
                id="c1",
                predicate="affiliation",
                object="Example Labs",
                qualifiers={"work": "arXiv:1602.08124", "date": "2016-02-25"},
            )
        ],
    )
    paper, _ = seed_paper("1805.02867")
    outcome = process_pdf(
        store,
        workspace,
        paper,
        pdf_snapshot(paper),
        {"ada": profile},
        status="fetched",
        extractors=extractors,
    )
    assert not [c for c in outcome.changes if c["kind"] == "removed"]
    assert [
        (c["kind"], c["claim"]["object"])
        for c in outcome.changes
        if c["claim"]["predicate"] == "affiliation"
    ] == [("added", "NVIDIA")]


def test_pdf_is_read_once_per_version_and_a_corrupt_one_fails_cleanly(
    store: Store, workspace: Settings
) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    paper, _ = seed_paper("1805.02867")
    requests: list[str] = []
    body = {"data": pdf_snapshot(paper).body}

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(str(request.url))
        return httpx.Response(
            200, headers={"content-type": "application/pdf"}, content=body["data"]
        )

    with make_client(workspace, transport=httpx.MockTransport(handler), offline=True) as http:

        def read(p: Paper):
            return read_pdf(
                store,
                workspace,
                PoliteFetcher(http, workspace, robots=False, sleep=lambda _s: None),
                p,
                profiles,
                fetch=fetch_source.fn,
                process=process_pdf_task.fn,
            )

        first, second = read(paper), read(paper)
        assert (first.status, second.status) == ("fetched", "unchanged")
        assert requests == [paper.pdf_url]
        queued = {c.id for c in store.list_changes(status="pending")}
        newer = Paper(
            **{**paper.__dict__, "version": "v2", "pdf_url": paper.pdf_url.replace("v1", "v2")}
        )
        body["data"] = b"%PDF-1.4\n1 0 obj <<garbage"
        broken = read(newer)
    assert broken.status == "failed" and newer.pdf_url.split("/")[-1] in requests[-1]
    assert "could not extract" in (broken.error or "") or "PDF" in (broken.error or "")
    # nothing stored before is lost: the queue and the last good snapshot stay
    assert queued <= {c.id for c in store.list_changes(status="pending")}
    state = store.source_state("https://arxiv.org/pdf/1805.02867")
    assert state and state["last_sha256"] == first.snapshot and state["fail_streak"] == 1


def test_author_query_adds_new_authorship_of_that_person_only(
    store: Store, workspace: Settings
) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    page = page_for("Soumith+Chintala")
    outcome, papers = process_search(
        store,
        workspace,
        "soumith-chintala",
        'au:"Soumith Chintala"',
        [page],
        profiles,
        extractors=extractors,
    )
    assert outcome is not None and not outcome.alerts
    assert {c["profile"] for c in outcome.changes} == {"soumith-chintala"}
    assert ("added", "arXiv:1912.01703") in {
        (c["kind"], c["claim"]["object"]) for c in outcome.changes
    }
    assert "1912.01703" in {p.id for p in papers}


@pytest.mark.parametrize("fragment", ["Alban+Desmaison", "N.+Gimelshein"])
def test_author_queries_of_known_papers_flag_nothing_new(
    store: Store, workspace: Settings, fragment: str
) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    pid = "alban-desmaison" if "Alban" in fragment else "natalia-gimelshein"
    outcome, _ = process_search(
        store, workspace, pid, fragment, [page_for(fragment)], profiles, extractors=extractors
    )
    assert outcome is not None
    assert [c for c in outcome.changes if c["claim"]["predicate"] == "author_of"] == []


def test_the_same_fact_from_metadata_and_pdf_is_one_flag(store: Store, workspace: Settings) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    process_metadata(
        store, workspace, [batch_page()], ["1912.01703"], profiles, extractors=extractors
    )
    paper, _ = seed_paper("1912.01703")
    process_pdf(
        store,
        workspace,
        paper,
        pdf_snapshot(paper),
        profiles,
        status="fetched",
        extractors=extractors,
    )
    authorship = [
        c
        for c in store.list_changes(status="pending", profile="soumith-chintala")
        if c.claim and c.claim["predicate"] == "author_of"
    ]
    assert len(authorship) == 1
