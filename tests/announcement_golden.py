"""Golden files of the announcement extractor: which fixture, under which URL.

Regenerate after an intended change of extraction (and commit the result with that change):

    .venv/bin/python -m tests.announcement_golden

The tests compare against the committed `fixtures/announcements/<file>.claims.jsonl`; they never
regenerate them.
"""

from __future__ import annotations

from pathlib import Path

from extractors.announcements import post as announcement
from tests.goldens import GoldenSet

FIXTURE_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "announcements"

# fixture file -> the fixed evidence URL its golden file is made with (the original public URL
# for the real files, from fixtures/announcements/PROVENANCE.md; the URL the seed cites, or the
# shape of one, for the constructed files)
GOLDEN_URLS: dict[str, str] = {
    "pytorch-blog-2022-9-12-PyTorchfoundation.1fd56f7e.md": "https://pytorch.org/blog/"
    "PyTorchfoundation/",
    "pytorch-workshops-ASPLOS_2024-README.2024-03-18.65987ee1.md": "https://github.com/pytorch/"
    "workshops/blob/65987ee15fb1e7a305f86aff10b5b944977e51c7/ASPLOS_2024/README.md",
    "pytorch-workshops-ASPLOS_2024-README.2024-05-02.24d5559c.md": "https://github.com/pytorch/"
    "workshops/blob/24d5559cd08225b466791658bdf1219482ca59f7/ASPLOS_2024/README.md",
    "constructed-dev-discuss-2280-core-maintainers.json": "https://dev-discuss.pytorch.org/t/"
    "alban-desmaison-and-piotr-bialecki-are-now-pytorch-core-maintainers/2280.json",
    "constructed-dev-discuss-lead-core-maintainer-change.html": "https://dev-discuss.pytorch.org/"
    "t/lead-core-maintainer-change/3321",
    "constructed-pytorch-blog-gtc-2026.html": "https://pytorch.org/blog/pytorch-at-nvidia-gtc-2026/",
    "constructed-pytorch-blog-conference-europe-2026.html": "https://pytorch.org/blog/"
    "pytorch-conference-europe-2026-a-landmark-moment-for-open-source-ai-in-paris/",
    "constructed-apache-blog-new-pmc-members.md": "https://example.apache.org/blog/2025/06/12/"
    "new-pmc-members/",
    "constructed-release-post-new-committers.md": "https://example.apache.org/blog/2025/09/03/"
    "example-4.2.0/",
    "constructed-foundation-board-election-results.md": "https://example.org/news/"
    "2025-board-election-results/",
    "constructed-discourse-stepping-down-first-person.md": "https://discuss.example.org/t/"
    "stepping-down-as-release-manager/4412",
    "constructed-kubecon-keynotes.md": "https://example.io/blog/2026/01/15/"
    "examplecon-europe-2026-keynotes/",
    "constructed-mbox-new-committer.mbox": "https://lists.example.apache.org/archives/dev/"
    "2025-02.mbox",
    "constructed-handles-new-reviewers.md": "https://example.dev/blog/2025/11/04/new-reviewers/",
    "constructed-html-br-list-new-maintainers.html": "https://example.dev/blog/new-maintainers/",
}


GOLDEN = GoldenSet(FIXTURE_DIR, GOLDEN_URLS, announcement.extract)
snapshot, golden_path, render, regenerate = (
    GOLDEN.snapshot,
    GOLDEN.path,
    GOLDEN.render,
    GOLDEN.regenerate,
)

if __name__ == "__main__":
    GOLDEN.main()
