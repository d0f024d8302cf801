"""extractors/governance/pytorch.py (`pytorch_governance`):
goldens, an independent re-parse, errors, hostile input."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

import extractors
from extractors.governance import pytorch as gov
from ingest.errors import RedirectStubError, UnsupportedFormatError
from ingest.models import Claim, Snapshot
from tests.governance_golden import FIXTURE_DIR, GOLDEN_URLS, golden_path, render, snapshot

VERSIONS = list(GOLDEN_URLS)
STABLE = "https://docs.pytorch.org/docs/stable/community/persons_of_interest.html"


def claims_of(name: str) -> list[Claim]:
    return gov.extract(snapshot(name))


# --------------------------------------------------------------------------------------------
# golden files


@pytest.mark.parametrize("name", VERSIONS)
def test_golden(name: str) -> None:
    expected = golden_path(name).read_text(encoding="utf-8")
    assert render(name) == expected, f"output for {name} differs from {golden_path(name).name}"


@pytest.mark.parametrize("name", VERSIONS)
def test_golden_lines_are_contract_claims(name: str) -> None:
    sha = snapshot(name).sha256
    for line in golden_path(name).read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        assert data["predicate"] == "maintainer" and data["object"] == "PyTorch"
        assert data["extractor"] == "pytorch_governance/1" == extractors.tag(gov)
        assert data["evidence"]["url"] == GOLDEN_URLS[name]
        assert data["evidence"]["sha256"] == sha
        q = data["qualifiers"]
        assert q["level"] in ("lead", "core", "module", "library")
        assert q["status"] in ("current", "emeritus")
        assert ("scope" in q) == (q["level"] in ("module", "library"))
        github = data["subject"].get("github")
        assert github is None or github == github.lower()


# --------------------------------------------------------------------------------------------
# independent line-based parse: its own small regexes, none of the extractor's code

LEVEL_OF_H2 = {
    "Core Maintainers": "core",
    "Module-level maintainers": "module",
    "Core Module maintainers": "module",
    "Library-level maintainers": "library",
    "Core Governed External Module maintainers": "library",
    "Sunsetted Modules": "library",
}
MD_H = re.compile(r"^(##+) (.+)$")
MD_LI = re.compile(r"^- (.+)$")
MD_HANDLE = re.compile(r"\]\(https://github\.com/([\w-]+)\)")
RST_LI = re.compile(r"^[-*] +(.+)$")
RST_HANDLE = re.compile(r"<https://github\.com/([\w-]+)>`__")
HTML_TOKEN = re.compile(r"<h([23])>(.*?)<a class=\"headerlink\"|<li><p>(.*?)</p></li>", re.DOTALL)
HTML_HANDLE = re.compile(r'href="https://github\.com/([\w-]+)"')
TAGS = re.compile(r"<[^>]+>")


def independent_rows(name: str) -> Counter[tuple[str, str, str, str]]:
    """(github handle or name, section, status, level) for every maintainer entry of the file."""
    text = (FIXTURE_DIR / name).read_text(encoding="utf-8")
    tokens: list[tuple[str, str, str]] = []  # ("h2" | "h3" | "li", text, handle)
    if name.endswith(".md"):
        for line in text.splitlines():
            if m := MD_H.match(line):
                tokens.append((f"h{len(m.group(1))}", m.group(2), ""))
            elif m := MD_LI.match(line):
                handle = MD_HANDLE.search(line)
                item = re.sub(r" \(\[.*$", "", m.group(1))
                tokens.append(("li", item, handle.group(1) if handle else ""))
    elif name.endswith(".rst"):
        lines = text.splitlines()
        for i, line in enumerate(lines):
            under = lines[i + 1] if i + 1 < len(lines) else ""
            if under and set(under) == {"-"}:
                tokens.append(("h2", line, ""))
            elif under and set(under) == {"~"}:
                tokens.append(("h3", line, ""))
            elif m := RST_LI.match(line):
                handle = RST_HANDLE.search(line)
                item = re.sub(r" \(`.*$", "", m.group(1))
                tokens.append(("li", item, handle.group(1) if handle else ""))
    else:
        for m in HTML_TOKEN.finditer(text):
            if m.group(1):
                tokens.append((f"h{m.group(1)}", html.unescape(m.group(2)), ""))
            else:
                handle = HTML_HANDLE.search(m.group(3))
                item = html.unescape(TAGS.sub("", m.group(3)))
                item = re.sub(r" \([^()]*\)$", "", item) if handle else item
                tokens.append(("li", item, handle.group(1) if handle else ""))
    rows: Counter[tuple[str, str, str, str]] = Counter()
    h2 = h3 = ""
    for kind, value, handle in tokens:
        if kind == "h2":
            h2, h3 = value, ""
        elif kind == "h3":
            h3 = value
        else:
            level = "lead" if h2.startswith("Lead Core Maintainer") else LEVEL_OF_H2.get(h2)
            if level is None or (level in ("module", "library") and not h3):
                continue
            section = h3 if level in ("module", "library") else h2
            status = "emeritus" if "(emeritus)" in value else "current"
            key = handle.lower() or value.replace("(emeritus)", "").strip()
            rows[(key, section, status, level)] += 1
    return rows


def extracted_rows(claims: list[Claim]) -> Counter[tuple[str, str, str, str]]:
    return Counter(
        (
            c.subject.github or c.subject.name,
            c.qualifiers["section"],
            c.qualifiers["status"],
            c.qualifiers["level"],
        )
        for c in claims
    )


@pytest.mark.parametrize("name", VERSIONS)
def test_rows_equal_an_independent_parse(name: str) -> None:
    expected = independent_rows(name)
    got = extracted_rows(claims_of(name))
    assert expected, "the independent parse found nothing: its regexes are broken"
    missing, extra = expected - got, got - expected
    assert not missing and not extra, f"recall misses {missing}; precision misses {extra}"


EXPECTED_COUNTS = {  # total, lead, core, module, library, emeritus (counted by hand with grep)
    "persons_of_interest.04153e20.rst": (160, 1, 4, 129, 26, 43),
    "docs-2.2.persons_of_interest.e3880b57.article-excerpt.html": (184, 1, 5, 142, 36, 54),
    "persons_of_interest.06b24a9d.rst": (226, 1, 7, 163, 55, 118),
    "persons_of_interest.0c2702b7.md": (258, 1, 10, 169, 78, 124),
    "docs-stable.persons_of_interest.e1516b10.md": (258, 1, 10, 169, 78, 124),
    "docs-main.persons_of_interest.4bc782c2.md": (257, 1, 9, 169, 78, 124),
    "persons_of_interest.7f149bc3.md": (258, 1, 9, 170, 78, 123),
    "docs-2.13.persons_of_interest.97dd649d.md": (258, 1, 9, 170, 78, 123),
    "constructed.docs-2.13.persons_of_interest.pydata.html": (258, 1, 9, 170, 78, 123),
    "constructed.docs-2.14.persons_of_interest.pydata.html": (258, 1, 9, 170, 78, 123),
}


@pytest.mark.parametrize("name", VERSIONS)
def test_counts(name: str) -> None:
    claims = claims_of(name)
    levels = Counter(c.qualifiers["level"] for c in claims)
    emeritus = sum(c.qualifiers["status"] == "emeritus" for c in claims)
    got = (
        len(claims),
        levels["lead"],
        levels["core"],
        levels["module"],
        levels["library"],
        emeritus,
    )
    assert got == EXPECTED_COUNTS[name]


def people(claims: list[Claim], level: str) -> list[tuple[str, str | None, str]]:
    return [
        (c.subject.name, c.subject.github, c.qualifiers["status"])
        for c in claims
        if c.qualifiers["level"] == level
    ]


def test_spot_checks_by_hand() -> None:
    oldest = claims_of("persons_of_interest.04153e20.rst")
    assert people(oldest, "core") == [
        ("Soumith Chintala", "soumith", "current"),
        ("Edward Yang", "ezyang", "current"),
        ("Greg Chanan", "gchanan", "current"),
        ("Dmytro Dzhulgakov", "dzhulgakov", "current"),
    ]
    assert people(oldest, "lead") == [("Soumith Chintala", "soumith", "current")]

    main = claims_of("docs-main.persons_of_interest.4bc782c2.md")
    assert people(main, "lead") == [("Alban Desmaison", "alband", "current")]
    assert [c.qualifiers["section"] for c in main if c.qualifiers["level"] == "lead"] == [
        "Lead Core Maintainer"
    ]
    assert "Alban Desmaison" not in [name for name, _, _ in people(main, "core")]

    before = claims_of("persons_of_interest.0c2702b7.md")
    assert ("Dmytro Dzhulgakov", "dzhulgakov", "emeritus") in people(before, "core")
    assert [c.qualifiers["section"] for c in before if c.qualifiers["level"] == "lead"] == [
        "Lead Core Maintainer (BDFL)"
    ]

    def shangdi(claims: list[Claim]) -> list[str | None]:
        return [c.subject.github for c in claims if c.subject.name == "Shangdi Yu"]

    assert shangdi(before) == ["yushangdi"]  # link text shangdiy, link target yushangdi
    assert shangdi(main) == ["shangdiy"]

    def dhanasekar(claims: list[Claim]) -> list[str | None]:
        return [c.subject.github for c in claims if c.subject.name == "Dhanasekar Karuppasamy"]

    assert dhanasekar(before) == [None]
    assert dhanasekar(claims_of("docs-stable.persons_of_interest.e1516b10.md")) == ["dhanainme"]
    assert dhanasekar(claims_of("constructed.docs-2.14.persons_of_interest.pydata.html")) == [None]

    v214 = claims_of("constructed.docs-2.14.persons_of_interest.pydata.html")
    distributed = {
        c.subject.github: c.qualifiers["status"]
        for c in v214
        if c.qualifiers["section"] == "Distributed"
    }
    assert distributed["kapilsh"] == "current"
    assert distributed["kwen2501"] == "current"
    assert distributed["wanchaol"] == "emeritus"

    v22 = claims_of("docs-2.2.persons_of_interest.e3880b57.article-excerpt.html")
    assert [g for _, g, _ in people(v22, "core")] == [
        "soumith",
        "ezyang",
        "gchanan",
        "dzhulgakov",
        "malfet",
    ]


def test_qualifiers_of_one_entry() -> None:
    claims = claims_of("constructed.docs-2.14.persons_of_interest.pydata.html")
    optim = [c for c in claims if c.qualifiers["section"] == "Optimizers (torch.optim)"]
    alban = optim[1]
    assert alban.subject.name == "Alban Desmaison" and alban.subject.github == "alband"
    assert alban.qualifiers == {
        "level": "module",
        "section": "Optimizers (torch.optim)",
        "scope": "torch.optim",
        "status": "current",
        "group": "Core Module maintainers",
    }
    assert alban.evidence.locator == "h3 'Optimizers (torch.optim)' > li 2"
    assert alban.evidence.quote == "Alban Desmaison (albanD)"


def test_scope_rule() -> None:
    scopes = {
        c.qualifiers["section"]: c.qualifiers["scope"]
        for c in claims_of("persons_of_interest.7f149bc3.md")
        if "scope" in c.qualifiers
    }
    assert scopes["Quantization (torch/ao)"] == "torch/ao"
    assert scopes["PT2 Export (torch.export)"] == "torch.export"
    assert scopes["CUDA"] == "CUDA"
    assert scopes["Build + CI"] == "Build + CI"
    assert scopes["TorchVision"] == "TorchVision"
    assert scopes["ExecuTorch (Edge, Mobile)"] == "ExecuTorch (Edge, Mobile)"
    assert scopes["Other Compilers (JIT / TorchScript / Package / Deploy)"] == (
        "Other Compilers (JIT / TorchScript / Package / Deploy)"
    )


# --------------------------------------------------------------------------------------------
# evidence quotes are verbatim


def page_text(name: str) -> str:
    raw = (FIXTURE_DIR / name).read_bytes().decode("utf-8", errors="replace")
    if name.endswith(".html"):
        body = LexborHTMLParser(raw).body
        assert body is not None
        return " ".join(body.text(deep=True, separator="").split())
    return raw


@pytest.mark.parametrize("name", VERSIONS)
def test_quotes_are_verbatim(name: str) -> None:
    text = page_text(name)
    for claim in claims_of(name):
        assert claim.evidence.quote and claim.evidence.quote in text, claim.evidence.locator


@pytest.mark.parametrize("name", VERSIONS)
def test_locators_find_the_heading(name: str) -> None:
    text = page_text(name)
    for claim in claims_of(name):
        match = re.fullmatch(r"h([1-6]) '(.+)' > li (\d+)", claim.evidence.locator)
        assert match, claim.evidence.locator
        heading = match.group(2)
        assert heading == claim.qualifiers["section"]
        assert (html.escape(heading, quote=False) if name.endswith(".html") else heading) in (
            text if not name.endswith(".html") else (FIXTURE_DIR / name).read_text("utf-8")
        )


# --------------------------------------------------------------------------------------------
# other documents and errors


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("docs-stable.persons_of_interest.redirect-to-2.13.27bf56bd.html", "2.13"),
        ("docs-stable.persons_of_interest.redirect-to-2.14.7676c9f0.html", "2.14"),
    ],
)
def test_redirect_stub_raises(name: str, target: str) -> None:
    with pytest.raises(RedirectStubError) as info:
        gov.extract(snapshot(name, url=STABLE))
    expected = f"https://docs.pytorch.org/docs/{target}/community/persons_of_interest.html"
    assert info.value.target == expected  # type: ignore[attr-defined]
    assert info.value.url == STABLE  # type: ignore[attr-defined]


def test_mechanics_page_gives_no_claims() -> None:
    mechanics = snapshot(
        "governance.046eb1c3.rst",
        url="https://github.com/pytorch/pytorch/blob/046eb1c3203cb0ed5512d854426faf70397724a5/"
        "docs/source/community/governance.rst",
    )
    assert gov.extract(mechanics) == []
    assert not gov.matches(mechanics.url, mechanics)
    assert not gov.matches(mechanics.url, None)


@pytest.mark.parametrize("body", [b"", b"   \n\n", b"# PyTorch Governance | Maintainers\n"])
def test_empty_document_gives_no_claims(body: bytes) -> None:
    assert gov.extract(Snapshot(url=STABLE, body=body)) == []


def test_page_without_maintainer_lists_gives_no_claims() -> None:
    body = b"<html><body><article><h1>PyTorch Governance | Maintainers</h1><p>Moved.</p>" + (
        b"<p>" + b"lorem ipsum " * 50 + b"</p></article></body></html>"
    )
    assert gov.extract(Snapshot(url="https://docs.pytorch.org/docs/2.13/x.html", body=body)) == []


def test_pdf_raises_unsupported_format() -> None:
    pdf = Snapshot(url=STABLE, body=b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
    with pytest.raises(UnsupportedFormatError):
        gov.extract(pdf)
    assert not gov.matches("https://example.org/x.pdf", pdf)


HOSTILE = """<!DOCTYPE html><html><head><title>PyTorch Governance | Maintainers</title>
<script>alert('head')</script></head><body><article class="bd-article">
<section id="a"><h1>PyTorch Governance | Maintainers<a class="headerlink" href="#a">#</a></h1>
<section id="b"><h2>Core Maintainers<script>alert('heading')</script><a class="headerlink"
 href="#b">#</a></h2>
