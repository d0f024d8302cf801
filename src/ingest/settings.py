"""Every setting in one place, each described. Read from INGEST_* environment variables."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Annotated, Self

from pydantic import (
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from ingest.errors import ConfigError

PROJECT_ROOT = Path(__file__).resolve().parents[2]
BUNDLED_PROFILES = PROJECT_ROOT / "fixtures" / "profiles"
BUNDLED_WEB = PROJECT_ROOT / "fixtures" / "web"
BUNDLED_SOURCES = PROJECT_ROOT / "fixtures" / "sources.json"
# arXiv's hosts: its API and its abstract and PDF pages share INGEST_ARXIV_DELAY
ARXIV_HOSTS = frozenset({"arxiv.org", "export.arxiv.org"})


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="INGEST_", extra="ignore", allow_inf_nan=False)

    home: Path = Field(
        default=PROJECT_ROOT / "output",
        description="Workspace for the database, snapshots and run reports.",
    )
    profiles_dir: Path = Field(
        default=Path("profiles"),
        description="Folder of profile files, one <id>.json each. Default: INGEST_HOME/profiles, "
        "a workspace copy of the bundled profiles (fixtures/profiles/) made on first use and "
        "never overwritten afterwards, so that runs and accepts never write git-tracked files. "
        "A folder given here is used as it is (never seeded).",
    )
    sources_file: Path = Field(
        default=BUNDLED_SOURCES,
        description="The source registry: a JSON list of sources the nightly refresh checks.",
    )
    ror_dump: Path | None = Field(
        default=None,
        description="A full ROR data dump to resolve organisations against instead of the "
        "bundled index (src/ingest/orgs/data/ror-index.json.gz, 51,370 organisations): the "
        "schema v2 JSON ROR publishes with each release (`.json`, or the release's `.zip`), "
        "a one-object-a-line file in ../shared/orgs/ror-orgs.jsonl.gz's fields, or an index "
        "written by `ingest orgs build --out`.",
    )
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy URL; default is a SQLite file inside INGEST_HOME.",
    )
    http_timeout: float = Field(
        default=30.0, gt=0, description="Seconds before a connect or a single read times out."
    )
    fetch_deadline: float = Field(
        default=120.0,
        gt=0,
        description="Seconds one attempt at a URL may take in all: connect, redirects and every "
        "read of the body (a server trickling a byte a second is cut off here). Default: "
        "4 x INGEST_HTTP_TIMEOUT (120 s at its default).",
    )
    source_deadline: float = Field(
        default=600.0,
        gt=0,
        description="Seconds all attempts at one source may take, the waits between them included. "
        "Default: 5 x INGEST_FETCH_DEADLINE (600 s at its default).",
    )
    max_bytes: int = Field(
        default=50 * 1024 * 1024,
        ge=1,
        description="Largest body accepted, counted after decoding every Content-Encoding layer; "
        "also the largest file `--file` and `ingest extract` read.",
    )
    max_parse_bytes: int = Field(
        default=5 * 1024 * 1024,
        ge=1,
        description="Largest HTML page or feed handed to a parser; a larger one is refused with "
        "an error naming the URL (PDFs: INGEST_MAX_BYTES). A 5 MB page of 150,000 people "
        "reads in about 13 s and 250 MB.",
    )
    max_markup_bytes: int = Field(
        default=512 * 1024,
        ge=1,
        description="Largest Markdown, reST, YAML, JSON or plain-text document handed to a "
        "parser, refused like one over INGEST_MAX_PARSE_BYTES: their parsers take 150-280 MB "
        "and 8-11 s for 1 MB (the largest real one seen is 77 kB).",
    )
    max_claims: int = Field(
        default=20_000,
        ge=1,
        description="Most claims taken from one document; the rest are dropped with an alert.",
    )
    max_profile_bytes: int = Field(
        default=2 * 1024 * 1024,
        ge=1,
        description="Largest profile file read (the bundled ones are under 8 kB); a larger one "
        "is refused naming the file, before it is read.",
    )
    max_profile_string: int = Field(
        default=10_000,
        ge=1,
        description="Longest string (name, alias, quote, title, URL) in a profile file; a "
        "longer one is refused naming the file and where in it.",
    )
    max_profile_claims: int = Field(
        default=5_000,
        ge=1,
        description="Most claims (and most references) in one profile file; more are refused "
        "naming the file.",
    )
    max_feed_entries: int = Field(
        default=500,
        ge=1,
        description="Most entries read from one feed; older ones beyond it are dropped with an "
        "alert.",
    )
    user_agent: str = Field(
        default="ingest/0.1 (AI People Wiki source checker; +mailto:wiki-editors@example.org)",
        description="User-Agent naming the wiki and a contact address.",
    )
    allow_private: bool = Field(
        default=False,
        description="Allow URLs resolving to loopback, private, link-local or metadata addresses.",
    )
    arxiv_api_url: str = Field(
        default="https://export.arxiv.org/api/query",
        description="arXiv's API endpoint (a mirror, or a loopback server in tests).",
    )
    arxiv_delay: float = Field(
        default=3.0,
        ge=0,
        description="Seconds between two requests to arXiv (its terms ask for 3): the API "
        "client's pause between queries, and the pacing floor of arxiv.org and export.arxiv.org "
        "for the PDFs fetched from them.",
    )
    arxiv_retries: int = Field(
        default=2,
        ge=0,
        description="Times an arXiv API query (metadata of cited papers, an author search) is "
        "tried again after a transient failure (timeout, connection error, 429, 5xx). arXiv's "
        "client retries nothing itself, so this is the only retry layer of those queries.",
    )
    arxiv_retry_delays: list[Annotated[float, Field(ge=0)]] = Field(
        default_factory=lambda: [3.0, 10.0],
        min_length=1,
        description="Seconds before each retry of an arXiv API query, as a JSON list (the last "
        "repeats when there are more retries); up to half as much again is added at random.",
    )
    max_new_pdfs: int = Field(
        default=25,
        ge=0,
        description="PDFs of newly found papers (author searches) fetched per nightly run, at "
        "most; the PDFs of papers the profiles cite are always fetched.",
    )
    unreachable_after: int = Field(
        default=3,
        ge=1,
        description="Consecutive failed checks of a profile's reference URL before it is "
        "flagged for review as unreachable.",
    )
    replay: Path | None = Field(
        default=None,
        description="Serve every fetch from this replay archive (see fixtures/web/README.md) "
        "instead of the network: offline demos and tests of one-off runs.",
    )
    host_delay: float = Field(
        default=1.0,
        ge=0,
        description="Seconds between the starts of two requests to the same host (a larger "
        "robots.txt Crawl-delay, INGEST_HOST_DELAYS floor or INGEST_ARXIV_DELAY wins).",
    )
    host_delays: dict[str, float] = Field(
        default_factory=dict,
        description="Per-host floors of the delay between two request starts, as a JSON "
        'object of host name to seconds (e.g. {"example.org": 5}); arXiv\'s hosts get '
        "INGEST_ARXIV_DELAY without being listed.",
    )
    max_crawl_delay: float = Field(
        default=60.0,
        ge=0,
        description="Largest robots.txt Crawl-delay honoured (seconds); a larger one counts as "
        "this much.",
    )
    host_concurrency: int = Field(
        default=2, ge=1, description="Requests in flight to one host at a time, at most."
    )
    max_attempts: int = Field(
        default=3,
        ge=1,
        description="Attempts per URL, counting the first: only transient failures (timeouts, "
        "connection errors, HTTP 429 and 5xx) are tried again. The run's only retry layer.",
    )
    max_retry_after: float = Field(
        default=120.0,
        ge=0,
        description="Longest Retry-After (seconds) waited before trying again; a server asking "
        "for longer gets no more requests until then and the URL fails as transient.",
    )
    backoff_base: float = Field(
        default=1.0,
        ge=0,
        description="Seconds: the first retry of a transient failure without Retry-After waits "
        "a random time up to this, each later one up to twice the one before ...",
    )
    backoff_cap: float = Field(
        default=60.0, ge=0, description="... but never more than this (seconds)."
    )
    robots_ttl: float = Field(
        default=24 * 3600.0,
        gt=0,
        description="Seconds a host's robots.txt is trusted before it is fetched again.",
    )
    robots_failure_ttl: float = Field(
        default=600.0,
        gt=0,
        description="Seconds a host whose robots.txt could not be read (5xx, 429, unreachable) "
        "stays refused before robots.txt is asked for again.",
    )
    layout_min_ratio: float = Field(
        default=0.5,
        description="A snapshot with fewer than this share of the people seen last time "
        "raises a layout alert and flags no removals.",
    )

    batch_size: int = Field(
        default=400,  # 100 -> 400: a quarter of the task runs (Prefect's cost per task run is
        # most of the served nightly's overhead: 10,000 sources 84 -> 63 s, re-run 45 -> 30 s)
        ge=1,
        description="Sources per batch in the nightly flow: one Prefect task fetches a batch "
        "(INGEST_FETCH_THREADS at a time, per-host limits still apply), one stores and diffs it.",
    )
    lean_revalidation: bool = Field(
        default=True,
        description="Send a conditional request (a stored ETag or Last-Modified) on a socket of "
        "its own and read a 304 without httpx's machinery (ingest.fetch.lean: ~0.1 ms of CPU, "
        "not ~1 ms); any other answer is requested again through httpx. Off: every request "
        "goes through httpx.",
    )
    fetch_threads: int = Field(
        default=16, ge=1, description="Concurrent fetches inside one batch, at most."
    )
    extract_workers: int = Field(
        default=1,
        ge=0,
        description="Worker processes that read (extract) a nightly batch's newly fetched pages "
        "while the run's process stores and diffs them (ingest.pipeline.extract_pool), for "
        "batches of 32 such pages or more; 0: every page is read in the run's process.",
    )
    dask_address: str | None = Field(
        default=None,
        description="Fan the nightly's fetch batches out to a Dask cluster through "
        "prefect-dask: a scheduler address (tcp://host:8786) or `local` for a LocalCluster "
        "of INGEST_DASK_WORKERS processes on this machine. Unset: threads in this process.",
    )
    dask_workers: int = Field(
        default=2, ge=1, description="Worker processes of the LocalCluster (`local` only)."
    )

    schedule_cron: str = Field(
        default="0 3 * * *",
        description="When the `nightly-refresh` deployment runs (cron; `ingest serve`).",
    )
    schedule_timezone: str = Field(
        default="UTC",
        description="Time zone of INGEST_SCHEDULE_CRON (an IANA name, e.g. Europe/Berlin).",
    )
    notify_url: str | None = Field(
        default=None,
        description='Slack-compatible webhook POSTed {"text": ...} when a nightly run queues '
        "new flags (first queued by it; a run finding only what was pending sends nothing); "
        "a failure to notify is noted in the report, never fails the run. "
        "Private addresses are refused unless INGEST_ALLOW_PRIVATE.",
    )
    notify_timeout: float = Field(
        default=10.0, gt=0, description="Seconds before the webhook request times out."
    )

    runner_idle: float = Field(
        default=3600.0,
        gt=0,
        description="Seconds the workspace's local runner (the Prefect server and warm process "
        "that `ingest run` and `ingest nightly` use without PREFECT_API_URL) waits for another "
        "request before it stops; `ingest server stop` stops it at once.",
    )
    runner_check: float = Field(
        default=30.0,
        gt=0,
        description="Seconds between the local runner's checks that its workspace still names "
        "it (a deleted temporary workspace, or a state file removed or taken over, stops it "
        "then rather than after INGEST_RUNNER_IDLE).",
    )
    runner_start_timeout: float = Field(
        default=120.0,
        gt=0,
        description="Seconds to wait for the local runner and its Prefect server to start.",
    )
    runner_nice: int = Field(
        default=10,
        ge=0,
        le=19,
        description="How much lower (in nice steps) the priority of a local runner started in the "
        "background is while it starts, its Prefect server's with it, and its session's "
        "scheduling group's (Linux autogroup: a nice value counts only within its session) while "
        "a command runs in its own process beside it: that command keeps the CPU. The group's is "
        "given back when the command ends, the nice value once it is up where the system allows "
        "it (root, or RLIMIT_NICE); 0: started at the command's priority.",
    )
    cache_dir: Path = Field(
        default_factory=lambda: (
            Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ingest"
        ),
        description="Per-machine cache shared by workspaces: an empty, migrated Prefect "
        "database per Prefect version (creating one takes 10-15 s, copying it milliseconds).",
    )

    editor: str | None = Field(
        default=None,
        description="Who decides on the command line when `--editor` is not given (default: "
        "the login name); kept with each decision in the audit log.",
    )

    review_session_secret: SecretStr | None = Field(
        default=None,
        description="Key that signs the review page's session cookies; default: a random key "
        "kept in INGEST_HOME/review-session.key (created on first use, owner-only).",
    )
    review_session_hours: float = Field(
        default=12.0, gt=0, description="Hours a review page login lasts."
    )
    review_page_size: int = Field(
        default=50, ge=1, le=500, description="Changes per page of the review queue."
    )
    review_allowed_hosts: list[str] = Field(
        default=["127.0.0.1", "localhost"],
        description="Host names the review page answers to (a guard against DNS rebinding); "
        "`ingest review serve --host H` adds H. JSON list in the environment.",
    )

    # the profiles folder is the workspace's copy of the bundled profiles (INGEST_PROFILES_DIR
    # not given): ensure_profiles() seeds it on first use
    _workspace_profiles: bool = PrivateAttr(default=False)

    @model_validator(mode="after")
    def _profiles_live_in_the_workspace(self) -> Self:
        if "profiles_dir" not in self.model_fields_set:
            self.profiles_dir = self.home / "profiles"
            self._workspace_profiles = True
        return self

    @property
    def workspace_profiles(self) -> bool:
        """Whether the profiles folder is INGEST_HOME/profiles, seeded from the bundled ones."""
        return self._workspace_profiles

    @model_validator(mode="after")
    def _deadlines_follow_the_timeout(self) -> Self:
        """A deadline not given follows the per-read timeout: INGEST_HTTP_TIMEOUT=3 cuts a
        trickling server after 12 s an attempt, not after the 120 s meant for a 30 s timeout."""
        if "fetch_deadline" not in self.model_fields_set:
            self.fetch_deadline = 4 * self.http_timeout
        if "source_deadline" not in self.model_fields_set:
            self.source_deadline = 5 * self.fetch_deadline
        return self

    @field_validator("home")
    @classmethod
    def _home_is_a_folder(cls, value: Path) -> Path:
        if value.exists() and not value.is_dir():
            raise ValueError("not a directory")
        return value

    def host_delay_floor(self, host: str) -> float:
        """The least delay between two request starts to `host` (0 when only INGEST_HOST_DELAY
        applies): its INGEST_HOST_DELAYS entry, and INGEST_ARXIV_DELAY for arXiv's hosts."""
        floor = self.host_delays.get(host.lower(), 0.0)
        if host.lower() in ARXIV_HOSTS:
            floor = max(floor, self.arxiv_delay)
        return floor

    @property
    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.home / 'ingest.db'}"

    @property
    def snapshots_dir(self) -> Path:
        return self.home / "snapshots"

    @property
    def warc_dir(self) -> Path:
        return self.home / "warc"

    @property
    def reports_dir(self) -> Path:
        return self.home / "reports"


