"""Issue 28 without a browser: statements as sentences (ingest.statements), the quote at the place
its locator names, the diff of two snapshots around a line, "profile now" for an addition in
`ingest review show`, and `review accept A B C` as ONE decision that `review undo` takes back."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ingest.review.context import nearest_claims, snapshot_diff
from ingest.review.web.evidence import find_quote, highlight
from ingest.settings import Settings
from ingest.statements import change_sentence, notation, person, sentence
from ingest.storage import QueueFilter, Store
from ingest_cli.cli import main

from .test_grouping import affiliation, queue

NVIDIA_PAPERS = ("1605.01234", "1711.04321")
TWICE = (
    "Lead Core Maintainer\nAlban Desmaison (albanD)\n" + "filler line\n" * 30 + "Optimizers "
    "(torch.optim)\nJane Doe (jdoe)\nAlban Desmaison (albanD)\n"
)


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_claims_read_as_sentences() -> None:
    optim = {"predicate": "maintainer", "object": "PyTorch",
             "qualifiers": {"level": "module", "section": "Optimizers (torch.optim)",
                            "scope": "torch.optim", "status": "emeritus"}}  # fmt: skip
    assert sentence(optim) == "Maintainer of PyTorch (torch.optim), emeritus"
    lead = {"predicate": "maintainer", "object": "PyTorch", "qualifiers": {"level": "lead"}}
    assert sentence(lead) == "Lead maintainer of PyTorch"
    paper = {"predicate": "author_of", "object": "arXiv:1912.01703",
             "qualifiers": {"title": "PyTorch: An Imperative Style"}}  # fmt: skip
    assert sentence(paper) == "Author of arXiv:1912.01703 'PyTorch: An Imperative Style'"
    works = ["arXiv:1605.01234", "arXiv:2"]
    org = {"predicate": "affiliation", "object": "NVIDIA",
           "qualifiers": {"work": "arXiv:1605.01234", "works": works}}  # fmt: skip
    assert sentence(org) == "Affiliated with NVIDIA (printed on arXiv:1605.01234 and 1 more)"
    talk = {"predicate": "speaker", "object": "PyTorch Conference",
            "qualifiers": {"date": "2024-04-27", "session": "TorchInductor"}}  # fmt: skip
    assert sentence(talk) == "Speaker at PyTorch Conference: TorchInductor (2024-04-27)"
    current = optim | {"qualifiers": optim["qualifiers"] | {"status": "current"}}
    changed = {"kind": "changed", "claim": optim, "previous": current}
    assert change_sentence(changed) == (
        "Maintainer of PyTorch (torch.optim), emeritus (was: status current)"
    )
    assert change_sentence({"kind": "removed", "claim": None, "previous": lead}) == (
        "Lead maintainer of PyTorch"
    )
    assert notation(changed) == "maintainer PyTorch (status: current -> emeritus)"
    assert person("soumith-chintala", {"soumith-chintala": "Soumith Chintala"}) == (
        "Soumith Chintala"
    )
    assert person("nobody-known", {}) == "nobody-known"


def test_the_quote_is_marked_where_the_locator_says_not_where_it_first_appears() -> None:
    quote = "Alban Desmaison (albanD)"
    first = TWICE.index(quote)
    second = TWICE.index(quote, first + 1)
    assert find_quote(TWICE, quote) == (first, first + len(quote))  # no locator: the first
    span = find_quote(TWICE, quote, "h3 'Optimizers (torch.optim)' > li 2")
    assert span == (second, second + len(quote))
    # a heading the text does not have: the first occurrence, as before
    assert find_quote(TWICE, quote, "h3 'Nowhere' > li 1") == (first, first + len(quote))
    shown = str(highlight(TWICE, quote, context=40, locator="h3 'Optimizers (torch.optim)' > li 2"))
    assert "Jane Doe" in shown.split("<mark>")[0] and "Lead Core" not in shown


def test_a_removal_diff_shows_the_line_the_earlier_snapshot_stated() -> None:
    before = "Core\nAlice (a)\nOptimizers\nAlban Desmaison (albanD)\nCarol (c)\n"
    after = "Core\nAlice (a)\nOptimizers\nCarol (c)\n"
    lines = snapshot_diff(before, after, ("Alban Desmaison (albanD)",))
    gone = [line for line in lines if line.tag == "-"]
    assert [line.text for line in gone] == ["Alban Desmaison (albanD)"] and gone[0].anchor
    assert any(line.text == "Optimizers" and line.tag == " " for line in lines)  # its context
    assert snapshot_diff(before, before, ("Alban",)) == []


def add_nvidia(workspace: Settings, store: Store) -> list[str]:
    """Soumith's profile states NVIDIA from one paper; two other papers print it (two changes
    of one fact): the addition is not new to the profile."""
    path = workspace.profiles_dir / "soumith-chintala.json"
    data = json.loads(path.read_text())
    data["claims"].append(
        {"id": "c-nv", "predicate": "affiliation", "object": "NVIDIA",
         "qualifiers": {"work": "arXiv:1409.99999", "date": "2014-09-01"}, "refs": []}
    )  # fmt: skip
    path.write_text(json.dumps(data, indent=2) + "\n")
    changes = [affiliation(p, org="NVIDIA") for p in NVIDIA_PAPERS]
    queue(store, *changes)
    return [c.id for c in changes]


def test_an_added_fact_shows_what_the_profile_already_states(
    workspace: Settings, store: Store
) -> None:
    ids = add_nvidia(workspace, store)
    code, out, _ = cli("review", "show", ids[0])
    assert code == 0
    assert "profile:   Soumith Chintala (soumith-chintala)" in out
    assert "statement: Affiliated with NVIDIA (printed on arXiv:1605.01234)" in out
    assert "profile now (the nearest it states; other works):" in out
    assert "  Affiliated with NVIDIA (printed on arXiv:1409.99999)" in out
    code, out, _ = cli("review", "show", ids[0], "--json")
    assert [c["object"] for c in json.loads(out)["profile_now"]] == ["NVIDIA"]
    code, out, _ = cli("review", "list")
    assert "Soumith Chintala" in out and "Affiliated with NVIDIA" in out
    assert "soumith-chintala" not in out
    from ingest.profiles.io import load_profile

    profile = load_profile(workspace.profiles_dir / "soumith-chintala.json")
    other = affiliation("1605.01234", org="Google").to_json()
    assert nearest_claims(profile, other) == []


def test_several_ids_on_the_command_line_are_one_decision_undone_whole(
    workspace: Settings, store: Store
) -> None:
    queue(store, affiliation("1511.06434"), affiliation("1605.01234", org="Google"))
    queue(store, affiliation("1711.04321", org="Meta", profile="natalia-gimelshein"))
    ids = [r.id for r in store.queue_rows(QueueFilter(), limit=10)]
    before = {p.name: p.read_bytes() for p in Path(workspace.profiles_dir).glob("*.json")}
    code, out, _ = cli("review", "accept", *ids, "--editor", "ann")
    assert code == 0 and "3 change(s), one decision" in out
    assert "Natalia Gimelshein: Affiliated with Meta" in out
    assert store.count_changes(QueueFilter()) == 0
    entries = store.audit_entries(5)
    assert entries[0]["action"] == "bulk_accepted"
    assert sorted(entries[0]["detail"]["changes"]) == sorted(ids)
    code, out, _ = cli("review", "undo", "--editor", "ann")
    assert code == 0 and sum("pending again" in line for line in out.splitlines()) == 3
    assert store.count_changes(QueueFilter()) == 3
    after = {p.name: p.read_bytes() for p in Path(workspace.profiles_dir).glob("*.json")}
    assert after == before  # both profile files, byte for byte
    code, _out, err = cli("review", "undo", "--editor", "ann")
    assert code == 1 and "no decision to undo" in err
