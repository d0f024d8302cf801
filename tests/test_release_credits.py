"""A release's credits are no roster: "Contributors" under a version heading, or on a page titled
or filed as release notes or a changelog, gives no claim; the same list on a team page does."""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors import choose
from extractors.governance import generic as governance
from ingest.errors import NoExtractorError
from ingest.models import Snapshot

ROOT = Path(__file__).resolve().parent.parent
MEMCACHED = ROOT / "fixtures" / "release-notes" / "memcached-ReleaseNotes151.373ce499.md"
MEMCACHED_URL = (
    "https://github.com/memcached/memcached.github.io/blob/"
    "373ce499970a825857b47580ea1f321a5f68c089/content/releasenotes/ReleaseNotes151.md"
)
PEOPLE = "- Ann Lee\n- Bo Chen\n- Cy Dee\n"
TEAM_URL = "https://github.com/example/widget/blob/main/TEAM.md"


def names(body: str, url: str = TEAM_URL) -> list[str]:
    claims = governance.extract(Snapshot(url=url, body=body.encode()))
    return [c.subject.name for c in claims if c.subject.name]


def test_the_real_release_notes_give_no_claim() -> None:
    snap = Snapshot(url=MEMCACHED_URL, body=MEMCACHED.read_bytes())
    assert governance.extract(snap) == []  # "Web View" was read as a contributor
    with pytest.raises(NoExtractorError):
        choose(MEMCACHED_URL, snap)


def test_contributors_on_a_team_page_are_still_read() -> None:
    assert names(
        f"# Widget team\n\n## Maintainers\n\n- Dan Eve\n\n## Contributors\n\n{PEOPLE}"
    ) == [
        "Dan Eve",
        "Ann Lee",
        "Bo Chen",
        "Cy Dee",
    ]


@pytest.mark.parametrize(
    ("body", "url"),
    [
        (f"# Widget changelog\n\n## 1.2.0 (2024-01-01)\n\n### Contributors\n\n{PEOPLE}", TEAM_URL),
        (f"# Widget\n\n## v2.0\n\n### New Contributors\n\n{PEOPLE}", TEAM_URL),
        (f"# Widget 3.1 Release Notes\n\n## Contributors\n\n{PEOPLE}", TEAM_URL),
        (
            f"# Widget\n\n## Contributors\n\n{PEOPLE}",
            "https://github.com/example/widget/blob/main/docs/release-notes-v0.35.0.md",
        ),
    ],
)
def test_a_releases_contributors_are_no_roster(body: str, url: str) -> None:
    assert names(body, url) == []
    # the maintainers named on the same page are still read
    assert names(body.replace("Contributors", "Maintainers"), url) == [
        "Ann Lee",
        "Bo Chen",
        "Cy Dee",
    ]
