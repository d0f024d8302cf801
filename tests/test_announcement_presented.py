"""Round 10's readers (branch r10-66), each on a small CONSTRUCTED post (invented people and
projects) with a negative twin where one fits: a dated news list and a news fragment routed to
the announcement reader, "New ROLE, Name" entries dated by their own date, name headings and
linked name lines under an announcing heading or lead-in (`extractors/announcements/presented`),
people forming a body, role appositions, departures after a goodbye, the writer's return to a
role, and a "Label: value" line whose label is no person.
"""

from __future__ import annotations

import extractors
from extractors.announcements import post as announcement
from ingest.models import Snapshot

from .announcement_posts import facts, post, read

NEWS_PAGE = "https://widgets.example.org/community/news"


def _snapshot(body: str, url: str) -> Snapshot:
    return Snapshot(url=url, body=body.encode("utf-8"))


def test_a_dated_news_list_is_news_and_each_entry_takes_its_own_date() -> None:
    body = (
        "---\ntitle: News\n---\n\n"
        "- 2025-05-02: New Committer, Jane Roe [@jroe](https://github.com/jroe)\n"
        "- 2025-04-20: Example Widgets 1.2.0 released.\n"
        "- 2025-03-11: New PMC Member, Bo Chen [@bochen](https://github.com/bochen)\n"
        "- 2025-02-01: Example Widgets 1.1.0 released.\n"
    )
    snapshot = _snapshot(body, NEWS_PAGE)
    assert extractors.choose(NEWS_PAGE, snapshot).NAME == "announcement"
    claims = announcement.extract(snapshot)
    assert facts(claims) == {("Jane Roe", "jroe", "current", "2025-05-02"),
                             ("Bo Chen", "bochen", "current", "2025-03-11")}  # fmt: skip
    assert {c.qualifiers["role"] for c in claims} == {"Committer", "PMC Member"}


def test_a_list_of_dated_releases_names_nobody() -> None:
    body = (
        "---\ntitle: News\n---\n\n"
        "- 2025-04-20: Example Widgets 1.2.0 released.\n"
        "- 2025-02-01: Example Widgets 1.1.0 released.\n"
        "- 2025-01-05: Example Widgets 1.0.0 released.\n"
    )
    assert announcement.extract(_snapshot(body, NEWS_PAGE)) == []


def test_a_news_fragment_at_no_post_url_is_read_when_it_reports_a_role_change() -> None:
    url = "https://widgets.example.org/en_news.php#news_20250304"
    body = (
        '<div class="newsheader">Welcome to our new committer</div>\n'
        "<p>We would like to warmly welcome Jose Marin to the committers' Team.</p>\n"
    )
    snapshot = _snapshot(body, url)
    assert extractors.choose(url, snapshot).NAME == "announcement"
    assert facts(announcement.extract(snapshot)) == {("Jose Marin", None, "current",
                                                      "2025-03-04")}  # fmt: skip


def test_name_headings_under_an_announcing_heading() -> None:
    body = post(
        "The board changed at the annual meeting.\n\n"
        "## New Directors\n\n### Emma\n\nEmma has volunteered since 2019.\n\n"
        "### Tomas Berg\n\nTomas runs the forum.\n\n"
        "## Continuing Directors\n\n### Ines\n\nInes chairs the board.\n\n"
        "## Resigning Directors\n\n### Lior\n\nThank you, Lior.\n"
    )
    assert facts(read(body)) == {("Emma", None, "current", "2025-03-04"),
                                 ("Tomas Berg", None, "current", "2025-03-04"),
                                 ("Lior", None, "emeritus", "2025-03-04")}  # fmt: skip


def test_linked_name_lines_under_a_lead_in_that_announces_them() -> None:
    body = post(
        "These three nominees have been elected to serve on the Example Board.\n\n"
        "[Jane Roe](https://example.org/jane)\n\nJane is a current director.\n\n"
        "[Bo Chen](https://example.org/bo)\n\nBo is new to the board.\n"
    )
    assert {n for n, *_ in facts(read(body))} == {"Jane Roe", "Bo Chen"}


def test_people_forming_a_body_and_role_appositions() -> None:
    body = post(
        "Jane Roe, Bo Chen, and Mira join our veteran member Ken Ode to form our first "
        "dedicated Hardware group. They are managed by Ann Lee, our first-ever development "
        "lead.\n\nI'd also like to say goodbye to some departing members.\n\n"
        "Raj Patel, last year's PR Director, wrote our newsletter. Lu Wen and Ola Berg each "
        "left a mark on our project as core developers.\n"
    )
    found = facts(read(body))
    assert {(n, s) for n, _g, s, _d in found} == {
        ("Jane Roe", "current"), ("Bo Chen", "current"), ("Mira", "current"),
        ("Ken Ode", "current"), ("Ann Lee", "current"), ("Raj Patel", "emeritus"),
        ("Lu Wen", "emeritus"), ("Ola Berg", "emeritus"),
    }  # fmt: skip


def test_core_developers_without_a_goodbye_do_not_leave() -> None:
    body = post("Lu Wen and Ola Berg each left a mark on our project as core developers.\n")
    assert read(body) == []


def test_the_writer_returning_to_a_role() -> None:
    body = (
        '---\ntitle: "Back to work"\nauthor: Mattx\ndate: 2025-03-04\n---\n\n'
        "I'm very excited to announce my return as the managing editor of Example Weekly.\n"
    )
    assert facts(read(body)) == {("Mattx", None, "current", "2025-03-04")}


def test_a_label_line_is_no_person() -> None:
    body = post(
        "## New Directors\n\n### Emma\n\n**Example.org Profile:** [@emma](/user/emma)\n\n"
        "Emma has volunteered since 2019.\n"
    )
    assert {n for n, *_ in facts(read(body))} == {"Emma"}
