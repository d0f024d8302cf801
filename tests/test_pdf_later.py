"""An affiliation list printed on a later page (extractors.papers.later), footnote affiliations
(extractors.papers.footnotes) and markers glued to names, on real papers, text and a constructed
page."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from extractors.papers import later
from extractors.papers.later import later_affiliations
from extractors.papers.pdf import parse_paper

ARXIV = Path(__file__).resolve().parent.parent / "fixtures" / "arxiv"
TRAIN = ARXIV / "pdf-train"


def _pdfgen() -> ModuleType:
    """fixtures/arxiv/pdfgen.py: writes constructed PDFs (invented text) for the tests."""
    spec = importlib.util.spec_from_file_location("pdfgen", ARXIV / "pdfgen.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("pdfgen", module)
    spec.loader.exec_module(module)
    return module


pdfgen = _pdfgen()
T = pdfgen.TextItem

LIST = """Funding came from a foundation.
Author details
1Department of Animal Ecology, Uppsala University, Norbyvägen 18D, S-752
36 Uppsala, Sweden. 2Department of Evolutionary Organismal Biology,
Uppsala University, Norbyv-
ägen 18A, Uppsala, Sweden.
Authors’ contributions
AÖ designed the study."""


def test_a_numbered_list_after_its_heading_is_read_as_running_text() -> None:
    found = later_affiliations(["no list on this page", LIST], {"2"})
    assert {k: v[0] for k, v in found.items()} == {
        "1": "Department of Animal Ecology, Uppsala University, Norbyvägen 18D, S-752 36 "
        "Uppsala, Sweden",
        "2": "Department of Evolutionary Organismal Biology, Uppsala University, Norbyvägen 18A, "
        "Uppsala, Sweden",
    }
    assert found["1"][2] == 3  # the page it is printed on (texts start at page 2)


def test_no_list_or_no_wanted_number_gives_nothing() -> None:
    assert later_affiliations(["Author details\nnot a numbered list"], {"1"}) == {}
    assert later_affiliations([LIST], {"7"}) == {}


def test_bmc_full_author_list_at_the_end_of_the_article() -> None:
    paper = parse_paper((TRAIN / "bmc-evolbiol-2011-uv-vision-passerines.pdf").read_bytes())
    by_name = {a.name: [x.text for x in a.affiliations] for a in paper.authors}
    assert by_name["Per Alström"] == [
        "Swedish Species Information Centre, Swedish University of Agricultural Sciences, "
        "Box 7007, S-750 07 Uppsala, Sweden"
    ]
    assert len(by_name["Olle Håstad"]) == 2
    assert all(a.locator.startswith("page 6") for a in paper.authors[2].affiliations)


def test_a_footnote_affiliation_wrapped_over_two_lines_and_cut_before_its_note() -> None:
    paper = parse_paper((TRAIN / "2311.04850v1.pdf").read_bytes())
    first = paper.authors[0]
    assert [a.text for a in first.affiliations] == ["UC Berkeley", "Shanghai Jiao Tong University"]
    paper = parse_paper((TRAIN / "1902.01046v1.pdf").read_bytes())
    assert {a.affiliations[0].text for a in paper.authors} == {
        "Google Inc., Mountain View, CA, USA"
    }


def test_a_run_of_digits_glued_to_a_name_is_one_marker_per_digit() -> None:
    page = [
        T(72, 700, "Markers Glued To Names", 16, "Helvetica-Bold"),
        T(72, 670, "Ann Lee135, Bo Chen2", 11),
        T(72, 652, "1Cedar Valley University, 2Nimbus Labs, 3Aurora Institute,", 9),
        T(72, 640, "5Lakeside College", 9),
        T(72, 610, "Abstract", 12, "Helvetica-Bold"),
    ]
    paper = parse_paper(pdfgen.make_pdf([page]))
    by_name = {a.name: [x.text for x in a.affiliations] for a in paper.authors}
    assert by_name == {
        "Ann Lee": ["Cedar Valley University", "Aurora Institute", "Lakeside College"],
        "Bo Chen": ["Nimbus Labs"],
    }


def test_a_surname_hyphenated_across_lines_is_rejoined() -> None:
    page = [
        T(72, 700, "A Title Of Some Length", 16, "Helvetica-Bold"),
        T(72, 670, "Ann Lee, Mario Guajardo-", 11),
        T(72, 656, "Céspedes, Bo Chen", 11),
        T(72, 640, "Cedar Valley University", 9),
        T(72, 610, "Abstract", 12, "Helvetica-Bold"),
    ]
    paper = parse_paper(pdfgen.make_pdf([page]))
    assert [a.name for a in paper.authors] == ["Ann Lee", "Mario Guajardo-Céspedes", "Bo Chen"]


def test_degrees_after_names_are_not_names() -> None:
    page = [
        T(72, 700, "A Title Of Some Length", 16, "Helvetica-Bold"),
        T(72, 670, "Ann Lee, MD, PhD; Bo Chen, MPH; Carla Ma, MSc", 11),
        T(72, 654, "Cedar Valley University", 9),
        T(72, 620, "Abstract", 12, "Helvetica-Bold"),
    ]
    paper = parse_paper(pdfgen.make_pdf([page]))
    assert [a.name for a in paper.authors] == ["Ann Lee", "Bo Chen", "Carla Ma"]
    assert all(a.affiliations[0].text == "Cedar Valley University" for a in paper.authors)


def test_author_notes_on_the_last_page_give_the_affiliations() -> None:
    """Constructed: page 1 names its authors and no affiliation (a magazine's research
    highlight); the last page prints "Name (email), Affiliation." after the references."""
    first = [
        T(72, 700, "A Research Highlight Of Some Length", 16, "Helvetica-Bold"),
        T(72, 670, "By Ann Lee and Bo Chen", 11),
        T(72, 640, "Abstract", 12, "Helvetica-Bold"),
        T(72, 625, "We study how things are done and find that they are done well.", 10),
    ]
    middle = [T(72, 700, "The body of the paper runs on, with no names in it at all.", 10)]
    last = [
        T(72, 700, "References", 12, "Helvetica-Bold"),
        T(72, 685, "1. A. Author. A cited work. 2019.", 9),
        T(72, 650, "Ann Lee (ann@cedar.edu), Cedar Valley University, Springfield, USA.", 9),
        T(72, 638, "Bo Chen (bo@nimbus.org), Nimbus Research Labs, Oslo, Norway.", 9),
    ]
    paper = parse_paper(pdfgen.make_pdf([first, middle, last]))
    found = {a.name: ([x.text for x in a.affiliations], a.emails) for a in paper.authors}
    assert found == {
        "Ann Lee": (["Cedar Valley University, Springfield, USA"], ["ann@cedar.edu"]),
        "Bo Chen": (["Nimbus Research Labs, Oslo, Norway"], ["bo@nimbus.org"]),
    }
    assert paper.authors[0].affiliations[0].locator.startswith("page 3")


def test_author_notes_name_only_the_authors_they_print() -> None:
    text = "Ann Lee (ann@cedar.edu), Cedar Valley University, Springfield, USA.\nOther text"
    notes = later.author_notes([(9, text)], ["Ann Lee", "Bo Chen"])
    assert notes == {
        "Ann Lee": (
            "Cedar Valley University, Springfield, USA",
            "ann@cedar.edu",
            "Cedar Valley University, Springfield, USA",
            9,
        )
    }
