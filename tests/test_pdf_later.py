"""An affiliation list printed on a later page (extractors._pdf_later) and footnote affiliations
(extractors._pdf_footnotes), on real papers and on text."""

from __future__ import annotations

from pathlib import Path

from extractors._pdf_later import later_affiliations
from extractors.arxiv_pdf import parse_paper

TRAIN = Path(__file__).resolve().parent.parent / "fixtures" / "arxiv" / "pdf-train"

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
