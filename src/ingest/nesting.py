"""How deep a text nests, measured before a parser recurses into it.

    check_json_nesting(text, limit=MAX_NESTING)          NestingError past `limit`
    data_nesting(text, kind) -> int                      JSON, YAML or TOML: brackets and indents
    unclosed_brackets(text) -> int                       Markdown: `[` never closed in a block

Parsers of JSON, YAML and TOML recurse once per level: 100,000 `[` end in a RecursionError after
seconds. Here strings are blanked out with one regular expression, every other character but
brackets is dropped (one more expression, in C), and the depth is a running sum over what is left:
a few milliseconds for a normal file, well under a second for 512 kB of brackets. YAML's block
nesting (indentation) is measured too: the count of deeper indents open at once.
Markdown's link parser looks for the `]` of every `[` to the end of its block: a block of
unclosed `[` costs time quadratic in its length, hence `unclosed_brackets`.
"""

from __future__ import annotations

import re
from itertools import accumulate

MAX_NESTING = 100  # levels of data nesting accepted (real files nest under 10)
MAX_UNCLOSED_BRACKETS = 1_000  # `[` left open in one Markdown block (real documents: a few)

# Quoted strings of JSON, TOML and YAML (double quotes with escapes, single quotes, one line).
_STRINGS = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\'[^\'\n]*\'')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_NOT_SQUARE = re.compile(r"[^\[\]]+")
_BLOCKS = re.compile(r"\n[ \t]*\n")


class NestingError(ValueError):
    """A text nests deeper than a parser is allowed to recurse (message says how deep)."""


def bracket_depth(text: str, limit: int = MAX_NESTING) -> int:
    """The deepest `[`/`{` nesting of `text`, quoted strings left out. Strings are only
    looked at when the brackets alone nest deeper than `limit` (they may hide some)."""
    depth = _depth(text)
    return _depth(_STRINGS.sub("", text)) if depth > limit else depth


def _depth(text: str) -> int:
    kept = _NOT_BRACKETS.sub("", text)
    if not kept:
        return 0
    return max(0, max(accumulate(1 if c in "[{" else -1 for c in kept)))


def indent_depth(text: str) -> int:
    """How many deeper indentations are open at once (YAML's block nesting)."""
    stack: list[int] = []
    deepest = 0
    for match in re.finditer(r"^([ \t-]*)\S", text, re.MULTILINE):
        indent = len(match.group(1))
        while stack and stack[-1] >= indent:
            stack.pop()
        stack.append(indent)
        deepest = max(deepest, len(stack))
    return deepest


def data_nesting(text: str, kind: str, limit: int = MAX_NESTING) -> int:
    """How deep a JSON, YAML or TOML text nests (exactly, up to `limit`)."""
    depth = bracket_depth(text, limit)
    if kind == "yaml":
        depth = max(depth, indent_depth(text))
    return depth


def check_json_nesting(text: str, limit: int = MAX_NESTING) -> None:
    depth = bracket_depth(text, limit)
    if depth > limit:
        raise NestingError(f"nested {depth} deep, more than {limit} levels")


def unclosed_brackets(text: str) -> int:
    """The most `[` left unclosed at the end of one block (blank-line separated) of `text`."""
    worst = 0
    for block in _BLOCKS.split(text):
        if block.count("[") <= worst:
            continue
        open_ = 0
        for c in _NOT_SQUARE.sub("", block):
            open_ = open_ + 1 if c == "[" else max(0, open_ - 1)
        worst = max(worst, open_)
    return worst
