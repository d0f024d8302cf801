"""Role lists in the shapes real pages use, read by structure (issue 11's list of misses).

Every page here is a small CONSTRUCTED snippet written for these tests (invented people and
projects, real-looking URLs); the real pages they stand for are in `fixtures/governance-train/`
and are scored by `ingest evaluate --governance`."""

from __future__ import annotations

from pathlib import Path

import extractors
from extractors.governance import generic as governance
from extractors.people import entries as _entries
from ingest.models import Claim, Snapshot

from .helpers import maintainer_rows as rows


def read(body: str, url: str) -> list[Claim]:
    snapshot = Snapshot(url=url, body=body.encode())
    module = extractors.choose(url, snapshot)
    assert module is governance, module.NAME
    return governance.extract(snapshot)


def affiliations(claims: list[Claim]) -> dict[str, str]:
    return {c.subject.name: c.object for c in claims if c.predicate == "affiliation"}


def test_item_shapes() -> None:
    def one(text: str, links: tuple[tuple[str, str], ...] = ()) -> _entries.Entry:
        (entry,) = _entries.read(text, links)
        return entry

    entry = one("Jane Roe, @jroe, 2023-2026")
    assert (entry.name, entry.github, entry.area) == ("Jane Roe", "jroe", None)
    entry = one("Role Lead : Jane Roe [@jroe]")
    assert (entry.name, entry.github, entry.titles) == ("Jane Roe", "jroe", ["Role Lead"])
    entry = one("Jane Roe -- project founder / emeritus leader (2005-2012)")
    assert entry.name == "Jane Roe" and entry.emeritus and entry.area is None
    entry = one("jroe, Example Labs, Inc.", (("jroe", "https://github.com/jroe"),))
    assert (entry.name, entry.github, entry.affiliation) == ("jroe", "jroe", "Example Labs, Inc.")
    entry = one("Jane Roe (Red Hat)")
    assert entry.affiliation == "Red Hat"
    entry = one("@jroe (Jane Roe, Example Labs)")
    assert (entry.name, entry.github, entry.affiliation) == ("Jane Roe", "jroe", "Example Labs")
    dashed = [_entries.read(f"Jane Roe - {after}")[0] for after in ("QuantStack", "Networking")]
    assert [(e.affiliation, e.area) for e in dashed] == [("QuantStack", None), (None, "Networking")]
    entry = one("Jane Roe (she/her)")
    assert (entry.name, entry.affiliation) == ("Jane Roe", None)
    entry = one("Jane Roe (Lightning founder)")
    assert entry.affiliation is None  # a note, not an organisation
    both = _entries.read("`storage`: Jane Roe (<jane@example.org> / @jroe), Max Muster (@mmuster)")
    assert [(e.name, e.github, e.email, e.area) for e in both] == [
        ("Jane Roe", "jroe", "jane@example.org", "storage"),
        ("Max Muster", "mmuster", None, "storage"),
    ]
    grouped = _entries.read("Example Corp: Jane Roe, Max Muster")
    assert [(e.name, e.affiliation) for e in grouped] == [
        ("Jane Roe", "Example Corp"),
        ("Max Muster", "Example Corp"),
    ]  # the organisation in front is no person
    policy = ("Security Policy", "SECURITY.md")
    assert _entries.read("Security Policy", (policy,)) == []  # a link to a document
    repository = ("Tag Storage", "https://github.com/example/tag-storage")
    assert _entries.read("Tag Storage", (repository,)) == []  # a link to a repository


