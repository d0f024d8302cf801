"""Round 5 (r8-46): the learned event decision fitted on all the gold, and the candidate shapes
added for it. The posts here are CONSTRUCTED (made-up people and projects):

- a table of people (first column titled "Name") under a lead-in is read as that lead-in's list,
  an anaphoric lead-in ("Joining her are the following:") taking the body from the post's title;
- a table row and the post's one author in a first-person sentence are person-reader candidates;
- a person-reader candidate of a person whose gold event is quoted at another spot is left out
  of the fit (neither that event nor `none`);
- the real-probe sets are part of the default sets, every probe post's project is one fold, and
  the figures are reported per part.
"""

from __future__ import annotations

from pathlib import Path

from extractors.announcements import post as announcement
from ingest.models import Snapshot
from ingest_cli.evaluate.announcements import DEFAULT_SETS, PROBE_SETS, GoldEvent, GoldPost
from ingest_cli.evaluate.announcements_model import label, parts, project_key

from .announcement_posts import facts, post, read

URL = "https://example.org/blog/2025/03/04/news/"


def test_a_name_table_under_an_anaphoric_lead_in_is_the_titled_bodys_list() -> None:
    body = post(
        "We are pleased to announce that Jane Roe has been elected to the council.\n\n"
        "Joining her are the following people:\n\n"
        "| Name | Employer | Focus |\n|---|---|---|\n"
        "| Omar Haddad | Initech | Storage |\n| Lena Brandt | Globex | Networking |\n",
        title="Jane Roe Elected to the Example Technical Steering Committee",
    )
    got = facts(read(body))
    assert ("Omar Haddad", None, "current", "2025-03-04") in got
    assert ("Lena Brandt", None, "current", "2025-03-04") in got


def test_a_table_without_a_name_column_gives_no_list() -> None:
    body = post(
        "Joining her are the following:\n\n| Release | Date |\n|---|---|\n| Ocelot Nine | May |\n",
        title="Jane Roe Elected to the Example Technical Steering Committee",
    )
    assert not [c for c in read(body) if c.subject.name == "Ocelot Nine"]


def test_rows_and_the_first_person_author_are_candidates() -> None:
    text = (
        '---\ntitle: "Moving on"\nauthor: "Priya Raman"\ndate: 2025-03-04\n---\n\n'
        "Today I hand my keys to the next generation.\n\n"
        "| Name | Team |\n|---|---|\n| Tomás Ibarra | Docs |\n"
    )
    _post, _context, found = announcement.read_candidates(Snapshot(url=URL, body=text.encode()))
    people = {(c.person.name, c.spot.kind) for c in found if c.person and c.spot}
    assert ("Priya Raman", "paragraph") in people
    assert ("Tomás Ibarra", "row") in people


def test_a_readers_candidate_quoted_elsewhere_by_the_gold_is_left_out() -> None:
    text = (
        '---\ntitle: "Moving on"\nauthor: "Priya Raman"\ndate: 2025-03-04\n---\n\n'
        "I started on the project in 2019.\n\nToday I hand my keys to the next generation.\n"
    )
    _post, _context, found = announcement.read_candidates(Snapshot(url=URL, body=text.encode()))
    event = GoldEvent("Priya Raman", None, "maintainer", "emeritus", "2025-03-04",
                      "Today I hand my keys to the next generation.")  # fmt: skip
    gold = GoldPost("p.md", Path("p.md"), URL, (event,), ())
    labels = {c.spot.quote: label(c, gold) for c in found if c.person and c.spot}
    assert labels["Today I hand my keys to the next generation."] == "maintainer/emeritus"
    assert labels["I started on the project in 2019."] is None


def test_the_probe_sets_are_fitted_on_and_reported_as_one_part() -> None:
    labels = [s.label for s in DEFAULT_SETS]
    suffixes = ("", "-2", "-3", "-4", "-5", "-6", "-7", "-8", "-9", "-10")
    assert [s.label for s in PROBE_SETS] == [f"real-probe{n}" for n in suffixes]
    assert all(s.label in labels for s in PROBE_SETS)
    assert project_key("istio-blog-2021-06-28-steering-election.md") == project_key(
        "istio-blog-2022-11-04-steering-election-results.md"
    )

    class _Set:
        def __init__(self, label: str) -> None:
            self.label = label

    class _Report:
        sets = [_Set(x) for x in labels]

    grouped = parts(_Report())  # type: ignore[arg-type]
    assert grouped["real probes"] == [s.label for s in PROBE_SETS]
    assert grouped["announcements-train"] == ["announcements-train"]


