"""Announcements (blog posts, Discourse topics, Markdown READMEs) -> dated role and event claims.

Reads five forms: blog post HTML (the `article`/`main` content; nav, header, footer, aside, form,
script and style are never read), Jekyll Markdown posts (front matter `title`, `date`, `author`),
Markdown READMEs, Discourse topic HTML (`div.post[itemprop=text]` / `.cooked` bodies,
`article:published_time`, `<title>`) and the Discourse topic JSON API (`title`, `created_at`,
`post_stream.posts[].cooked` / `.created_at`). Each is cut into blocks (paragraphs, list items,
headings, the title; Markdown table rows) and blocks into sentences. Every claim quotes one
sentence: HTML and Discourse quotes are the sentence in the whitespace-collapsed text of its
element, Markdown quotes are the source text (link markup included).

In a sentence, person names are found first (`_names`: 2-4 capitalised tokens, lower-case
particles allowed, never inside quotation marks, a run of four capitalised tokens without a
particle is two glued names and is skipped), then replaced by placeholders, and the patterns below
(named data, one table per claim family) are matched against that masked sentence. A sentence
gives claims only when a pattern puts a person in a role slot: a role word near a name ("former
core maintainer X said"), or a role sentence without a person-like name, gives nothing.

- maintainer joins (`JOIN_PATTERNS`): level from the role words (lead/core/module/library),
  status `current`, `since` = the date, event `joined`; `scope` for module/library when printed.
- successions (`SUCCESSION_PATTERNS`): the new holder as a join, the old one status `former`,
  `until` = the date, event `left`.
- departures (`LEAVE_PATTERNS`): status `former` with `until` (event `left`), or `emeritus` with
  `since` (event `emeritus`); the level from the sentence, else from the title.
- events: `speaker`, `program_chair`, `panelist`, `participant` (a quoted session with named
  people): object = the event named in the sentence (a capitalised run with a year or an event
  word), else the one in the title, else the whole title; qualifiers `date`, `title` (the quoted
  talk title; speakers and panelists), `session` (participants; Markdown agenda tables).
- Markdown tables whose header has a Speakers/Presenters/Panelists column: one claim per person
  named in that column, `session` = the Sessions/Title column, `date` = the last stand-alone date
  line before the table, object = the document title.

Dates: a date the sentence states ("on March 16, 2026", "2026-03-16", "April 7-8, 2026": the
first day) beats the post date (front matter `date`, Discourse `created_at` of the post or topic,
`article:published_time`, a `<time datetime>` in the content, a Jekyll `YYYY-M-D-` URL). Always
ISO YYYY-MM-DD; no date at all leaves the qualifier out. The maintainer object is the project the
sentence names (`PROJECTS`), else the title's, else the document's; with none the claim is
dropped. The same claim (subject, predicate, object, qualifiers) is given once, first occurrence.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from dateutil import parser as dateparser
from selectolax.lexbor import LexborHTMLParser, LexborNode

from extractors._doc_html import content_root
from ingest.documents import parse_html
from ingest.errors import ExtractionError, UnsupportedFormatError
from ingest.models import Claim, Evidence, Snapshot, Subject
from ingest.sniff import sniff_format

NAME = "announcement"
VERSION = 1
TAG = f"{NAME}/{VERSION}"


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# --- which URLs are announcements -----------------------------------------------------------
URL_PATTERNS = (
    re.compile(r"^https?://[^/?#]+/(?:[^?#]*/)?blog/[^?#]+", re.IGNORECASE),
    re.compile(r"^https?://(?:dev-)?discuss\.pytorch\.org/t/[^?#]+", re.IGNORECASE),
    re.compile(
        r"^https?://(?:www\.)?github\.com/[^/]+/[^/]+/blob/[^?#]*?"
        r"(?:/README[^/]*\.md|/_posts/[^/?#]+\.md|/(?:blog|news|announcements?|events?|workshops?)"
        r"/[^?#]+\.md)(?:[?#].*)?$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^https?://raw\.githubusercontent\.com/[^?#]*?(?:/README[^/]*\.md|/_posts/[^/?#]+\.md)$",
        re.IGNORECASE,
    ),
)
NOT_ANNOUNCEMENTS = re.compile(r"persons_of_interest|governance\.(?:rst|md|html)", re.IGNORECASE)
URL_DATE = re.compile(r"/(?:_posts/)?((?:19|20)\d\d)[-/](\d{1,2})[-/](\d{1,2})[-/]")

# --- names ----------------------------------------------------------------------------------
NAME_TOKEN = re.compile(
    r"^(?:[A-Z][a-z]\.|(?:Mc|O['’])?[A-Z][^\W\d_A-Z]+(?:[-'’][A-Z][^\W\d_]+)*)$"
)
NAME_TOKEN_UNICODE = re.compile(r"^[^\W\d_]+(?:[-'’][^\W\d_]+)*$")
PARTICLES = frozenset({"van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "le",
                       "la", "ten", "ter", "bin", "ibn", "al", "dos", "das", "y"})  # fmt: skip
NOT_NAME_WORDS = _word_set(
    """
    a an the this that these those we our us you your i my she they their it its and or but
    so if as at in on of for to by with from into onto after before since during until about
    today yesterday tomorrow please join welcome congratulations congrats thanks thank hi hello
    dear all everyone team folks both here there also meet new next last first final
    lead core maintainer maintainers module modules library libraries emeritus former current
    conference summit workshop symposium session sessions keynote panel panelist panelists
    program programme chair chairs co-chair speaker speakers developer developers community
    foundation linux open source day days release live tutorial paper blog post forum mailing
    list discussion discussions update updates announcement announcing governance technical
    europe asia america north south east west paris san jose francisco new york
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday
    """
)
MAX_NAME_TOKENS = 4
MAX_CAPITALISED = 3  # four capitalised tokens in a row are two names printed without a comma

# --- sentence and quote helpers ---------------------------------------------------------------
SENTENCE_END = re.compile(r"[.!?][\"”’)\]]*\s+(?=[^\s])")
ABBREVIATIONS = frozenset({"e.g", "i.e", "dr", "mr", "ms", "mrs", "prof", "st", "vs", "etc", "no"})
QUOTED = re.compile(r"“([^“”]{2,200})”|\"([^\"]{2,200})\"")
PERSON_MARK = "\ue000"
PERSON_END = "\ue001"
QUOTE_MARK = "\ue002"
QUOTE_END = "\ue003"

# --- masked-sentence pattern fragments -------------------------------------------------------
PERSON = rf"{PERSON_MARK}\d+{PERSON_END}"
PEOPLE = rf"(?P<people>{PERSON}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*){PERSON})*)"
OLD = rf"(?P<old>{PERSON})"
NEW = rf"(?P<new>{PERSON})"
QUOTE = rf"(?P<quote>{QUOTE_MARK}\d+{QUOTE_END})"
ARTICLE = r"(?:(?:a|an|the|our|one\s+of\s+(?:the|our))\s+)?(?:(?:new|newest|next)\s+)?"
LEVEL = r"(?P<level>(?i:lead\s+core|lead|core|module(?:[- ]level)?|library(?:[- ]level)?))"
ROLE = rf"(?:(?:\w+\s+)?){LEVEL}\s+(?i:maintainers?)\b"
SCOPE = r"(?:\s+(?:of|for)\s+(?P<scope>[A-Za-z_][\w./+-]*[\w/+]))?"
LEVELS = {"lead core": "lead", "lead": "lead", "core": "core", "module": "module",
          "module-level": "module", "module level": "module", "library": "library",
          "library-level": "library", "library level": "library"}  # fmt: skip
PROJECTS = ("PyTorch", "ExecuTorch", "TorchTitan", "torchtune", "TorchVision", "TorchAudio")

JOIN_PATTERNS = tuple(
    re.compile(p)
    for p in (
        rf"{PEOPLE}\s+(?:is|are)\s+now\s+{ARTICLE}{ROLE}{SCOPE}",
        rf"{PEOPLE}\s+(?:has|have)\s+(?:officially\s+)?(?:joined|become)\s+{ARTICLE}{ROLE}{SCOPE}",
        rf"{PEOPLE}\s+(?:joins|join|joined|becomes|became)\s+{ARTICLE}{ROLE}{SCOPE}",
        rf"(?i:welcom(?:e|es|ed|ing))\s+{PEOPLE}\s+(?:as|to)\s+{ARTICLE}{ROLE}{SCOPE}",
        rf"(?i:welcom(?:e|es|ed|ing))\s+{ARTICLE}{ROLE}\s*,?\s+{PEOPLE}",
        rf"{PEOPLE}\s+(?:was|were|has\s+been|have\s+been|is\s+being|are\s+being)\s+"
        rf"(?:promoted|elected|appointed|named|added|confirmed)\s+(?:as\s+|to\s+(?:the\s+)?)?"
        rf"{ARTICLE}{ROLE}{SCOPE}",
        rf"{ROLE}\s+(?:have\s+|has\s+)?(?:accepted|approved|confirmed)\s+(?:the\s+)?"
        rf"(?:nominations?|promotions?)\s+of\s+{PEOPLE}",
    )
)
SUCCESSION_PATTERNS = tuple(
    re.compile(p)
    for p in (
        rf"{ROLE}\s+role\s+(?:(?:passes|passed|will\s+pass|is\s+passing|moves|moved|"
        rf"transitions|transitioned)\s+)?from\s+{OLD}\s+to\s+{NEW}",
        rf"{NEW}\s+(?:succeeds|succeeded|will\s+succeed|is\s+succeeding|replaces|replaced|"
        rf"will\s+replace)\s+{OLD}\s+as\s+{ARTICLE}{ROLE}",
        rf"{NEW}\s+(?:takes|took|will\s+take|is\s+taking)\s+over\s+from\s+{OLD}\s+as\s+"
        rf"{ARTICLE}{ROLE}",
        rf"{OLD}\s+(?:hands|handed|will\s+hand|is\s+handing)\s+(?:over\s+)?(?:the\s+)?{ROLE}\s+"
        rf"role\s+(?:over\s+)?to\s+{NEW}",
    )
)
LEFT_PATTERNS = tuple(
    re.compile(p)
    for p in (
        rf"{PEOPLE}\s+(?:is\s+|are\s+|has\s+|have\s+|will\s+be\s+|will\s+)?"
        rf"(?:stepping|stepped|steps|step)\s+down\s+(?:as|from)\s+(?:(?:his|her|their)\s+role\s+"
        rf"as\s+)?{ARTICLE}{ROLE}{SCOPE}",
    )
)
EMERITUS_PATTERNS = tuple(
    re.compile(p)
    for p in (
        rf"{PEOPLE}\s+(?:is\s+|are\s+|has\s+|have\s+|will\s+)?(?:moving|moved|moves|move|"
        rf"transitioning|transitioned|transitions|going)\s+to\s+(?:an?\s+)?(?i:emeritus)",
        rf"{PEOPLE}\s+(?:is|are|has\s+become|have\s+become|becomes|become)\s+(?:an?\s+)?"
        rf"(?i:emeritus)",
    )
)
EVENT_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (predicate, re.compile(p))
    for predicate, p in (
        (
            "speaker",
            rf"{PEOPLE}\s+(?:will|is\s+going\s+to|is\s+set\s+to|are\s+set\s+to)\s+"
            rf"(?:present|speak|deliver|give\s+(?:a|the)\s+(?:talk|keynote))",
        ),
        ("speaker", rf"{PEOPLE}\s+(?:is|are)\s+(?:speaking|presenting|delivering)"),
        ("speaker", rf"(?i:featuring|features|featured)\s+{PEOPLE}"),
        (
            "speaker",
            rf"(?i:speakers?|presenters?)\s*(?::|(?:include|includes|included|are|"
            rf"were|is|was)\s+)?\s*{PEOPLE}",
        ),
        ("speaker", rf"(?:presented|delivered|given)\s+by\s+{PEOPLE}"),
        (
            "program_chair",
            rf"(?i:program(?:me)?\s+(?:co-)?chairs?)\b(?:[^.{PERSON_MARK}]{{0,80}}?)"
            rf"(?::|\b(?:include|includes|included|including|are|were|is|was))"
            rf"\s+{PEOPLE}",
        ),
        (
            "program_chair",
            rf"{PEOPLE}\s+(?:served|serve|serves|will\s+serve|is\s+serving|"
            rf"are\s+serving|is|are|was|were)\s+(?:as\s+)?{ARTICLE}"
            rf"(?:\w+\s+)?(?i:program(?:me)?\s+(?:co-)?chairs?)",
        ),
        (
            "panelist",
            rf"(?i:panel(?:ists?)?)\s*(?::|\b(?:include|includes|included|including|"
            rf"featuring|with)\s+)\s*{PEOPLE}",
        ),
        (
            "panelist",
            rf"(?i:join)\s+{PEOPLE}\s+(?:for|in|at)\s+{ARTICLE}(?:live\s+)?"
            rf"(?i:Q&A|panel|AMA|fireside)",
        ),
        (
            "panelist",
            rf"{PEOPLE}\s+(?:will\s+)?(?:join|joins|joined)\s+{ARTICLE}(?:live\s+)?"
            rf"(?:Q&A\s+)?(?i:panel)",
        ),
        (
            "participant",
            rf"{QUOTE}\s+(?i:session)\b[^.]{{0,120}}?\b(?:including|includes|"
            rf"include|with|featuring|featured|were)\s+{PEOPLE}",
        ),
        (
            "participant",
            rf"{PEOPLE}\s+(?:took|take|takes|will\s+take)\s+part\s+in\s+{ARTICLE}"
            rf"{QUOTE}\s+(?i:session)",
        ),
    )
)
TITLED_PREDICATES = frozenset({"speaker", "panelist"})  # a quoted text is the talk's title
SESSION_PREDICATES = frozenset({"participant"})  # a quoted text is the session's name

# --- event names ----------------------------------------------------------------------------
EVENT_RUN = re.compile(r"[A-Z0-9][\w'’&+.-]*(?: [A-Z0-9][\w'’&+.-]*)*")
EVENT_WORDS = frozenset({"conference", "summit", "workshop", "symposium", "meetup", "hackathon",
                         "forum", "expo", "congress", "gtc", "con", "devday", "q&a", "ama",
                         "webinar"})  # fmt: skip
EVENT_LEADING = frozenset({"the", "at", "in", "on", "for", "join", "meet", "during", "from",
                           "this", "our", "welcome", "attend", "of", "and"})  # fmt: skip
YEAR = re.compile(r"(?:19|20)\d\d")
MONTHS = _word_set(
    "jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july "
    "august september october november december"
)

# --- dates ----------------------------------------------------------------------------------
MONTH_RE = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
WEEKDAY_PAREN = r"(?:\s*\([A-Z][a-z]+\))?"
SENTENCE_DATES = (
    re.compile(r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b"),
    re.compile(
        rf"\b(?P<month>{MONTH_RE})\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?{WEEKDAY_PAREN}"
        rf"(?:\s*[-–—]\s*\d{{1,2}}(?:st|nd|rd|th)?|\s+to\s+\d{{1,2}})?,?{WEEKDAY_PAREN}\s+"
        rf"(?P<year>(?:19|20)\d\d)\b"
    ),
    re.compile(
        rf"\b(?P<day>\d{{1,2}})(?:\s*[-–—]\s*\d{{1,2}})?\s+(?P<month>{MONTH_RE})\s+"
        rf"(?P<year>(?:19|20)\d\d)\b"
    ),
)
DATE_LINE = re.compile(r"^[\W\d]*(?:[A-Za-z-]+\s+){0,2}?(?:on\s+)?" + MONTH_RE, re.IGNORECASE)
DEFAULT_DAY = datetime(2000, 1, 1)  # dateutil's fill-in for missing fields; never the clock

# --- GitHub links ---------------------------------------------------------------------------
GITHUB_USER = re.compile(
    r"^\s*https?://(?:www\.)?github\.com/([A-Za-z0-9][A-Za-z0-9-]{0,38})/?(?:[?#]\S*)?\s*$",
    re.IGNORECASE,
)

# --- HTML -----------------------------------------------------------------------------------
DISCOURSE_POSTS = "div.post[itemprop='text'], div.cooked"
CONTENT_ROOTS = (
    "article [itemprop='articleBody']",
    "article .entry-content",
    "article",
    "[itemprop='articleBody']",
    "main",
    "[role='main']",
    "body",
)
DROPPED_TAGS = ["script", "style", "template", "noscript", "svg", "iframe"]
SKIPPED_SUBTREES = frozenset({"nav", "header", "footer", "aside", "form"})
BLOCK_TAGS = {"p": "paragraph", "li": "item", "h1": "heading", "h2": "heading",
              "h3": "heading", "h4": "heading", "h5": "heading", "h6": "heading",
              "dd": "item", "dt": "item", "td": "cell", "th": "cell", "blockquote": "paragraph",
              "figcaption": "caption"}  # fmt: skip
BLOCK_SELECTOR = ", ".join(BLOCK_TAGS)
PUBLISHED_META = (
    "meta[property='article:published_time']",
    "meta[name='article:published_time']",
    "meta[itemprop='datePublished']",
    "meta[name='date']",
)
TIME_DATETIME = "time[datetime]"
TITLE_SELECTORS = ("meta[property='og:title']", "h1", "title")
TITLE_SUFFIX = re.compile(r"\s+[-–—|]\s+[^-–—|]{2,60}$")

# --- Markdown -------------------------------------------------------------------------------
FRONT_MATTER_FENCE = re.compile(r"^---[ \t]*\r?$")
FRONT_MATTER_END = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$")
FRONT_MATTER_FIELD = re.compile(r"^(?P<key>[A-Za-z_-]+):[ \t]*(?P<value>.*?)[ \t]*\r?$")
MD_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
MD_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+")
MD_SETEXT = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*\r?$")
MD_BULLET = re.compile(r"^ {0,3}(?:[-*+]|\d{1,3}[.)])[ \t]+")
MD_TABLE_ROW = re.compile(r"^ {0,3}\|")
MD_TABLE_RULE = re.compile(r"^ {0,3}\|?[\s:|-]+\|[\s:|-]*$")
MD_LINK = re.compile(r"!?\[([^\[\]]*)\]\(\s*<?([^()\s<>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
MD_EMPHASIS = re.compile(r"(?<!\w)[*_]{1,3}|[*_]{1,3}(?!\w)|`")
TABLE_PEOPLE_COLUMNS = {"speaker": "speaker", "speakers": "speaker", "presenter": "speaker",
                        "presenters": "speaker", "panelist": "panelist",
                        "panelists": "panelist"}  # fmt: skip
TABLE_SESSION_COLUMNS = frozenset({"session", "sessions", "talk", "talks", "title", "topic"})


@dataclass(frozen=True)
class _Block:
    locator: str  # e.g. "post 1, paragraph 3"
    text: str  # the quotable text: collapsed element text (HTML) or source slice (Markdown)
    date: str | None  # the post date in force for this block
    markdown: bool = False


@dataclass(frozen=True)
class _Row:
    locator: str
    quote: str
    people: str  # the people cell's text
    predicate: str
    session: str | None
    date: str | None


@dataclass
class _Document:
    title: str | None = None
    title_locator: str = "title"
    date: str | None = None
    blocks: list[_Block] = field(default_factory=list)
    rows: list[_Row] = field(default_factory=list)


@dataclass(frozen=True)
class _Sentence:
    quote: str  # verbatim
    display: str  # collapsed, markup removed
    links: tuple[tuple[str, str], ...]
    locator: str
    date: str | None  # the post date


# ============================================================================================
# public interface


def matches(url: str, snapshot: Snapshot | None) -> bool:
    """Blog, Discourse topic and GitHub announcement URLs; with a snapshot, post-like content."""
    if snapshot is None:
        return not NOT_ANNOUNCEMENTS.search(url) and any(p.match(url) for p in URL_PATTERNS)
    try:
        document = _parse(snapshot)
    except ExtractionError:
        return False
    return document.date is not None and (document.title is not None or bool(document.blocks))


def extract(snapshot: Snapshot) -> list[Claim]:
    """Role and event claims of every sentence (and agenda table row), in document order."""
    document = _parse(snapshot)
    claims: list[Claim] = []
    seen: set[str] = set()
    for claim in _all_claims(document, snapshot):
        key = json.dumps(
            [claim.subject.name, claim.predicate, claim.object, claim.qualifiers], sort_keys=True
        )
        if key not in seen:
            seen.add(key)
            claims.append(claim)
    return claims


def _all_claims(document: _Document, snapshot: Snapshot) -> Iterator[Claim]:
    context = _Context(document, snapshot)
    blocks = list(document.blocks)
    if document.title:  # last: a body sentence carries the links a title lacks
        blocks.append(_Block(document.title_locator, document.title, document.date))
    for block in blocks:
        for sentence in _sentences(block):
            yield from _sentence_claims(sentence, context)
    for row in document.rows:
        yield from _row_claims(row, context)


# ============================================================================================
# format dispatch


def _parse(snapshot: Snapshot) -> _Document:
    text = snapshot.body.decode("utf-8", errors="replace").lstrip("\ufeff")
    fmt = sniff_format(snapshot.body, snapshot.content_type, snapshot.url)
    if fmt == "json" or text.lstrip().startswith("{"):
        return _discourse_json(text, snapshot.url)
    if fmt == "html":
        return _html(text)
    front_matter = FRONT_MATTER_FENCE.match(text.split("\n", 1)[0])  # sniffs as reST ("---")
    if fmt in ("markdown", "text") or front_matter:
        return _markdown(text, snapshot.url)
    raise UnsupportedFormatError(
        snapshot.url, f"{fmt} is not a format {NAME} reads (HTML, Markdown, Discourse JSON)"
    )


def _discourse_json(text: str, url: str) -> _Document:
    try:
        data = json.loads(text)
    except ValueError as err:
        raise ExtractionError(url, f"malformed JSON: {err}") from None
    if not isinstance(data, dict) or not isinstance(data.get("post_stream"), dict):
        raise UnsupportedFormatError(url, "JSON without a Discourse 'post_stream' object")
    topic_date = _iso_date(data.get("created_at"))
    title = data.get("title") if isinstance(data.get("title"), str) else None
    document = _Document(title=_collapse(title) if title else None, date=topic_date)
    posts = data["post_stream"].get("posts")
    for index, post in enumerate(posts if isinstance(posts, list) else [], start=1):
        if not isinstance(post, dict) or not isinstance(post.get("cooked"), str):
            continue
        number = post.get("post_number") if isinstance(post.get("post_number"), int) else index
        post_date = _iso_date(post.get("created_at")) or topic_date
        root = parse_html(post["cooked"]).body
        if root is not None:
            document.blocks.extend(_html_blocks(root, f"post {number}, ", post_date))
    return document


def _html(text: str) -> _Document:
    tree = parse_html(text)
    for node in tree.css(", ".join(DROPPED_TAGS)):
        node.decompose()
    document = _Document(title=_html_title(tree), date=_html_date(tree))
    posts = tree.css(DISCOURSE_POSTS)
    if posts:
        for number, post in enumerate(posts, start=1):
            document.blocks.extend(_html_blocks(post, f"post {number}, ", document.date))
        return document
    root = _content_root(tree)
    if root is not None:
        document.blocks.extend(_html_blocks(root, "", document.date))
    return document


def _html_title(tree: LexborHTMLParser) -> str | None:
    for selector in TITLE_SELECTORS:
        node = tree.css_first(selector)
        if node is None:
            continue
        if node.tag == "meta":
            text = _collapse(node.attributes.get("content") or "")
        else:
            text = _collapse(node.text(deep=True, separator=""))
            if node.tag == "title":
                text = TITLE_SUFFIX.sub("", text)
        if text:
            return text
    return None


def _html_date(tree: LexborHTMLParser) -> str | None:
    for selector in PUBLISHED_META:
        node = tree.css_first(selector)
        if node is not None:
            found = _iso_date(node.attributes.get("content"))
            if found:
                return found
    root = _content_root(tree)
    node = root.css_first(TIME_DATETIME) if root is not None else None
    return _iso_date(node.attributes.get("datetime")) if node is not None else None


def _content_root(tree: LexborHTMLParser) -> LexborNode | None:
    return content_root(tree, CONTENT_ROOTS)


def _html_blocks(root: LexborNode, prefix: str, post_date: str | None) -> Iterator[_Block]:
    counts: dict[str, int] = {}
    nodes = root.css(BLOCK_SELECTOR)
    holders = _holding_blocks(nodes)
    skipped: dict[int, bool] = {root.mem_id: False}
    for node in nodes:
        if node.mem_id in holders or _in_skipped(node, skipped):  # not a leaf block
            continue
        kind = BLOCK_TAGS[node.tag or "p"]
        counts[kind] = counts.get(kind, 0) + 1
        text = _collapse(node.text(deep=True, separator=""))
        if not text:
            continue
        links = tuple(
            (_collapse(a.text(deep=True, separator="")), a.attributes.get("href") or "")
            for a in node.css("a[href]")
        )
        yield _HtmlBlock(f"{prefix}{kind} {counts[kind]}", text, post_date, links=links)


@dataclass(frozen=True)
class _HtmlBlock(_Block):
    links: tuple[tuple[str, str], ...] = ()


def _holding_blocks(nodes: list[LexborNode]) -> set[int]:
    """The nodes (their mem_id) that hold a block: one walk up from each block, stopping where
    an earlier walk went (each node is passed once; a query per block was quadratic)."""
    held: set[int] = set()
    for node in nodes:
        current = node.parent
        while current is not None and current.mem_id not in held:
            held.add(current.mem_id)
            current = current.parent
    return held


def _in_skipped(node: LexborNode, known: dict[int, bool]) -> bool:
    """Whether the node, or an ancestor below the root, is a skipped subtree (nav, footer...).
    `known`: the answer for nodes already seen (the root's: False), so that each node is looked
    at once (compared by mem_id: a LexborNode compares equal by its whole HTML)."""
    path: list[LexborNode] = []
    current: LexborNode | None = node
    while current is not None and current.mem_id not in known:
        path.append(current)
        current = current.parent
    found = known[current.mem_id] if current is not None else False
    for step in reversed(path):
        found = found or (step.tag or "").lower() in SKIPPED_SUBTREES
        known[step.mem_id] = found
    return found


def _markdown(text: str, url: str) -> _Document:
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    document = _Document()
    start = 0
    if lines and FRONT_MATTER_FENCE.match(lines[0]):
        for index in range(1, len(lines)):
            if FRONT_MATTER_END.match(lines[index]):
                start = index + 1
                break
            fm = FRONT_MATTER_FIELD.match(lines[index])
            if fm is None:
                continue
            key, value = fm.group("key").lower(), _unquote(fm.group("value"))
            if key == "title" and value:
                document.title, document.title_locator = value, f"front matter > line {index + 1}"
            elif key == "date":
                document.date = _iso_date(value)
    if document.date is None:
        url_date = URL_DATE.search(url)
        if url_date:
            year, month, day = (int(part) for part in url_date.groups())
            document.date = _safe_date(year, month, day)
    _markdown_blocks(lines, offsets, start, text, document)
    return document


def _markdown_blocks(
    lines: list[str], offsets: list[int], start: int, text: str, document: _Document
) -> None:
    fence: str | None = None
    block: tuple[int, int, int] | None = None  # (first line index, start offset, end offset)
    table: list[int] = []  # line indexes of the current table
    agenda_date: str | None = None

    def flush() -> None:
        nonlocal block, agenda_date
        if block is not None:
            first, begin, end = block
            piece = text[begin:end].strip()
            if piece:
                found = _standalone_date(piece)
                if found:
                    agenda_date = found
                document.blocks.append(_Block(f"line {first + 1}", piece, document.date, True))
        block = None

    def flush_table() -> None:
        nonlocal table
        if table:
            document.rows.extend(_table_rows(lines, table, agenda_date or document.date))
        table = []

    for index in range(start, len(lines)):
        line = lines[index]
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        if MD_FENCE.match(line):
            flush()
            flush_table()
            fence = MD_FENCE.match(line).group(1)  # type: ignore[union-attr]
            continue
        if MD_TABLE_ROW.match(line):
            flush()
            table.append(index)
            continue
        flush_table()
        if not line.strip():
            flush()
            continue
        if MD_SETEXT.match(line) and block is not None:
            first, begin, _ = block
            heading = text[begin : offsets[index]].strip()
            if document.title is None and line.strip().startswith("="):
                document.title, document.title_locator = heading, f"line {first + 1}"
                block = None
            else:
                flush()
            continue
        atx = MD_ATX.match(line)
        bullet = MD_BULLET.match(line)
        if atx or bullet:
            flush()
            marker_end = (atx or bullet).end()  # type: ignore[union-attr]
            begin = offsets[index] + marker_end
            if atx and document.title is None and line.lstrip().startswith("# "):
                document.title = text[begin : offsets[index + 1]].strip().rstrip("#").strip()
                document.title_locator = f"line {index + 1}"
                continue
            block = (index, begin, offsets[index + 1])
            if atx:
                flush()
            continue
        if block is None:
            block = (index, offsets[index], offsets[index + 1])
        else:
            block = (block[0], block[1], offsets[index + 1])
    flush()
    flush_table()


def _table_rows(lines: list[str], indexes: list[int], when: str | None) -> Iterator[_Row]:
    header = _cells(lines[indexes[0]])
    people_col = next(
        (i for i, cell in enumerate(header) if cell.casefold() in TABLE_PEOPLE_COLUMNS), None
    )
    if people_col is None:
        return
    predicate = TABLE_PEOPLE_COLUMNS[header[people_col].casefold()]
    session_col = next(
        (i for i, cell in enumerate(header) if cell.casefold() in TABLE_SESSION_COLUMNS), None
    )
    for index in indexes[1:]:
        if MD_TABLE_RULE.match(lines[index].rstrip("\r\n")):
            continue
        cells = _cells(lines[index])
        if people_col >= len(cells) or not cells[people_col]:
            continue
        session = (
            cells[session_col] if session_col is not None and session_col < len(cells) else None
        )
        yield _Row(
            f"line {index + 1}, table column '{header[people_col]}'",
            lines[index].strip(),
            cells[people_col],
            predicate,
            _md_display(session)[0] if session else None,
            when,
        )


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [cell.strip() for cell in inner.split("|")]


# ============================================================================================
# sentences -> claims


class _Context:
    """What a sentence may fall back on: the document's title, date, event and project."""

    def __init__(self, document: _Document, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.document = document
        title = document.title or ""
        self.title_event = _event_in(_mask(title)[0]) or (title or None)
        self.title_project = _project_in(title)
        everything = " ".join(block.text for block in document.blocks)
        self.document_project = _project_in(everything)
        self.title_level = _level_in(title)

    def claim(
        self, name: str, github: str | None, predicate: str, obj: str, qualifiers: dict[str, Any],
        sentence_locator: str, quote: str,
    ) -> Claim:  # fmt: skip
        return Claim(
            subject=Subject(name=name, github=github),
            predicate=predicate,
            object=obj,
            qualifiers=qualifiers,
            evidence=Evidence(
                url=self.snapshot.url,
                sha256=self.snapshot.sha256,
                locator=sentence_locator,
                quote=quote,
            ),
            extractor=TAG,
        )


def _sentences(block: _Block) -> Iterator[_Sentence]:
    links_of_block = block.links if isinstance(block, _HtmlBlock) else ()
    for number, quote in enumerate(_split_sentences(block.text), start=1):
        if block.markdown:
            display, links = _md_display(quote)
        else:
            display, links = (
                quote,
                tuple((label, href) for label, href in links_of_block if label and label in quote),
            )
        yield _Sentence(quote, display, links, f"{block.locator}, sentence {number}", block.date)


def _split_sentences(text: str) -> list[str]:
    pieces: list[str] = []
    begin = 0
    for match in SENTENCE_END.finditer(text):
        before = text[begin : match.start()].rsplit(None, 1)
        last = before[-1].casefold().rstrip(".") if before else ""
        if last in ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
            continue
        following = text[match.end() : match.end() + 1]
        if following.islower():
            continue
        pieces.append(text[begin : match.end()].strip())
        begin = match.end()
    pieces.append(text[begin:].strip())
    return [piece for piece in pieces if piece]


def _sentence_claims(sentence: _Sentence, context: _Context) -> Iterator[Claim]:
    masked, names, quotes = _mask(sentence.display)
    if not names:
        return
    stated = _sentence_date(sentence.display)
    when = stated or sentence.date

    def make(index: int, predicate: str, obj: str, qualifiers: dict[str, Any]) -> Claim:
        name = names[index]
        return context.claim(
            name, _github(name, sentence.links), predicate, obj,
            {k: v for k, v in qualifiers.items() if v is not None},
            sentence.locator, sentence.quote,
        )  # fmt: skip

    project = _project_in(sentence.display) or context.title_project or context.document_project
    for pattern in SUCCESSION_PATTERNS:
        for match in pattern.finditer(masked):
            level = _level(match.group("level"))
            if project is None:
                continue
            new, old = _indexes(match.group("new")), _indexes(match.group("old"))
            for index in new:
                yield make(index, "maintainer", project, _joined(level, None, when))
            for index in old:
                yield make(index, "maintainer", project, _left(level, None, when))
    for pattern in JOIN_PATTERNS:
        for match in pattern.finditer(masked):
            level = _level(match.group("level"))
            scope = _scope(match, level)
            if project is None:
                continue
            for index in _indexes(match.group("people")):
                yield make(index, "maintainer", project, _joined(level, scope, when))
    for pattern in LEFT_PATTERNS:
        for match in pattern.finditer(masked):
            level = _level(match.group("level"))
            if project is None:
                continue
            for index in _indexes(match.group("people")):
                yield make(index, "maintainer", project, _left(level, _scope(match, level), when))
    for pattern in EMERITUS_PATTERNS:
        for match in pattern.finditer(masked):
            emeritus_level = _level_in(sentence.display) or context.title_level
            if project is None or emeritus_level is None:
                continue
            for index in _indexes(match.group("people")):
                qualifiers = {"level": emeritus_level, "status": "emeritus", "since": when,
                              "event": "emeritus"}  # fmt: skip
                yield make(index, "maintainer", project, qualifiers)
    event = _event_in(masked) or context.title_event
    if event is None:
        return
    for predicate, pattern in EVENT_PATTERNS:
        for match in pattern.finditer(masked):
            quoted = _quoted(match, masked, quotes)
            event_qualifiers: dict[str, Any] = {"date": when}
            if predicate in TITLED_PREDICATES:
                event_qualifiers["title"] = quoted
            elif predicate in SESSION_PREDICATES:
                event_qualifiers["session"] = quoted
            for index in _indexes(match.group("people")):
                yield make(index, predicate, event, event_qualifiers)


def _row_claims(row: _Row, context: _Context) -> Iterator[Claim]:
    event = context.document.title
    if event is None:
        return
    masked, names, _ = _mask(_md_display(row.people)[0])
    if not names:
        return
    for index in range(len(names)):
        qualifiers = {"date": row.date, "session": row.session}
        yield context.claim(
            names[index], None, row.predicate, event,
            {k: v for k, v in qualifiers.items() if v is not None}, row.locator, row.quote,
        )  # fmt: skip


def _joined(level: str, scope: str | None, when: str | None) -> dict[str, Any]:
    return {"level": level, "scope": scope, "status": "current", "since": when, "event": "joined"}


def _left(level: str, scope: str | None, when: str | None) -> dict[str, Any]:
    return {"level": level, "scope": scope, "status": "former", "until": when, "event": "left"}


def _level(text: str) -> str:
    return LEVELS[" ".join(text.casefold().split())]


def _level_in(text: str) -> str | None:
    match = re.search(rf"\b{LEVEL}\s+(?i:maintainers?)\b", text)
    return _level(match.group("level")) if match else None


def _scope(match: re.Match[str], level: str) -> str | None:
    if level not in ("module", "library") or "scope" not in match.re.groupindex:
        return None
    return match.group("scope")


def _indexes(people: str) -> list[int]:
    return [int(n) for n in re.findall(rf"{PERSON_MARK}(\d+){PERSON_END}", people)]


def _quoted(match: re.Match[str], masked: str, quotes: list[str]) -> str | None:
    marker = match.groupdict().get("quote") or ""
    found = re.search(rf"{QUOTE_MARK}(\d+){QUOTE_END}", marker or masked)
    return quotes[int(found.group(1))] if found else None


def _project_in(text: str) -> str | None:
    for project in PROJECTS:
        if re.search(rf"(?<![\w/.]){re.escape(project)}(?![\w/])", text):
            return project
    return None


def _event_in(masked: str) -> str | None:
    for match in EVENT_RUN.finditer(masked):
        tokens = match.group(0).rstrip(".").split(" ")
        while tokens and tokens[0].casefold() in EVENT_LEADING:
            tokens.pop(0)
        folded = [token.casefold().strip(".,") for token in tokens]
        if not any(any(ch.isalpha() for ch in t) and t not in MONTHS for t in folded):
            continue
        if any(t in MONTHS for t in folded):
            continue
        has_event_word = len(tokens) > 1 and any(t in EVENT_WORDS for t in folded)
        if has_event_word or any(YEAR.search(t) for t in folded):
            return " ".join(tokens)
    return None


def _github(name: str, links: tuple[tuple[str, str], ...]) -> str | None:
    for label, href in links:
        match = GITHUB_USER.match(href)
        if match and name in _collapse(label):
            return match.group(1).lower()
    return None


# ============================================================================================
# names


def _mask(display: str) -> tuple[str, list[str], list[str]]:
    """The sentence with quoted spans and person names replaced by numbered placeholders."""
    quotes: list[str] = []

    def quote_mark(match: re.Match[str]) -> str:
        quotes.append(match.group(1) or match.group(2))
        return f"{QUOTE_MARK}{len(quotes) - 1}{QUOTE_END}"

    masked = QUOTED.sub(quote_mark, display)
    names: list[str] = []
    out: list[str] = []
    position = 0
    for begin, end in _name_spans(masked):
        out.append(masked[position:begin])
        names.append(masked[begin:end])
        out.append(f"{PERSON_MARK}{len(names) - 1}{PERSON_END}")
        position = end
    out.append(masked[position:])
    return "".join(out), names, quotes


def _name_spans(text: str) -> list[tuple[int, int]]:
    tokens = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"[^\s,;:()\[\]!?\"“”]+", text)]
    spans: list[tuple[int, int]] = []
    run: list[tuple[int, int, str]] = []

    def close() -> None:
        while run and run[-1][2] in PARTICLES:
            run.pop()
        capitals = [t for t in run if t[2] not in PARTICLES]
        if 2 <= len(run) <= MAX_NAME_TOKENS and len(capitals) <= MAX_CAPITALISED:
            spans.append((run[0][0], run[-1][1]))
        run.clear()

    for start, _end, token in tokens:
        word = token.rstrip(".")
        word = token if re.fullmatch(r"[A-Z][a-z]?\.", token) else word
        contiguous = not run or text[run[-1][1] : start] == " "
        ends_sentence = token.endswith(".") and word != token
        if not contiguous:
            close()
        if _is_name_token(word):
            run.append((start, start + len(word), word))
            if ends_sentence:
                close()
        elif run and word in PARTICLES:
            run.append((start, start + len(word), word))
        else:
            close()
    close()
    return spans