def test_a_readme_with_a_member_table_is_a_governance_page_whatever_its_url() -> None:
    body = (
        "# Example Steering Committee\n\nThe committee meets monthly.\n\n"
        "| Name | Profile | Affiliation | Term Start |\n|---|---|---|---|\n"
        "| Jane Roe | [@jroe](https://github.com/jroe) | Example Labs | 2024 |\n"
        "| Max Muster | [@mmuster](https://github.com/mmuster) | Muster GmbH | 2025 |\n"
        "| Ada Byron | [@abyron](https://github.com/abyron) | Independent | 2025 |\n"
    )
    claims = read(body, "https://github.com/example/steering/blob/main/README.md")
    assert rows(claims)[0] == ("Jane Roe", "jroe", "Example Steering Committee", "current")
    assert affiliations(claims) == {
        "Jane Roe": "Example Labs",
        "Max Muster": "Muster GmbH",
        "Ada Byron": "Independent",
    }
    assert all("scope" not in c.qualifiers for c in claims)  # a term column is no area


def test_people_columns_not_called_name_and_seat_columns() -> None:
    body = (
        "## Board\n\n| Seat | Representative | Organization |\n|---|---|---|\n"
        "| Executive Council | Jane Roe (@jroe) | Example Labs |\n"
        "| Member at large | Max Muster (@mmuster) | Muster GmbH |\n"
    )
    claims = read(body, "https://example.org/board/")
    assert [(r[0], r[1]) for r in rows(claims)] == [("Jane Roe", "jroe"), ("Max Muster", "mmuster")]
    assert affiliations(claims) == {"Jane Roe": "Example Labs", "Max Muster": "Muster GmbH"}


def test_a_table_of_projects_is_not_a_table_of_people() -> None:
    body = (
        "# Example Foundation\n\n## Maintainers\n\n- Jane Roe (@jroe)\n- Max Muster (@mmuster)\n\n"
        "## Projects\n\n| Name | Repository | Status |\n|---|---|---|\n"
        "| Alpha Omega | https://github.com/example/alpha | Active |\n"
        "| Memory Safety | https://github.com/example/memory | Active |\n"
    )
    claims = read(body, "https://example.org/governance/")
    assert [r[0] for r in rows(claims)] == ["Jane Roe", "Max Muster"]


def test_a_header_less_html_table_of_people_and_organisations() -> None:
    body = (
        "<html><head><title>Team</title></head><body><h3>Committers (alumni)</h3><table>"
        "<tr><td>Jane Roe</td><td>Example Labs</td></tr><tr><td>Max Muster</td><td></td></tr>"
        "<tr><td>Ada Byron</td><td>University of Example</td></tr></table></body></html>"
    )
    claims = read(body, "https://example.org/team.html")
    assert [(r[0], r[3]) for r in rows(claims)] == [
        ("Jane Roe", "emeritus"),
        ("Max Muster", "emeritus"),
        ("Ada Byron", "emeritus"),
    ]
    assert affiliations(claims) == {
        "Jane Roe": "Example Labs",
        "Ada Byron": "University of Example",
    }


def test_yaml_member_records_and_owners_comments() -> None:
    members = (
        "- name: Jane Roe\n  irc: jroe\n  email: jane@example.org\n  role: chair\n"
        "- name: Max Muster\n  irc: mmuster\n  role: null\n"
    )
    claims = read(members, "https://example.org/reference/members.yaml")
    assert [(c.subject.name, c.subject.github, c.qualifiers["role"]) for c in claims] == [
        ("Jane Roe", None, "member; chair"),  # an IRC nick is no GitHub login
        ("Max Muster", None, "member"),
    ]
    owners = "approvers:\n- jroe # Jane Roe <jane@example.org>\nemeritus_approvers:\n- mmuster\n"
    claims = read(owners, "https://github.com/example/repo/blob/main/OWNERS")
    assert rows(claims) == [
        ("Jane Roe", "jroe", "approvers", "current"),
        ("mmuster", "mmuster", "emeritus_approvers", "emeritus"),
    ]


