"""Profile files read with bounds (issue 29): size, string length, claims count and nesting,
each refused in about a second with an error naming the file."""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import pytest

from ingest.errors import ProfileError
from ingest.profiles.io import ProfileLimits, load_profile, load_profiles

MIB = 1 << 20


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_a_200_mb_name_is_refused_at_once_in_little_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("w") as out:
        out.write('{"id": "huge", "name": "')
        chunk = "a" * MIB
        for _ in range(200):
            out.write(chunk)
        out.write('"}')
    before, start = peak_rss_mib(), time.monotonic()
    with pytest.raises(ProfileError, match="INGEST_MAX_PROFILE_BYTES") as caught:
        load_profiles(tmp_path)
    assert time.monotonic() - start < 1.0
    assert peak_rss_mib() - before < 50
    assert str(path) in str(caught.value)


def test_300000_claims_are_refused_in_a_second(tmp_path: Path) -> None:
    claims = [{"id": f"c{i}", "predicate": "maintainer", "object": "X"} for i in range(300_000)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps({"id": "many", "name": "Many", "claims": claims}))
    limits = ProfileLimits(max_bytes=100 * MIB)  # the size alone would refuse it first
    start = time.monotonic()
    with pytest.raises(ProfileError, match="300000 claims.*INGEST_MAX_PROFILE_CLAIMS") as caught:
        load_profile(path, limits)
    assert time.monotonic() - start < 1.5
    assert str(path) in str(caught.value)


def test_a_long_string_is_refused_naming_where(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"id": "long", "name": "N", "aliases": ["x" * 20_000]}))
    with pytest.raises(ProfileError, match=r"aliases\.0.*INGEST_MAX_PROFILE_STRING") as caught:
        load_profile(path)
    assert str(path) in str(caught.value)


def test_deep_nesting_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(
        '{"id": "deep", "name": "D", "accounts": ' + "[" * 100_000 + "]" * 100_000 + "}"
    )
    start = time.monotonic()
    with pytest.raises(ProfileError, match="nested") as caught:
        load_profile(path)
    assert time.monotonic() - start < 1.0
    assert str(path) in str(caught.value)


def test_a_bounded_profile_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    claims = [{"id": f"c{i}", "predicate": "maintainer", "object": "X"} for i in range(100)]
    path.write_text(json.dumps({"id": "ok", "name": "Ok", "claims": claims}))
    assert len(load_profile(path).claims) == 100


def test_a_file_read_again_is_checked_again_once_its_bytes_change(tmp_path: Path) -> None:
    """Bytes that passed the bounds are not walked again (profiles.io._Checked, issue 30), but
    a file rewritten with the same size and times is checked again (the key is its content),
    and the same bytes under tighter bounds are refused."""
    path = tmp_path / "ann.json"
    path.write_text(json.dumps({"id": "ann", "name": "Ann", "aliases": ["x" * 600, "y" * 600]}))
    limits = ProfileLimits(max_string=1000)
    first, again = load_profile(path, limits), load_profile(path, limits)
    assert first == again and first is not again  # each read is its own copy to change
    first.aliases.append("changed")
    assert load_profile(path, limits).aliases == ["x" * 600, "y" * 600]
    with pytest.raises(ProfileError, match=r"aliases\.0.*INGEST_MAX_PROFILE_STRING"):
        load_profile(path, ProfileLimits(max_string=500))
    stat = path.stat()
    path.write_text(json.dumps({"id": "ann", "name": "Ann", "aliases": ["z" * 1204]}))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns
    with pytest.raises(ProfileError, match=r"aliases\.0.*INGEST_MAX_PROFILE_STRING"):
        load_profile(path, limits)
