"""JavaScript / TypeScript data modules and CUE data files -> the data tree JSON gives.

- A JavaScript data module is a file whose code, comments aside, is one assignment of an object
  or array literal: `module.exports = {...}`, `export default [...]`, `export const team = {...}`,
  or `const team = {...}; module.exports = team`. The literal is cut out (its brackets balanced,
  strings and comments skipped), JavaScript's elided array entries (`[a,, b]`) dropped and the
  rest parsed: as JSON once its single quotes, bare keys and trailing commas are rewritten (fast),
  else by `json5` (hexadecimal numbers, `Infinity`, ...; up to `JSON5_MAX_BYTES`). Anything else
  (code, a function call, a literal JSON5 rejects) is no data: `Malformed`.
- CUE's data subset: `package` / `import` lines, `//` comments, unquoted or quoted labels, the
  `a: b: {...}` shorthand, fields without commas, structs declared twice merged
  (`teams: infra: {...}` then `teams: web: {...}`). Definitions, expressions and constraints are
  not data: `Malformed`.

The tree then goes through `extractors.document.tree` like any JSON, its quotes found in the
original text. Bodies over `MAX_BYTES` are not read (the size the other data readers bear).
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_BYTES = 1 << 20  # as TOML_SNIFF_MAX_BYTES: a data file is never larger
JSON5_MAX_BYTES = 128 << 10
_START = re.compile(
    r"\A\s*(?:(['\"])use strict\1\s*;?\s*)?"
    r"(?:module\.exports\s*=|exports\.default\s*=|export\s+default|"
    r"(?:export\s+)?(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)(?:\s*:\s*[\w.<>\[\]| ]+)?\s*=)"
    r"\s*(?=[\[{])"
)  # the first statement (comments blanked): an exported or assigned literal
_EXPORT_NAME = re.compile(
    r"^\s*(?:module\.exports\s*=|export\s+default)\s*(?P<name>[A-Za-z_$][\w$]*)\s*;?\s*$"
)
_TAIL = re.compile(r"^\s*(?:as\s+const\s*)?(?:satisfies\s+[\w.<>\[\]| ]+\s*)?;?\s*$")
_CUE_HEAD = re.compile(
    r"^[ \t]*(?:package[ \t]+\w+|import[ \t]+(?:\"[^\"\n]*\"|\([^)]*\)))[ \t]*$", re.M
)


class Malformed(ValueError):
    """Not a data module (or a literal its parser rejects)."""


def _skip_string(text: str, index: int) -> int:
    """The index after the string literal opening at `index`."""
    quote = text[index]
    index += 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == quote:
            return index + 1
        if char == "\n" and quote != "`":
            break
        index += 1
    raise Malformed("an unterminated string")


def _without_comments(text: str) -> str:
    """The text with `//` and `/* */` comments blanked (line numbers kept)."""
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char in "'\"`":
            end = _skip_string(text, index)
            out.append(text[index:end])
            index = end
        elif text.startswith("//", index):
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            if end < 0:
                raise Malformed("an unterminated comment")
            out.append("\n" * text.count("\n", index, end))
            index = end + 2
        else:
            out.append(char)
            index += 1
    return "".join(out)


def _literal(code: str, start: int) -> tuple[str, int]:
    """The bracketed literal opening at `start` (elided array entries dropped), and its end."""
    out: list[str] = []
    stack: list[str] = []
    index = start
    last = ""  # the last significant character written
    while index < len(code):
        char = code[index]
        if char in "'\"`":
            if char == "`":
                end = _skip_string(code, index)
                if "${" in code[index:end]:
                    raise Malformed("a template string with expressions is code, not data")
                out.append('"' + code[index + 1 : end - 1].replace('"', '\\"') + '"')
            else:
                end = _skip_string(code, index)
                out.append(code[index:end])
            index, last = end, "s"
            continue
        if char in "[{":
            stack.append("]" if char == "[" else "}")
        elif char in "]}" and (not stack or stack.pop() != char):
            raise Malformed("unbalanced brackets")
        if char == "," and last in ",[":
            index += 1  # an elision (`[a,, b]`): JavaScript's hole, no entry
            continue
        out.append(char)
        if not char.isspace():
            last = char
        index += 1
        if not stack:
            return "".join(out), index
    raise Malformed("an unterminated literal")


def load_js(text: str) -> Any:
    """The data a JavaScript / TypeScript data module exports; `Malformed` if it is not one."""
    import json5

    if len(text) > MAX_BYTES:
        raise Malformed("too large to read as data")
    code = _without_comments(text)
    start = _START.match(code)
    if start is None:
        raise Malformed("not a data module (no exported literal at its top)")
    literal, end = _literal(code, start.end())
    rest = [line for line in code[end:].splitlines() if line.strip()]
    if rest and _TAIL.match(rest[0]):
        rest = rest[1:]
    if rest and not (
        len(rest) == 1
        and (export := _EXPORT_NAME.match(rest[0]))
        and export.group("name") == start.group("name")
    ):  # code after the literal: a module, not data
        raise Malformed("code follows the literal")
    try:  # most data modules are JSON but for their quotes, keys and commas: read at C speed
        return json.loads(_as_json(literal))
    except (ValueError, RecursionError):
        pass
    if len(literal) > JSON5_MAX_BYTES:  # json5 is pure Python (~10 s a megabyte)
        raise Malformed("too large a JSON5 literal to read as data")
    try:
        return json5.loads(literal)
    except (ValueError, RecursionError) as exc:
        raise Malformed(f"not a JSON5 literal: {exc}") from None


# a bare key starts where an identifier starts and takes all of it (`(?<![\w$])`, `*+`): tried
# from every character of a long identifier, "a_a_a_..." of 8,000 characters took 0.8 s (quadratic)
_JSON_FIX = re.compile(
    r"(?P<string>\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')|"
    r"(?<![\w$])(?P<key>[A-Za-z_$][\w$]*+)(?=\s*:)|,(?=\s*[\]}])"
)


def _as_json(literal: str) -> str:
    """The literal as strict JSON where it is only JSON5's quoting away from it (single quotes,
    bare keys, trailing commas); anything else is left for `json.loads` to reject."""

    def fixed(match: re.Match[str]) -> str:
        if (string := match.group("string")) is not None:
            if string[0] == '"':
                return string
            if "\\" not in string:
                return json.dumps(string[1:-1])
            import json5

            return json.dumps(json5.loads(string))
        if (key := match.group("key")) is not None:
            return f'"{key}"'
        return ""  # a trailing comma

    return _JSON_FIX.sub(fixed, literal)


# ============================================================================================
# CUE

_CUE_TOKEN = re.compile(
    r'(?P<space>[ \t\r]+)|(?P<newline>\n)|(?P<string>"(?:[^"\\\n]|\\.)*")|'
    r"(?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w.])|(?P<ident>[A-Za-z_$][\w$-]*)|"
    r"(?P<punct>[{}\[\]:,])"
)


def _cue_tokens(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    index = 0
    while index < len(text):
        match = _CUE_TOKEN.match(text, index)
        if match is None:
            raise Malformed(f"not CUE data at offset {index}: {text[index : index + 20]!r}")
        kind = match.lastgroup or ""
        if kind != "space":
            tokens.append((kind, match.group()))
        index = match.end()
    return tokens


class _Cue:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.at = 0
        self.depth = 0

    def peek(self, ahead: int = 0) -> tuple[str, str]:
        index = self.at + ahead
        return self.tokens[index] if index < len(self.tokens) else ("end", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if value is not None and token[1] != value:
            raise Malformed(f"not CUE data: {value!r} expected, {token[1]!r} found")
        self.at += 1
        return token

    def gaps(self) -> None:
        while self.peek()[0] == "newline" or self.peek()[1] == ",":
            self.at += 1

    def struct(self, close: str) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        self.gaps()
        while self.peek()[1] != close and self.peek()[0] != "end":
            key = self.label()
            self.take(":")
            path = [key]
            while self.peek()[0] in ("ident", "string") and self.peek(1)[1] == ":":
                path.append(self.label())  # `a: b: {...}`
                self.take(":")
            value = self.value()
            for name in reversed(path[1:]):
                value = {name: value}
            _merge(fields, key, value)
            self.gaps()
        if close != "end":
            self.take(close)
        return fields

    def label(self) -> str:
        kind, value = self.take()
        if kind == "string":
            return str(_unquote(value))
        if kind == "ident" and not value.startswith(("#", "_")):
            return value
        raise Malformed(f"not CUE data: a label expected, {value!r} found")

    def value(self) -> Any:
        self.depth += 1
        if self.depth > 40:
            raise Malformed("not CUE data: nested too deeply")
        kind, value = self.take()
        result: Any
        if value == "{":
            result = self.struct("}")
        elif value == "[":
            result = []
            self.gaps()
            while self.peek()[1] != "]":
                result.append(self.value())
                self.gaps()
            self.take("]")
        elif kind == "string":
            result = _unquote(value)
        elif kind == "number":
            result = float(value) if any(c in value for c in ".eE") else int(value)
        elif kind == "ident" and value in ("true", "false", "null"):
            result = {"true": True, "false": False, "null": None}[value]
        else:
            raise Malformed(f"not CUE data: {value!r} is an expression")
        if self.peek()[0] not in ("newline", "end") and self.peek()[1] not in (",", "}", "]"):
            raise Malformed(f"not CUE data: {self.peek()[1]!r} after a value")
        self.depth -= 1
        return result


def _unquote(value: str) -> Any:
    import json

    try:
        return json.loads(value)
    except ValueError:
        raise Malformed(f"not CUE data: a bad string {value[:20]!r}") from None


def _merge(fields: dict[str, Any], key: str, value: Any) -> None:
    if key not in fields:
        fields[key] = value
    elif isinstance(fields[key], dict) and isinstance(value, dict):
        for name, inner in value.items():
            _merge(fields[key], name, inner)
    elif fields[key] != value:
        raise Malformed(f"not CUE data: {key!r} has two values")


def load_cue(text: str) -> Any:
    """The data of a CUE file of plain data; `Malformed` if it holds more than data."""
    if len(text) > MAX_BYTES:
        raise Malformed("too large to read as data")
    code = _CUE_HEAD.sub("", _without_comments(text))
    return _Cue(_cue_tokens(code)).struct("end")