def test_labels_lead_in_sentences_and_prose_lists() -> None:
    body = (
        "# Example Team\n\nThe following people are recognized as current committers:\n\n"
        "- Jane Roe\n- Max Muster\n\nGeneral maintainers:\n\n- Ada Byron (@abyron)\n\n"
        "Example's Technical Steering Committee is Alan Turing, Grace Hopper and Jane Roe.\n"
    )
    found = rows(read(body, "https://example.org/team/"))
    assert found == [
        ("Jane Roe", None, "current committers", "current"),
        ("Max Muster", None, "current committers", "current"),
        ("Ada Byron", "abyron", "General maintainers", "current"),
        ("Alan Turing", None, "Technical Steering Committee", "current"),
        ("Grace Hopper", None, "Technical Steering Committee", "current"),
        ("Jane Roe", None, "Technical Steering Committee", "current"),
    ]


def test_a_list_of_duties_or_links_gives_nobody() -> None:
    body = (
        "# Maintainers\n\n## Duties\n\n- Review pull requests\n- Keep the build green\n\n"
        "## Links\n\n- [Code of Conduct](CODE_OF_CONDUCT.md)\n- [Chat](https://example.org/chat)\n"
    )
    assert (
        governance.extract(Snapshot(url="https://example.org/MAINTAINERS.md", body=body.encode()))
        == []
    )


def test_a_grid_of_person_cards_in_a_table_without_header() -> None:
    cell = "<td><img src='a.png'><br><a href='https://github.com/{h}'>{n}</a></td>"
    people = [("jroe", "Jane Roe"), ("mmuster", "Max Muster"), ("abyron", "Ada Byron"),
              ("aturing", "Alan Turing")]  # fmt: skip
    cells = [cell.format(h=h, n=n) for h, n in people]
    body = (
        "<html><head><title>Core developers</title></head><body><h2>Core developers</h2><table>"
        f"<tr>{cells[0]}{cells[1]}</tr><tr>{cells[2]}{cells[3]}</tr></table></body></html>"
    )
    claims = read(body, "https://example.org/about/people.html")
    assert [(r[0], r[1]) for r in rows(claims)] == [(n, h) for h, n in people]


def test_person_cards_made_of_divs() -> None:
    card = (
        "<div class='person'><a href='https://github.com/{h}'><img src='{h}.png'></a>"
        "<p>{n}</p><p>Example Labs</p></div>"
    )
    people = [("jroe", "Jane Roe"), ("mmuster", "Max Muster"), ("abyron", "Ada Byron")]
    body = (
        "<html><body><main><h2>Maintainers</h2><div class='grid'>"
        + "".join(card.format(h=h, n=n) for h, n in people)
        + "</div><h2>History</h2><p>Jane Roe started the project in 2010.</p></main></body></html>"
    )
    claims = read(body, "https://example.org/team/")
    assert [(r[0], r[1], r[2]) for r in rows(claims)] == [(n, h, "Maintainers") for h, n in people]


def test_a_heading_per_person_with_a_bio_and_quiet_sections() -> None:
    body = (
        "# Example Foundation\n\n## Board of Directors\n\n### Jane Roe\n\nJane Roe leads the"
        " storage work at Example Labs and is the chair.\n\n### Max Muster (Muster GmbH)\n\n"
        "Max worked with Ada Byron and Alan Turing on the compiler.\n\n## Sponsors\n\n"
        "- Grace Hopper\n- Edsger Dijkstra\n- Barbara Liskov\n\n## Bots\n\n"
        "- [dependabot](https://github.com/dependabot)\n- [k8s-ci-robot](https://github.com/k8s-ci-robot)\n"
    )
    claims = read(body, "https://example.org/governance/board/")
    assert [(r[0], r[2]) for r in rows(claims)] == [
        ("Jane Roe", "Board of Directors"),
        ("Max Muster", "Board of Directors"),
    ]  # the bios name others, sponsors hold no role, bots are no people
    assert affiliations(claims) == {"Max Muster": "Muster GmbH"}


def test_placeholders_are_not_people() -> None:
    body = (
        "# Maintainers\n\n- Maintainer's Full Name <address@domain.org>\n"
        "- Your Name <you@example.com>\n- TBD\n"
    )
    page = Snapshot(url="https://example.org/MAINTAINERS.md", body=body.encode())
    assert governance.extract(page) == []


