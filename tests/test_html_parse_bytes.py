"""An HTML body that is its decoded text as UTF-8 is parsed as it is (`parse_html(text,
encoded)`), not encoded again: the tree is the one the text gives, on every HTML fixture; a body
with a byte-order mark or an invalid byte is never reused (its text is not those bytes)."""

from __future__ import annotations

from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from extractors.document.model import decode, utf8_of
from ingest.documents import parse_html

ROOT = Path(__file__).resolve().parent.parent


def test_the_tree_of_the_body_is_the_tree_of_its_text() -> None:
    reused = 0
    for path in sorted((ROOT / "fixtures").rglob("*.html")):
        body = path.read_bytes()
        text = decode(body)
        encoded = utf8_of(body, text)
        if encoded is not None:
            reused += 1
            assert encoded == text.encode("utf-8"), path.name
        assert parse_html(text, encoded).html == parse_html(text).html, path.name
    assert reused >= 20


def test_a_body_that_is_not_its_text_in_utf8_is_not_reused() -> None:
    for body in (
        b"\xef\xbb\xbf<p>x</p>",  # a byte-order mark (the text has it stripped)
        b"<p>caf\xe9</p>",  # Latin-1: U+FFFD in the text
        b"<p>\xed\xa0\x80</p>",  # an encoded surrogate: invalid UTF-8
        "<p>\ufffd</p>".encode(),  # U+FFFD itself: not told apart, so not reused
    ):
        assert utf8_of(body, decode(body)) is None, body
    assert utf8_of("<p>café</p>".encode(), "<p>café</p>") is not None


def test_text_the_bound_changed_is_parsed_as_changed() -> None:
    text = "<html><body>" + "<div>x" * 600  # nested deeper than the bound: end tags written
    tree = parse_html(text, text.encode())
    assert tree.html == parse_html(text).html
    assert tree.html != LexborHTMLParser(text.encode()).html  # not the bytes given
