"""The affiliation decision (issue 24): is a part an organisation, or a seat, an area, a team,
a person's name? Learned from candidates that include every area, scope and section of a
person (training only), with the ROR registry's companies as a strong signal.

Real pages: `fixtures/governance-train/` (provenance in its PROVENANCE.md, gold in `gold/`);
the small inputs are CONSTRUCTED (invented people)."""

from __future__ import annotations

import json
from pathlib import Path

from extractors.governance import generic as governance
from extractors.people import entries as _entries
from extractors.people import features, orgs
from ingest.models import Snapshot

TRAIN = Path(__file__).resolve().parent.parent / "fixtures" / "governance-train"
URLS = json.loads((TRAIN / "urls.json").read_text(encoding="utf-8"))


def _claims(name: str) -> list:  # type: ignore[type-arg]
    return governance.extract(Snapshot(url=URLS[name], body=(TRAIN / name).read_bytes()))


def _gold(name: str) -> list[dict[str, str | None]]:
    rows: list[dict[str, str | None]] = json.loads(
        (TRAIN / "gold" / f"{name}.json").read_text(encoding="utf-8")
    )
    return rows


def test_registry_companies_and_what_says_organisation() -> None:
    assert orgs.ror_company("Google LLC") and orgs.ror_company("Red Hat")
    assert not orgs.ror_company("Documentation") and not orgs.ror_company("Executive Council")
    assert orgs.says_org("Example Labs") and orgs.says_org("Microsoft Corporation")
    assert not orgs.says_org("Rod Vagg")
    f = features.affiliation_features("Executive Council", "row", frozenset({"executive council"}))
    assert f["org:seat_words"] and f["org:heading_seat"] and "org:ror_name" not in f
    f = features.affiliation_features("Jane Roe", "li", frozenset())
    assert f["org:personal"] and f["org:proposed"]


def test_handle_then_full_name_gives_the_name_not_an_organisation() -> None:
    link = (("jroe", "https://github.com/jroe"),)
    (entry,) = _entries.read("jroe - Jane Roe", link)
    assert (entry.name, entry.github, entry.affiliation) == ("Jane Roe", "jroe", None)
    (entry,) = _entries.read("jroe - Example Labs", link)  # an organisation's word: one
    assert (entry.name, entry.affiliation) == ("jroe", "Example Labs")


def test_a_label_before_several_people_is_their_area() -> None:
    found = _entries.read("Documentation: @jroe, @mmuster")
    assert [(e.github, e.area, e.affiliation) for e in found] == [
        ("jroe", "Documentation", None),
        ("mmuster", "Documentation", None),
    ]


def test_real_pages_seats_areas_and_names_are_not_organisations() -> None:
    seats = "jupyter-people.2025-11-07.567fa617.md"
    orgs_read = {c.object for c in _claims(seats) if c.predicate == "affiliation"}
    gold_orgs = {r["affiliation"] for r in _gold(seats) if r["affiliation"]}
    assert "Executive Council" not in orgs_read and gold_orgs <= orgs_read
    assert len(orgs_read - gold_orgs) <= 1  # "General Members" (a seat) is still read as one
    for name in ("nodejs-build-README.2025-10-21.c3820547.md",
                 "vllm-docs-governance-committers.045213e4.md"):  # fmt: skip
        claims = _claims(name)
        assert not [c for c in claims if c.predicate == "affiliation"]
    names = {c.subject.name for c in _claims("nodejs-build-README.2025-10-21.c3820547.md")}
    assert "Rod Vagg" in names and "Anna Henningsen" in names


def test_registry_lists_load_fast() -> None:
    import time

    orgs.ror_companies.cache_clear()
    start = time.perf_counter()
    assert len(orgs.ror_companies()) > 10_000
    assert time.perf_counter() - start < 0.5


def test_the_employer_beside_a_job_title_or_a_handle() -> None:
    cases = {
        "Max Muster, Senior Software Engineer at Acme Corp": "Acme Corp",  # "<title> at <org>"
        "Ada Byron (Initech, @abyron)": "Initech",  # what the handle leaves in the parentheses
        "Jane Roe, Principal Engineer, Example Labs Ltd": "Example Labs Ltd",  # not the title
        "Ann Lee (Ann Lee, @alee)": None,  # a name beside the handle is not an organisation
        "Tom Lin, Datadog, Inc.": "Datadog, Inc.",  # a legal suffix stays with its name
    }
    for text, org in cases.items():
        (entry,) = _entries.read(text)
        assert entry.affiliation == org, text
