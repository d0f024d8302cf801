"""What every flow opens first: settings, store, profiles, and one HTTP client for the run (the
fetch layer, httpx with it, imported when a client is made: a run of a local file makes none)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ingest.models import Profile
from ingest.profiles.io import ProfileLimits, load_profiles
from ingest.settings import Settings, ensure_profiles, get_settings
from ingest.storage import Store

if TYPE_CHECKING:  # the arxiv package (0.35 s) is imported by the runs that read arXiv only
    import httpx

    from ingest.fetch.arxiv_client import ArxivClient
    from ingest.fetch.arxiv_session import AtomPage
    from ingest.fetch.polite import PoliteFetcher
    from ingest.fetch.warc import WarcWriter


def replay_of(settings: Settings, replay: str | None) -> str | None:
    """The replay archive a run reads: its `replay` argument, else INGEST_REPLAY, else none."""
    return replay or (str(settings.replay) if settings.replay else None)


def open_client(
    settings: Settings,
    replay: str | None = None,
    as_of: date | None = None,
    archive: WarcWriter | None = None,
) -> httpx.Client:
    """An HTTP client for `settings`: from the replay archive, else live (archived to `archive`)."""
    from ingest.fetch.client import make_client
    from ingest.fetch.replay import ReplayArchive

    replay = replay_of(settings, replay)
    if replay:
        return make_client(settings, transport=ReplayArchive.load(Path(replay)).transport(as_of))
    return make_client(settings, archive=archive)


@dataclass
class RunContext:
    settings: Settings
    store: Store
    profiles: dict[str, Profile]
    archive: WarcWriter | None = None

    @classmethod
    def open(cls) -> RunContext:
        settings = get_settings()
        # the workspace's copy, seeded once, read within INGEST_MAX_PROFILE_*
        profiles = load_profiles(ensure_profiles(settings), ProfileLimits.of(settings))
        store = Store.open(settings)
        return cls(settings=settings, store=store, profiles=profiles)

    def client(self, replay: str | None = None, as_of: date | None = None) -> httpx.Client:
        """The run's HTTP client: live ones archive every exchange as WARC under INGEST_HOME."""
        from ingest.fetch.warc import WarcWriter

        if self.archive is None and not replay_of(self.settings, replay):
            self.archive = WarcWriter(self.settings.warc_dir)
        return open_client(self.settings, replay, as_of, self.archive)

    def archive_pages(self, pages: list[AtomPage]) -> None:
        """Archive arXiv's answers too (its client speaks requests, not our fetch layer)."""
        if self.archive is not None:
            for page in pages:
                self.archive.write_page(page.url, page.status, page.headers, page.body)

    def fetcher(self, client: httpx.Client) -> PoliteFetcher:
        """robots.txt, per-host pacing and the run's only retries around `client`."""
        from ingest.fetch.polite import PoliteFetcher

        return PoliteFetcher(client, self.settings)

    def arxiv_client(self, replay: str | None = None, as_of: date | None = None) -> ArxivClient:
        """arXiv's API through the arxiv package; in replay mode, from the archive, undelayed."""
        from ingest.fetch.arxiv_client import ArxivClient
        from ingest.fetch.replay import ReplayArchive
        from ingest.fetch.replay_requests import replay_session

        replay = replay_of(self.settings, replay)
        if replay:
            session = replay_session(ReplayArchive.load(Path(replay)), as_of)
            return ArxivClient(self.settings, session=session, delay_seconds=0.0)
        return ArxivClient(
            self.settings,
            query_url_format=self.settings.arxiv_api_url + "?{}",
            delay_seconds=self.settings.arxiv_delay,
        )

    def close(self) -> None:
        if self.archive is not None:
            self.archive.close()
        self.store.close()
