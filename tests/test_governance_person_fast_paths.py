"""The shortcuts `extractors.governance.page.person_of` takes (a page of 258 people reads 0.1 ms
faster) decide what the regular expressions they stand for decide: the GitHub user of a link
target, and whether an item can hold the "(emeritus)" marker."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from extractors import document as _document
from extractors.document.model import Item
from extractors.governance import page
from ingest.errors import ExtractionError
from ingest.models import Snapshot

ROOT = Path(__file__).resolve().parent.parent
TARGETS = [
    "https://github.com/albanD", "https://github.com/albanD/", "https://github.com/a",
    "https://github.com/-a", "https://github.com/a-", "https://github.com/" + "a" * 39,
    "https://github.com/" + "a" * 40, "https://github.com/", "https://github.com//",
    "https://github.com/a//", "https://github.com/a/b", "https://github.com/a?tab=x",
    "https://github.com/a#x", "https://github.com/ab c", "https://github.com/ﬁ",
    "https://github.com/Kelvin\u212a", "https://github.com/a\n", "https://github.com/a ",
    "https://github.com/a_b", "https://github.com/a.b", "HTTPS://GITHUB.COM/A",
    "https://www.github.com/a", " https://github.com/a", "http://github.com/a",
    "https://github.com/\u0661", "https://github.com/a--b", "https://github.com/-",
]  # fmt: skip


def link_targets() -> list[str]:
    found = set(TARGETS)
    for path in sorted((ROOT / "fixtures").rglob("*")):
        if path.suffix not in (".html", ".md", ".rst") or path.stat().st_size > 2 << 20:
            continue
        snapshot = Snapshot(url=f"https://example.org/{path.name}", body=path.read_bytes())
        try:
            document = _document.parse(snapshot)
        except ExtractionError:
            continue
        for block in document.blocks:
            for _, target in getattr(block, "links", ()):
                found.add(target)
    return sorted(found)


def test_the_github_user_shortcut_finds_what_the_pattern_finds() -> None:
    targets = link_targets()
    assert sum(t.startswith(page.GITHUB_PREFIX) for t in targets) >= 300
    for target in targets:
        match = page.GITHUB_USER.match(target)
        assert page.github_user(target) == (match.group(1).lower() if match else None), target


def test_only_e_m_and_r_themselves_match_e_m_and_r_case_insensitively() -> None:
    # what lets person_of look for "emer" in the lower-cased text before it runs EMERITUS
    for letter in "emr":
        pattern = re.compile(letter, re.IGNORECASE)
        for code in range(sys.maxunicode + 1):
            char = chr(code)
            if pattern.fullmatch(char):
                assert char.lower() == letter, (letter, hex(code))


def test_the_marker_is_found_in_every_spelling_the_pattern_takes() -> None:
    for text in ("Jane Roe (Emeritus)", "Jane Roe ( EMERITUS )", "(emeritus) Jane Roe (jroe)"):
        person = page.person_of(Item(text, text, (), 1))
        assert person is not None and person[2], text
    assert page.person_of(Item("Jane Roe (emer)", "Jane Roe (emer)", (), 1)) == (
        "Jane Roe (emer)",
        None,
        False,
    )


LEADING_MARKER = [
    "(emeritus) Jane Roe (jroe)", "(emeritus)  Jane Roe", "(emeritus) ", "(emeritus) x ",
    "(emeritus) Jane Roe (emeritus)", "(emeritus) Jane ( Emeritus )", "(emeritus) emerald",
    "(emeritus) \tJane", "(emeritus) Jane\u00a0Roe", "(emeritus) Ja  ne", "(emeritus) (jroe)",
    "(emeritus) İ Roe", "(emeritus)x", "(EMERITUS) Jane Roe", "(emeritus) Jane\x85Roe",
]  # fmt: skip


def test_the_leading_marker_shortcut_gives_what_the_pattern_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "(emeritus) Name (handle)" is read without EMERITUS and a second collapse: the same person
    links = [(), (("jroe", "https://github.com/jroe"),), (("x", "https://example.org/x"),)]
    items = [Item(t, t, found, 1) for t in LEADING_MARKER for found in links]
    for path in sorted((ROOT / "fixtures").rglob("*persons_of_interest*")):
        snapshot = Snapshot(url=f"https://example.org/{path.name}", body=path.read_bytes())
        try:
            document = _document.parse(snapshot)
        except ExtractionError:
            continue
        items += [b for b in document.blocks if isinstance(b, Item)]
    assert sum(i.text.startswith(page.EMERITUS_FIRST) for i in items) >= 100
    shortcut = [page.person_of(item) for item in items]
    monkeypatch.setattr(page, "EMERITUS_FIRST", "\x00 no text starts so")
    assert [page.person_of(item) for item in items] == shortcut
