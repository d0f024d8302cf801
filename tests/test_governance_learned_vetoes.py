"""Word rules that vetoed a candidate before the learned decision are its features now
(issue 24: a learned decision, not word lists), and the decision is fitted on all the gold."""

from __future__ import annotations

from pathlib import Path

from extractors.people import entries
from extractors.people.entries import Entry
from extractors.people.features import Candidate, affiliation_features, person_features
from ingest_cli.evaluate.governance import DEFAULT_SETS, PROBE_LABELS
from ingest_cli.evaluate.governance_model import project_key

ROOT = Path(__file__).resolve().parents[1]
DEFINED = "Lazy Consensus: A decision is made when nobody objects within seventy two hours of it."


def test_every_labelled_probe_set_is_fitted_on_and_a_blind_one_never() -> None:
    probes = sorted(
        d.name
        for d in (ROOT / "fixtures" / "governance").glob("real-probe*")
        if (d / "gold").is_dir() and not (d / "BLIND").is_file()
    )
    assert probes and sorted(PROBE_LABELS) == probes
    labels = [s.label for s in DEFAULT_SETS]
    assert labels[:3] == ["governance-train", "pep13", "pytorch"] and set(probes) <= set(labels)


def test_a_probe_page_is_in_its_source_projects_fold_in_every_set() -> None:
    assert project_key("real-probe", "containerd-CODEOWNERS.85c3b2b0.txt") == "containerd"
    assert project_key("real-probe-5", "otel-community-members.00e81ad4.md") == "otel"


def test_a_term_and_its_definition_is_a_flagged_candidate_not_a_veto() -> None:
    assert entries.read(DEFINED) == []  # structure readers: it names nobody
    (one,) = entries.read(DEFINED, propose=True)
    assert one.defined and not entries.names_somebody([one])
    c = Candidate(one.name, None, None, DEFINED, "li", "Terms", defined=True)
    assert person_features(c)["name:defined"] == 1.0


def test_a_name_with_an_organisations_word_is_a_flagged_candidate() -> None:
    assert entries.read("Phillip Cloud") == []
    (one,) = entries.read("Phillip Cloud", propose=True)
    assert one.org_word and one.name == "Phillip Cloud" and not entries.names_somebody([one])
    c = Candidate("Phillip Cloud", None, None, "Phillip Cloud", "record", "numfocus", org_word=True)
    assert person_features(c)["name:org_word"] == 1.0
    assert entries.read("Stephan Hoyer", propose=True)[0].org_word is False


def test_a_job_title_is_still_no_employer_and_a_proposed_seat_is_weighed() -> None:
    """The job-title veto is kept (orgs.looks_like_org): weighed instead, cross-validation fell,
    as one project's gold alone holds such candidates (a title line on a card)."""
    (one,) = entries.read("Jane Roe (Community Coordinator)")
    assert one.affiliation is None
    (lead,) = entries.read("Jane Roe, @jroe, Team leader")
    assert lead.affiliation is None and lead.titles == ["Team leader"] and lead.lead
    seat = affiliation_features("DEI Working Group", "li", frozenset())
    assert seat["org:proposed_seat"] == 1.0
    assert "org:proposed_seat" not in affiliation_features("Red Hat", "li", frozenset())


def test_a_domain_printed_as_an_employer_is_one() -> None:
    (one,) = entries.read("Dmitry Krokhin, basis.company")
    assert one.affiliation == "basis.company"
    assert affiliation_features("basis.company", "li", frozenset())["org:lower"] == 1.0


def test_a_record_note_that_reads_as_an_organisation_is_its_employer() -> None:
    from extractors.document.model import Document, Record
    from extractors.governance.blocks import record_entry

    document = Document(title=None, blocks=[], format="yaml")

    def entry(fields: dict[str, str]) -> Entry | None:
        return record_entry(Record("", ("wg",), fields, None, 1), document)[0]

    found = entry({"name": "Jane Roe", "github": "jroe", "description": "Example Archive"})
    assert found is not None and found.affiliation == "Example Archive"
    for note in ("TODO", "Works on the storage layer and the release tooling."):
        found = entry({"name": "Jane Roe", "github": "jroe", "description": note})
        assert found is not None and found.affiliation is None, note
    flagged = entry({"name": "Phillip Cloud", "alias": "cpcloud"})  # no handle field
    assert flagged is not None and flagged.org_word and flagged.name == "Phillip Cloud"


def test_a_seat_the_pages_headings_print_and_a_lists_area_are_no_employers() -> None:
    headings = frozenset({"standing committees and working groups", "dei standing committee"})
    seat = affiliation_features("DEI Working Group", "li", headings)
    assert seat["org:heading_words"] == 2 / 3 and seat["org:proposed_seat"] == 1.0  # not "group"
    assert "org:heading_words" not in affiliation_features("Red Hat", "li", headings)
    assert affiliation_features("Responses API", "li", frozenset())["org:proposed_area"] == 1.0
    (one,) = entries.read("@alee, @jroe, @tlin (Responses API)", handle_list=True)
    assert one.affiliation is None and one.area == "Responses API"  # the list's area
