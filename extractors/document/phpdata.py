"""PHP data files -> the data tree JSON gives.

A PHP data file is a file whose code, comments aside, is `<?php`, optional `declare(...)`,
`namespace ...;` and `use ...;` statements, then one `return [...];` (or `$name = [...];`,
optionally followed by `return $name;`) of an array literal: `[...]` or `array(...)` whose
entries are `key => value` or bare values, the values strings, numbers, `true` / `false` /
`null` or arrays again. An array with no keys is a list, one with keys a mapping (unkeyed
entries take PHP's next integer key). Anything else (a constant, a call, concatenation, a
double-quoted string with `$` interpolation, HTML around the code) is no data: `Malformed`.

Linear time: one regular-expression tokenizer whose alternatives cannot backtrack into each
other, then one pass over the tokens (nesting bounded by `MAX_DEPTH`). Bodies over `MAX_BYTES`
are not read (the size the other data readers bear). The tree then goes through
`extractors.document.tree` like any JSON.
"""

from __future__ import annotations

import re
from typing import Any

MAX_BYTES = 1 << 20
MAX_DEPTH = 40
_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<comment>(?://|\#(?!\[))[^\n]*|/\*(?:[^*]|\*(?!/))*+\*/)|"
    r"(?P<single>'[^'\\]*+(?:\\.[^'\\]*+)*+')|(?P<double>\"[^\"\\$]*+(?:\\.[^\"\\$]*+)*+\")|"
    r"(?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w.])|"
    r"(?P<open><\?php\b)|(?P<close>\?>)|(?P<variable>\$[A-Za-z_]\w*+)|"
    r"(?P<ident>[A-Za-z_\\][\w\\]*+)|(?P<punct>=>|[\[\](),;=])",
    re.S,
)
_DOUBLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "$": "$", "0": "\0"}
_HEAD_STATEMENTS = frozenset(("declare", "namespace", "use"))


class Malformed(ValueError):
    """Not a PHP data file."""


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    index = 0
    while index < len(text):
        match = _TOKEN.match(text, index)
        if match is None:
            raise Malformed(f"not PHP data at offset {index}: {text[index : index + 20]!r}")
        kind = match.lastgroup or ""
        if kind not in ("space", "comment"):
            tokens.append((kind, match.group()))
        index = match.end()
    return tokens


def _string(kind: str, value: str) -> str:
    body = value[1:-1]
    if kind == "single":
        return re.sub(r"\\([\\'])", r"\1", body)
    return re.sub(r"\\(.)", lambda m: _DOUBLE_ESCAPES.get(m.group(1), m.group()), body, flags=re.S)


class _Php:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.at = 0
        self.depth = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if value is not None and token[1].lower() != value:
            raise Malformed(f"not PHP data: {value!r} expected, {token[1]!r} found")
        self.at += 1
        return token

    def value(self) -> Any:
        kind, value = self.take()
        if kind in ("single", "double"):
            return _string(kind, value)
        if kind == "number":
            return float(value) if any(c in value for c in ".eE") else int(value)
        lowered = value.lower()
        if kind == "ident" and lowered in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[lowered]
        if value == "[":
            return self.array("]")
        if kind == "ident" and lowered == "array" and self.peek()[1] == "(":
            self.take("(")
            return self.array(")")
        raise Malformed(f"not PHP data: {value!r} is an expression")

    def array(self, close: str) -> Any:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Malformed("not PHP data: nested too deeply")
        entries: list[tuple[Any, Any]] = []
        keyed = False
        while self.peek()[1] != close:
            first = self.value()
            if self.peek()[1] == "=>":
                self.take()
                if isinstance(first, (list, dict)):
                    raise Malformed("not PHP data: an array as a key")
                entries.append((first, self.value()))
                keyed = True
            else:
                entries.append((None, first))
            if self.peek()[1] != ",":
                break
            self.take()
        self.take(close)
        self.depth -= 1
        if not keyed:
            return [value for _, value in entries]
        mapping: dict[str, Any] = {}
        following = 0
        for key, value in entries:
            if key is None:
                key = following
            if isinstance(key, int) and not isinstance(key, bool):
                following = max(following, key + 1)
            mapping[str(key)] = value
        return mapping


def load_php(text: str) -> Any:
    """The data a PHP data file returns (or assigns); `Malformed` if it is not one."""
    if len(text) > MAX_BYTES:
        raise Malformed("too large to read as data")
    tokens = _tokens(text.lstrip("\ufeff"))
    if not tokens or tokens[0][0] != "open":
        raise Malformed("not PHP data: no `<?php` at its top")
    parser = _Php(tokens)
    parser.take()
    while parser.peek()[0] == "ident" and parser.peek()[1].lower() in _HEAD_STATEMENTS:
        while parser.peek()[1] not in (";", ""):
            parser.take()
        parser.take(";")
    kind, value = parser.take()
    name = None
    if kind == "variable":
        name = value
        parser.take("=")
    elif not (kind == "ident" and value.lower() == "return"):
        raise Malformed(f"not PHP data: {value!r} at its top")
    data = parser.value()
    if not isinstance(data, (list, dict)):
        raise Malformed("not PHP data: no array")
    parser.take(";")
    if name is not None and parser.peek()[1].lower() == "return":
        parser.take()
        parser.take(name.lower())
        parser.take(";")
    if parser.peek()[0] == "close":
        parser.take()
    if parser.peek()[0] != "end":
        raise Malformed("not PHP data: code follows the array")
    return data