def test_the_object_is_the_project_not_a_heading_or_a_key() -> None:
    cases = [
        ("approvers:\n- jroe # Jane Roe\n- mmuster\n- abyron\n",
         "https://github.com/example-io/quarkdb/blob/main/OWNERS", "quarkdb"),
        ("# 🍺 Quarkflow\n\n## Maintainers (in alphabetical order)\n\n- Jane Roe (@jroe)\n"
         "- Max Muster (@mmuster)\n", "https://github.com/quarkflow/quarkflow/blob/main/README.md",
         "Quarkflow"),
        ("# Technical Oversight Committee (TOC)\n\n## Members\n\n- Jane Roe (@jroe)\n"
         "- Max Muster (@mmuster)\n", "https://github.com/quarkflow/community/blob/main/TOC.md",
         "quarkflow"),
    ]  # fmt: skip
    for body, url, project in cases:
        claims = read(body, url)
        assert {c.object for c in claims} == {project}, url


def test_cells_that_list_several_people() -> None:
    body = (
        "## Area owners\n\n| Area | Maintainers | Company |\n|---|---|---|\n"
        "| Storage | Jane Roe, Max Muster | Example Labs |\n| Docs | Ada Byron | Byron Ltd |\n\n"
        "## Leads\n\n| Area | Lead |\n|---|---|\n| Storage | Jane Roe, Red Hat |\n"
        "| Docs | Ada Byron, Alan Turing, Grace Hopper |\n"
    )
    claims = read(body, "https://example.org/owners/")
    assert [(r[0], r[2]) for r in rows(claims)] == [
        ("Jane Roe", "Area owners"),
        ("Max Muster", "Area owners"),
        ("Ada Byron", "Area owners"),
        ("Jane Roe", "Leads"),  # "Jane Roe, Red Hat": one person and her employer
        ("Ada Byron", "Leads"),
        ("Alan Turing", "Leads"),
        ("Grace Hopper", "Leads"),
    ]
    assert ("Jane Roe", "Red Hat") in {(c.subject.name, c.object) for c in claims}


def test_a_team_mention_and_a_nested_area_are_nobody() -> None:
    """Kubeflow's "GitHub tag `@kubeflow/kubeflow-steering-committee`" names a team; Envoy's
    area line "gRPC, gRPC/JSON transcoding, ..." under a maintainer is no handle (a list is a
    list of handles by words printed as handles are, not by any capitalised word)."""
    assert _entries.read("using GitHub tag `@kubeflow/kubeflow-steering-committee`.") == []
    assert _entries.printed_as_handle("jroe") and _entries.printed_as_handle("@JRoe")
    assert not _entries.printed_as_handle("Redis") and not _entries.printed_as_handle("gRPC")
    train = Path(__file__).resolve().parent.parent / "fixtures" / "governance-train"
    for name, url, ghost in (
        ("kubeflow-steering-committee.2026-05-11.7fc06418.md",
         "https://github.com/kubeflow/community/blob/master/KUBEFLOW-STEERING-COMMITTEE.md",
         "kubeflow"),
        ("envoy-OWNERS.undated.95c96759.md",
         "https://github.com/envoyproxy/envoy/blob/main/OWNERS.md", "grpc"),
    ):  # fmt: skip
        claims = governance.extract(Snapshot(url=url, body=(train / name).read_bytes()))
        handles = {c.subject.github for c in claims}
        assert ghost not in handles and len(handles) >= 5, name


