"""Real announcement posts nobody here had seen (issue 24/announcements), scored against hand gold.

Real files: `fixtures/announcements/real-probe/` (10 posts of 7 projects: the shapes fixed were
found there), `fixtures/announcements/real-probe-2/` (5 posts of 5 projects, a BLIND set:
labelled first, scored on main before any fix and after all of them, never tuned on) and
`fixtures/announcements/real-probe-3/` (3 posts of 3 more projects, a second blind set taken after
the fixes). After they were scored blind, real-probe-2 and real-probe-3 became DEVELOPMENT sets
(round 2, branch r7-36: the shapes they missed were fixed, `tests/test_announcement_handovers.py`).
`fixtures/announcements/real-probe-4/` (4 posts of 4 more projects) was the BLIND set of round 2:
labelled and scored before its fixes, never tuned on; after that it became a DEVELOPMENT set
(round 3, branch r7-37: its missed shapes fixed, `tests/test_announcement_prose.py`).
`fixtures/announcements/real-probe-5/` (4 posts of 4 more projects) is the BLIND set of round 3:
labelled and scored on main before any round-3 fix and once after them, never tuned on.
`fixtures/announcements/real-probe-6/` (13 posts of 9 more sites: 10 role changes, 3 negatives) is
the BLIND set of round 4 (branch r8-41), labelled and scored on main before its one fix. Provenance
and the measured figures are in each folder's PROVENANCE.md, gold in its gold.json.

The unit tests below use small CONSTRUCTED posts (invented people and projects), one for each
shape the development half gave nothing or the wrong thing on:

- an AsciiDoc post (`link:https://github.com/login[Name]` macros) after YAML front matter;
- a Laika `{% ... %}` config header (not Discourse JSON), Hugo's `publishdate`, a dated
  permalink URL (`/2018/05/03/slug/`);
- "A will continue in the role of X", "A and B, who served on the board ..., did not run for
  re-election", "A, B and C will serve a two-year term", "voted in as", "our newest reviewer";
- one change worded twice in a post given once;
- people presented in turn after a sentence announcing them ("First up is A", "Next we have B");
- thanks "for his work as Chair ... these last years" (a farewell);
- a ranked results list under "electing 2 ... results:" (the third is not elected);
- "elected two new members to the X Committee (TSC), A and B, ...", "re-elected three existing
  members, A a lead at X, B ..., and C ...", "Joining the TSC this year is A", "announce a new
  co-maintainer of X: A", "A — have been re–elected and will continue to serve on the TSC",
  "A, who chose not to seek re–election" (GraphQL).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors.announcements import post as announcement
from ingest_cli.evaluate.announcements import EvalSet, score

from .announcement_posts import facts, post, read

ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "announcements"
# measured (uv run ingest evaluate --announcements --gold fixtures/announcements/real-probe/
# gold.json): before the fixes P 0.846 R 0.407 dates 0.818, after P 1.000 R 0.889 dates 1.000;
# with the three GraphQL posts added (0 of their 12 events found before their own fixes), all
# 10: P 0.973 R 0.923 dates 1.000;
# the blind half: before P 0.889 R 0.444 dates 0.250, after P 0.889 R 0.444 dates 1.000; a second
# blind set of 3 posts taken after the fixes (real-probe-3): P 1.000 R 0.182 before and after.
# Round 2 (r7-36), with -2 and -3 as development sets: real-probe-2 P 0.944 R 0.944, real-probe-3
# P 1.000 R 1.000, real-probe unchanged; its blind set real-probe-4: P 1.000 R 0.417 before and
# after (the round's fixes did not reach its shapes).
# Round 3 (r7-37), with -4 as a development set: real-probe-4 P 1.000 R 1.000 dates 0.750 (9 of 12
# dated right: of the 7 newly matched, the Wren hand-over is dated by the sentence before it and
# the Cloudberry post's date is only in its file name), real-probe-2 P 0.947 R 1.000, real-probe
# and -3 unchanged; its blind set real-probe-5: P 0.750 R 0.545 dates 1.000 before and after
# Round 4 (r8-41): real-probe-6 blind P 0.727 R 0.390 dates 0.250; after the Blogger permalink
# (a post, not a governance page) P 1.000 R 0.390 dates 0.938; -1..-5 unchanged
# Round 5 (r8-46): every probe set is now TRAINING data of the event decision (fitted on all the
# gold), so these are training figures; the honest ones are the leave-one-project-out figures the
# gate pins in eval_floors.json (real-probe-6 CV P 1.000 R 0.902, -5 CV P 0.889 R 0.727). Training
# figures: -5 P 0.909 R 0.909, -6 P 0.974 R 0.927 dates 0.947, -1..-4 unchanged
# Round 9 (r9-51): structure candidates decided by an event model without per-reader cues, given
# above a margin of 3: CV -5 P 0.909 R 0.909 (up), but the shipped model's (training) figures on
# -5 fell to P 0.889 R 0.727 (bridgetown and padrino's one-person posts fall short of the margin);
# floor lowered to them. Round 9 (r9-60): name cues for structure candidates; CV real-probe P 0.947
# -> 0.973, -3 P 0.917 -> 1.000 (eval_floors.json); training figures unchanged
FLOORS = {
    "real-probe": {"precision": 0.95, "recall": 0.88, "dates_right": 0.95},
    "real-probe-2": {"precision": 0.90, "recall": 0.95, "dates_right": 0.95},
    "real-probe-3": {"precision": 0.95, "recall": 0.95, "dates_right": 0.95},
    "real-probe-4": {"precision": 0.95, "recall": 0.95, "dates_right": 0.70},
    "real-probe-5": {"precision": 0.88, "recall": 0.72, "dates_right": 0.95},
    "real-probe-6": {"precision": 0.95, "recall": 0.90, "dates_right": 0.90},
}


@pytest.mark.parametrize("folder", sorted(FLOORS))
def test_the_probe_sets_score_above_their_floors(folder: str) -> None:
    posts = ROOT / folder
    report = score([EvalSet(folder, posts, posts / "gold.json")])
    figures = report.total.figures()
    assert figures["gold"] == {"real-probe": 39, "real-probe-2": 18, "real-probe-3": 11,
                                "real-probe-4": 12, "real-probe-5": 11,
                                "real-probe-6": 41}[folder]  # fmt: skip
    for key, floor in FLOORS[folder].items():
        assert figures[key] >= floor, (folder, key, figures)


def test_an_asciidoc_post_after_front_matter_reads_its_link_macros() -> None:
    body = post(
        "== Results\n\nElection results:\n\n"
        "* link:https://github.com/JRoe[Jane Roe] will become the new "
        "link:/project/team-leads/#events[Events Officer]\n"
        "* link:https://github.com/jdoe[John Doe] was elected as the "
        "link:/project/team-leads/#security[Security Officer]\n\n== Details\n\nThanks all.\n",
        title="2025 Example Elections Results",
    )
    got = facts(read(body))
    assert ("Jane Roe", "jroe", "current", "2025-03-04") in got
    assert ("John Doe", "jdoe", "current", "2025-03-04") in got


def test_a_laika_header_is_a_header_and_its_date_the_post_date() -> None:
    body = (
        '{%\n  author: ${example}\n  date: "2023-11-03"\n  tags: [governance]\n%}\n\n'
        "# Governance Update\n\nJane Roe has been voted in as a committer.\n"
    )
    assert facts(read(body, "https://example.org/blog/charter-changes.html")) == {
        ("Jane Roe", None, "current", "2023-11-03")
    }


def test_hugo_publishdate_dates_the_post() -> None:
    body = '---\ntitle: "Updates"\npublishdate: 2021-06-28\n---\n\nJane Roe is our newest '
    body += "reviewer.\n"
    assert facts(read(body, "https://example.io/latest/blog/2021/updates/")) == {
        ("Jane Roe", None, "current", "2021-06-28")
    }


def test_a_dated_permalink_is_a_post_url() -> None:
    assert announcement.matches("https://news.example.org/2018/05/03/board-results/", None)
    assert announcement.matches("https://example.org/2017/8/15/three-new-committers", None)
    assert not announcement.matches("https://example.org/docs/2018/guide", None)


def test_a_year_and_month_permalink_is_a_post_url() -> None:
    # Blogger names a post /YYYY/MM/slug.html; a people list in its one paragraph is news
    assert announcement.matches("https://news.example.org/2015/06/new-board-results.html", None)
    assert not announcement.matches("https://example.org/2015/06/", None)
    assert not announcement.matches("https://example.org/docs/2015/13/guide.html", None)
    body = post(
        "Please join me in thanking the outgoing Board members: Ann Lee and Bo Chen. "
        "Congratulations to the new Example Board of Directors: Jane Roe, John Doe, and Kim Park.",
        title="Congratulations to the new Board of Directors!",
    )
    got = facts(read(body, "https://news.example.org/2015/06/congratulations-new-board.html"))
    assert ("Jane Roe", None, "current", "2025-03-04") in got
    assert not any(f[0] in ("Ann Lee", "Bo Chen") and f[2] == "current" for f in got)


def test_continuing_officers_and_members_not_running_again() -> None:
    body = post(
        "Jane Roe will continue in the role of Release Officer. "
        "Ann Lee and Bo Chen, who served on the board from 2022 to 2024, did not run for "
        "re-election.\n",
        title="Results in for Example Board Elections",
    )
    got = {(c.subject.name, c.qualifiers["status"], c.qualifiers["role"]) for c in read(body)}
    assert got == {("Jane Roe", "current", "Release Officer"), ("Ann Lee", "emeritus", "board"),
                   ("Bo Chen", "emeritus", "board")}  # fmt: skip


def test_serving_a_term_is_joining_the_title_s_body_once() -> None:
    body = post(
        "Jane Roe, Ann Lee and Bo Chen will serve a two-year term.\n\n"
        "Jane Roe, who ran in 2022, was re-elected to the board.\n",
        title="Results in for Example Board Elections",
    )
    claims = read(body)
    assert sorted(c.subject.name for c in claims) == ["Ann Lee", "Bo Chen", "Jane Roe"]
    assert {c.object for c in claims} == {"Example Board"}


def test_voted_in_and_newest_are_role_changes() -> None:
    got = facts(read(post("Jane Roe has been voted in as a committer. Bo Chen is our newest "
                          "reviewer.\n")))  # fmt: skip
    assert got == {("Jane Roe", None, "current", "2025-03-04"),
                   ("Bo Chen", None, "current", "2025-03-04")}  # fmt: skip


def test_people_presented_in_turn_after_an_announcing_sentence() -> None:
    body = post(
        "I'm thrilled to announce two new members to [the Example Core team](https://example.org"
        "/team).\n\nFirst up is [Jane Roe](https://github.com/jroe), who has been contributing "
        "since 2013.\n\nNext we have [Bo Chen](https://bochen.example), who wrote the parser.\n\n"
        "We're also adding one new member to our Example Committers team.\n\n"
        "Finally, we have [Ann Lee](https://github.com/annlee), who started in 2019.\n\n"
        "Then we thank everyone.\n"
    )
    roles = {c.subject.name: c.qualifiers["role"] for c in read(body)}
    assert roles == {"Jane Roe": "Example Core team", "Bo Chen": "Example Core team",
                     "Ann Lee": "Example Committers team"}  # fmt: skip


def test_thanks_for_years_of_work_as_chair_is_a_farewell() -> None:
    body = post("We would like to extend our sincere thanks to Jane Roe for her work as Chair "
                "of the Example Steering Committee these last years.\n")  # fmt: skip
    assert facts(read(body)) == {("Jane Roe", None, "emeritus", "2025-03-04")}
    body = post("We thank Bo Chen for his work as the v2.0 Release Manager.\n")
    assert facts(read(body)) == {("Bo Chen", None, "current", "2025-03-04")}


def test_ranked_results_past_the_seats_filled_are_not_elected() -> None:
    body = post(
        "This year we were electing 2 board members. You can find full voting results here:\n\n"
        "1. **Jane Roe** (Condorcet winner: wins contests with all other choices)\n"
        "2. **Bo Chen** loses to Jane Roe by 37-22\n"
        "3. Ann Lee loses to Jane Roe by 42-14, loses to Bo Chen by 37-15\n",
        title="2025 Example Board Elections Results",
    )
    names = {c.subject.name for c in read(body)}
    assert {"Jane Roe", "Bo Chen"} <= names and "Ann Lee" not in names


def test_election_sentences_of_a_tsc_results_post() -> None:
    body = post(
        "We have elected two new members to the Example Technical Steering Committee (TSC), "
        "[Jane Roe](https://github.com/jroe) and [Bo Chen](https://github.com/bochen), leads at "
        "Acme and Initech respectively.\n\n"
        "In addition, we also re-elected two existing members, [Ann Lee](https://github.com/annlee)"
        " an engineer at Globex, and [Dan Evans](https://github.com/devans) founder of Hooli.\n\n"
        "Firstly, we thank [Eve Park](https://github.com/epark), who chose not to seek re–election."
        "\n\nThe other members — [Fay Wu](https://github.com/fwu) and [Gus Hale](https://github.com"
        "/ghale) — have been re–elected and will continue to serve on the TSC.\n\n"
        "Joining the TSC next term is [Hal Ito](https://github.com/hito).\n",
        title="Example TSC Election Results",
    )
    got = {(c.subject.github, c.qualifiers["status"]) for c in read(body)}
    assert got == {("jroe", "current"), ("bochen", "current"), ("annlee", "current"),
                   ("devans", "current"), ("epark", "emeritus"), ("fwu", "current"),
                   ("ghale", "current"), ("hito", "current")}  # fmt: skip


def test_a_new_co_maintainer_announced_after_a_colon() -> None:
    body = post("We are thrilled to announce a new co-maintainer of Example.js: Jane Roe "
                "[@Jane Roe](https://github.com/JRoe) has been approved!\n")  # fmt: skip
    assert facts(read(body)) == {("Jane Roe", "jroe", "current", "2025-03-04")}
