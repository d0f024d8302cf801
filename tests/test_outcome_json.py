"""SourceOutcome.to_json: what dataclasses.asdict gave, copies included, without its walk."""

from __future__ import annotations

from dataclasses import asdict

from ingest.pipeline.outcome import SourceOutcome


def test_to_json_is_asdict_and_shares_nothing_mutable() -> None:
    change = {"id": "c1", "kind": "added", "claim": {"qualifiers": {"org": {"ror": "x"}}}}
    outcome = SourceOutcome(
        url="https://example.org/p",
        status="fetched",
        snapshot="ab" * 32,
        claims=3,
        people=2,
        changes=[change],
        alerts=["layout"],
        unknown_people=["A (a)"],
        warnings=["no date"],
        file="/tmp/f.md",
    )
    out = outcome.to_json()
    assert out == asdict(outcome)
    assert list(out) == list(asdict(outcome))  # the same keys in the same order
    out["changes"][0]["claim"]["qualifiers"]["org"]["ror"] = "changed"
    out["alerts"].append("more")
    out["unknown_people"].clear()
    assert change["claim"]["qualifiers"]["org"]["ror"] == "x"  # type: ignore[index]
    assert outcome.alerts == ["layout"] and outcome.unknown_people == ["A (a)"]
    assert SourceOutcome(url="u", status="unchanged").to_json() == asdict(
        SourceOutcome(url="u", status="unchanged")
    )
