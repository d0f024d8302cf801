"""The governance fallback reader alone (extractors/governance/fallback.py), on every labelled page.

    uv run python scripts/measure_governance_fallback.py [--cv] [--logits 2,3,4] [--pages]

Each page routed to the generic reader is read by the fallback alone (as if the readers had given
nobody) and scored against its gold as `ingest evaluate --governance` scores pages: people,
people-with-section and affiliation precision / recall, per logit threshold (`MIN_LOGIT`). With
`--cv`, each page is judged by the people model refitted without its project (leave one project
out, as `--governance --cv`). Then the posts of the announcement corpora (no roster: whatever the
fallback reads from them is counted as false) are read the same way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from extractors import document as _document
from extractors.governance import fallback
from extractors.governance.reader import Reader
from extractors.people.model import Model, shipped
from ingest.documents import snapshot_from_file
from ingest_cli.evaluate.governance import DEFAULT_SETS, PageScore, score_claims
from ingest_cli.evaluate.governance_model import collect, fit_model

POSTS = (
    Path("fixtures/announcements-train"),
    Path("fixtures/announcements"),
    Path("fixtures/release-notes"),
)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cv", action="store_true")
    parser.add_argument("--logits", default=str(fallback.MIN_LOGIT))
    parser.add_argument("--account", type=float, default=fallback.MIN_LOGIT_ACCOUNT)
    parser.add_argument("--pages", action="store_true", help="print each page's figures")
    args = parser.parse_args()
    pages = [p for p in collect(DEFAULT_SETS) if p.generic]
    models: dict[str, Model] = {}
    for p in pages:
        if p.group not in models:  # leave one project out, or the shipped model
            others = [q for q in pages if q.group != p.group]
            models[p.group] = fit_model(others) if args.cv else shipped()
    fallback.MIN_LOGIT_ACCOUNT = args.account
    for logit in (float(x) for x in args.logits.split(",")):
        fallback.MIN_LOGIT = logit
        totals = {"people": [0, 0, 0], "sections": [0, 0, 0], "affiliations": [0, 0, 0]}
        yielding = 0
        for p in pages:
            snapshot = snapshot_from_file(p.gold.url, p.gold.page, 1 << 24)
            reader = Reader(_document.parse(snapshot), snapshot, model=models[p.group])
            score = PageScore(file=p.gold.page.name, url=p.gold.url)
            score_claims(p.gold.rows, list(fallback.claims(reader)), score)
            yielding += score.people.predicted > 0
            for name in totals:
                c = getattr(score, name)
                totals[name][0] += c.hit
                totals[name][1] += c.predicted
                totals[name][2] += c.gold
            if args.pages:
                c, d = score.people, score.sections
                print(
                    f"  {p.set_label:<16} {score.file:<60} {c.hit:>4}/{c.predicted:<4} of"
                    f" {c.gold:<4} sections {d.hit:>4}/{d.predicted:<4} of {d.gold}"
                )
        figures = "  ".join(
            f"{n} P {_div(h, pr)} ({h}/{pr}) R {_div(h, g)} ({h}/{g})"
            for n, (h, pr, g) in totals.items()
        )
        print(
            f"MIN_LOGIT {logit} (account {args.account}): {len(pages)} pages, "
            f"{yielding} yield people; {figures}"
        )
        false_posts = 0
        for folder in POSTS:
            for post in sorted(folder.iterdir()):
                if post.suffix not in (".md", ".html", ".rst"):
                    continue
                snapshot = snapshot_from_file(f"https://example.org/{post.name}", post, 1 << 24)
                reader = Reader(_document.parse(snapshot), snapshot, model=shipped())
                people = [c for c in fallback.claims(reader) if c.predicate == "maintainer"]
                false_posts += bool(people)
                if args.pages and people:
                    print(f"  post {post.name}: {[c.subject.name for c in people]}")
        print(f"  announcement posts read as rosters by the fallback alone: {false_posts}")
    return 0


def _div(a: int, b: int) -> str:
    return "-" if not b else f"{a / b:.3f}"


if __name__ == "__main__":
    sys.exit(main())
