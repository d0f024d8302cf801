"""The fallback reader (issue 24, extractors/governance/fallback.py): a page whose readers give
no person is walked again, structure by structure, and the people decision picks its people.

Real pages: the governance probe pages that once yielded nothing at all when measured blind
(real-probe-8: GMT's HTML cards in a reST raw block, Pest's PHP array, the Haskell Foundation's
board as one table per person; real-probe-9: Open
Enclave's table with a plain login column, libovsdb's invalid TOML, NUT's `P:` persons, Flang's
`Name \\` + contact lines). Specific readers read them since; here the fallback reads them alone,
as it would a page no reader knows, scored against their hand gold as `ingest evaluate
--governance` scores pages. Negatives: real release notes, a changelog post, a conference
programme and a governance page that names nobody give no one. Constructed: an invalid YAML team
file (read as text lines) and a page whose readers already read it (the fallback stays out).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors import document as _document
from extractors.governance import fallback
from extractors.governance import generic as governance
from extractors.governance.reader import Reader
from ingest.documents import snapshot_from_file
from ingest.errors import ExtractionError
from ingest.models import Claim, Snapshot
from ingest_cli.evaluate.governance import PageScore, score_claims
from ingest_cli.evaluate.governance_gold import load_set

ROOT = Path(__file__).resolve().parent.parent
PROBES = ROOT / "fixtures" / "governance"
# page -> (people recall, section recall) floors of the fallback alone: the measured figures
# (scripts/measure_governance_fallback.py --pages) minus a margin; precision must be >= 0.97
ONCE_EMPTY = {
    ("real-probe-8", "gmt-team.2aa569dc.rst"): (0.95, 0.95),
    ("real-probe-8", "pest-team.2b0308db.php"): (0.95, 0.95),
    ("real-probe-8", "haskell-foundation-who-we-are.16e1912a.md"): (0.85, 0.85),  # one-card tables
    ("real-probe-9", "openenclave-governance.3e618d32.md"): (0.95, 0.95),
    ("real-probe-9", "libovsdb-MAINTAINERS.d0ee2486.toml"): (0.95, 0.95),
    ("real-probe-9", "nut-MAINTAINERS.010e5c1a.txt"): (0.95, 0.95),
    ("real-probe-9", "flang-Maintainers.1c169b4f.md"): (0.90, 0.90),  # measured 15/16, 18/19
}


def _alone(snapshot: Snapshot) -> list[Claim]:
    return list(fallback.claims(Reader(_document.parse(snapshot), snapshot)))


@pytest.mark.parametrize(("probe", "name"), sorted(ONCE_EMPTY))
def test_the_fallback_alone_reads_the_real_pages_that_once_gave_nothing(
    probe: str, name: str
) -> None:
    folder = PROBES / probe
    gold = next(g for g in load_set(folder, folder / "gold") if g.page.name == name)
    snapshot = snapshot_from_file(gold.url, gold.page, 1 << 24)
    claims = _alone(snapshot)
    score = PageScore(file=name, url=gold.url)
    score_claims(gold.rows, claims, score)
    people_recall, section_recall = ONCE_EMPTY[(probe, name)]
    assert (score.people.precision or 0.0) >= 0.97, score.spurious_people
    assert (score.people.recall or 0.0) >= people_recall, score.missed_rows
    assert (score.sections.recall or 0.0) >= section_recall, score.missed_rows
    people = [c for c in claims if c.predicate == "maintainer"]
    assert all(c.qualifiers["confidence"] <= fallback.CONFIDENCE for c in people)
    assert all(c.qualifiers.get("section") != gold.url for c in people)


@pytest.mark.parametrize(
    "path",
    [
        "release-notes/memcached-ReleaseNotes151.373ce499.md",  # a release's contributors
        "announcements-train/nodejs-blog-2018-12-11-v10.14.2.md",  # a changelog's commits
        "announcements-train/llvm-blog-2022-09-30-llvm-devmtg-program.md",  # talks, speakers
        "announcements-train/prometheus-blog-2023-09-01-promcon2023-schedule.md",
        "announcements-train/datafusion-blog-2024-07-24-datafusion-40.0.0.md",
        "governance/governance.046eb1c3.rst",  # PyTorch's governance mechanics: nobody listed
    ],
)
def test_the_fallback_reads_nobody_from_release_notes_programmes_and_charters(path: str) -> None:
    page = ROOT / "fixtures" / path
    snapshot = snapshot_from_file(f"https://example.org/{page.name}", page, 1 << 24)
    assert [c.subject.name for c in _alone(snapshot) if c.predicate == "maintainer"] == []


TEAM = b"""# Project team
maintainers:
  - name: Jane Roe
    github: jroe
    company: Example Labs
  - name: Max Muster
    github: mmuster
    company: Muster GmbH
  - name: Erika Mustermann
    github: emustermann
    company: [Acme Corp
"""


def test_an_invalid_data_file_is_read_as_text_lines_when_it_names_people() -> None:
    url = "https://github.com/example/pebblestore/blob/main/constructed-team.yaml"
    claims = governance.extract(Snapshot(url=url, body=TEAM))
    people = [(c.subject.name, c.subject.github, c.qualifiers.get("section")) for c in claims
              if c.predicate == "maintainer"]  # fmt: skip
    assert people == [
        ("Jane Roe", "jroe", "maintainers"),
        ("Max Muster", "mmuster", "maintainers"),
        ("Erika Mustermann", "emustermann", "maintainers"),
    ]
    orgs = [c.object for c in claims if c.predicate == "affiliation"]
    assert orgs == ["Example Labs", "Muster GmbH", "Acme Corp"]


def test_an_invalid_data_file_naming_nobody_still_raises() -> None:
    url = "https://github.com/example/pebblestore/blob/main/constructed-config.yaml"
    with pytest.raises(ExtractionError):
        governance.extract(Snapshot(url=url, body=b"jobs:\n  - build: [unclosed\n"))


def test_the_fallback_stays_out_when_the_readers_give_people() -> None:
    folder = PROBES / "real-probe-9"
    gold = next(g for g in load_set(folder, folder / "gold") if g.page.name.startswith("valkey"))
    snapshot = snapshot_from_file(gold.url, gold.page, 1 << 24)
    read = list(Reader(_document.parse(snapshot), snapshot).claims())
    assert read and governance.extract(snapshot) == read
    assert not any(" > line " in c.evidence.locator for c in read)


def test_a_lone_name_in_prose_is_no_roster() -> None:
    body = (
        b"# Pebblestore governance\n\nDecisions are made by lazy consensus on the mailing list."
        b"\n\nJane Roe\n\nVotes last three days; a veto must say why.\n"
    )
    snapshot = Snapshot(url="https://example.org/constructed-governance.md", body=body)
    assert governance.extract(snapshot) == []
