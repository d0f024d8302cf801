"""Role changes the third round on real posts found unread (`extractors/announcements/prose`, and
a surname printed as its initial in `names`), each on a small CONSTRUCTED post (invented people
and projects): outgoing members named after a relative clause, "A has officially joined the X
community as a committer", "I handed over the maintainership of X to A", "[I'm (login)](url)
taking over from [Bob (bob)](url) as maintainer", "Ann K (Org)". Each has a negative twin: the
same words where no role changes hands give no claim.
"""

from __future__ import annotations

from extractors.announcements import names

from .announcement_posts import facts, post, read


def test_outgoing_members_named_after_a_relative_clause() -> None:
    body = post("We also want to thank two outgoing Example Steering Committee members who did "
                "not stand for election, Jane Roe and Bo Chen.\n",
                title="Example Steering Committee election results")  # fmt: skip
    claims = read(body)
    assert facts(claims) == {("Jane Roe", None, "emeritus", "2025-03-04"),
                             ("Bo Chen", None, "emeritus", "2025-03-04")}  # fmt: skip
    assert {c.predicate for c in claims} == {"maintainer"}


def test_people_thanked_without_an_outgoing_role_give_no_claim() -> None:
    body = post("We also want to thank two volunteers who helped with the election, Jane Roe "
                "and Bo Chen.\n")  # fmt: skip
    assert read(body) == []


def test_joining_a_named_community_as_a_committer() -> None:
    body = post("We are thrilled to announce that Jane Roe (GitHub ID: jroe-42) has officially "
                "joined the Example Widget community as a committer!\n",
                title="Welcoming Jane Roe as a new committer")  # fmt: skip
    claims = read(body)
    assert facts(claims) == {("Jane Roe", None, "current", "2025-03-04")}
    assert claims[0].qualifiers["role"] == "committer of Example Widget"


def test_joining_a_community_without_a_role_gives_no_claim() -> None:
    body = post("Jane Roe has joined the Example Widget community as a speaker at our "
                "meetup.\n")  # fmt: skip
    assert [c for c in read(body) if c.predicate == "maintainer"] == []


def test_a_maintainership_handed_over_by_the_writer() -> None:
    body = post("Today, I handed over the maintainership of Colorpick to "
                "[Jane Roe](https://wiki.example.org/JaneRoe), also known as jr.\n",
                title="Giving up maintainership of Colorpick")  # fmt: skip
    claims = read(body)
    assert facts(claims) == {("Jane Roe", None, "current", "2025-03-04")}
    assert claims[0].object == "Colorpick"


def test_a_maintainership_handed_over_by_a_named_person() -> None:
    body = post("Last week Bo Chen handed over the maintainership of Colorpick to Jane Roe.\n")
    assert facts(read(body)) == {("Jane Roe", None, "current", "2025-03-04"),
                                 ("Bo Chen", None, "emeritus", "2025-03-04")}  # fmt: skip


def test_something_else_handed_over_gives_no_claim() -> None:
    body = post("Today, I handed over the keys of the office to Jane Roe.\n")
    assert read(body) == []


def test_the_writer_taking_over_from_someone_as_maintainer() -> None:
    body = post("In short, [I'm (jdoe)](https://github.com/jdoe) taking over from "
                "[Bob (bobx)](https://github.com/bobx) as maintainer, but Bob is sticking "
                "around as a contributor!\n", title="Hello Example")  # fmt: skip
    claims = read(body)
    assert facts(claims) == {("jdoe", "jdoe", "current", "2025-03-04"),
                             ("Bob", "bobx", "emeritus", "2025-03-04")}  # fmt: skip


def test_taking_over_a_task_gives_no_claim() -> None:
    body = post("In short, I'm taking over from Bob on the release notes this month.\n")
    assert read(body) == []


def test_a_surname_printed_as_its_initial() -> None:
    people = names.mask("Ann K (Example Corp), Craig Box and Iris Ding")[1]
    assert [p.name for p in people] == ["Ann K", "Craig Box", "Iris Ding"]


def test_a_capital_letter_inside_a_sentence_is_no_surname() -> None:
    assert names.mask("Plan B is what we chose, and Ann said so.")[1] == []
    assert names.mask("We met Ann K Smith there.")[1] == []
