"""extractors/papers/emails.py: expanding printed email lists and assigning them to authors."""

from __future__ import annotations

from dataclasses import dataclass, field

from extractors.papers.emails import (
    EmailGroup,
    assign_emails,
    domain_matches,
    email_text,
    expand_emails,
    name_in_email,
)


@dataclass
class Aff:
    text: str


@dataclass
class Person:
    name: str
    affiliations: list[Aff] = field(default_factory=list)
    emails: list[str] = field(default_factory=list)


def people(*specs: tuple[str, str]) -> list[Person]:
    return [Person(name, [Aff(aff)] if aff else []) for name, aff in specs]


def assign(
    authors: list[Person],
    groups: list[EmailGroup[Person]] | None = None,
    page_text: str = "",
    footnotes: list[tuple[str, Person]] | None = None,
    owners_of: dict[str, list[Person]] | None = None,
) -> list[list[str]]:
    texts = list(dict.fromkeys(a.text for p in authors for a in p.affiliations))
    assign_emails(authors, groups or [], footnotes or [], owners_of or {}, texts, page_text or "@")
    return [p.emails for p in authors]


def test_expand_brace_groups_shared_domains_and_labels() -> None:
    assert expand_emails("{a,b.c}@x.org, d@y.com") == [["a@x.org", "b.c@x.org"], ["d@y.com"]]
    assert expand_emails("JDF38,SH360,KH204@DUKE.EDU") == [
        ["jdf38@duke.edu", "sh360@duke.edu", "kh204@duke.edu"]
    ]
    assert expand_emails("{ann, bob} @ z.io") == []
    assert expand_emails("Email: x@y.io") == [["x@y.io"]]
    assert expand_emails("{mrhu, ngimelshein}@nvidia.com") == [
        ["mrhu@nvidia.com", "ngimelshein@nvidia.com"]
    ]


def test_underscore_drawn_as_a_gap() -> None:
    assert email_text("ruochen zhang@brown.edu") == "ruochen_zhang@brown.edu"


def test_domain_matches_acronyms_words_and_first_word() -> None:
    assert domain_matches("cs.cmu.edu", ["Carnegie Mellon University"])
    assert domain_matches("allenai.org", ["Allen Institute for AI"])
    assert domain_matches("stanford.edu", ["Stanford University, CA"])
    assert not domain_matches("gmail.com", ["Stanford University"])
    assert not domain_matches("mit.edu", ["Stanford University"])


def test_name_in_email() -> None:
    assert name_in_email("jclemons@nvidia.com", "Jason Clemons")
    assert not name_in_email("mrhu@nvidia.com", "Jason Clemons")


def test_rule1_name_beside_its_email_in_the_page_text() -> None:
    authors = people(("Tal August", "University of Washington"), ("Ann Lee", ""))
    text = "Authors' addresses: Tal August, taugust@cs.washington.edu; Ann Lee (ann@x.org)."
    assert assign(authors, page_text=text) == [["taugust@cs.washington.edu"], ["ann@x.org"]]


def test_footnote_email_goes_to_the_marked_author_first() -> None:
    authors = people(("Ann Lee", "Nimbus Inc."), ("Bo Chen", "Nimbus Inc."))
    group = EmailGroup(["ann@nimbus.example"], authors, [], None)
    got = assign(authors, [group], footnotes=[("bo@nimbus.example", authors[1])])
    assert got == [["ann@nimbus.example"], ["bo@nimbus.example"]]


def test_rule2_column_and_band_groups() -> None:
    a, b, c = people(("Ann Lee", "X Lab"), ("Bo Chen", "X Lab"), ("Cy Dunn", "Y Lab"))
    groups = [
        EmailGroup(["cy@y.example"], [a, b, c], [c], None),  # printed under Cy's column
        EmailGroup(["ann@x.example", "bo@x.example"], [a, b], [], None),  # one per band name
    ]
    assert assign([a, b, c], groups) == [["ann@x.example"], ["bo@x.example"], ["cy@y.example"]]


def test_rule3_emails_after_an_affiliation_line_go_to_its_authors() -> None:
    a, b, c = people(("Ann Lee", "Ridge University"), ("Bo Chen", "Fjord AI"), ("Cy Dunn", ""))
    group = EmailGroup(["bo@fjord.example"], [a, b, c], [], "2")
    assert assign([a, b, c], [group], owners_of={"2": [b]}) == [[], ["bo@fjord.example"], []]


def test_rule4_printed_order_when_domains_agree() -> None:
    authors = people(("Ann Lee", "NVIDIA"), ("Bo Chen", "NVIDIA"))
    group = EmailGroup(["x1@nvidia.com", "x2@nvidia.com"], [], [], "1")
    assert assign(authors, [group]) == [["x1@nvidia.com"], ["x2@nvidia.com"]]


def test_rule5_by_domain_when_order_disagrees() -> None:
    authors = people(("Ann Lee", "Stanford University"), ("Bo Chen", "Harvard University"))
    group = EmailGroup(["bchen@harvard.edu", "alee@stanford.edu"], [], [], "1")
    assert assign(authors, [group]) == [["alee@stanford.edu"], ["bchen@harvard.edu"]]


def test_nothing_to_assign() -> None:
    authors = people(("Ann Lee", "Stanford University"))
    assign_emails(authors, [], [], {}, ["Stanford University"], "no addresses here")
    assert authors[0].emails == []
