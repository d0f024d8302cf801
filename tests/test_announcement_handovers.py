"""Role changes the second round on real posts found unread (`extractors/announcements/handovers`
and the list lead-ins of `lists`), each on a small CONSTRUCTED post (invented people and
projects): a present-tense departure ("A retires from the board"), "thanks to A, B and C, whose
terms have now ended", "A ([@a](url)) has agreed to take over as project lead for X".
"""

from __future__ import annotations

from .announcement_posts import facts, post, read


def test_a_departure_in_the_present_tense() -> None:
    body = post(
        "Jane Roe joins the Example Governance Board. At the same time, Bo Chen retires "
        "from the board. We thank Bo for his work.\n",
        title="Welcome Jane Roe",
    )
    assert facts(read(body)) == {("Jane Roe", None, "current", "2025-03-04"),
                                 ("Bo Chen", None, "emeritus", "2025-03-04")}  # fmt: skip


def test_people_whose_terms_have_ended_leave_the_title_s_body() -> None:
    body = post("We would like to extend our heartfelt thanks to Jane Roe, Bo Chen and Ann Lee, "
                "whose terms have now ended.\n",
                title="2025 Example Steering Committee Election Results")  # fmt: skip
    claims = read(body)
    assert facts(claims) == {(n, None, "emeritus", "2025-03-04")
                             for n in ("Jane Roe", "Bo Chen", "Ann Lee")}  # fmt: skip
    assert {c.object for c in claims} == {"Example Steering Committee"}


def test_agreeing_to_take_over_as_project_lead() -> None:
    body = post("I'm very pleased to say that [Jane Roe](https://github.com/jroe) "
                "([@janer](https://twitter.com/janer)) has agreed to take over as project lead "
                "for Example.\n")  # fmt: skip
    claims = read(body)
    assert facts(claims) == {("Jane Roe", "jroe", "current", "2025-03-04")}
    assert claims[0].qualifiers["level"] == "lead"


def test_label_lines_between_a_colon_lead_in_and_its_lists() -> None:
    body = post(
        "We are excited to welcome these new members to the community.\n\n"
        "Our new Maintainers are:\n\n"
        "For Example Lessons - Ecology\n* Jane Roe\n\n"
        "For Example Lessons - Genomics\n* Bo Chen\n* Ann Lee\n",
        title="Welcoming our New Maintainers",
    )
    assert facts(read(body)) == {(n, None, "current", "2025-03-04")
                                 for n in ("Jane Roe", "Bo Chen", "Ann Lee")}  # fmt: skip


def test_a_list_under_a_paragraph_describing_the_body_announced_above_it() -> None:
    body = post(
        "The elections have now concluded and it's time to meet your new Example Committee.\n\n"
        "The people on this committee will help with planning and decision making.\n\n"
        "* Jane Roe (@jroe)\n* Bo Chen (@bochen)\n\n"
        "Let's celebrate all the candidates for running.\n",
        title="Meet your Example Committee",
    )
    assert facts(read(body)) == {("Jane Roe", "jroe", "current", "2025-03-04"),
                                 ("Bo Chen", "bochen", "current", "2025-03-04")}  # fmt: skip


def test_a_description_paragraph_alone_introduces_nothing() -> None:
    body = post(
        "We had a great year.\n\n"
        "The people on this team will help with planning.\n\n"
        "* Jane Roe (@jroe)\n* Bo Chen (@bochen)\n",
        title="Our year",
    )
    assert read(body) == []


def test_the_author_stepping_away_from_a_project() -> None:
    body = ('---\ntitle: "Stepping Down From Example"\nauthor: janeroe\ndate: 2025-03-04\n---\n\n'
            "So, I’m stepping away from Example, and letting others take the reins.\n")  # fmt: skip
    assert facts(read(body)) == {("janeroe", None, "emeritus", "2025-03-04")}
    body = ('---\ntitle: "Project news"\nauthor: janeroe\ndate: 2025-03-04\n---\n\n'
            "I'm stepping away from the keyboard for a week.\n")  # fmt: skip
    assert read(body) == []
