"""One source, end to end after the fetch: store, extract, resolve, guard, diff, enqueue.

Plain functions over an open Store; the Prefect flows call these from coarse tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date
from email.utils import parsedate_to_datetime
from itertools import islice
from typing import TYPE_CHECKING, Any

from ingest.diff.changes import DiffInput, detect_renames, plan
from ingest.diff.moves import drop_explained
from ingest.diff.resolve import Resolver
from ingest.documents import check_parse_size, looks_like_login
from ingest.errors import IngestError, ReplayMissError
from ingest.extraction import ExtractorSet
from ingest.models import Change, Claim, Profile, Snapshot, Source, iso_z, utcnow
from ingest.names import fold
from ingest.pipeline.outcome import OutcomeStatus, SourceOutcome
from ingest.settings import Settings, get_settings

if TYPE_CHECKING:  # the database layer loads only where a step uses it: `ingest extract` never
    from ingest.storage import SourceRow, Store


class Unread:
    """A source's row the caller did not read (`UNREAD`): the step reads it."""


UNREAD = Unread()


def people_of(claims: list[Claim]) -> set[str]:
    return {c.subject.github or fold(c.subject.name) for c in claims}


@dataclass(frozen=True)
class Extracted:
    """The claims kept from one document, and how many it gave in all (more: some dropped)."""

    claims: list[Claim]
    total: int

    @property
    def dropped(self) -> int:
        return self.total - len(self.claims)


def capped(claims: Iterable[Claim], limit: int | None) -> Extracted:
    """The first `limit` claims (all with None); the rest are counted, not kept."""
    rest = iter(claims)
    kept = list(islice(rest, limit))
    return Extracted(kept, len(kept) + sum(1 for _ in rest))


def cap_alert(snapshot: Snapshot, extracted: Extracted) -> str:
    return (
        f"claims capped at {len(extracted.claims)} of {extracted.total} from '{snapshot.url}' "
        f"(INGEST_MAX_CLAIMS): {extracted.dropped} dropped, no removals flagged"
    )


def extract_claims(
    snapshot: Snapshot,
    extractor_name: str | None,
    source_url: str,
    settings: Settings | None = None,
    *,
    extractors: ExtractorSet,
) -> tuple[str, Extracted]:
    """The claims of one document (`ingest extract`), at most INGEST_MAX_CLAIMS of them (the rest
    counted: `cap_alert`); a text document over its parse limit is refused first
    (DocumentTooLargeError). `extractors`: the set to choose from."""
    settings = settings or get_settings()
    check_parse_size(snapshot, settings)
    module = extractors.choose(source_url, snapshot, extractor_name)
    return extractors.tag(module), capped(
        extractors.claims_of(module, snapshot), settings.max_claims
    )


def process_snapshot(
    store: Store,
    settings: Settings,
    source: Source,
    snapshot: Snapshot,
    profiles: dict[str, Profile],
    *,
    status: OutcomeStatus = "fetched",
    extractor_name: str | None = None,
    accessed: date | None = None,
    extract: Callable[[Snapshot], Iterable[Claim]] | None = None,
    extractors: ExtractorSet,
    source_state: dict[str, Any] | None = None,
    row: SourceRow | None | Unread = UNREAD,
) -> SourceOutcome:
    """Extract (or reuse the stored claims of an unchanged snapshot), diff and enqueue.
    `extractors`: the set the source's extractor is chosen from (the caller's: ingest does not
    import them). `extract`: how the chosen extractor reads this snapshot, when it needs more
    than the snapshot (a paper's PDF with the paper's metadata).

    Bounded: a text document over INGEST_MAX_PARSE_BYTES is refused before any parser reads it
    (DocumentTooLargeError: the caller records the source as failed, nothing stored changes);
    at most INGEST_MAX_CLAIMS claims are kept, with an alert (and then no removals).
    `source_state`: more of the source's row to write with the check's own update (the fetch's
    validators): one write, not two. `row`: the source's row as the caller read it in this
    transaction (None: it has none), so it is not read again."""
    check_parse_size(snapshot, settings)
    fresh = store.put_snapshot(snapshot)  # new: no claims can be stored for it yet
    name = extractor_name or source.extractor or _stored_choice(store, snapshot, extractors)
    module = extractors.choose(source.url, snapshot, name)
    tag = extractors.tag(module)
    read: Callable[[Snapshot], Iterable[Claim]] = extract or (
        lambda snap: extractors.claims_of(module, snap)
    )
    extracted = bounded_extraction(
        store, snapshot, source.url, tag, read, settings.max_claims, fresh=fresh
    )
    return process_claims(
        store,
        settings,
        source,
        snapshot,
        extracted.claims,
        profiles,
        status=status,
        extractor=module.NAME,
        tag=tag,
        accessed=accessed,
        alerts=[cap_alert(snapshot, extracted)] if extracted.dropped else [],
        source_state=source_state,
        row=row,
    )


