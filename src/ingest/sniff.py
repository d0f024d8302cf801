"""Guess a document's format from its bytes (and, as a hint only, its content type and URL)."""

from __future__ import annotations

import re
from typing import Literal
from urllib.parse import urlsplit

Format = Literal["html", "markdown", "rst", "pdf", "atom", "json", "text"]

_HTML_START = re.compile(
    rb"^\s*(<!doctype html|<html|<head|<body|<meta|<article|<div|<section)", re.IGNORECASE
)
_HTML_ANY = re.compile(rb"<(html|body|article|div|h[1-6]|ul|li|p|meta|title)[\s>]", re.IGNORECASE)
_ATOM = re.compile(rb"^\s*(<\?xml[^>]*>\s*)?(<!--.*?-->\s*)*<(feed|rss|rdf:RDF)[\s>]", re.DOTALL)
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$", re.MULTILINE)
_MD_HEADING = re.compile(r"^#{1,6} \S", re.MULTILINE)
_FRONT_MATTER = re.compile(
    r"\A\ufeff?(?:---[ \t]*\n.*?\n(?:---|\.\.\.)|\+\+\+[ \t]*\n.*?\n\+\+\+)[ \t]*(?:\n|\Z)",
    re.DOTALL,
)  # YAML (---) or TOML (+++, Hugo) front matter
_MD_LINK = re.compile(r"\[[^\]]+\]\([^)]+\)")
# a pipe table's delimiter row ("|------|:---:|", with or without its outer pipes) and a
# reference link's definition ("[jroe]: https://github.com/jroe"): Markdown, whatever its
# title is underlined with (a setext "Maintainers\n====" reads as a reST title too)
_MD_TABLE_RULE = re.compile(r"^\|?[ \t]*:?-{3,}:?[ \t]*\|[ \t]*:?-{3,}", re.MULTILINE)
_MD_LINK_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*\S+[ \t]*$", re.MULTILINE)
_RST_LINK = re.compile(r"`[^`<]+<[^>]+>`__?")
_RST_DIRECTIVE = re.compile(r"^\.\. [\w-]+::|^\.\. _[^:]+:", re.MULTILINE)
MARKDOWN_NAMES = (".md", ".markdown", ".mdx")


def sniff_format(body: bytes, content_type: str = "", url: str = "") -> Format:
    """The format of a document, judged by its content first."""
    head = body[:4096]
    if head.lstrip().startswith(b"%PDF-"):
        return "pdf"
    if _ATOM.match(head):
        return "atom"
    if _HTML_START.match(head):
        return "html"
    stripped = head.lstrip()
    if stripped[:1] in (b"{", b"[") and "json" in content_type:
        return "json"
    text = _FRONT_MATTER.sub("", body[:65536].decode("utf-8", errors="replace"), count=1)
    md_score = len(_MD_HEADING.findall(text)) + len(_MD_LINK.findall(text))
    md_score += len(_MD_TABLE_RULE.findall(text)) + len(_MD_LINK_DEF.findall(text))
    rst_only = len(_RST_LINK.findall(text)) + len(_RST_DIRECTIVE.findall(text))
    rst_score = len(_RST_UNDERLINE.findall(text)) + rst_only
    # underlined titles are Markdown's setext headings too: a file named as Markdown is read as
    # one unless it holds what only reST has (its links, directives, link targets)
    named_md = urlsplit(url).path.lower().endswith(MARKDOWN_NAMES)
    if rst_score and rst_score >= md_score and (rst_only or not named_md):
        return "rst"
    if md_score:
        return "markdown"
    if _HTML_ANY.search(head):
        return "html"
    if "html" in content_type:
        return "html"
    if url.endswith(MARKDOWN_NAMES):
        return "markdown"
    if url.endswith(".rst"):
        return "rst"
    if _FRONT_MATTER.match(body[:65536].decode("utf-8", errors="replace")):
        return "markdown"  # a page that is all front matter (a person's card)
    return "text"


# Data files known by their upper-case name (and an optional .txt): Kubernetes OWNERS (YAML),
# GitHub CODEOWNERS and kernel-style MAINTAINERS (read line by line).
DATA_NAMES = {
    "owners": "owners",
    "owners_aliases": "owners",
    "codeowners": "codeowners",
    "maintainers": "maintainers",
}


def data_file_kind(url: str, body: bytes) -> str | None:
    """The kind of a data file named so (OWNERS, MAINTAINERS.txt): "owners", "codeowners" or
    "maintainers", when its body is not a web page; None otherwise."""
    printed = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
    stem, _, extension = printed.partition(".")
    if not (stem.isupper() and extension in ("", "txt")):
        return None
    kind = DATA_NAMES.get(stem.lower())
    return kind if kind and body.lstrip()[:1] != b"<" else None


# Data written as code: a JavaScript / TypeScript module exporting a literal, a CUE file. Known by
# the extension or, for JavaScript, by its opening (comments and "use strict" aside); the reader
# (extractors.document.jsdata) decides whether it holds data at all.
JS_EXTENSIONS = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")
_JS_DATA_START = re.compile(
    rb"\A\s*(?:(?://[^\n]*\n|/\*.*?\*/)\s*){0,40}(?:([\'\"])use strict\1\s*;?\s*)?"
    rb"(?:module\.exports\s*=|exports\.default\s*=|export\s+default\s|"
    rb"(?:export\s+)?(?:const|let|var)\s+[A-Za-z_$][\w$]*(?:\s*:\s*[\w.<>\[\]| ]+)?\s*=)\s*[\[{]",
    re.DOTALL,
)


_PHP_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*<\?php\b")


def code_data_kind(url: str, body: bytes) -> str | None:
    """ "jsdata" (a JavaScript / TypeScript data module), "cue" (a CUE file), "php" (a PHP file
    that may return an array literal) or None."""
    path = urlsplit(url).path.lower()
    if path.endswith(".cue"):
        return "cue"
    if _PHP_START.match(body[:64]):
        return "php"
    if path.endswith(JS_EXTENSIONS) or _JS_DATA_START.match(body[:4096]):
        return "jsdata" if _JS_DATA_START.match(body[:65536]) else None
    return None
