"""A bulk decision in one transaction (ingest.review.decisions.decide_many, the review page's bulk
accept) leaves exactly what deciding its changes one by one leaves: the same profile files, the
same decisions with the same texts before and after each, the same conflicts, and an undo that
takes the whole bulk back to the same bytes."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from ingest.errors import AlreadyDecidedError
from ingest.models import Change
from ingest.review.decisions import decide, decide_many, undo_last
from ingest.settings import BUNDLED_PROFILES, Settings
from ingest.storage import Store
from ingest.storage.schema import decisions

from .test_grouping import affiliation, queue

TODAY = date(2026, 12, 1)
BULK = "b" * 32


def _changes() -> list[Change]:
    """Facts for three people; two papers stating one fact (decided together), five orgs."""
    found = [
        affiliation("1511.06434"),
        affiliation("1701.07875"),  # the same fact as the first
        affiliation("1701.07875", "Meta"),
        affiliation("1912.01703", "NVIDIA", profile="natalia-gimelshein"),
        affiliation("1912.01703", "Meta", profile="alban-desmaison"),
        affiliation("2006.16668", "Google", profile="alban-desmaison"),
        affiliation("2006.16668", "Quansight"),
    ]
    return found


def _workspace(root: Path) -> tuple[Settings, Store]:
    shutil.copytree(BUNDLED_PROFILES, root / "profiles")
    settings = Settings(home=root / "home", profiles_dir=root / "profiles")
    store = Store.open(settings)
    queue(store, *_changes())
    # another editor came first for one of them: a conflict either way
    decide(store, settings.profiles_dir, _changes()[2].id, "rejected", "bob", today=TODAY)
    return settings, store


def _recorded(store: Store) -> list[tuple[Any, ...]]:
    query = sa.select(
        decisions.c.change_id,
        decisions.c.status,
        decisions.c.editor,
        decisions.c.profile_path,
        decisions.c.profile_before,
        decisions.c.profile_after,
        decisions.c.bulk,
    ).order_by(decisions.c.id)
    with store.begin() as conn:
        return [
            (*row[:3], Path(row[3]).name if row[3] else None, *row[4:])
            for row in conn.execute(query)
        ]


def _texts(settings: Settings) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in settings.profiles_dir.glob("*.json")}


@pytest.mark.parametrize("status", ["accepted", "rejected"])
def test_a_bulk_in_one_transaction_leaves_what_one_by_one_leaves(
    tmp_path: Path, status: str
) -> None:
    one_settings, one = _workspace(tmp_path / "one-by-one")
    many_settings, many = _workspace(tmp_path / "at-once")
    original = _texts(one_settings)
    ids = [c.id for c in _changes()]
    conflicts: list[tuple[str, str, str | None]] = []
    decided = []
    for change_id in ids:
        try:
            decided.append(
                decide(
                    one,
                    one_settings.profiles_dir,
                    change_id,
                    status,
                    "ann",
                    "checked",
                    TODAY,
                    bulk=BULK,
                    audit=False,
                )  # fmt: skip
            )
        except AlreadyDecidedError as exc:
            conflicts.append((change_id, exc.fields["status"], exc.fields["by"]))
    done = decide_many(
        many, many_settings.profiles_dir, ids, status, "ann", "checked", BULK, today=TODAY
    )
    assert [d.change.id for d in done.done] == [d.change.id for d in decided]
    assert [[c.id for c in d.group] for d in done.done] == [
        [c.id for c in d.group] for d in decided
    ]
    assert [
        (e.fields["change_id"], e.fields["status"], e.fields["by"]) for e in done.conflicts
    ] == conflicts
    # the fact of two papers went in one decision; the change bob rejected, and the second
    # paper of that fact (decided with the first), are conflicts
    assert (ids[2], "rejected", "bob") in conflicts and (ids[1], status, "ann") in conflicts
    assert done.failed == []
    assert _recorded(many) == _recorded(one)
    assert _texts(many_settings) == _texts(one_settings)
    if status == "accepted":
        assert _texts(many_settings) != original
    undo_last(many, many_settings.profiles_dir, "ann")
    undo_last(one, one_settings.profiles_dir, "ann")
    assert _texts(many_settings) == _texts(one_settings) == original
    one.close()
    many.close()
