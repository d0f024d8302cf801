"""Data written as code: JavaScript / TypeScript modules exporting a literal, CUE data files.

CONSTRUCTED inputs (invented people), written here."""

from __future__ import annotations

import pytest

import extractors
from extractors import document as _document
from extractors.document import jsdata
from extractors.governance import generic as governance
from ingest.models import Snapshot
from ingest.sniff import code_data_kind

JS_MODULE = """// the team page reads this
module.exports = {
  'core': [
    {name: 'Jane Roe', github: 'jroe', company: "Example Labs"},,
    {name: 'Max Muster', github: 'mmuster'}, // trailing comma next
  ],
  /* emeriti */
  alumni: [{name: 'Ada Byron', github: 'abyron'}],
}
"""
TS_MODULE = """export const team: Person[] = [
  { name: "Jane Roe", github: "jroe" },
] as const;
export default team;
"""
CUE_FILE = """package example

// two teams, the shorthand and a repeated struct
teams: core: {
\tdescription: "The core team"
\tmembers: [
\t\t{
\t\t\tusername: "jroe"
\t\t\trole:     "maintainer"
\t\t},
\t]
}

teams: docs: members: [{username: "mmuster", role: "member"}]
"""


def claims(body: str, url: str) -> list[tuple[object, ...]]:
    snapshot = Snapshot(url=url, body=body.encode())
    assert extractors.choose(url, snapshot) is governance
    return [
        (c.subject.name, c.subject.github, c.qualifiers.get("section"))
        for c in governance.extract(snapshot)
        if c.predicate == "maintainer"
    ]


def test_a_javascript_data_module_is_read_as_its_tree() -> None:
    url = "https://example.org/site/team-info.js"
    snapshot = Snapshot(url=url, body=JS_MODULE.encode())
    assert _document.format_of(snapshot) == "jsdata"
    assert jsdata.load_js(JS_MODULE)["core"][1] == {"name": "Max Muster", "github": "mmuster"}
    assert claims(JS_MODULE, url) == [
        ("Jane Roe", "jroe", "core"),
        ("Max Muster", "mmuster", "core"),
        ("Ada Byron", "abyron", "alumni"),
    ]
    found = governance.extract(snapshot)
    assert all(c.evidence.quote in JS_MODULE for c in found)  # verbatim quotes
    assert {c.subject.name: c.object for c in found if c.predicate == "affiliation"} == {
        "Jane Roe": "Example Labs"
    }


def test_a_typescript_module_exporting_a_named_literal_and_no_extension_needed() -> None:
    assert jsdata.load_js(TS_MODULE) == [{"name": "Jane Roe", "github": "jroe"}]
    assert code_data_kind("https://example.org/team", JS_MODULE.encode()) == "jsdata"
    assert claims(TS_MODULE, "https://example.org/src/team.ts") == [("Jane Roe", "jroe", None)]


@pytest.mark.parametrize(
    "body",
    [
        "const team = load();\nmodule.exports = team\n",  # a call, not a literal
        "module.exports = {name: 'x'};\nconsole.log(module.exports)\n",  # code follows
        "module.exports = {name: `a ${b}`}\n",  # a template with an expression
        "module.exports = {name: 'x' + y}\n",  # an expression json5 rejects
        "module.exports = {a: [1, 2\n",  # unterminated
        "import x from 'y'\nexport default {a: 1}\n",  # code before
        "module.exports = " + "[" * 5000 + "]" * 5000,  # nested deep: bounded, no crash
    ],
)
def test_a_module_that_is_code_is_not_data_and_does_not_crash(body: str) -> None:
    with pytest.raises(jsdata.Malformed):
        jsdata.load_js(body)
    snapshot = Snapshot(url="https://example.org/app.js", body=body.encode())
    assert _document.format_of(snapshot) not in ("jsdata", "json")
    _document.parse(snapshot)  # read as text, as before


def test_a_large_module_is_not_read_as_data() -> None:
    body = "module.exports = [" + "'x'," * (jsdata.MAX_BYTES // 4) + "]"
    with pytest.raises(jsdata.Malformed):
        jsdata.load_js(body)


def test_a_cue_data_file_merges_its_structs_and_is_read_as_its_tree() -> None:
    assert jsdata.load_cue(CUE_FILE) == {
        "teams": {
            "core": {
                "description": "The core team",
                "members": [{"username": "jroe", "role": "maintainer"}],
            },
            "docs": {"members": [{"username": "mmuster", "role": "member"}]},
        }
    }
    url = "https://example.org/community/teams.cue"
    assert _document.format_of(Snapshot(url=url, body=CUE_FILE.encode())) == "cue"
    names = {(github, section) for _, github, section in claims(CUE_FILE, url)}
    assert names == {("jroe", "core"), ("mmuster", "docs")}


@pytest.mark.parametrize(
    "body",
    [
        "#Person: {name: string}\n",  # a definition
        "a: b + 1\n",  # an expression
        "a: 1\na: 2\n",  # two values
        "a: {b: 1\n",  # unterminated
    ],
)
def test_cue_that_is_more_than_data_is_not_data(body: str) -> None:
    with pytest.raises(jsdata.Malformed):
        jsdata.load_cue(body)
    snapshot = Snapshot(url="https://example.org/x.cue", body=body.encode())
    assert _document.format_of(snapshot) != "cue"


def test_json5_only_syntax_is_read_by_json5_and_bounded() -> None:
    body = "module.exports = {a: 'it\\'s', b: [0x10, +1,], c: {d: null,}}"
    assert jsdata.load_js(body) == {"a": "it's", "b": [16, 1], "c": {"d": None}}
    big = "module.exports = [" + "0x10," * (jsdata.JSON5_MAX_BYTES // 5 + 1) + "]"
    with pytest.raises(jsdata.Malformed):  # json5 is slow: a large literal it alone reads is not
        jsdata.load_js(big)
    fast = "module.exports = [" + "{name: 'Jane Roe', github: 'jroe'}," * 20000 + "]"
    assert len(jsdata.load_js(fast)) == 20000  # JSON but for its quoting: read without json5


def test_many_blank_or_comment_lines_are_read_in_linear_time() -> None:
    lines = "//\n" * 50000 + "\n" * 50000
    assert jsdata.load_js(lines + "module.exports = {a: 1}") == {"a": 1}
    assert jsdata.load_cue("package x\n" + lines + "a: 1\n") == {"a": 1}