def _stored_choice(store: Store, snapshot: Snapshot, extractors: ExtractorSet) -> str | None:
    """The extractor that read these very bytes before, when its version is still the current
    one: choosing by content parses the page, which an unchanged page need not pay again."""
    tags = {claim.extractor for claim in store.claims_for(snapshot.sha256)}
    if len(tags) != 1:
        return None
    name = next(iter(tags)).split("/", 1)[0]
    try:
        module = extractors.get(name)
    except IngestError:
        return None
    return name if extractors.tag(module) in tags else None


def stored_or_extracted(
    store: Store,
    snapshot: Snapshot,
    source_url: str,
    tag: str,
    extract: Callable[[Snapshot], list[Claim]],
) -> list[Claim]:
    """The claims stored for this snapshot by this extractor version, else extracted now (and
    stored): an unchanged document is never extracted twice, a new extractor version re-reads."""
    return bounded_extraction(store, snapshot, source_url, tag, extract, None).claims


def bounded_extraction(
    store: Store,
    snapshot: Snapshot,
    source_url: str,
    tag: str,
    extract: Callable[[Snapshot], Iterable[Claim]],
    limit: int | None,
    *,
    fresh: bool = False,
) -> Extracted:
    """`stored_or_extracted`, keeping at most `limit` claims. A capped extraction is not stored:
    each run reads the document again (a bounded read) and says it was capped. `fresh`: the
    snapshot's row was stored just now (in this transaction), so no claims of it are stored
    yet: none are looked up."""
    found = [] if fresh else store.claims_for(snapshot.sha256)
    if found and all(c.extractor == tag for c in found):
        return Extracted(found, len(found))
    extracted = capped(extract(snapshot), limit)
    if not extracted.dropped:
        store.put_claims(snapshot.sha256, source_url, extracted.claims, fresh=fresh)
    return extracted


