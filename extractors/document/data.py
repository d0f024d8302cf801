"""Data files -> Document: YAML and TOML member files, OWNERS, CODEOWNERS, MAINTAINERS.

- YAML (PyYAML's node tree, which keeps line positions): a key holding a list or a mapping is a
  `Heading` (its depth is the level); each list entry is a `Record` (a scalar entry's comment on
  its line is kept: Kubernetes OWNERS print names and e-mails there);
- TOML (tomllib): the same shape; arrays of tables (`[[roles]]`) are also kept in
  `Document.tables` so an entry can point into them (`roles = ["council-rep-compiler"]`);
- a TOML file with a people table keyed by login, a YAML file of teams holding lists of people,
  a file that is one person's card (`name`, `github`, `position`): the generic walk of
  `extractors.document.tree` (the layouts above are read as before);
- CODEOWNERS: each rule is a `Heading` (the path pattern) with one `Item` per owner; comments are
  not read (their `@global-owner1` is GitHub's template);
- MAINTAINERS (the Linux kernel's format): a section title is a `Heading`, each `M:` line an
  `Item`; the indented format description at the top ("M: Maintainer's Full Name") is not. A run
  of two or more lines that each hold an account ("Jane Roe <jane@example.org> (@jroe)", a
  GitHub link) is a list of those lines, one `Item` each; other runs of lines are paragraphs;
  a comment line ("# REVIEWERS") is a heading.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from extractors.document import tree as _tree
from extractors.document.model import (
    ACCOUNT,
    Block,
    Document,
    Heading,
    Item,
    Para,
    Record,
    collapse,
)

# An owner is "@login", "@org/team" or "name@host": one way to split a line into owners (the
# earlier "[\w./-]+@?[\w.-]*" let every word split in two anywhere, so a prose line of 14 words
# that is not a rule took 15 s to reject: exponential backtracking).
CODEOWNERS_RULE = re.compile(
    r"^(?P<pattern>[^\s#]\S*)(?P<owners>(?:\s+@?[\w./-]+(?:@[\w.-]*)?)+)\s*$"
)
MAINTAINERS_FIELD = re.compile(r"^(?P<tag>[A-Z]):\s*(?P<value>.*)$")
# `[ \t]`, not `\s`: with re.MULTILINE a `\s*` after `^` runs across line ends, so a text of
# 100,000 blank lines was tried from every line to its end (quadratic: 100 s to say "not TOML")
TOML_TABLE = re.compile(r"^[ \t]*\[\[?[\w.\"' -]+\]\]?[ \t\r]*$", re.MULTILINE)
YAML_KEY = re.compile(r"^[\w.-]+:[ \t\r]*(?:#.*)?$", re.MULTILINE)
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
COMMENT_TITLE = re.compile(r"^#+[ \t]*(\S.{0,79})$")
# `GitHub = jroe`: a bare word where TOML wants a string (hand-written team files); read as the
# string it spells, one line at a time as the parser reports them, at most TOML_REPAIRS lines
TOML_BARE_VALUE = re.compile(
    r"^(?P<key>[ \t]*[\w\"'.-]+[ \t]*=[ \t]*)(?P<word>[A-Za-z][\w.@-]*)[ \t]*$"
)
TOML_ERROR_LINE = re.compile(r"\(at line (\d+), column \d+\)")
TOML_REPAIRS = 20


class Malformed(ValueError):
    """A data file its parser rejects (the message names the line)."""


def sniff(text: str) -> str | None:
    """The data format of a text the format sniffer called plain text, if it is one."""
    lines = [line for line in text.splitlines()[:400] if line.strip()]
    if sum(bool(MAINTAINERS_FIELD.match(line)) for line in lines) >= 2:
        return "maintainers"
    rules = [ln for ln in lines if not ln.lstrip().startswith("#")]
    if rules and sum(bool(CODEOWNERS_RULE.match(ln)) and "@" in ln for ln in rules) >= max(
        1, len(rules) // 2
    ):
        return "codeowners"
    if TOML_TABLE.search(text):
        return "toml"
    if YAML_KEY.search(text) or text.lstrip().startswith("- "):
        return "yaml"
    return None


def document(text: str, fmt: str) -> Document:
    if fmt in ("yaml", "owners"):
        return _yaml(text, fmt)
    if fmt == "toml":
        return _toml(text)
    if fmt == "codeowners":
        return Document(None, list(_codeowners(text)), fmt)
    return Document(None, list(_maintainers(text)), "maintainers")


# ============================================================================================
# YAML


def _yaml(text: str, fmt: str) -> Document:
    import yaml

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise Malformed(f"not valid YAML{where}: {getattr(exc, 'problem', exc)}") from None
    lines = text.splitlines()
    blocks: list[Block] = []
    if root is not None and fmt == "yaml":
        data = yaml.safe_load(text)
        # teams of people, a card, a table of people keyed by login (not an alias bomb: a few
        # lines that walk to billions)
        if _tree.small(data) and (
            _tree.nested_people(data) or _tree.is_card(data) or _tree.person_tables(data)
        ):
            return _tree.document(text, data, fmt)
    if root is not None:
        blocks.extend(_YamlWalk(lines).walk(root))
    return Document(None, blocks, fmt)


class _YamlWalk:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.records = 0

    def walk(self, root: Any) -> Iterator[Block]:
        import yaml

        stack: list[tuple[Any, tuple[str, ...]]] = [(root, ())]
        while stack:
            node, path = stack.pop()
            if isinstance(node, yaml.MappingNode):
                nested = []
                for key, value in node.value:
                    if isinstance(value, yaml.SequenceNode | yaml.MappingNode) and isinstance(
                        key, yaml.ScalarNode
                    ):
                        nested.append((key, value))
                for key, value in reversed(nested):  # popped in order: heading, then its value
                    stack.append((value, (*path, str(key.value))))
                    stack.append((("heading", key, len(path) + 1), path))
            elif isinstance(node, tuple) and node[0] == "heading":
                _, key, level = node
                yield Heading(level, str(key.value), key.start_mark.line + 1)
            elif isinstance(node, yaml.SequenceNode):
                for entry in node.value:
                    record = self._record(entry, path)
                    if record is not None:
                        yield record

    def _record(self, node: Any, path: tuple[str, ...]) -> Record | None:
        import yaml

        line = node.start_mark.line
        source = self.lines[line] if line < len(self.lines) else ""
        fields: dict[str, Any]
        if isinstance(node, yaml.ScalarNode):
            fields = {"value": node.value}
            end = node.end_mark.line
        elif isinstance(node, yaml.MappingNode):
            fields = {}
            for key, value in node.value:
                if isinstance(value, yaml.ScalarNode):
                    fields[str(key.value)] = _scalar(value)
                elif isinstance(value, yaml.SequenceNode):
                    fields[str(key.value)] = [
                        v.value for v in value.value if isinstance(v, yaml.ScalarNode)
                    ]
            end = node.end_mark.line
        else:
            return None
        comment = None
        if "#" in source:
            comment = source.split("#", 1)[1].strip() or None
        quote = "\n".join(self.lines[line : max(end, line + 1)]).strip()
        self.records += 1
        return Record(quote, path, fields, comment, self.records, line + 1)


def _scalar(node: Any) -> Any:
    if node.tag.endswith(":null") or node.value in ("", "~", "null", "Null", "NULL"):
        return None
    return node.value


# ============================================================================================
# TOML


def _toml(text: str) -> Document:
    data = _toml_loads(text)
    if _tree.person_tables(data) or _tree.is_card(data):  # a people table by login, a card
        return _tree.document(text, data, "toml")
    lines = text.splitlines()
    walk = _TomlWalk(lines)
    blocks = list(walk.walk(data, ()))
    tables = {
        key: [v for v in value if isinstance(v, dict)]
        for key, value in data.items()
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value)
    }
    return Document(None, blocks, "toml", tables=tables)


def _toml_loads(text: str) -> dict[str, Any]:
    """The TOML data of `text`, its bare-word values (`GitHub = jroe`) read as strings."""
    import tomllib

    lines: list[str] | None = None
    first: tomllib.TOMLDecodeError | None = None
    for _ in range(TOML_REPAIRS + 1):
        try:
            return tomllib.loads(text if lines is None else "\n".join(lines))
        except tomllib.TOMLDecodeError as exc:
            first = first or exc
            at = TOML_ERROR_LINE.search(str(exc))
            lines = lines if lines is not None else text.splitlines()
            index = int(at.group(1)) - 1 if at else -1
            bare = TOML_BARE_VALUE.match(lines[index]) if 0 <= index < len(lines) else None
            if bare is None or bare["word"] in ("true", "false", "inf", "nan"):
                break
            lines[index] = f'{bare["key"]}"{bare["word"]}"'
    raise Malformed(f"not valid TOML: {first}") from None


class _TomlWalk:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.cursor = 0
        self.records = 0

    def walk(self, data: dict[str, Any], path: tuple[str, ...]) -> Iterator[Block]:
        for key, value in data.items():
            if isinstance(value, dict):
                yield Heading(len(path) + 1, key, self._seek(f"[{'.'.join((*path, key))}]"))
                yield from self.walk(value, (*path, key))
            elif isinstance(value, list) and value:
                yield Heading(len(path) + 1, key, self._seek(key))
                for entry in value:
                    fields = entry if isinstance(entry, dict) else {"value": entry}
                    if not all(isinstance(v, str | int | float | bool | list) or v is None
                               for v in fields.values()):  # fmt: skip
                        continue
                    first = next((v for v in fields.values() if isinstance(v, str)), None)
                    line = None
                    for mark in ('"', "'") if first else ():  # basic or literal TOML strings
                        line = line or self._seek(f"{mark}{first}{mark}")
                    quote = self.lines[line - 1].strip() if line else str(entry)
                    if first and len(quote) > 200:
                        quote = f'"{first}"'
                    self.records += 1
                    yield Record(quote, (*path, key), dict(fields), None, self.records, line)

    def _seek(self, needle: str) -> int | None:
        for index in range(self.cursor, len(self.lines)):
            if needle in self.lines[index]:
                self.cursor = index
                return index + 1
        return None


# ============================================================================================
# CODEOWNERS and MAINTAINERS


def _codeowners(text: str) -> Iterator[Block]:
    list_no = 0
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.split(" #", 1)[0].strip()
        if not stripped or stripped.startswith("#"):
            continue
        parts = stripped.split()
        if len(parts) < 2:
            continue
        list_no += 1
        yield Heading(1, parts[0], number)
        for owner in parts[1:]:
            yield Item(owner, owner, (), list_no, 0, None, number)


def _maintainers(text: str) -> Iterator[Block]:
    lines = text.splitlines()
    list_no = 0
    index = 0
    person_list = -1  # the list the entries read from `P:` lines are in
    para: list[str] = []  # its lines, with their line numbers in `at`
    at: list[int] = []

    def ended() -> Iterator[Block]:
        nonlocal list_no
        if len(para) >= 2 and all(ACCOUNT.search(line) for line in para):
            list_no += 1  # one entry a line: "Jane Roe <jane@example.org> (@jroe)"
            for line, number in zip(para, at, strict=True):
                yield Item(line.strip(), line.strip(), (), list_no, 0, None, number)
        elif para:
            yield Para("\n".join(para), collapse(" ".join(para)), ())
        para.clear()
        at.clear()

    while index < len(lines):
        line = lines[index]
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if line.strip() and not line[:1].isspace() and not MAINTAINERS_FIELD.match(line):
            if MAINTAINERS_FIELD.match(following):  # a section title
                yield from ended()
                list_no += 1
                yield Heading(2, line.strip(), index + 1)
                index += 1
                while index < len(lines) and MAINTAINERS_FIELD.match(lines[index]):
                    field = MAINTAINERS_FIELD.match(lines[index])
                    if field and field.group("tag") == "M":
                        value = field.group("value").strip()
                        yield Item(value, value, (), list_no, 0, None, index + 1)
                    index += 1
                continue
            if set(following.strip()) <= set("=-") and following.strip():
                yield from ended()
                yield Heading(1, line.strip(), index + 1)
                person_list = -1  # the entries under a new title are a new list
                index += 2
                continue
            if comment := COMMENT_TITLE.match(line):  # "# REVIEWERS": the title of what follows
                yield from ended()
                yield Heading(2, comment.group(1).strip(), index + 1)
            else:
                para.append(line)
                at.append(index + 1)
        elif (field := MAINTAINERS_FIELD.match(line)) and field.group("tag") == "P":
            yield from ended()  # an untitled entry whose person has a field of their own:
            stanza = _stanza(lines, index)  # "P: Jane Roe" / "M: jane@example.org" / "S: ..."
            person = _person_of(stanza)
            if person is not None:
                list_no += 0 if person_list == list_no else 1
                person_list = list_no
                quote = "\n".join(stanza).strip()
                yield Item(quote, person, (), list_no, 0, None, index + 1)
            index += len(stanza)
            continue
        elif not line.strip():
            yield from ended()
        index += 1
    yield from ended()


def _stanza(lines: list[str], start: int) -> list[str]:
    """The field lines of an entry from `start` (with their indented continuation lines)."""
    end = start + 1
    while (
        end < len(lines)
        and lines[end].strip()
        and (MAINTAINERS_FIELD.match(lines[end]) or lines[end][:1].isspace())
    ):
        end += 1
    return lines[start:end]


def _person_of(stanza: list[str]) -> str | None:
    """ "Jane Roe <jane@example.org>" of an entry's `P:` and first `M:` address; None when no
    `M:` line holds one (the file's legend: "P: Person", "M: Mail patches to this address")."""
    fields = [f for line in stanza if (f := MAINTAINERS_FIELD.match(line))]
    person = next((f.group("value").strip() for f in fields if f.group("tag") == "P"), "")
    mails = (f.group("value").strip() for f in fields if f.group("tag") == "M")
    mail = next((m for m in mails if EMAIL.fullmatch(m)), None)
    return f"{person} <{mail}>" if person and mail else None
