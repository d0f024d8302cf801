"""ingest_cli.evaluate.governance: the scorer on small CONSTRUCTED claim lists and gold rows (every
name below is invented for these tests), gold loading errors, URL lookup and the command."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ingest.errors import ConfigError
from ingest.models import Claim, Evidence, Subject
from ingest_cli.cli import main
from ingest_cli.evaluate.governance import Counts, EvalSet, PageScore, score, score_claims, sets_for
from ingest_cli.evaluate.governance_gold import GoldRow, load_set, page_url, parse_rows

ROOT = Path(__file__).resolve().parent.parent
PEP13 = ROOT / "fixtures" / "other-governance" / "python-pep-0013.2026-03-21.a087d220.rst"
PEP13_URL = "https://peps.python.org/pep-0013/"


def row(name: str | None, handle: str | None = None, **kw: Any) -> GoldRow:
    fields: dict[str, Any] = {"section": "Maintainers", "role": "maintainer", "status": "current"}
    fields.update(kw)
    return GoldRow(
        name=name,
        handle=handle,
        section=fields["section"],
        role=fields["role"],
        status=fields["status"],
        affiliation=fields.get("affiliation"),
        scope=fields.get("scope"),
    )


def claim(
    name: str, github: str | None = None, predicate: str = "maintainer", obj: str = "Proj", **q: Any
) -> Claim:
    qualifiers: dict[str, Any] = {}
    if predicate == "maintainer":
        qualifiers = {"role": "maintainer", "section": "Maintainers", "status": "current"}
    qualifiers.update(q)
    return Claim(
        subject=Subject(name=name, github=github),
        predicate=predicate,
        object=obj,
        qualifiers=qualifiers,
        evidence=Evidence(url="https://example.org/x", sha256="0" * 64, locator="li", quote=name),
        extractor="constructed/1",
    )


def scored(rows: list[GoldRow], claims: list[Claim]) -> PageScore:
    page = PageScore(file="constructed.md", url="https://example.org/x")
    score_claims(rows, claims, page)
    return page


def pr(c: Counts) -> tuple[float | None, float | None]:
    return c.precision, c.recall


def test_people_match_by_handle_when_both_have_one_else_by_folded_name() -> None:
    rows = [
        row("Ana Lima", "ana-l"),
        row("José Ñúñez"),
        row("Kim Lee", "kimlee"),
        row(None, "zed42"),
    ]
    claims = [
        claim("A. Lima", "Ana-L"),  # handle agrees, name printed otherwise: a match
        claim("  jose  NUNEZ "),  # case, accents, spacing
        claim("Kim Lee", "someone-else"),  # same name, another handle: not a match
        claim("zed42"),  # the gold has only the handle: the name equal to it matches
    ]
    page = scored(rows, claims)
    assert (page.people.hit, page.people.predicted, page.people.gold) == (3, 4, 4)
    assert pr(page.people) == (0.75, 0.75)
    assert page.spurious_people == ["Kim Lee (@someone-else)"]
    assert page.missed_rows == ["Kim Lee (@kimlee) under 'Maintainers' (maintainer)"]


def test_markup_and_entities_do_not_matter_in_names_and_sections() -> None:
    rows = [row("Arnaud Le Hors", section="TAC Members")]
    page = scored([*rows], [claim("**Arnaud Le&nbsp;Hors**", section="[TAC](#tac) members")])
    assert pr(page.people) == (1.0, 1.0) and pr(page.sections) == (1.0, 1.0)


def test_one_person_in_two_lists_with_and_without_a_handle() -> None:
    rows = [row("Mia Roe", section="Members"), row("Mia Roe", "miaroe", section="Liaisons")]
    claims = [claim("Mia Roe", section="Members"), claim("Mia Roe", "miaroe", section="Liaisons")]
    page = scored(rows, claims)
    assert (page.people.gold, page.people.predicted, page.people.hit) == (1, 1, 1)
    assert (page.sections.gold, page.sections.hit) == (2, 2)


def test_a_person_under_the_wrong_section_is_found_but_the_pair_is_not() -> None:
    rows = [row("Ola Berg", section="Emeritus"), row("Per Berg")]
    page = scored(rows, [claim("Ola Berg", section="Maintainers"), claim("Per Berg")])
    assert pr(page.people) == (1.0, 1.0)
    assert pr(page.sections) == (0.5, 0.5)
    assert page.missed_rows == ["Ola Berg under 'Emeritus' (maintainer); found under 'Maintainers'"]


def test_affiliations_from_claims_and_qualifiers_compared_as_organisations() -> None:
    rows = [
        row("Ada Byte", affiliation="Google"),
        row("Bo Chip", affiliation="Red Hat"),
        row("Cy Dee", affiliation="Acme"),
    ]
    claims = [
        claim("Ada Byte"),
        claim("Ada Byte", predicate="affiliation", obj="Google LLC"),  # legal suffix aside
        claim("Bo Chip", affiliation="red  hat"),  # a qualifier of the role claim
        claim("Cy Dee"),
        claim("Cy Dee", predicate="affiliation", obj="Executive Council"),  # a seat, not an org
    ]
    page = scored(rows, claims)
    assert (page.affiliations.hit, page.affiliations.predicted, page.affiliations.gold) == (2, 3, 3)
    assert page.missed_affiliations == ["Cy Dee: Acme"]
    assert page.spurious_affiliations == ["Cy Dee: Executive Council"]


def test_an_affiliation_claim_alone_does_not_make_a_person() -> None:
    page = scored([row("Ada Byte")], [claim("Eve Fox", predicate="affiliation", obj="Initech")])
    assert page.people.predicted == 0 and page.people.precision is None
    assert page.people.recall == 0.0
    assert page.affiliations.predicted == 1 and page.affiliations.precision == 0.0


def test_status_role_and_scope_agreement_on_matched_rows() -> None:
    rows = [
        row("Ana Lima", status="emeritus", role="committer", scope="docs"),
        row("Per Berg", role="committer; PMC member"),
    ]
    claims = [
        claim("Ana Lima", status="current", role="committer", scope="Docs"),
        claim("Per Berg", role=None, level="core"),  # no role: its level's ("core maintainer")
    ]
    agree = scored(rows, claims).agreement
    assert (agree.rows, agree.status, agree.role, agree.scope) == (2, 1, 1, 2)


def test_no_claims_at_all() -> None:
    page = scored([row("Ana Lima")], [])
    assert page.people.precision is None and page.people.recall == 0.0
    assert page.missed_rows == ["Ana Lima under 'Maintainers' (maintainer)"]


# --------------------------------------------------------------------------------------------
# gold files, folders and URLs


def good_row(**kw: Any) -> dict[str, Any]:
    data = {
        "name": "Ana Lima",
        "handle": None,
        "section": "Core",
        "role": "maintainer",
        "status": "current",
        "affiliation": None,
        "scope": None,
    }
    data.update(kw)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rows": []}, "must hold a JSON list"),
        (["x"], "row 1 is not a JSON object"),
        ([good_row(), {"name": "B"}], "row 2 lacks 'handle', 'section'"),
        ([good_row(status="former")], "row 1: status must be 'current' or 'emeritus'"),
        ([good_row(name=None)], "row 1 has neither a name nor a handle"),
        ([good_row(role=3)], "row 1: 'role' must be a string or null"),
    ],
)
def test_malformed_rows_are_named(data: Any, message: str) -> None:
    with pytest.raises(ConfigError, match="gold file 'g.json'") as info:
        parse_rows(data, "gold file 'g.json'")
    assert message in str(info.value)


def labelled(tmp_path: Path, gold: Any, page: Path = PEP13) -> Path:
    pages = tmp_path / "pages"
    (pages / "gold").mkdir(parents=True)
    shutil.copy(page, pages / page.name)
    text = gold if isinstance(gold, str) else json.dumps(gold)
    (pages / "gold" / f"{page.name}.json").write_text(text)
    return pages


def test_folder_and_file_errors_name_what_and_where(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="pages folder '.*nowhere' does not exist"):
        load_set(tmp_path / "nowhere", tmp_path)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="gold folder '.*empty' has no \\*.json gold files"):
        load_set(tmp_path, tmp_path / "empty")
    pages = labelled(tmp_path, "[{oops")
    with pytest.raises(ConfigError, match="gold file '.*a087d220.rst.json' is not valid JSON"):
        load_set(pages, pages / "gold")
    (pages / "gold" / "lost.md.json").write_text("[]")
    (pages / "gold" / f"{PEP13.name}.json").write_text("[]")
    with pytest.raises(ConfigError, match="'.*lost.md.json' labels 'lost.md', not found in"):
        load_set(pages, pages / "gold")


def test_urls_from_urls_json_then_provenance_tables_else_file(tmp_path: Path) -> None:
    page = tmp_path / "team.md"
    page.write_text("x")
    gold = tmp_path / "gold"
    gold.mkdir()
    assert page_url(page, gold) == page.resolve().as_uri()
    (tmp_path / "PROVENANCE.md").write_text(
        "| file | what \\| it is | URL |\n| --- | --- | --- |\n"
        "| other.md | a \\| b | https://example.org/other |\n"
        "| team.md | a team \\| page | https://example.org/team.md (rendered: https://x.org/) |\n"
    )
    assert page_url(page, gold) == "https://example.org/team.md"
    (gold / "urls.json").write_text(json.dumps({"team.md": "https://example.org/from-json"}))
    assert page_url(page, gold) == "https://example.org/from-json"
    (gold / "urls.json").write_text("[1]")
    with pytest.raises(ConfigError, match="urls.json' must be a JSON object"):
        page_url(page, gold)


def test_every_default_page_is_read_under_its_public_url() -> None:
    report = score()
    # 47 training pages, 8 PEP 13, 8 PyTorch, 121 of the ten real probe sets (no BLIND one)
    assert len(report.pages) == 184
    assert all(p.url.startswith("https://") for p in report.pages), [
        p.file for p in report.pages if not p.url.startswith("https://")
    ]
    urls = {p.file: p.url for p in report.pages}
    assert urls["etcd-OWNERS.2025-06-23.33a45806.yaml"] == (
        "https://github.com/etcd-io/etcd/blob/33a458068d27ba9da2c38898277b16a891757f5a/OWNERS"
    )
    assert urls[PEP13.name] == PEP13_URL


def test_sets_for_the_command_options(tmp_path: Path) -> None:
    assert sets_for(tmp_path / "g", None) == (EvalSet(tmp_path.name, tmp_path, tmp_path / "g"),)
    assert sets_for(None, tmp_path) == (EvalSet(tmp_path.name, tmp_path, tmp_path / "gold"),)


# --------------------------------------------------------------------------------------------
# the command


def council_gold() -> list[dict[str, Any]]:
    names = ["Barry Warsaw", "Donghee Na", "Pablo Galindo Salgado", "Savannah Ostrowski"]
    rows = [good_row(name=n, section="Current steering council") for n in names]
    rows.append(good_row(name="Thomas Wouters", section="Former council"))  # deliberately off
    rows.append(good_row(name="Nobody Here", section="Current steering council"))
    return rows


def test_the_command_prints_the_table_and_each_pages_misses(tmp_path: Path) -> None:
    pages = labelled(tmp_path, council_gold())
    result = CliRunner().invoke(main, ["evaluate", "--governance", "--pages", str(pages)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert PEP13.name in out and "= pages (1 pages)" in out
    assert "missed: Nobody Here under 'Current steering council'" in out
    assert "missed: Thomas Wouters under 'Former council' (maintainer); found under" in out
    assert PEP13_URL not in out  # no urls.json or table: the page is read as its file:// URL
    result = CliRunner().invoke(
        main, ["evaluate", "--governance", "--gold", str(pages / "gold"), "--json"]
    )
    data = json.loads(result.output)
    people = data["total"]["people"]
    assert (people["hit"], people["predicted"], people["gold"]) == (5, 5, 6)
    assert data["pages"][0]["url"].startswith("file://")


def test_the_command_reports_bad_input_as_one_line(tmp_path: Path) -> None:
    pages = labelled(tmp_path, [good_row(status="gone")])
    result = CliRunner().invoke(main, ["evaluate", "--governance", "--pages", str(pages)])
    assert result.exit_code == 1
    assert "error: gold file" in result.output and "row 1: status must be" in result.output
    result = CliRunner().invoke(main, ["evaluate", "--pages", str(pages)])
    assert result.exit_code == 2 and "--pages goes with --governance" in result.output