def process_claims(
    store: Store,
    settings: Settings,
    source: Source,
    snapshot: Snapshot,
    found: list[Claim],
    profiles: dict[str, Profile],
    *,
    status: OutcomeStatus,
    extractor: str,
    tag: str,
    layout_guard: bool = True,
    accessed: date | None = None,
    alerts: list[str] | None = None,
    source_state: dict[str, Any] | None = None,
    row: SourceRow | None | Unread = UNREAD,
) -> SourceOutcome:
    """Resolve, guard, diff and enqueue the claims one source states in a stored snapshot.

    `layout_guard=False` is for answers that may rightly be empty (a search finding nothing):
    they raise no layout alert (and, being authoritative for nothing, remove nothing).
    `accessed`: the day the source was really fetched (not replayed, not an editor's file): the
    profiles' references to it get that `accessed` date when the snapshot holds.
    `alerts`: what the extraction already had to say (claims capped): the snapshot is then not
    healthy (no removals), as with a layout alert.
    `source_state`: more of the source's row, written in the same update.

    The snapshot may hold more than this source's claims (an arXiv batch answer covers up to
    100 papers): the caller passes only this source's share in `found`.
    """
    from ingest.pipeline.settled import settle_key, settled_record  # the database layer: here only
    from ingest.profiles.references import cited, refresh_accessed
    from ingest.review.queue import enqueue

    outcome = SourceOutcome(
        url=source.url,
        status=status,
        snapshot=snapshot.sha256,
        final_url=snapshot.url,
        extractor=tag,
        claims=len(found),
        alerts=list(alerts or []),
    )
    state = store.source_state(source.url) if isinstance(row, Unread) else row
    previous_sha = state.last_sha256 if state else None

    # organisations resolved after extraction (extractors stay pure): the diff compares them
    found, compared = resolve_orgs(settings, found, profiles)
    resolver = Resolver(profiles)
    resolved: list[tuple[str, Claim]] = []
    unknown: dict[str, str] = {}
    for claim in found:
        pid = resolver.resolve(claim.subject)
        if pid is None:
            label = claim.subject.name + (
                f" ({claim.subject.github})" if claim.subject.github else ""
            )
            unknown.setdefault(claim.subject.github or fold(claim.subject.name), label)
        else:
            resolved.append((pid, claim))
    outcome.unknown_people = sorted(unknown.values(), key=fold)

    people = len(people_of(found))
    outcome.people = people
    # the last version of this page (or of the same kind of page seen under another URL, e.g.
    # the Markdown beside the HTML): its headings renamed since, its people gone since
    before_sha = previous_sha or store.latest_sha_for_extractor(extractor, source.url)
    before = store.claims_for(before_sha) if before_sha and before_sha != snapshot.sha256 else []
    if layout_guard:

        def taken_off() -> bool:  # the lists that held the people gone are gone from the page
            text = snapshot.text() if _is_text(snapshot) else None
            return bool(previous_sha and before) and drop_explained(
                before, found, text, settings.layout_min_ratio
            )

        outcome.alerts.extend(
            layout_alerts(
                snapshot,
                people,
                state.people_count if state else None,
                settings.layout_min_ratio,
                explained=taken_off,
            )
        )
    healthy = not outcome.alerts

    renames: dict[str, str] = detect_renames(before, found) if before else {}
    diffed = plan(
        DiffInput(
            source=source,
            snapshot_sha256=snapshot.sha256,
            resolved=resolved,
            profiles=compared,
            allow_removals=healthy,
            renames=renames,
            extractor=tag,
            now=iso_z(utcnow()),
            document_date=document_date(snapshot),
            page_claims=found,
            page_text=snapshot.text() if layout_guard and _is_text(snapshot) else None,
        )
    )
    proposed = diffed.changes
    if diffed.alerts:  # a list still printed that no one was read from: no removals
        outcome.alerts.extend(diffed.alerts)
        healthy = False
    result = enqueue(store, proposed, source.url, snapshot.sha256, retire_stale=healthy)
    pending = set(result.new + result.refreshed + result.reopened)
    outcome.changes = [store_change(store, c.id) for c in proposed if c.id in pending]

    update: dict[str, Any] = {
        **(source_state or {}),
        "last_status": status,
        "last_checked": iso_z(utcnow()),
        "fail_streak": 0,
        "last_error": None,
        "extractor": extractor,
    }
    if healthy:
        update["last_sha256"] = snapshot.sha256
        update["people_count"] = people
    update["settled"] = None
    if healthy and not renames:  # a renaming diff is not what the next unchanged check gives
        key = settle_key(snapshot.sha256, tag, profiles, settings.layout_min_ratio)
        statuses = store.change_statuses([c.id for c in proposed])
        update["settled"] = settled_record(key, outcome, statuses, snapshot.url)
    store.update_source_state(source.url, **update)
    if healthy and accessed is not None and cited(profiles, source.url):
        refresh_accessed(store, settings.profiles_dir, source.url, accessed)
    return outcome


def resolve_orgs(
    settings: Settings, claims: list[Claim], profiles: dict[str, Profile]
) -> tuple[list[Claim], dict[str, Profile]]:
    """The claims with `qualifiers.org` on resolved affiliations, and the profiles (copies)
    likewise; the registry and model load once per process, and only when an affiliation is
    there to resolve."""
    if not any(c.predicate == "affiliation" for c in claims):
        return claims, profiles
    from ingest.orgs.claims import profiles_with_orgs, with_orgs
    from ingest.orgs.model import shared_resolver

    matcher = shared_resolver(settings.ror_dump)
    return with_orgs(claims, matcher), profiles_with_orgs(profiles, matcher)