def ensure_home(settings: Settings) -> Path:
    """INGEST_HOME, created if missing, with its profiles folder (ensure_profiles); a folder
    that cannot be made or written is one clear error naming it (before a database, a log or a
    runner is opened there)."""
    home = settings.home
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"INGEST_HOME '{home}' cannot be created: {exc.strerror or exc}"
        ) from None
    try:  # a real write: root passes os.access() on read-only mounts
        tempfile.TemporaryFile(dir=home).close()
    except OSError as exc:
        raise ConfigError(f"INGEST_HOME '{home}' is not writable: {exc.strerror or exc}") from None
    ensure_profiles(settings)
    return home


def ensure_profiles(settings: Settings) -> Path:
    """The profiles folder. Without INGEST_PROFILES_DIR it is INGEST_HOME/profiles, seeded on
    first use with a copy of the bundled profiles (fixtures/profiles/*.json) and from then on
    the workspace's own: never overwritten, whatever the bundle holds later. The copy is made
    beside it and renamed into place, so a crash or a second command never leaves half of it.
    A folder named by INGEST_PROFILES_DIR is returned as it is."""
    folder = settings.profiles_dir
    if not settings.workspace_profiles or folder.exists():
        return folder
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        partial = folder.parent / f".{folder.name}-{os.getpid()}-{os.urandom(4).hex()}"
        partial.mkdir()  # (not mkdtemp: the folder gets the umask's mode, as any other)
    except OSError as exc:
        raise ConfigError(
            f"profiles folder '{folder}' cannot be created: {exc.strerror or exc}"
        ) from None
    try:
        for path in sorted(BUNDLED_PROFILES.glob("*.json")):
            shutil.copyfile(path, partial / path.name)
        partial.rename(folder)
    except OSError as exc:
        if not folder.is_dir():  # not another command seeding it at the same moment
            raise ConfigError(
                f"profiles folder '{folder}' cannot be seeded: {exc.strerror or exc}"
            ) from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return folder


def get_settings() -> Settings:
    """Settings as the environment gives them now (read anew on each call); a value the
    environment gets wrong is a ConfigError naming the variable, what was given and why."""
    try:
        return Settings()
    except SettingsError as exc:  # a value pydantic-settings could not decode (bad JSON)
        found = re.search(r'field "(\w+)"', str(exc))
        if not found:
            raise ConfigError(f"bad setting: {exc}") from None
        name = f"INGEST_{found.group(1).upper()}"
        given = os.environ.get(name, "")[:100]
        raise ConfigError(
            f'bad setting: {name}={given!r}: not valid JSON (e.g. ["a", "b"])'
        ) from None
    except ValidationError as exc:
        problems = [
            f"INGEST_{'_'.join(str(part) for part in error['loc']).upper()}="
            f"{str(error.get('input'))[:100]!r}: {error['msg']}"
            for error in exc.errors()
        ]
        raise ConfigError("bad setting: " + "; ".join(problems)) from None
