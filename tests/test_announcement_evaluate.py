"""src/ingest_cli/evaluate/announcements.py: matching, optional events, dates, errors, the CLI.

The gold files and claims below are CONSTRUCTED for the tests (made-up people and posts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.errors import ConfigError
from ingest.models import Claim, Evidence, Subject
from ingest_cli.cli import main
from ingest_cli.evaluate.announcements import (
    EvalSet,
    GoldPost,
    PostScore,
    load_set,
    score,
    score_claims,
)
from ingest_cli.evaluate.announcements_report import format_report

POST = "---\ntitle: Announcing new members\ndate: 2025-03-04\n---\n\n"
BODY = (
    "Please welcome [Ann Lee](https://github.com/annlee) and Bo Chen as core maintainers of the "
    "Example Team. Carla Diaz has joined the Example Team. Dan Evans is stepping down from the "
    "Example Team.\n"
)


def claim(name: str, predicate: str = "maintainer", github: str | None = None,
          **qualifiers: str) -> Claim:  # fmt: skip
    return Claim(
        subject=Subject(name=name, github=github),
        predicate=predicate,
        object="Example",
        qualifiers=qualifiers,
        evidence=Evidence(url="https://x.org/blog/a/", sha256="0", locator="l", quote="q"),
        extractor="announcement/4",
    )


def gold_post(tmp_path: Path, events: list[dict[str, object]],
              optional: list[dict[str, object]] | None = None) -> GoldPost:  # fmt: skip
    (tmp_path / "post.md").write_text(POST + BODY, encoding="utf-8")
    gold = {"post.md": {"url": "https://example.org/blog/new-members/", "events": events,
                        "optional_events": optional or []}}  # fmt: skip
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    [post] = load_set(EvalSet("t", tmp_path, tmp_path / "gold.json"))
    return post


def event(name: str, **extra: object) -> dict[str, object]:
    base: dict[str, object] = {"name": name, "handle": None, "predicate": "maintainer",
                               "status": "current", "date": "2025-03-04", "quote": "q"}  # fmt: skip
    return base | extra


def test_match_by_handle_name_status_and_optional(tmp_path: Path) -> None:
    post = gold_post(
        tmp_path,
        [
            event("Ann Lee", handle="AnnLee"),
            event("Bo Chen"),
            event("Dan Evans", status="emeritus"),
        ],
        [event("Carla Diaz")],
    )
    found = PostScore(file="post.md", url=post.url)
    claims = [
        claim("A. Lee", github="annlee", since="2025-03-04"),  # same handle, other name form
        claim("Bo Chen", date="2025-01-01"),  # matched, misdated
        claim("Carla Diaz"),  # optional: neither credit nor fault
        claim("Dan Evans", status="former", until="2025-03-04"),  # former = emeritus
        claim("Eve Fox"),  # spurious
    ]
    score_claims(post, claims, found)
    assert (found.gold, found.found, found.matched, found.dated) == (3, 4, 3, 2)
    assert found.precision == 0.75 and found.recall == 1.0
    assert found.spurious[0].startswith("Eve Fox") and found.misdated[0].startswith("Bo Chen")


def test_status_and_predicate_must_agree(tmp_path: Path) -> None:
    post = gold_post(tmp_path, [event("Bo Chen", status="emeritus"), event("Ann Lee")])
    found = PostScore(file="post.md", url=post.url)
    score_claims(post, [claim("Bo Chen"), claim("Ann Lee", "speaker")], found)
    assert found.matched == 0 and len(found.missed) == 2 and len(found.spurious) == 2


def test_a_whole_set_is_read_as_ingest_extract_reads_it(tmp_path: Path) -> None:
    gold_post(tmp_path, [event("Ann Lee", handle="annlee"), event("Bo Chen"),
                         event("Carla Diaz"), event("Dan Evans", status="emeritus")])  # fmt: skip
    report = score([EvalSet("t", tmp_path, tmp_path / "gold.json")])
    [post] = report.set("t").posts
    assert post.extractor == "announcement/15" and post.error is None
    assert (post.matched, post.gold) == (4, 4), format_report(report)
    assert post.dated == 4


def test_bad_gold_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "gold.json").write_text('{"missing.md": {"url": "https://x.org/"}}')
    with pytest.raises(ConfigError, match="missing.md"):
        load_set(EvalSet("t", tmp_path, tmp_path / "gold.json"))
    (tmp_path / "gold.json").write_text("[1, 2]")
    with pytest.raises(ConfigError, match="gold.json"):
        load_set(EvalSet("t", tmp_path, tmp_path / "gold.json"))


def test_cli_scores_one_gold_file_as_json(tmp_path: Path) -> None:
    gold_post(tmp_path, [event("Carla Diaz")])
    result = CliRunner().invoke(
        main, ["evaluate", "--announcements", "--gold", str(tmp_path / "gold.json"), "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["total"]["matched"] == 1 and data["total"]["gold"] == 1


def test_cli_refuses_mixed_options(tmp_path: Path) -> None:
    gold_post(tmp_path, [event("Carla Diaz")])
    mixed = CliRunner().invoke(main, ["evaluate", "--posts", str(tmp_path), "--governance"])
    assert mixed.exit_code == 2 and "--posts goes with --announcements" in mixed.output
    folder = CliRunner().invoke(main, ["evaluate", "--announcements", "--gold", str(tmp_path)])
    assert folder.exit_code == 2 and "is not a file" in folder.output


def test_cv_refits_per_project_and_reports_both_figures(tmp_path: Path) -> None:
    """`--announcements --cv`: one fold per project (the file name's first word), training and
    cross-validated figures side by side; the shipped model is not written (that is --fit)."""
    from extractors.announcements.decision import MODEL_FILE

    before = MODEL_FILE.read_bytes()
    gold: dict[str, object] = {}
    for project, people in (("alpha", ("Ann Lee", "Bo Chen")), ("beta", ("Carla Diaz",))):
        name = f"{project}-blog-2025-03-04-news.md"
        body = f"{' and '.join(people)} joined the {project.title()} Steering Committee.\n"
        (tmp_path / name).write_text(POST + body, encoding="utf-8")
        events = [event(p, quote=body.strip()) for p in people]
        gold[name] = {"url": f"https://{project}.example.org/blog/news/", "events": events}
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    result = CliRunner().invoke(
        main,
        [
            "evaluate",
            "--announcements",
            "--cv",
            "--gold",
            str(tmp_path / "gold.json"),
            "--json",
        ],  # fmt: skip
    )
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["folds"] == ["alpha", "beta"]
    assert found["training"]["total"]["gold"] == found["cv"]["total"]["gold"] == 3
    assert found["training"]["total"]["matched"] == 3
    assert MODEL_FILE.read_bytes() == before