def test_a_first_person_post_made_a_maintainer_is_its_authors_role() -> None:
    text = (
        '---\ntitle: "Example Tools"\nauthor: "Priya Raman"\ndate: 2025-03-04\n---\n\n'
        "I was lucky enough to be made a maintainer of the project.\n"
    )
    assert facts(read(text)) == {("Priya Raman", None, "current", "2025-03-04")}


def test_my_last_day_as_a_maintainer_of_a_named_project_is_the_authors_departure() -> None:
    text = (
        '---\ntitle: "Goodbye"\nauthor: "Priya Raman"\ndate: 2025-03-04\n---\n\n'
        "Yesterday was my last day as a maintainer of Example Tools.\n"
    )
    assert facts(read(text)) == {("Priya Raman", None, "emeritus", "2025-03-04")}


def test_who_has_been_elected_to_a_seat_on_a_body() -> None:
    body = post(
        "Congratulations to [**Jane Roe**](https://github.com/jroe), who has been elected to the "
        "Contributor seat on the Example Technical Steering Committee.\n",
        title="TSC voting results",
    )
    assert ("Jane Roe", "jroe", "current", "2025-03-04") in facts(read(body))


def test_chose_a_as_a_titled_role() -> None:
    body = post(
        "In this most recent election the contributors chose Jane Roe (@jroe) as At-Large "
        "Director.\n",
        title="Election results",
    )
    assert "Jane Roe" in {c.subject.name for c in read(body) if c.predicate == "maintainer"}


def test_a_title_repeating_the_bodys_change_is_given_once() -> None:
    body = post(
        "We are pleased to announce that [Jane Roe](https://github.com/jroe) is now a maintainer "
        "of the Example CLI.\n",
        title="Welcome Jane Roe as our newest maintainer!",
    )
    got = [c for c in read(body) if c.predicate == "maintainer"]
    assert len(got) == 1 and not got[0].evidence.locator.startswith("title")


def test_name_only_lines_under_a_heading_after_an_announcing_lead_in() -> None:
    body = post(
        "Please welcome the latest additions to the Example core team.\n\n## Meet the team\n\n"
        "**[Jane Roe](https://github.com/jroe)**\n\nJane has maintained the CLI for years.\n\n"
        "**[Omar Haddad](https://github.com/ohaddad)**\n\nOmar works on the docs.\n",
        title="Introducing new core team members",
    )
    got = facts(read(body))
    assert ("Jane Roe", "jroe", "current", "2025-03-04") in got
    assert ("Omar Haddad", "ohaddad", "current", "2025-03-04") in got


def test_a_name_only_line_without_an_announcing_lead_in_is_no_list() -> None:
    body = post(
        "We had a great meetup last week.\n\n## Talks\n\n**[Jane Roe](https://github.com/jroe)**\n",
        title="Meetup recap",
    )
    assert not [c for c in read(body) if c.predicate == "maintainer"]


def test_thanking_the_outgoing_members_of_a_body_is_their_departure() -> None:
    body = post(
        "Please join me in thanking the outgoing Board members: Jane Roe, Omar Haddad, and "
        "Lena Brandt.\n",
        title="Board election results",
    )
    got = facts(read(body))
    assert {("Jane Roe", None, "emeritus", "2025-03-04"),
            ("Lena Brandt", None, "emeritus", "2025-03-04")} <= got  # fmt: skip


def test_please_welcome_people_with_asides_who_will_be_joining_as_members() -> None:
    body = post(
        "Please welcome [Jane Roe](https://example.org/jr) (Initech), [Omar Haddad]"
        "(https://example.org/oh) (Globex), and [Lena Brandt](https://example.org/lb) (Acme) who "
        "will be joining [Tomás Ibarra](https://example.org/ti) (Umbrella) as XSC members.\n",
        title="Example Steering Committee Announced",
    )
    got = facts(read(body))
    assert {("Jane Roe", None, "current", "2025-03-04"),
            ("Lena Brandt", None, "current", "2025-03-04")} <= got  # fmt: skip
