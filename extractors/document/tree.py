"""Data trees -> Document: any JSON (and the people tables of TOML files) walked whole.

The tree is walked generically: a key holding a list or a mapping is a `Heading` (its depth is
the level); each list entry is a `Record`; a mapping whose values are all mappings and that holds
person-like ones (a table keyed by login: `[people.jroe]`, `{"jroe": {"name": ...}}`) gives one
`Record` per value, its key kept as `login`; a list of strings that are keys of such a table
(`maintainers = ["jroe"]`) is followed: each entry's record is the one it names, by its key or,
failing that, by its key or account spelt loosely (case and `-_.` dropped: `"janeroeexample"`
names `[people.janeroe]` whose `GitHub = "janeroe-example"`). A team entry holding a list of
logins under a role key (`name: project-maintainers`, `members: [jroe, asmith]`) is a role list
of those logins, under the team's name. A record's
nested mappings (`socials`, `links`) are flattened one level into its fields (own keys first);
a GitHub profile URL among its values is kept as `github`. Records nested in a list entry (a
team's `members`) are walked too, under the entry's key path. A tree that is itself one person's
card (`name = "Jane Roe"`, `github = "jroe"`: a name or handle and an account, organisation or
role field at its top, `is_card`) is one `Record` at the root (its path empty).

Quotes are verbatim: the source line holding the record's first string value (its name), found
from a cursor that moves forward through the file; never a re-serialisation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from extractors.document.model import Block, Document, Heading, Record, github_login

PERSON_KEYS = frozenset(
    ("name", "full_name", "fullname", "display_name", "login", "github", "gh", "handle",
     "username", "github_handle", "email", "gh_login", "github_login", "github_username",
     "github_user")
)  # fmt: skip
NAME_KEYS = ("name", "full_name", "fullname", "display_name", "login", "github", "handle")
# a list of plain strings is a role list of logins only under a key that says a role
ROLE_KEY = re.compile(
    r"maintain|member|committer|owner|review|approver|emerit|alumn|council|lead|team|core|"
    r"steer|chair|admin|contributor|moderator|editor|author|people|staff|board|commit|"
    r"developer|champion|liaison|representative|manager|shepherd|mentor",
    re.IGNORECASE,
)
ORG_LISTS = frozenset(("organizations", "organisations", "affiliations", "companies"))
GITHUB_URL = re.compile(r"https?://(?:www\.)?github\.com/[^\s\"']+")
LOGIN = re.compile(r"^@?[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$")  # a GitHub login
ACCOUNT_KEYS = ("login", "github", "gh", "github_handle", "handle", "username", "gh_login",
                "github_login", "github_username", "github_user")  # fmt: skip
MAX_DEPTH = 40


class Malformed(ValueError):
    """A JSON file its parser rejects (the message names the line)."""


def load_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Malformed(f"not valid JSON at line {exc.lineno}: {exc.msg}") from None
    except RecursionError:
        raise Malformed("not valid JSON: nested too deeply") from None


def is_discourse(data: Any) -> bool:
    return isinstance(data, dict) and "post_stream" in data


def document(text: str, data: Any, fmt: str = "json") -> Document:
    return Document(None, list(Walk(text, data).blocks(data)), fmt)


CARD_NAME_KEYS = frozenset(("name", "full_name", "fullname", "display_name", "displayname"))
CARD_HANDLE_KEYS = frozenset(("github", "gh", "github_handle", "login", "handle", "username"))
CARD_KEYS = CARD_HANDLE_KEYS | frozenset(
    ("email", "company", "affiliation", "organization", "organisation", "organizations",
     "employer", "role", "roles", "position")
)  # fmt: skip
SOCIAL_KEYS = frozenset(("socials", "social", "links", "profiles", "accounts"))


def is_card(data: Any) -> bool:
    """One person's card: a mapping whose own scalar fields give a name or a handle, and an
    account, organisation or role besides (or a GitHub account under `socials` / `links`)."""
    if not isinstance(data, dict):
        return False
    keys = {str(k).lower().replace("-", "_"): v for k, v in data.items()}
    named = [k for k in CARD_NAME_KEYS | CARD_HANDLE_KEYS if isinstance(keys.get(k), str)]
    if not named or any(
        (table_of_people(v) or _lists_people(v))
        if isinstance(v, dict)
        else ROLE_KEY.search(str(k)) and _lists_people(v)
        for k, v in data.items()
    ):
        return False  # a file that lists people (a team with its members) is no one's card
    given = {k for k in CARD_KEYS if isinstance(keys.get(k), str) and keys[k].strip()}
    given |= {k for k in ("organizations", "roles") if isinstance(keys.get(k), list) and keys[k]}
    if len(named) >= 2 or given - set(named):
        return True
    socials = [keys[k] for k in SOCIAL_KEYS if k in keys]
    return any(GITHUB_URL.search(s) or "github" in s.lower() for s in _strings(socials, 0, 4))


MAX_NODES = 500_000  # a tree's values counted as walked (YAML aliases repeat theirs)


def small(data: Any, limit: int = MAX_NODES) -> bool:
    """The tree has at most `limit` values, counted as a walk meets them: a YAML alias bomb
    (nine lists of nine aliases of ...) is a few lines that walk to billions."""
    stack, seen = [data], 0
    while stack:
        node = stack.pop()
        seen += 1
        if seen > limit:
            return False
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return True


def holds_people(data: Any) -> bool:
    """A tree with person records in it: a card, a table of people, a list of records."""
    return is_card(data) or bool(person_tables(data)) or _lists_people(data)


def _lists_people(node: Any, depth: int = 0) -> bool:
    if depth > MAX_DEPTH:
        return False
    if isinstance(node, list):
        return any(person_like(v) for v in node) or any(_lists_people(v, depth + 1) for v in node)
    if isinstance(node, dict):
        return any(_lists_people(v, depth + 1) for v in node.values())
    return False


def login_list(key: Any, value: Any) -> bool:
    """A role list of logins: plain strings that each read as a GitHub login, under a key that
    says a role (`members: [jroe, asmith]` in a team entry)."""
    return (
        isinstance(value, list)
        and bool(value)
        and ROLE_KEY.search(str(key)) is not None
        and all(isinstance(v, str) and LOGIN.match(v) for v in value)
    )


def role_path(path: tuple[str, ...]) -> bool:
    """A list of plain strings at `path` is a role list: its key says a role (`maintainers`,
    `emeritus`), or its parent's does and the list is one of that role's sub-lists
    (`maintainers: {active: [...], coc: [...]}`, a site config's team)."""
    return any(ROLE_KEY.search(key) for key in path[-2:])


def folded(text: str) -> str:
    """A key or login compared loosely: case and separators dropped (`simonfrost-arm`,
    `simonfrostarm`, `SimonFrost_Arm` are one)."""
    return re.sub(r"[-_.\s]", "", text).lower()


def person_like(value: Any, depth: int = 0) -> bool:
    """A mapping with a name-like or account-like field (or one in a mapping it holds)."""
    if not isinstance(value, dict) or depth > 2:
        return False
    keys = {str(k).lower() for k in value}
    if keys & PERSON_KEYS:
        return True
    return any(isinstance(v, dict) and person_like(v, depth + 1) for v in value.values())


def person_tables(data: Any) -> dict[str, dict[str, Any]]:
    """Keys naming person records anywhere in the tree (login -> its mapping)."""
    found: dict[str, dict[str, Any]] = {}
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            continue
        if isinstance(node, dict):
            if table_of_people(node):
                found.update({str(k): v for k, v in node.items()})
            stack.extend((v, depth + 1) for v in node.values() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node if isinstance(v, dict | list))
    return found


def table_of_people(node: dict[str, Any]) -> bool:
    values = list(node.values())
    return (
        bool(values)
        and all(isinstance(v, dict) for v in values)
        and all({str(k).lower() for k in v} & PERSON_KEYS for v in values)
    )


def fields_of(entry: dict[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    nested: list[dict[str, Any]] = []
    for key, value in entry.items():
        if isinstance(value, dict):
            nested.append(value)
        elif isinstance(value, list):
            scalars = [v for v in value if isinstance(v, str | int | float | bool)]
            if len(scalars) == len(value):
                fields[str(key)] = scalars
            elif str(key).lower() in ORG_LISTS:  # `organizations = [{name = "Example Labs"}]`
                names = [v.get("name") for v in value if isinstance(v, dict)]
                fields[str(key)] = [n for n in names if isinstance(n, str) and n.strip()]
            nested.extend(v for v in value if isinstance(v, dict) and not person_like(v))
        else:
            fields[str(key)] = value
    for inner in nested:  # socials / links: one level, own keys first
        for key, value in inner.items():
            if not isinstance(value, dict | list):
                fields.setdefault(str(key), value)
    if not any(str(k).lower() in ("github", "gh", "github_handle") for k in fields):
        for value in _strings(entry):
            login = github_login(value) if GITHUB_URL.match(value) else None
            if login:
                fields["github"] = login
                break
    return fields


def _strings(node: Any, depth: int = 0, limit: int = 3) -> Iterator[str]:
    if depth > limit:
        return
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value, depth + 1, limit)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value, depth + 1, limit)


class Walk:
    def __init__(self, text: str, data: Any) -> None:
        self.lines = text.splitlines()
        self.cursor = 0
        self.records = 0
        self.people = person_tables(data)
        # a role list may name a record by its account rather than its key, or spell the key
        # loosely (`"simonfrostarm"` for `[people.simonfrost]`, `GitHub = "simonfrost-arm"`)
        self.aliases: dict[str, str] = {}
        for key, record in self.people.items():
            fields = {str(k).lower(): v for k, v in record.items()}
            for value in (key, *(fields.get(k) for k in ACCOUNT_KEYS)):
                if isinstance(value, str) and value.strip():
                    self.aliases.setdefault(folded(value), key)
        self.named = {k for s in _strings(data, 0, MAX_DEPTH) if (k := self.key_of(s))}
        self.number = 0  # the entry's number in its list (or table)

    def key_of(self, text: Any) -> str | None:
        """The people table's key a role list's entry names (exactly, else loosely)."""
        if not isinstance(text, str) or not self.people:
            return None
        if text in self.people:
            return text
        return self.aliases.get(folded(text))

    def blocks(self, data: Any) -> Iterator[Block]:
        """The whole tree's blocks: a card's own record first (`is_card`), then the walk."""
        if is_card(data):  # its lists (organisations, socials, degrees) are its own fields
            self.number = 1
            yield from self._record(data, ())
            return
        yield from self.walk(data, ())

    def walk(self, node: Any, path: tuple[str, ...], depth: int = 0) -> Iterator[Block]:
        if depth > MAX_DEPTH:
            return
        if isinstance(node, list):
            yield from self._entries(node, path, depth)
            return
        if not isinstance(node, dict):
            return
        if path and table_of_people(node):  # a directory: its people named in no role list
            for number, (key, value) in enumerate(node.items(), 1):
                self.number = number
                if key not in self.named:
                    yield from self._record({"login": key, **value}, path)
            return
        for key, value in node.items():
            if isinstance(value, dict | list) and value:
                yield Heading(len(path) + 1, str(key), self._seek(json.dumps(str(key))))
                yield from self.walk(value, (*path, str(key)), depth + 1)
            elif isinstance(value, str) and self._holder(str(key), value):
                yield from self._one_holder(str(key), value, path)

    def _entries(self, entries: list[Any], path: tuple[str, ...], depth: int) -> Iterator[Block]:
        for number, entry in enumerate(entries, 1):
            self.number = number
            if isinstance(entry, dict):
                if person_like(entry) and not self._group(entry):
                    yield from self._record(entry, path)
                for key, value in entry.items():  # a team's members, nested lists of records
                    if self._members(key, value):
                        label = next((str(entry[k]) for k in NAME_KEYS if entry.get(k)), None)
                        inner = (*path, label, str(key)) if label else (*path, str(key))
                        yield Heading(len(inner), str(key), self.cursor + 1)
                        yield from self._entries(value, inner, depth + 1)
            elif isinstance(entry, str | int | float) and not isinstance(entry, bool):
                key = self.key_of(str(entry))
                named = self.people.get(key) if key else None
                if key and isinstance(named, dict):
                    yield from self._record({"login": key, **named}, path, str(entry))
                elif path and role_path(path):
                    yield from self._record({"value": entry}, path)

    def _holder(self, key: str, value: str) -> bool:
        named = isinstance(self.people.get(value), dict)
        return bool(self.people) and (named or bool(ROLE_KEY.search(key) and LOGIN.match(value)))

    def _one_holder(self, key: str, login: str, path: tuple[str, ...]) -> Iterator[Block]:
        """A role held by one person, named by the people table's key (`bdfl = "jroe"`,
        `"Chief Architect" = "jroe"`): a role list of that one record, under the key."""
        value = re.escape(json.dumps(login))
        pair = re.compile(r"^\s*[\"']?" + re.escape(key) + r"[\"']?\s*=\s*" + value)
        line = next((i + 1 for i, text in enumerate(self.lines) if pair.match(text)), None)
        yield Heading(len(path) + 1, key, line)
        self.number = 1
        named = self.people.get(login)
        fields = fields_of({"login": login, **named} if named else {"value": login})
        quote = self.lines[line - 1].strip() if line else f"{key} = {json.dumps(login)}"
        self.records += 1
        yield Record(quote, (*path, key), fields, None, 1, line)

    def _group(self, entry: dict[str, Any]) -> bool:
        """A team: an entry holding a list of person records or of logins (its members)."""
        return any(self._members(k, v) for k, v in entry.items())

    def _members(self, key: Any, value: Any) -> bool:
        """A list of person records, of keys of the people table, or of logins under a role
        key: a team entry's members (a card's `links` / `socials` are its own, not members)."""
        if not isinstance(value, list) or str(key).lower() in SOCIAL_KEYS:
            return False
        return login_list(key, value) or any(
            person_like(x) or self.key_of(x) is not None for x in value
        )

    def _record(self, entry: dict[str, Any], path: tuple[str, ...],
                ref: str | None = None) -> Iterator[Record]:  # fmt: skip
        fields = fields_of(entry)
        first = ref or next(
            (str(fields[k]) for k in (*NAME_KEYS, "value") if isinstance(fields.get(k), str)),
            None,
        )
        line = self._seek_in_list(json.dumps(ref)) if ref else None  # the role list naming it
        if line is None and first:
            line = self._seek(json.dumps(first, ensure_ascii=False)[1:-1])
        if line is None and first:
            line = self._seek(first)
        quote = self.lines[line - 1].strip() if line else (first or "")
        self.records += 1
        yield Record(quote, path, fields, None, self.number, line)

    def _seek_in_list(self, quoted: str) -> int | None:
        """The line listing a key (`maintainers = ["jroe"]`, `- "jroe"`), not a field's value
        (`github = "jroe"`)."""
        field = re.compile(r"[=:]\s*" + re.escape(quoted) + r"\s*,?\s*(?:#.*)?$")
        for start, stop in ((self.cursor, len(self.lines)), (0, self.cursor)):
            for index in range(start, stop):
                line = self.lines[index]
                if quoted in line and not field.search(line):
                    self.cursor = index
                    return index + 1
        return None

    def _seek(self, needle: str) -> int | None:
        for start, stop in ((self.cursor, len(self.lines)), (0, self.cursor)):
            for index in range(start, stop):
                if needle in self.lines[index]:
                    self.cursor = index
                    return index + 1
        return None


def nested_people(data: Any, depth: int = 0) -> bool:
    """A list entry (a team) that holds a list of person records (its members)."""
    if depth > MAX_DEPTH:
        return False
    if isinstance(data, dict):
        return any(nested_people(v, depth + 1) for v in data.values())
    if isinstance(data, list):
        for entry in data:
            if isinstance(entry, dict):
                for key, value in entry.items():
                    if isinstance(value, list) and any(person_like(v) for v in value):
                        return True
                    if login_list(key, value) and any(
                        str(k).lower() in CARD_NAME_KEYS for k in entry
                    ):  # a named team with its members' logins
                        return True
                    if nested_people(value, depth + 1):
                        return True
    return False
