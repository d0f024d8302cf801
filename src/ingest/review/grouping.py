"""One decision per fact: which pending changes state the same fact for one profile (the key:
`ingest.fact_identity.fact_key`), and how each source of a fact is named to an editor.

Two changes are one fact when they have the same profile, kind, predicate and object (folded),
the same previous profile claim (for `changed` and `removed`) and the same qualifiers that
define the fact. Qualifiers that only say where a source printed it (`work`, `date`,
`affiliation_text`, `position`, `title`, `published`, `since`, `until`, `event`, `section` when
a `scope` is given or the level is lead or core, the page's heading `group`, `locator`-like
details) do not: the same affiliation printed on three papers,
or the same role on the governance page and in an announcement, is one fact with three (two)
sources. An editor decides a fact once; the count of facts is the count of flags everywhere
(the nightly's summary, the run report, `ingest review list`, the review page).

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ingest.storage import SourceRow


def source_label(change: Mapping[str, Any], title: str | None = None) -> str:
    """What tells this change's source apart from the others stating the same fact: the paper
    (id, and its title when known: the claim's, else `title`, the source's registered title) for
    arXiv, else the source's URL."""
    claim = change.get("claim") or {}
    q = claim.get("qualifiers") or {}
    work = q.get("work") or (claim.get("object") if claim.get("predicate") == "author_of" else None)
    url = str(change.get("source_url") or "")
    if not work and "arxiv.org/" in url:
        work = "arXiv:" + url.rstrip("/").rsplit("/", 1)[-1]
    if work:
        name = q.get("title") or (title.split(", paper PDF")[0] if title else None)
        return f"{work} {name}" if name else str(work)
    return url


def source_titles(rows: Mapping[str, SourceRow]) -> dict[str, str]:
    """Source URL -> its registered title, from `Store.source_states` rows."""
    return {url: row.title for url, row in rows.items() if row.title}
