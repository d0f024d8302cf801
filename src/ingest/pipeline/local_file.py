"""`ingest run URL --file FILE`: a local file standing for URL's body, and what it may do.

A file is evidence for one day (`Snapshot.evidence_date`: --as-of, else the date the file states,
else today with a warning). Two rules keep an old file from rewriting the present:

- the diff's history guard takes that day as the document's date, so a file never removes a fact
  newer than itself (a role `since` a later day is history the file could not know);
- a file older than the newest snapshot of the same URL already stored is **refused**
  (`OlderFileError`: exit 1, the file and both days named, nothing stored). Refused rather than
  read with a warning, because an editor gives a file to bring a page up to date, and an older
  copy cannot: its additions are people the newer snapshot already read (or no longer lists),
  its removals would take back what the newer snapshot shows, and once stored it would become
  the page's last snapshot, the one the next nightly compares with. An editor who wants the page
  as it was has the replay archive for that (`ingest nightly --replay DIR --as-of DATE`), which
  marks everything it queues as historical.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ingest.errors import OlderFileError
from ingest.models import Snapshot

if TYPE_CHECKING:
    from ingest.storage import Store


def refuse_older_file(store: Store, url: str, snapshot: Snapshot, file: str | None) -> None:
    """OlderFileError when `snapshot` (read from a file) is evidence for an earlier day than the
    newest stored snapshot of `url`; the same bytes already stored are not older than themselves.
    Reads only: call it before anything is stored."""
    newest = store.newest_snapshot(url)
    if newest is None or newest.sha256 == snapshot.sha256 or not newest.evidence_date:
        return
    day = snapshot.evidence_date or ""
    if day < newest.evidence_date:
        raise OlderFileError(
            file or "(local file)",
            url,
            day,
            snapshot.evidence_basis or "given",
            newest.evidence_date,
        )


def file_warnings(snapshot: Snapshot, file: str | None) -> list[str]:
    """What an editor should hear about a file's date: none stated, so today was assumed."""
    if snapshot.evidence_basis != "assumed":
        return []
    return [
        f"file '{file or '(local file)'}' states no date: taken as evidence for today "
        f"({snapshot.evidence_date}); if it is older, give its day with --as-of DATE"
    ]
