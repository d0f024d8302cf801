"""arXiv in the pipeline: which papers to check, and what each answer means for the profiles.

Plain functions over an open Store; the flows call them from coarse tasks.

- Every paper a profile cites (an arxiv.org reference URL, an `author_of` object or an
  `affiliation` work) is re-checked: its metadata through the arxiv package, in batches, and its
  PDF once per version (the affiliations are printed there).
- Each paper is two sources: `https://arxiv.org/abs/<id>` (metadata: authorship) and
  `https://arxiv.org/pdf/<id>` (the PDF: affiliations and authorship as printed). A claim citing
  either is checked against it; nothing else is removed by a paper, so an affiliation on an older
  paper is history that a newer paper never flags `removed`.
- Each profile's author queries (its name and the name-like aliases) find new papers: a new paper
  is an `added` authorship (and its PDF's affiliations `added` affiliations).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from ingest.diff.resolve import Resolver
from ingest.errors import IngestError
from ingest.extraction import ExtractorSet
from ingest.facts import work_key
from ingest.fetch.arxiv_ids import NEW_STYLE_ID, OLD_STYLE_ID, normalize_id, split_version
from ingest.models import Claim, Profile, Snapshot, Source
from ingest.pipeline.outcome import OutcomeStatus, SourceOutcome
from ingest.pipeline.process import (
    process_claims,
    process_snapshot,
    record_failure,
    stored_or_extracted,
)
from ingest.settings import Settings
from ingest.storage import Store

if TYPE_CHECKING:  # (requests and lxml: a stage that only reads ids does not import them)
    from ingest.fetch.arxiv_session import AtomPage

ARXIV_HOSTS = ("arxiv.org", "www.arxiv.org", "export.arxiv.org")
ARXIV_LINK = re.compile(
    r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/(?P<id>[^?#]+?)(?:\.pdf)?/?(?:[?#].*)?$",
    re.IGNORECASE,
)
ARXIV_WORK = re.compile(r"^arxiv:\s*(?P<id>\S+)$", re.IGNORECASE)
# the registry names of the extractors that read arXiv's API answers and a paper's PDF (the
# ExtractorSet's ARXIV_ATOM and ARXIV_PDF): the sources the stage registers name them
ATOM_EXTRACTOR = "arxiv_atom"
PDF_EXTRACTOR = "arxiv_pdf"


@dataclass
class Paper:
    """What the nightly job knows of one paper from its metadata."""

    id: str  # without version
    version: str | None
    title: str
    published: str | None
    authors: list[str]
    pdf_url: str


def arxiv_id_of(text: str) -> str | None:
    """The unversioned arXiv id a URL or `arXiv:<id>` string names, else None."""
    text = text.strip()
    match = ARXIV_LINK.match(text) or ARXIV_WORK.match(text)
    if not match:
        return None
    text = normalize_id(match.group("id"))
    if not (NEW_STYLE_ID.match(text) or OLD_STYLE_ID.match(text)):
        return None
    return split_version(text)[0]


def is_arxiv_url(url: str) -> bool:
    return arxiv_id_of(url) is not None and url.lower().startswith(("http://", "https://"))


def cited_ids(profiles: dict[str, Profile]) -> list[str]:
    """Every arXiv paper a profile cites or states, sorted."""
    found: set[str] = set()
    for profile in profiles.values():
        for ref in profile.references:
            if ref.url and (pid := arxiv_id_of(ref.url)):
                found.add(pid)
        for claim in profile.claims:
            for text in (claim.object, str(claim.qualifiers.get("work") or "")):
                if text and (pid := arxiv_id_of(text)):
                    found.add(pid)
    return sorted(found)


def abs_source(arxiv_id: str, title: str | None = None) -> Source:
    return Source(
        url=f"https://arxiv.org/abs/{arxiv_id}",
        extractor=ATOM_EXTRACTOR,
        title=title,
        publisher="arXiv",
        kind="Paper",
    )


def pdf_source(arxiv_id: str, title: str | None = None) -> Source:
    return Source(
        url=f"https://arxiv.org/pdf/{arxiv_id}",
        extractor=PDF_EXTRACTOR,
        title=f"{title}, paper PDF with author affiliations" if title else None,
        publisher="arXiv",
        kind="Paper",
    )


def author_names(profile: Profile) -> list[str]:
    """The names to ask arXiv for: the profile's name and its aliases that look like names."""
    names = [profile.name]
    for alias in profile.aliases:
        if " " in alias.strip() and alias not in names:
            names.append(alias)
    return names


def papers_in(
    pages: Iterable[AtomPage], *, extractors: ExtractorSet
) -> dict[str, tuple[Paper, Snapshot]]:
    """Each paper of the answer pages, by unversioned id, with the page it came in (read by
    `extractors.ARXIV_ATOM`)."""
    out: dict[str, tuple[Paper, Snapshot]] = {}
    for page in pages:
        snap = page.to_snapshot()
        for entry in extractors.ARXIV_ATOM.entries(snap):
            base, version = split_version(entry.id)
            version = entry.version or version
            pdf = entry.pdf_url or f"https://arxiv.org/pdf/{base}{version or ''}"
            out[base] = (
                Paper(
                    id=base,
                    version=version,
                    title=entry.title,
                    published=entry.published,
                    authors=[a.name for a in entry.authors],
                    pdf_url=pdf,
                ),
                snap,
            )
    return out


