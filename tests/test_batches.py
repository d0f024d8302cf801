"""How the nightly cuts sources into batches (ingest.batches)."""

from __future__ import annotations

import pytest

from ingest.batches import plan_batches
from ingest.models import Source


def sources(*urls: str) -> list[Source]:
    return [Source(url=u) for u in urls]


def test_batches_keep_order_and_size() -> None:
    found = plan_batches(sources(*(f"https://a.org/{n}" for n in range(7))), 3)
    assert [[s.url[-1] for s in b.sources] for b in found] == [
        ["0", "1", "2"],
        ["3", "4", "5"],
        ["6"],
    ]
    assert all(b.after is None for b in found)
    assert plan_batches([], 3) == []


def test_batches_by_host_hold_one_host_and_chain_its_batches() -> None:
    found = plan_batches(
        sources(
            "https://a.org/1",
            "https://b.org/1",
            "https://a.org/2",
            "http://a.org/3",  # http and https of one name: one host
            "https://a.org:8443/4",  # another port: another host
            "https://a.org/5",
        ),
        2,
        by_host=True,
    )
    assert [[s.url for s in b.sources] for b in found] == [
        ["https://a.org/1", "https://a.org/2"],
        ["http://a.org/3", "https://a.org/5"],
        ["https://b.org/1"],
        ["https://a.org:8443/4"],
    ]
    assert [b.after for b in found] == [None, 0, None, None]


def test_a_url_without_a_host_gets_a_batch_of_its_own_kind() -> None:
    found = plan_batches(sources("not a url", "https://a.org/1", "mailto:x@y.org"), 5, by_host=True)
    assert sum(len(b.sources) for b in found) == 3  # nothing dropped: the fetch reports the error


def test_batch_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        plan_batches(sources("https://a.org/1"), 0)
