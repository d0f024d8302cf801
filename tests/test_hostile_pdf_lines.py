"""A PDF line of one long run (letters, "A." repeated, a comma list before an '@') is read in
linear time: the e-mail patterns of the header reader were tried from every character of such a
run and scanned the rest of it each time (a 4,000-character line of letters took 3 s, 16,000
characters 48 s; a list "1,1,...,1@x" of 8,000 characters took 1 s in `tidy_affiliation`)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from extractors.papers import emails, linefeatures
from extractors.papers.patterns import CONTACT_TAIL_WINDOW, tidy_affiliation
from extractors.papers.pdf import parse_paper
from ingest.errors import ExtractionError
from tests.test_arxiv_pdf import T, pdfgen
from tests.test_hostile_parse import assert_linear

# the patterns as they were: the reference for what the linear ones must still find
OLD_TAIL = re.compile(
    r"(?:\s*[,;.]?\s*\b(?:e-?mail|email)s?\b\s*:?[^@]*@.*"
    r"|(?:\s*[,;]?\s*\{?[\w.+-]+(?:\s*,\s*[\w.+-]+)*\}?\s?@\s?[\w-]+(?:\.[\w-]+)+)+)\s*$",
    re.I,
)
OLD_LINE_EMAIL = re.compile(r"[\w.+-]+\s?@\s?[\w-]+(?:\.[\w-]+)+|\}\s?@|@[\w-]+\.\w+")
OLD_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")

RUNS: dict[str, Callable[[int], str]] = {
    "letters": lambda n: "a" * n,
    "initials": lambda n: "A." * (n // 2),
    "digits": lambda n: "1," * (n // 2),
    "list_to_no_host": lambda n: "1," * (n // 2) + "1@x",
    "list_then_address": lambda n: "1,  " * (n // 4) + "x b@x.org",
}


def _paper_with(line: str) -> bytes:
    head = [T(72, 700, "A Title", 16, "Helvetica-Bold"), T(72, 670, "Ann Lee", 11)]
    head += [T(72, 655, line, 10), T(72, 630, "Abstract", 12)]
    return bytes(pdfgen.make_pdf([head]))


def _read(body: bytes) -> object:
    try:
        return parse_paper(body)
    except ExtractionError as exc:  # no author block: still a bounded answer
        return exc


@pytest.mark.parametrize("run", sorted(RUNS))
def test_a_pdf_line_of_one_long_run_is_read_in_linear_time(run: str) -> None:
    def work(size: int) -> Callable[[], object]:
        body = _paper_with(RUNS[run](size))
        return lambda: _read(body)

    assert_linear(work, 2_000)


@pytest.mark.parametrize("run", sorted(RUNS))
def test_the_email_patterns_are_linear_on_long_runs(run: str) -> None:
    for read in (tidy_affiliation, linefeatures.EMAIL_RE.search, emails.EMAIL_RE.findall):

        def work(size: int, read: Callable[[str], object] = read) -> Callable[[], object]:
            text = RUNS[run](size)
            return lambda: read(text)

        assert_linear(work, 4_000)


def test_the_linear_patterns_find_what_the_old_ones_found() -> None:
    atoms = ["a", "b1", "x.y", ".", ",", " ", "  ", "@", "{", "}", "e-mail", "email:", ";"]
    atoms += ["-", "+", "com", ".org", "Univ", "é", "_", ", "]
    rng = random.Random(7)
    for _ in range(30_000):
        text = "".join(rng.choice(atoms) for _ in range(rng.randint(1, 14)))
        assert tidy_affiliation(text) == tidy_affiliation_with(OLD_TAIL, text), text
        assert bool(linefeatures.EMAIL_RE.search(text)) == bool(OLD_LINE_EMAIL.search(text))
        if not re.search(r"[\w-][.+][\w.+-]*@", text):  # one address glued to the next
            assert emails.EMAIL_RE.findall(text) == OLD_EMAIL.findall(text), text
    # the tail is looked for in the line's last CONTACT_TAIL_WINDOW characters
    long_line = "Dept. of Physics, Cedar Valley University " * 40 + ", ann@cvu.edu, bo@cvu.edu"
    assert len(long_line) > CONTACT_TAIL_WINDOW
    assert tidy_affiliation(long_line) == tidy_affiliation_with(OLD_TAIL, long_line)
    assert "@" not in tidy_affiliation(long_line)
    assert (
        tidy_affiliation("Cedar Valley University {ann, bo}@cvu.edu") == "Cedar Valley University"
    )


def tidy_affiliation_with(tail: re.Pattern[str], text: str) -> str:
    from extractors.papers import patterns

    cut = tail.sub("", text).strip(" ,;")
    return patterns._STATE_ZIP_RE.sub(r"\1 \2", patterns._unglued(cut or text))