def test_a_part_of_the_project_in_parentheses_is_no_employer() -> None:
    """vLLM's "@heheda12345 (Responses API)": an area (a word of a project's parts, `api`), not
    an organisation; a printed company stays one."""
    from extractors.people.features import affiliation_features

    area = affiliation_features("Responses API", "li", frozenset())
    company = affiliation_features("Red Hat", "li", frozenset())
    assert area.get("org:area_words") == 1.0 and "org:area_words" not in company
    train = Path(__file__).resolve().parent.parent / "fixtures" / "governance-train"
    name = "vllm-docs-governance-committers.045213e4.md"
    url = "https://docs.vllm.ai/en/latest/governance/committers.html"
    claims = governance.extract(Snapshot(url=url, body=(train / name).read_bytes()))
    assert "Responses API" not in {c.object for c in claims if c.predicate == "affiliation"}
    # "- Model Interface: The `nn.Module` interface ..." with "@a, @b (multimodality)" nested
    # under it: an area, though its nested line reads as no entry
    assert "Model Interface" not in {c.subject.name for c in claims}
    assert len({c.subject.github for c in claims}) >= 20


def test_a_sentence_that_opens_with_the_names_and_ends_with_its_verb() -> None:
    body = (
        "# Orbitflow\n\nA library.\n\n## Maintainers\n\n"
        "Jane Roe ([@jroe](https://github.com/jroe)) and Max Muster "
        "([@mmuster](https://github.com/mmuster)) maintain this project.\n"
    )
    claims = read(body, "https://github.com/orbitflow/orbitflow/blob/main/README.md")
    assert rows(claims) == [
        ("Jane Roe", "jroe", "Maintainers", "current"),
        ("Max Muster", "mmuster", "Maintainers", "current"),
    ]


def test_a_grid_of_avatars_linking_profiles_lists_whom_they_show() -> None:
    avatar = "<a href='https://github.com/{h}'><img src='{h}.png' alt='{n}'></a> "
    people = [("jroe", "Jane Roe"), ("mmuster", "Max Muster"), ("abyron", "Ada Byron")]
    grid = "".join(avatar.format(h=h, n=n) for h, n in people)
    icons = (
        "<a href='https://twitter.com/orbitflow'><img alt='Twitter'></a>"
        "<a href='https://github.com/orbitflow/orbitflow'><img alt='GitHub'></a>"
    )
    body = f"<html><body><main><h2>Maintainers</h2><p>{grid}</p><p>{icons}</p></main></body></html>"
    claims = read(body, "https://orbitflow.dev/team")
    assert rows(claims) == [(n, h, "Maintainers", "current") for h, n in people]  # no icons


def test_a_lead_in_sentence_labels_a_list_printed_under_no_heading() -> None:
    body = "The current maintainers are:\n\n- Jane Roe (@jroe)\n- Max Muster (@mmuster)\n"
    body += "- Ada Byron (@abyron)\n\nThanks to all our contributors.\n\n- Ann Lee (@alee)\n"
    claims = read(body, "https://github.com/orbitflow/orbitflow/blob/main/MAINTAINERS.md")
    sections = [(n, s) for n, _h, s, _st in rows(claims)]
    assert sections[:3] == [
        ("Jane Roe", "The current maintainers are"),
        ("Max Muster", "The current maintainers are"),
        ("Ada Byron", "The current maintainers are"),
    ]  # the sentence as printed, without its colon; it names the one list after it
    assert ("Ann Lee", "The current maintainers are") not in sections


def test_a_table_cell_or_a_record_field_that_says_unknown_is_no_organisation() -> None:
    """One notion of an unfilled value (`extractors.people.tables.says_empty`) for table cells
    and data-file fields alike."""
    table = (
        "# Maintainers\n\n| Name | GitHub | Company |\n|---|---|---|\n"
        "| Jane Roe | [@jroe](https://github.com/jroe) | Unknown |\n"
        "| Max Muster | [@mmuster](https://github.com/mmuster) | Example Labs |\n"
    )
    claims = read(table, "https://github.com/example/proj/blob/main/MAINTAINERS.md")
    assert [r[:2] for r in rows(claims)] == [("Jane Roe", "jroe"), ("Max Muster", "mmuster")]
    assert affiliations(claims) == {"Max Muster": "Example Labs"}