def _is_name_token(word: str) -> bool:
    if word.casefold() in NOT_NAME_WORDS or len(word) < 2:
        return False
    if not word[0].isupper() or any(ch.isdigit() for ch in word):
        return False
    if NAME_TOKEN.match(word):
        return True
    return bool(NAME_TOKEN_UNICODE.match(word)) and word[1:].replace("-", "").islower()


# ============================================================================================
# dates and text helpers


def _sentence_date(text: str) -> str | None:
    for pattern in SENTENCE_DATES:
        match = pattern.search(text)
        if match is None:
            continue
        if "month" not in pattern.groupindex:
            return _safe_date(*(int(part) for part in match.groups()))
        try:
            parsed = dateparser.parse(
                f"{match.group('month').rstrip('.')} {match.group('day')} {match.group('year')}",
                default=DEFAULT_DAY,
            )
        except (ValueError, OverflowError):
            continue
        return parsed.date().isoformat()
    return None


def _standalone_date(piece: str) -> str | None:
    """The date of a short line that is only a date ("April 27th, 2024 (Saturday)")."""
    if len(piece) > 60 or "\n" in piece.strip() or not DATE_LINE.match(piece):
        return None
    return _sentence_date(piece)


def _iso_date(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip().strip("'\"")
    iso = re.match(r"((?:19|20)\d\d)-(\d{1,2})-(\d{1,2})", text)
    if iso:
        return _safe_date(*(int(part) for part in iso.groups()))
    return _sentence_date(text)


def _safe_date(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _md_display(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    links = tuple((_collapse(m.group(1)), m.group(2)) for m in MD_LINK.finditer(text))
    display = MD_LINK.sub(lambda m: m.group(1), text)
    return _collapse(MD_EMPHASIS.sub("", display)), links


def _collapse(text: str) -> str:
    return " ".join(text.split())
