"""Announcements (blog posts, Discourse topics, PEPs, READMEs) -> dated role and event claims.

The post is read through the shared document layer (`_announce_source`: front matter of any
kind, Discourse JSON and crawler HTML, HTML meta dates), then every block is read twice: its
sentences (`_announce_events`: who joins, leaves, is elected, speaks, chairs) and, for lists and
tables, what their lead-in says of the people listed (`_announce_lists`). Dates: a date the
sentence prints beats the post's (`_announce_dates`). The same claim (subject, predicate, object,
qualifiers) is given once, first occurrence; a person given the same role and event twice (a
sentence and a list naming them) once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from extractors.announcements import decision, events, lists, prose, reader, source
from extractors.document.model import Heading, Item, Para, Row, Term, collapse
from ingest.errors import ExtractionError, UnsupportedFormatError
from ingest.models import Claim, Snapshot

NAME = "announcement"
VERSION = 15  # 2: status emeritus; 3: the body's name, not the title; 4: projects read, not listed;
# 5: the learned event decision over rule and person-reader candidates, `confidence`; 6: a list's
# role from its lead-in's body (no company), "Title: Speaker" items, first-person step-downs from
# any role, "over the last year" no date, bare handles named as the post names them, grids of
# linked names under a lead-in; 7: a paragraph broken by <br> is a list of its lines; 8: AsciiDoc
# and Laika bodies, dated permalinks, people presented in turn, ranked results past the seats
# filled; 9: present-tense departures, terms ended, taking over as X, label lines under a
# colon lead-in, a describing paragraph joined to the lead-in above, first-person stepping away
# 10: outgoing members after a relative clause, joining a named community as X, a duty handed
# over, the writer taking over from someone, a surname printed as one capital letter; 11: the
# decision fitted on all the gold, table rows and first-person authors as candidates, seats,
# titled roles, outgoing thanks, title = body once; 12: candidates from structure alone (name
# headings, name lines under a lead-in, handle-like items, one-token subjects) decided by an event
# model fitted on them without per-reader cues; 13: dated news lists and post-like fragments read,
# "New ROLE, Name" entries, people forming a body, role appositions, name headings and linked
# name lines under an announcing heading or lead-in, bare handle items, departures after a
# goodbye, the writer's return to a role, a date stamp naming the post's anchor or file; 14:
# blank-header tables of people under an announcing heading, "add A as X", "voted in by the
# other X members", "elected A the new X", volunteering to serve, thanks for a past tenure;
# 15: Markdown after a raw HTML block, "will be succeeded by B", "adding A to the X team", a
# title's nickname form once, lead-ins of things or bodies list no one, name headings under an
# announcing opening, a company's engineering team is employment, "will teach us", the writer's
# "it's time to step down", dated repository folders are posts, transposed tables
TAG = f"{NAME}/{VERSION}"

# --- which URLs are announcements -----------------------------------------------------------
URL_PATTERNS = (
    re.compile(r"^https?://[^/?#]+/(?:[^?#]*/)?(?:blog|posts|news|announcements?)/[^?#]+", re.I),
    re.compile(r"^https?://blog\.[^/?#]+/[^?#]+", re.IGNORECASE),
    # a dated permalink (`/2018/05/03/slug/`, `/2017/8/15/slug`): how blog engines name posts
    re.compile(r"^https?://[^/?#]+/(?:[^?#]*/)?(?:19|20)\d\d/\d\d?/\d\d?/[^/?#]+", re.I),
    # a year-and-month permalink of a post page (Blogger's `/2015/06/slug.html`)
    re.compile(r"^https?://[^/?#]+/(?:19|20)\d\d/(?:0[1-9]|1[0-2])/[^/?#]+\.html?$", re.I),
    re.compile(r"^https?://(?:dev-)?discuss\.[^/?#]+/t/[^?#]+", re.IGNORECASE),
    re.compile(
        r"^https?://(?:www\.)?github\.com/[^/]+/[^/]+/blob/[^?#]*?"
        r"(?:/README[^/]*\.md|/_posts/[^/?#]+\.md|/(?:blog|news|announcements?|events?|workshops?|"
        r"release[-_]notes?)"
        r"/[^?#]+\.md)(?:[?#].*)?$",
        re.IGNORECASE,
    ),
    # a repository file under a dated folder (`notes/2017-02/feb-22.md`, `.../2023/05/x.md`):
    # a dated document (notes, a post), not a standing roster
    re.compile(
        r"^https?://(?:www\.)?github\.com/[^/]+/[^/]+/blob/[^?#]*?/(?:19|20)\d\d[-/]"
        r"(?:0[1-9]|1[0-2])/[^/?#]+\.(?:md|markdown|rst|adoc)(?:[?#].*)?$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^https?://raw\.githubusercontent\.com/[^?#]*?(?:/README[^/]*\.md|/_posts/[^/?#]+\.md)$",
        re.IGNORECASE,
    ),
)
NOT_ANNOUNCEMENTS = re.compile(r"persons_of_interest|governance\.(?:rst|md|html)", re.IGNORECASE)
REPOSITORY_FILE = re.compile(
    r"^https?://(?:(?:www\.)?github\.com/[^/]+/[^/]+/(?:blob|raw)/|raw\.githubusercontent\.com/|"
    r"gitlab\.com/.+/-/(?:blob|raw)/)",
    re.IGNORECASE,
)
# a title that says the document reports role news, whatever its URL (a PEP of election results)
NEWS_TITLE = re.compile(
    r"\b(?:election|elections|elects|results|announcing|announcement|welcom\w*|joins|"
    r"new\s+members?|stepping\s+down|leadership\s+change|membership\s+changes)\b",
    re.IGNORECASE,
)


def matches(url: str, snapshot: Snapshot | None) -> bool:
    """Blog, Discourse topic and GitHub announcement URLs; with a snapshot, post-like content."""
    if snapshot is None:
        return not NOT_ANNOUNCEMENTS.search(url) and any(p.match(url) for p in URL_PATTERNS)
    try:
        post = source.read(snapshot)
    except ExtractionError:
        return False
    has_blocks = any(s.blocks for s in post.sections)
    return post.declared and (post.title is not None or has_blocks)


def titled_as_news(url: str, snapshot: Snapshot) -> bool:
    """A published page whose title reports role news ("2026 Term Steering Council election"),
    whatever its URL: election results are news. The same file read in its repository (a GitHub
    blob or raw URL) stays a document of record, for the governance reader."""
    if REPOSITORY_FILE.match(url) or NOT_ANNOUNCEMENTS.search(url):
        return False
    try:  # the title first, from the document the governance reader would parse anyway
        if not NEWS_TITLE.search(source.title_of(snapshot) or ""):
            return False
        post = source.read(snapshot)
    except ExtractionError:
        return False
    return post.date is not None and bool(NEWS_TITLE.search(post.title or ""))


# a list item that opens with its own date ("- 2023-08-19: New Committer, ..."): a news entry
DATED_ITEM = re.compile(
    r"^\W{0,3}(?:(?:19|20)\d\d-\d\d?-\d\d?|(?:19|20)\d\d/\d\d?/\d\d?|"
    r"[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+(?:19|20)\d\d|\d{1,2}\s+[A-Z][a-z]{2,8}\.?\s+(?:19|20)\d\d)"
    r"\s*[:\-\u2013\u2014|]"
)
NEWS_LIST_MIN = 3  # dated items, at least half of the page's items
# a sentence that reports a role change: a word of change and a role word
ROLE_NEWS = re.compile(
    r"\b(?i:welcom\w*|join\w*|elect\w*|appoint\w*|promot\w*|step(?:s|ped|ping)?\s+down|"
    r"resign\w*|retir\w*|nominat\w*|new(?:est|ly)?)\b[^.!?]{0,80}\b"
    r"(?i:maintainers?|committers?|members?|leads?|chairs?|directors?|board|council|committee|"
    r"team|pmc|tsc)\b"
)


def news_list(snapshot: Snapshot) -> bool:
    """A page that is a list of dated news entries (most of its list items open with their own
    date): news, however many people its entries name, not a roster."""
    try:
        post = source.read(snapshot)
    except ExtractionError:
        return False
    items = [b.text for s in post.sections for b in s.blocks if isinstance(b, Item)]
    dated = sum(1 for text in items if DATED_ITEM.match(text))
    return dated >= NEWS_LIST_MIN and 2 * dated >= len(items)


def post_like(snapshot: Snapshot) -> bool:
    """A document (a news fragment of any page format) that no other reader takes and that
    reads as a post: a paragraph sentence that reports a role change."""
    try:
        post = source.read(snapshot)
    except ExtractionError:
        return False
    return any(
        isinstance(b, Para) and ROLE_NEWS.search(b.text) for s in post.sections for b in s.blocks
    )


def extract(snapshot: Snapshot) -> list[Claim]:
    """Role and event claims of every sentence, list item and agenda row, as the shipped
    learned decision (`decision.shipped`) gives them."""
    return list(iter_claims(snapshot))


def iter_claims(snapshot: Snapshot, model: decision.Model | None = None) -> Iterator[Claim]:
    post, context, found = read_candidates(snapshot)
    yield from reader.decide(found, model or decision.shipped(), context)


def read_candidates(
    snapshot: Snapshot,
) -> tuple[source.Post, events.Context, list[reader.Candidate]]:
    """The post, its context and its candidate events (what the decision is fitted on)."""
    try:
        post = source.read(snapshot)
    except UnsupportedFormatError:
        raise
    context = events.Context(post, snapshot, TAG)
    rule = list(rule_claims(post, context))
    return post, context, reader.candidates(post, context, rule)


def rule_claims(post: source.Post, context: events.Context) -> Iterator[Claim]:
    """The rule readers' claims: the same claim once, a person's same role and event once (read
    with a handle by one reader and without by another: with it)."""
    found = list(_rule_claims(post, context))
    handled = {_named_fact(c) for c in found if c.subject.github}
    return (c for c in found if c.subject.github or _named_fact(c) not in handled)


def _named_fact(claim: Claim) -> tuple[str, str, str, str, str | None]:
    q = claim.qualifiers
    role = str(q.get("role") or q.get("level") or "").lower()
    return (collapse(claim.subject.name).lower(), claim.predicate, role, str(q.get("status", "")),
            q.get("date"))  # fmt: skip


def _rule_claims(post: source.Post, context: events.Context) -> Iterator[Claim]:
    seen: set[str] = set()
    people_roles: set[tuple[str, str, str, str]] = set()
    for claim in _all_claims(post, context):
        key = json.dumps(
            [
                claim.subject.name,
                claim.subject.github,
                claim.predicate,
                claim.object,
                claim.qualifiers,
            ],
            sort_keys=True,
        )
        who = (claim.subject.github or claim.subject.name).lower()
        q = claim.qualifiers
        role = str(q.get("role") or q.get("level") or "")
        status = str(q.get("status", ""))
        fact = (who, claim.predicate, role.lower(), status)
        # the same change of the same body at the same level, worded twice ("will serve a
        # two-year term", "was re-elected to the board")
        held = (who, claim.predicate, f"{claim.object.lower()} @{q.get('level')}", status)
        if key in seen or (role and fact in people_roles) or held in people_roles:
            continue
        seen.add(key)
        people_roles.update((fact, held) if claim.predicate == "maintainer" else (fact,))
        yield claim


def _all_claims(post: source.Post, context: events.Context) -> Iterator[Claim]:
    for section in post.sections:
        counts: dict[str, int] = {}
        for block in section.blocks:
            kind, text, quote, links = _readable(block)
            if kind is None:
                continue
            counts[kind] = counts.get(kind, 0) + 1
            line = getattr(block, "line", None)
            locator = (
                f"line {line}" if line is not None else f"{section.prefix}{kind} {counts[kind]}"
            )
            context.paragraph = text
            for sentence in events.sentences(quote, text, links, locator, section.date):
                yield from prose.sentence_claims(sentence, context)
        yield from lists.list_claims(section, context)
    if post.title:  # last: a body sentence carries the links a title lacks
        for sentence in events.sentences(post.title, post.title, (), "title", post.date):
            yield from events.sentence_claims(sentence, context)


def _readable(block: object) -> tuple[str | None, str, str, tuple[tuple[str, str], ...]]:
    if isinstance(block, Para):
        return "paragraph", block.text, block.quote, block.links
    if isinstance(block, Item):
        return "item", block.text, block.quote, block.links
    if isinstance(block, Term):
        return "term", f"{block.term}: {block.text}", block.quote, block.links
    if isinstance(block, Heading):
        return "heading", block.text, block.text, ()
    if isinstance(block, Row):
        return None, "", "", ()
    return None, collapse(""), "", ()
