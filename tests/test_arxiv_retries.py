"""arXiv query retries come from Settings (INGEST_ARXIV_RETRIES, INGEST_ARXIV_RETRY_DELAYS)."""

from __future__ import annotations

import pytest

from flows.arxiv_tasks import fetch_metadata, retrying, search_author
from ingest.errors import ConfigError
from ingest.settings import Settings, get_settings


def test_defaults_are_two_retries_after_3_and_10_seconds() -> None:
    task = retrying(fetch_metadata, Settings())
    assert task.retries == 2
    assert task.retry_delay_seconds == [3.0, 10.0]


def test_the_last_delay_repeats_when_there_are_more_retries() -> None:
    task = retrying(search_author, Settings(arxiv_retries=4, arxiv_retry_delays=[1.0, 5.0]))
    assert task.retries == 4
    assert task.retry_delay_seconds == [1.0, 5.0, 5.0, 5.0]
    assert task.retry_condition_fn is not None  # still only transient failures are retried


def test_no_retries() -> None:
    task = retrying(fetch_metadata, Settings(arxiv_retries=0))
    assert task.retries == 0


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("INGEST_ARXIV_RETRIES", "-1"),
        ("INGEST_ARXIV_RETRY_DELAYS", "[-3]"),
        ("INGEST_ARXIV_RETRY_DELAYS", "[]"),
        ("INGEST_MAX_NEW_PDFS", "-2"),
        ("INGEST_UNREACHABLE_AFTER", "0"),
    ],
)
def test_bad_values_are_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=name):
        get_settings()