def _of_work(claims: list[Claim], arxiv_id: str) -> list[Claim]:
    key = work_key(arxiv_id)
    return [
        c
        for c in claims
        if work_key(c.object if c.predicate == "author_of" else str(c.qualifiers.get("work") or ""))
        == key
    ]


def process_metadata(
    store: Store,
    settings: Settings,
    pages: list[AtomPage],
    wanted: list[str],
    profiles: dict[str, Profile],
    accessed: date | None = None,
    *,
    extractors: ExtractorSet,
) -> list[SourceOutcome]:
    """One outcome per wanted paper, from the batch answers that carry it."""
    outcomes = []
    atom = extractors.ARXIV_ATOM
    for page in pages:
        store.put_snapshot(page.to_snapshot())
    found = papers_in(pages, extractors=extractors)
    for arxiv_id in wanted:
        source = abs_source(arxiv_id)
        if arxiv_id not in found:
            why = (
                f"arXiv's answer has no paper '{arxiv_id}' (withdrawn, mistyped, or absent "
                "from the recorded answer)"
            )
            outcomes.append(record_failure(store, source, IngestError(why)))
            continue
        paper, snap = found[arxiv_id]
        source.title = paper.title
        store.upsert_source(source)
        claims = _of_work(
            stored_or_extracted(store, snap, source.url, extractors.tag(atom), atom.extract),
            arxiv_id,
        )
        state = store.source_state(source.url)
        status: OutcomeStatus = (
            "unchanged" if state and state.last_sha256 == snap.sha256 else "fetched"
        )
        outcomes.append(
            process_claims(
                store,
                settings,
                source,
                snap,
                claims,
                profiles,
                status=status,
                extractor=ATOM_EXTRACTOR,
                tag=extractors.tag(atom),
                accessed=accessed,
            )
        )
    return outcomes


def pdf_is_current(store: Store, paper: Paper) -> str | None:
    """The stored PDF snapshot's sha256 when this version's PDF was read before, else None."""
    state = store.source_state(pdf_source(paper.id).url)
    if state and state.final_url == paper.pdf_url and state.last_sha256:
        return state.last_sha256
    return None


def pdf_claims(snapshot: Snapshot, paper: Paper, *, extractors: ExtractorSet) -> list[Claim]:
    """Affiliations (and authorship) the PDF prints, with the metadata's names and dates."""
    return extractors.ARXIV_PDF.extract_with_metadata(
        snapshot, authors=paper.authors, work=f"arXiv:{paper.id}", date=paper.published
    )


def process_pdf(
    store: Store,
    settings: Settings,
    paper: Paper,
    snapshot: Snapshot,
    profiles: dict[str, Profile],
    *,
    status: OutcomeStatus,
    accessed: date | None = None,
    extractors: ExtractorSet,
) -> SourceOutcome:
    source = pdf_source(paper.id, paper.title)  # its extractor: arxiv_pdf
    store.upsert_source(source)
    outcome = process_snapshot(
        store,
        settings,
        source,
        snapshot,
        profiles,
        status=status,
        accessed=accessed,
        extract=lambda snap: pdf_claims(snap, paper, extractors=extractors),
        extractors=extractors,
    )
    store.update_source_state(source.url, final_url=paper.pdf_url)
    return outcome


def process_search(
    store: Store,
    settings: Settings,
    profile_id: str,
    query: str,
    pages: list[AtomPage],
    profiles: dict[str, Profile],
    *,
    extractors: ExtractorSet,
) -> tuple[SourceOutcome | None, list[Paper]]:
    """A profile's author query: authorships of that person the profile lacks are `added`.

    Returns the outcome and the papers in which the person appears (their PDFs may be read).
    """
    if not pages:
        return None, []
    resolver = Resolver({profile_id: profiles[profile_id]})
    snap = pages[0].to_snapshot()
    own: list[Claim] = []
    papers: list[Paper] = []
    atom = extractors.ARXIV_ATOM
    found = papers_in(pages, extractors=extractors)
    for page in pages:
        psnap = page.to_snapshot()
        store.put_snapshot(psnap)
        claims = stored_or_extracted(store, psnap, page.url, extractors.tag(atom), atom.extract)
        mine = [c for c in claims if resolver.resolve(c.subject) == profile_id]
        own.extend(mine)
    ids = {
        arxiv_id_of(c.object if c.predicate == "author_of" else str(c.qualifiers.get("work") or ""))
        for c in own
    }
    papers = [found[i][0] for i in sorted(i for i in ids if i and i in found)]
    source = Source(
        url=pages[0].url,
        extractor=ATOM_EXTRACTOR,
        publisher="arXiv",
        kind="Paper",
        title=f"arXiv author query {query}",
    )
    store.upsert_source(source)
    state = store.source_state(source.url)
    status: OutcomeStatus = "unchanged" if state and state.last_sha256 == snap.sha256 else "fetched"
    outcome = process_claims(
        store,
        settings,
        source,
        snap,
        own,
        {profile_id: profiles[profile_id]},
        status=status,
        extractor=ATOM_EXTRACTOR,
        tag=extractors.tag(atom),
        layout_guard=False,
    )
    outcome.unknown_people = []
    return outcome, papers
