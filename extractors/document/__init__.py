"""Documents: a page of any format read into one model (`model`), one reader per format.

    model      the blocks (Heading, Item, Row, Para, Code, Term, Record) and text helpers;
               it knows no reader
    html       HTML (selectolax)           markdown   Markdown (markdown-it-py), AsciiDoc titles
    rst        reStructuredText (docutils) data       YAML, TOML, OWNERS, CODEOWNERS, MAINTAINERS
    jsdata     JavaScript / TypeScript modules exporting a literal (json5), CUE data files: their
               tree read as JSON's
    phpdata    PHP files returning an array literal: their tree read as JSON's
    delimited  CSV and TSV files (one table, the first record its header)
    tree       any JSON; TOML people tables and YAML nested teams (a generic walk of the tree)
    feed       Atom and RSS entries (their HTML or Markdown bodies through the readers above)
    mail       `.eml` messages and mbox archives (stdlib `email`: headers decoded, the people of
               From / To / Cc with their display names; the body through the readers above)

This module is the dispatch: `format_of(snapshot)` says which reader, `parse(snapshot)` reads it
(the readers are imported when first needed). May import: `ingest` (models, errors, sniff) and
its own modules; nothing else of `extractors` (tests/test_layers.py).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from extractors.document.model import Document, decode, utf8_of
from ingest.errors import ExtractionError, UnsupportedFormatError
from ingest.models import Snapshot
from ingest.sniff import code_data_kind, data_file_kind, sniff_format


def file_name(url: str) -> str:
    path = urlsplit(url).path
    return path.rstrip("/").rsplit("/", 1)[-1].lower()


TOML_SNIFF_MAX_BYTES = 1 << 20  # a kernel-size MAINTAINERS (~800 kB) is never TOML-parsed


def format_of(snapshot: Snapshot) -> str:
    """The format to read: data files by their name (OWNERS, .toml, ...) or shape, else sniffed."""
    kind = data_file_kind(snapshot.url, snapshot.body)  # OWNERS, MAINTAINERS (not a web page)
    if kind == "maintainers" and len(snapshot.body) <= TOML_SNIFF_MAX_BYTES:
        from extractors.document import data as _doc_data

        # Docker's MAINTAINERS convention is a TOML file (`[Org."Core maintainers"]`,
        # `[people.login]`), not the kernel's `M:` lines: read by what it holds
        if _doc_data.sniff(decode(snapshot.body)) == "toml":
            return "toml"
    if kind:
        return kind
    name = file_name(snapshot.url)
    from extractors.document import mail as _doc_mail

    if _doc_mail.is_mail(snapshot.body):
        return "mail"
    if name.endswith((".yaml", ".yml")):
        return "yaml"
    if name.endswith(".toml"):
        return "toml"
    if name.endswith(".json"):
        return "json"
    if code := code_data_kind(snapshot.url, snapshot.body):
        try:  # a module that is code, not data, is read as before (as text)
            _load_code(code, decode(snapshot.body))
        except ValueError:  # jsdata.Malformed, phpdata.Malformed
            pass
        else:
            return code
    if name.endswith((".csv", ".tsv")) or "text/csv" in snapshot.content_type:
        return "tsv" if name.endswith(".tsv") else "csv"
    fmt = sniff_format(snapshot.body, snapshot.content_type, snapshot.url)
    if fmt == "text" and snapshot.body.lstrip()[:1] in (b"{", b"["):
        from extractors.document import tree as _doc_tree

        try:
            _doc_tree.load_json(decode(snapshot.body))
        except _doc_tree.Malformed:
            pass
        else:
            return "json"
    if fmt == "text":
        from extractors.document import data as _doc_data

        return _doc_data.sniff(decode(snapshot.body)) or fmt
    return fmt


def _load_code(code: str, text: str) -> object:
    """The data tree of a data file written as code ("jsdata", "cue" or "php")."""
    if code == "php":
        from extractors.document import phpdata as _doc_phpdata

        return _doc_phpdata.load_php(text)
    from extractors.document import jsdata as _doc_jsdata

    return (_doc_jsdata.load_cue if code == "cue" else _doc_jsdata.load_js)(text)


_RECENT: dict[tuple[str, str, str, bool], Document] = {}  # the last document parsed
RECENT_MAX_BYTES = 8 << 20  # larger bodies are parsed each time they are asked for


def parse(snapshot: Snapshot, fmt: str | None = None, *, lists_only: bool = False) -> Document:
    """The snapshot as a Document; UnsupportedFormatError for PDF, feeds and Discourse JSON.

    Choosing an extractor and running it both read the document: the last one parsed is kept
    (documents are not changed by their readers), so a page is parsed once for both.

    `lists_only`: only headings and list items are wanted (the PyTorch page's reader); an HTML
    page is then walked for those alone (and its title: no header fields are read)."""
    fmt = fmt or format_of(snapshot)
    lists_only = lists_only and fmt == "html"
    key = (snapshot.sha256, snapshot.url, fmt, lists_only)
    if key in _RECENT:
        return _RECENT[key]
    document = _parse(snapshot, fmt, lists_only)
    _RECENT.clear()
    if len(snapshot.body) <= RECENT_MAX_BYTES:
        _RECENT[key] = document
    return document


def _parse(snapshot: Snapshot, fmt: str, lists_only: bool) -> Document:
    if fmt == "mail":
        from extractors.document import mail as _doc_mail

        return _doc_mail.document(snapshot.body)
    text = decode(snapshot.body)
    if fmt == "html":
        from extractors.document import html as _doc_html

        encoded = utf8_of(snapshot.body, text)  # the body parsed as it is, not `text` encoded
        return _doc_html.document(text, snapshot.url, lists_only=lists_only, encoded=encoded)
    if fmt in ("markdown", "text"):
        from extractors.document import asciidoc as _doc_asciidoc
        from extractors.document import markdown as _doc_markdown

        if file_name(snapshot.url).endswith((".adoc", ".asciidoc")) or (
            fmt == "text" and _doc_asciidoc.looks_like_asciidoc(text)
        ):  # AsciiDoc: its titles and tables read, the rest as Markdown
            return _doc_asciidoc.document(text)
        return _doc_markdown.document(text)
    if fmt == "rst":
        from extractors.document import rst as _doc_rst

        return _doc_rst.document(text)
    if fmt in ("yaml", "toml", "owners", "codeowners", "maintainers"):
        from extractors.document import data as _doc_data

        try:
            return _doc_data.document(text, fmt)
        except _doc_data.Malformed as exc:
            raise ExtractionError(snapshot.url, str(exc)) from None
    if fmt in ("csv", "tsv"):
        from extractors.document import delimited as _doc_delimited

        try:
            return _doc_delimited.document(text, "\t" if fmt == "tsv" else ",")
        except _doc_delimited.Malformed as exc:
            raise ExtractionError(snapshot.url, str(exc)) from None
    if fmt in ("jsdata", "cue", "php"):
        from extractors.document import tree as _doc_tree

        try:
            data = _load_code(fmt, text)
        except ValueError as exc:  # jsdata.Malformed, phpdata.Malformed
            raise ExtractionError(snapshot.url, str(exc)) from None
        return _doc_tree.document(text, data, fmt)
    if fmt == "json":
        from extractors.document import tree as _doc_tree

        try:
            data = _doc_tree.load_json(text)
        except _doc_tree.Malformed as exc:
            raise ExtractionError(snapshot.url, str(exc)) from None
        if _doc_tree.is_discourse(data):  # a Discourse topic is a post (the announcement reader)
            raise UnsupportedFormatError(snapshot.url, "a Discourse topic is a post, not a page")
        return _doc_tree.document(text, data)
    raise UnsupportedFormatError(snapshot.url, f"{fmt} is not a page format (it has no blocks)")
