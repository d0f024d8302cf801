"""Affiliations printed as "... are with ..." sentences (extractors.papers.notes)."""

from __future__ import annotations

from pathlib import Path

from extractors.papers import footnotes
from extractors.papers.notes import attach_are_with, attach_parenthesised
from extractors.papers.pdf import parse_paper
from extractors.papers.text import Cell, Line, Segment
from extractors.papers.values import Affiliation, Author

TRAIN = Path(__file__).resolve().parent.parent / "fixtures" / "arxiv" / "pdf-train"


def _line(text: str, y: float) -> Line:
    seg = Segment(text, False, 50.0, 8.0, "Times")
    return Line(y=y, page=1, segments=[seg], cells=[Cell([seg], 1, y)])


def test_the_authors_are_with_gives_everyone_the_affiliation() -> None:
    paper = parse_paper((TRAIN / "ieee-tkde-2010-transfer-learning-survey.pdf").read_bytes())
    assert [a.name for a in paper.authors] == ["Sinno Jialin Pan", "Qiang Yang"]  # no "Fellow"
    for author in paper.authors:
        assert [a.text for a in author.affiliations] == [
            "Department of Computer Science and Engineering, Hong Kong University of Science "
            "and Technology, Clearwater Bay, Kowloon, Hong Kong"
        ]


def test_a_named_sentence_goes_to_the_authors_it_names_only() -> None:
    ada, bob = Author(name="Ada Lovelace"), Author(name="Bob Smith")
    lines = [
        _line("A. Lovelace is with the Analytical Engine Society, London,", 100),
        _line("UK. B. Smith is with Example University, Paris, France.", 90),
    ]
    attach_are_with([ada, bob], lines)
    assert [a.text for a in ada.affiliations] == ["Analytical Engine Society, London, UK"]
    assert [a.text for a in bob.affiliations] == ["Example University, Paris, France"]


def test_an_author_with_an_affiliation_keeps_it() -> None:
    ada = Author(name="Ada Lovelace", affiliations=[Affiliation("Printed Lab", "Printed Lab", 1)])
    attach_are_with([ada], [_line("The authors are with Other University, Rome, Italy.", 90)])
    assert [a.text for a in ada.affiliations] == ["Printed Lab"]


def test_units_naming_their_people_in_parentheses_share_a_trailing_parent() -> None:
    ada, bob = Author(name="Ada B Lovelace"), Author(name="Bob Smith")
    column = [
        "Engine Unit (Prof A B Lovelace PhD), and the",
        "Difference Lab (A Lovelace, B Smith MD),",
        "Example University, London, UK; Other",
        "Trust, Leeds, UK (B Smith);",
        "Correspondence to: Ada Lovelace",
    ]
    lines = [_line(text, 200 - 9 * i) for i, text in enumerate(column)]
    attach_parenthesised([ada, bob], lines)
    assert [a.text for a in ada.affiliations] == [
        "Engine Unit, Example University, London, UK",
        "Difference Lab, Example University, London, UK",
    ]
    assert [a.text for a in bob.affiliations] == [
        "Difference Lab, Example University, London, UK",
        "Other Trust, Leeds, UK",
    ]


def test_the_lancet_margin_paragraph() -> None:
    paper = parse_paper(
        (TRAIN / "lancet-2018-inclusion-health-morbidity-mortality.pdf").read_bytes()
    )
    hayward = next(a for a in paper.authors if a.name == "Andrew C Hayward")
    assert [a.text for a in hayward.affiliations] == [
        "Centre for Public Health Data Science, Institute of Health Informatics, University "
        "College London, London, UK",
        "The Farr Institute of Health Informatics Research, University College London, London, UK",
        "Institute of Epidemiology and Health Care, University College London, London, UK",
    ]


def test_a_labelled_paragraph_naming_surnames_alone() -> None:
    ada, bob = Author(name="Ada Lovelace"), Author(name="Bob Smith")
    column = [
        "Author Affiliations: Department of",
        "Medicine, Example University, Boston,",
        "Massachusetts (Lovelace, Smith); Other",
        "Hospital, Leeds, UK (Smith).",
        "Corresponding Author: Ada Lovelace,",
    ]
    lines = [_line(text, 200 - 9 * i) for i, text in enumerate(column)]
    attach_parenthesised([ada, bob], lines)
    assert [a.text for a in ada.affiliations] == [
        "Department of Medicine, Example University, Boston, Massachusetts"
    ]
    assert [a.text for a in bob.affiliations] == [
        "Department of Medicine, Example University, Boston, Massachusetts",
        "Other Hospital, Leeds, UK",
    ]


def test_ieee_digital_object_identifier_names_the_work() -> None:
    paper = parse_paper((TRAIN / "ieee-tkde-2010-transfer-learning-survey.pdf").read_bytes())
    assert paper.doi == "10.1109/TKDE.2009.191"


def test_initials_tell_authors_of_one_surname_apart() -> None:
    """ "S. Ma and L. Wang are with A. H. Wang is with B.": Hongyu Wang is not Lei Wang."""
    shuming, hongyu, lei = (
        Author(name="Shuming Ma"),
        Author(name="Hongyu Wang"),
        Author(name="Lei Wang"),
    )
    lines = [
        _line("S. Ma and L. Wang are with Acme Research. H. Wang is with Beta University.", 90)
    ]
    attach_are_with([shuming, hongyu, lei], lines)
    assert [a.text for a in shuming.affiliations] == ["Acme Research"]
    assert [a.text for a in lei.affiliations] == ["Acme Research"]
    assert [a.text for a in hongyu.affiliations] == ["Beta University"]


def test_a_run_on_numbered_footnote_is_split_into_its_entries() -> None:
    """Nature Neuroscience: "1Division of Biology, ..., USA. 2Department of Bioengineering, ...,
    UK. 3Laboratory" / "of Neural Microcircuitry, ..., Switzerland. 4Department of ...": one
    affiliation per number, the third running on to the next line."""
    paper = parse_paper((TRAIN / "natneuro11-anastassiou-ephaptic.pdf").read_bytes())
    affs = {a.name: [x.text for x in a.affiliations] for a in paper.authors}
    caltech = "Division of Biology, California Institute of Technology, Pasadena, California, USA"
    assert affs["Costas A Anastassiou"] == [
        caltech,
        "Department of Bioengineering, Imperial College, London, UK",
    ]
    assert affs["Rodrigo Perin"] == [
        "Laboratory of Neural Microcircuitry, EPFL, Lausanne, Switzerland"
    ]
    assert affs["Christof Koch"] == [
        caltech,
        "Department of Brain and Cognitive Engineering, Korea University, Seoul, South Korea",
    ]


def test_now_with_and_work_done_notes_are_not_affiliations() -> None:
    """Where an author went since, or worked then, is a note: not the printed affiliation."""
    ada, bob = Author(name="Ada Lovelace"), Author(name="Bob Smith")
    lines = [_line("A. Lovelace is with Example University. B. Smith is now with Acme Inc.", 90)]
    attach_are_with([ada, bob], lines)
    assert [a.text for a in ada.affiliations] == ["Example University"]
    assert bob.affiliations == []
    for note in ("Now at Google DeepMind", "Work done while at Meta AI", "Currently at OpenAI"):
        assert not footnotes._footnote_affiliation(note)
    assert footnotes._footnote_affiliation("Google DeepMind")