<ul>
<li><p>&lt;img src=x onerror=alert(1)&gt; (<a href="https://github.com/Evil-1">Evil-1</a>)</p></li>
<li><p><img src=x onerror="alert(2)">Eve <script>steal()</script>Doe
 (<a href="javascript:alert(3)">eve</a>)</p></li>
<li><p><img src=x onerror="alert(4)"></p></li>
<li><p>\u202eZo\u00eb \U0001f916 \u0000 (emeritus) (<a href="https://github.com/zoe">zoe</a>)</p></li>
</ul></section>
<section id="c"><h2>Core Module maintainers</h2>
<section id="d"><h3>Sneaky <b onclick="x()">(torch.sneaky)</b><style>h3{}</style></h3>
<ul><li><p>Mallory (<a href="https://github.com/mallory">mallory</a>)</p></li></ul>
</section></section></section></article>
<footer><ul><li>Footer Person (<a href="https://github.com/footer">footer</a>)</li></ul></footer>
</body></html>"""


def test_hostile_html_gives_inert_plain_text() -> None:
    claims = gov.extract(Snapshot(url=STABLE, body=HOSTILE.encode("utf-8")))
    rows = [(c.subject.name, c.subject.github, c.qualifiers["section"]) for c in claims]
    assert rows == [
        ("<img src=x onerror=alert(1)>", "evil-1", "Core Maintainers"),
        ("Eve Doe", None, "Core Maintainers"),  # a javascript: link is not a handle
        ("\u202eZo\u00eb \U0001f916", "zoe", "Core Maintainers"),
        ("Mallory", "mallory", "Sneaky (torch.sneaky)"),
    ]
    assert [c.evidence.locator for c in claims][2] == "h2 'Core Maintainers' > li 4"
    assert claims[2].qualifiers["status"] == "emeritus"
    assert claims[3].qualifiers["scope"] == "torch.sneaky"
    blob = "\n".join(c.to_line() for c in claims)
    for needle in ("alert(2)", "alert(3)", "alert(4)", "steal", "heading", "onclick", "h3{}"):
        assert needle not in blob
    assert "footer" not in blob


def test_hostile_markdown_and_bytes() -> None:
    body = (
        "# PyTorch Governance | Maintainers\n\n## Core Maintainers\n\n"
        "- <script>alert(1)</script> ([x](https://github.com/x))\n"
        "- J\udce9r\udcf4me ([jerome](https://github.com/Jerome))\n"
    ).encode("utf-8", errors="surrogateescape")
    claims = gov.extract(Snapshot(url=STABLE, body=body))
    assert [c.subject.name for c in claims] == ["<script>alert(1)</script>", "J\ufffdr\ufffdme"]
    assert [c.subject.github for c in claims] == ["x", "jerome"]


def test_huge_documents_do_not_crash() -> None:
    items = "".join(f"- Person {i} ([p{i}](https://github.com/p{i}))\n" for i in range(20000))
    md = f"# PyTorch Governance | Maintainers\n\n## Core Maintainers\n\n{items}"
    claims = gov.extract(Snapshot(url=STABLE, body=md.encode()))
    assert len(claims) == 20000
    assert claims[-1].evidence.locator == "h2 'Core Maintainers' > li 20000"
    deep = b"<html><body>" + b"<div>" * 20000 + b"<ul><li>x</li></ul>" + b"</div>" * 20000
    assert gov.extract(Snapshot(url=STABLE, body=deep + b"</body></html>")) == []
    one_line = b"# t\n## Core Maintainers\n- " + b"`[(" * 200000 + b"\n"
    assert len(gov.extract(Snapshot(url=STABLE, body=one_line))) <= 1


# --------------------------------------------------------------------------------------------
# matches()

PAGE_URLS = [
    STABLE,
    "https://docs.pytorch.org/docs/2.13/community/persons_of_interest.html",
    "https://docs.pytorch.org/docs/main/community/persons_of_interest.md",
    "https://pytorch.org/docs/stable/community/persons_of_interest.html",
    "https://pytorch.org/docs/2.2/community/persons_of_interest.html#core-maintainers",
    "https://github.com/pytorch/pytorch/blob/main/docs/source/community/persons_of_interest.rst",
    "https://github.com/pytorch/pytorch/blob/7f149bc3c829cf944ed157f64c7eec52f0e9af9d/docs/source/"
    "community/persons_of_interest.md",
    "https://raw.githubusercontent.com/pytorch/pytorch/main/docs/source/community/"
    "persons_of_interest.md",
    "https://raw.githubusercontent.com/pytorch/pytorch/refs/heads/main/docs/source/community/"
    "persons_of_interest.rst",
]
OTHER_URLS = [
    "https://docs.pytorch.org/docs/stable/community/governance.html",
    "https://docs.pytorch.org/docs/stable/community/persons_of_interest.htmlx",
    "https://docs.pytorch.org/docs/stable/community/persons_of_interest.pdf",
    "https://example.org/docs/stable/community/persons_of_interest.html",
    "https://pytorch.org.example.com/docs/stable/community/persons_of_interest.html",
    "https://github.com/someone/pytorch/blob/main/docs/source/community/persons_of_interest.md",
    "https://github.com/pytorch/pytorch/blob/main/docs/source/community/governance.rst",
]


@pytest.mark.parametrize("url", PAGE_URLS)
def test_matches_page_urls(url: str) -> None:
    assert gov.matches(url, None)
    assert extractors.choose(url) is gov


@pytest.mark.parametrize("url", OTHER_URLS)
def test_does_not_match_other_urls(url: str) -> None:
    assert not gov.matches(url, None)


@pytest.mark.parametrize("name", VERSIONS)
def test_matches_content(name: str) -> None:
    assert gov.matches("https://example.org/upload", snapshot(name))


def test_does_not_match_stub_content() -> None:
    stub = snapshot("docs-stable.persons_of_interest.redirect-to-2.13.27bf56bd.html", url=STABLE)
    assert not gov.matches("https://example.org/upload", stub)


def test_fixture_files_are_all_used() -> None:
    documents = {
        p.name
        for p in Path(FIXTURE_DIR).iterdir()
        if p.suffix in (".md", ".rst", ".html") and p.name != "PROVENANCE.md"
    }
    goldens = {p.name.removesuffix(".claims.jsonl") for p in FIXTURE_DIR.glob("*.claims.jsonl")}
    assert goldens == set(GOLDEN_URLS)
    other = {
        "governance.046eb1c3.rst",
        "docs-stable.persons_of_interest.redirect-to-2.13.27bf56bd.html",
        "docs-stable.persons_of_interest.redirect-to-2.14.7676c9f0.html",
    }
    assert documents == set(GOLDEN_URLS) | other
