"""Text tests of the author block reader (extractors.papers.patterns, extractors.papers.cells)."""

from __future__ import annotations

import pytest

from extractors.papers.cells import drop_grades, ends_with_country, join_wrapped
from extractors.papers.patterns import (
    IGNORE_RE,
    INLINE_MARKER_RE,
    fix_accents,
    is_name_like,
    tidy_affiliation,
)
from extractors.papers.text import Cell, Segment


@pytest.mark.parametrize("text", ["March 3, 2024", "3 March 2024", "2024-03-03", "Dec. 2019"])
def test_a_date_alone_is_not_an_affiliation(text: str) -> None:
    assert IGNORE_RE.search(text)


@pytest.mark.parametrize("text", ["Marchetti Lab", "University of Maryland", "May Lee"])
def test_names_and_places_that_look_like_months_are_kept(text: str) -> None:
    assert not IGNORE_RE.search(text)


def test_accents_drawn_before_or_after_their_letter() -> None:
    assert fix_accents("Teˇsanovi´c") == "Tešanović"  # TeX: before the letter
    assert fix_accents("He´ le` ne, Universite´ Paris") == "Hélène, Université Paris"  # after


def test_society_grades_leave_the_names() -> None:
    seg = Segment("Ann Lee, Student Member, IEEE, Bo Chen, Fellow, IEEE", False, 0, 10, "Times")
    cell = Cell([seg], 1, 700)
    drop_grades(cell)
    assert cell.text == "Ann Lee, Bo Chen"


def test_wrapped_lines_and_finished_addresses() -> None:
    assert join_wrapped("Department of", "Physics") == "Department of Physics"
    assert join_wrapped("Univer-", "sity of Oslo") == "University of Oslo"
    assert (
        join_wrapped("Dept. of Physics", "Lund University") == "Dept. of Physics, Lund University"
    )
    assert ends_with_country("Rua Xavier Sigaud 150, Rio de Janeiro, Brazil")
    assert not ends_with_country("Department of Physics, Lund University")
    assert not is_name_like("South Africa Observatory")


@pytest.mark.parametrize(
    ("text", "markers"),
    [
        ("Robert Schapire+, Ann Lee$", ["+", "$"]),
        ("+Dept. of Computer Science", ["+"]),
        ("KB+Text search", []),
        ("C++ Lab, costs $5", []),
        ("Ann Lee*#, #1515 Main St", ["*", "#"]),
    ],
)
def test_symbol_markers_only_where_a_marker_stands(text: str, markers: list[str]) -> None:
    assert [m.group(0) for m in INLINE_MARKER_RE.finditer(text)] == markers


@pytest.mark.parametrize(
    ("text", "tidy"),
    [
        (
            "Rockwell Automation, Cleveland, OH 44124 USA e-mail: fpmaturana@ra.rockwell.com",
            "Rockwell Automation, Cleveland, OH 44124 USA",
        ),
        (
            "ILSP Greece, Athena Research Center prokopis@ilsp.gr",
            "ILSP Greece, Athena Research Center",
        ),
        ("Google Research, {ann, bo}@google.com", "Google Research"),
        (
            "Department of EECS, Berkeley, CA94720, USA",
            "Department of EECS, Berkeley, CA 94720, USA",
        ),
        ("Email Inc., Mountain View", "Email Inc., Mountain View"),  # an e-mail word, no address
        ("Department of E-mail Studies, Tartu", "Department of E-mail Studies, Tartu"),
        ("ann@example.org", "ann@example.org"),  # nothing would remain: kept
        (  # JAMA prints its affiliations without spaces
            "DepartmentofComputerScience, UniversityofTexas,Austin",
            "Department of Computer Science, University of Texas, Austin",
        ),
        ("Google DeepMind, London, UK", "Google DeepMind, London, UK"),  # spaced: as printed
        ("DeepMind,London", "DeepMind,London"),  # short: as printed
    ],
)
def test_affiliations_lose_trailing_emails(text: str, tidy: str) -> None:
    assert tidy_affiliation(text) == tidy
