"""The garbage collector's settings during a nightly (flows.nightly_core): the young generation
larger while the run lasts, no automatic collection while its report is made, and both put
back after, so a process that goes on (a runner) collects as before."""

from __future__ import annotations

import gc

import pytest

from flows.nightly_core import RUN_GC_THRESHOLD, collection_paused, heap_frozen


def test_heap_frozen_sets_the_run_thresholds_and_puts_them_back() -> None:
    before = gc.get_threshold()
    with heap_frozen():
        assert gc.get_threshold() == RUN_GC_THRESHOLD
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before


def test_heap_frozen_puts_them_back_when_the_run_fails() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), heap_frozen():
        raise RuntimeError("the run failed")
    assert gc.get_threshold() == before


def test_collection_paused_enables_the_collector_again() -> None:
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collection_paused():
        assert not gc.isenabled()
        raise RuntimeError("the report failed")
    assert gc.isenabled()


def test_collection_paused_leaves_a_disabled_collector_disabled() -> None:
    gc.disable()
    try:
        with collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