def _is_text(snapshot: Snapshot) -> bool:
    return not snapshot.content_type.endswith("pdf")


def document_date(snapshot: Snapshot) -> str | None:
    """When the document last changed, as its response says: Last-Modified, or the date of the
    replayed recording, or for a local file the day it is evidence for (--as-of, its stated
    date, else today). None when it does not say."""
    if snapshot.origin == "file":
        return snapshot.evidence_date
    recorded = snapshot.headers.get("x-ingest-replay-date")
    if recorded:
        return recorded[:10]
    modified = snapshot.headers.get("last-modified")
    if modified:
        try:
            return parsedate_to_datetime(modified).date().isoformat()
        except (TypeError, ValueError):
            return None
    return None


def layout_alerts(
    snapshot: Snapshot,
    people: int,
    before: int | None,
    min_ratio: float,
    explained: Callable[[], bool] | None = None,
) -> list[str]:
    """Signs that a snapshot lost its structure: then it flags no removals. Far fewer people
    than last time is no such sign when `explained()` says the page took their lists off
    (asked only then: it reads the page's text)."""
    alerts = []
    if not people:
        alerts.append(f"layout: no list of people found in '{snapshot.url}'; no removals flagged")
    elif before and people < min_ratio * before and not (explained and explained()):
        alerts.append(
            f"layout: '{snapshot.url}' lists {people} people, {before} last time; "
            "no removals flagged"
        )
    if looks_like_login(snapshot):
        alerts.append(f"layout: '{snapshot.url}' looks like a login page; no removals flagged")
    return alerts


def store_change(store: Store, change_id: str) -> dict[str, Any]:
    row = store.get_change(change_id)
    assert row is not None
    return row.to_change().to_json()


def record_failure(
    store: Store,
    source: Source,
    error: IngestError | Exception,
    *,
    fetch: bool = False,
    run_id: str | None = None,
) -> SourceOutcome:
    """A failed source: noted, nothing stored before is touched. `fetch`: the failure was a
    fetch (or what came of one), so the fetch log gets a `failed` row too (`run_id`'s).

    A URL the replay archive has no recording of is `skipped`, not failed: it says nothing of
    the source, so it does not count towards the source's run of failures.
    """
    if fetch:
        store.record_fetch(source.url, "failed", error=str(error), run_id=run_id)
    if isinstance(error, ReplayMissError):
        return SourceOutcome(
            url=source.url, status="skipped", error=str(error), alerts=[f"not replayed: {error}"]
        )
    state = store.source_state(source.url)
    streak = int((state.fail_streak if state else 0) or 0) + 1
    store.update_source_state(
        source.url,
        last_status="failed",
        last_checked=iso_z(utcnow()),
        fail_streak=streak,
        last_error=str(error),
    )
    return SourceOutcome(
        url=source.url, status="failed", error=str(error), alerts=[f"failed: {error}"]
    )


def combine(primary: SourceOutcome, *others: SourceOutcome) -> SourceOutcome:
    """One outcome for a run that read several documents for one URL (a paper's metadata and
    its PDF): the primary's status and snapshot, everyone's claims, flags and alerts."""
    out = replace(
        primary,
        changes=list(primary.changes),
        alerts=list(primary.alerts),
        unknown_people=list(primary.unknown_people),
    )
    for other in others:
        out.claims += other.claims
        out.changes += [c for c in other.changes if c not in out.changes]
        out.alerts += other.alerts
        out.unknown_people = sorted(set(out.unknown_people) | set(other.unknown_people))
        if other.status == "failed" and not out.error:
            out.alerts.append(f"{other.url}: {other.error}")
    return out


def changes_of(outcomes: list[SourceOutcome]) -> list[Change]:
    return [Change.model_validate(c) for o in outcomes for c in o.changes]
