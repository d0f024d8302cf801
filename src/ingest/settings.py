"""Every setting in one place, each described. Read from INGEST_* environment variables."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parents[2]
BUNDLED_PROFILES = PROJECT_ROOT / "fixtures" / "profiles"
BUNDLED_WEB = PROJECT_ROOT / "fixtures" / "web"
BUNDLED_SOURCES = PROJECT_ROOT / "fixtures" / "sources.json"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="INGEST_", extra="ignore")

    home: Path = Field(
        default=PROJECT_ROOT / "output",
        description="Workspace for the database, snapshots and run reports.",
    )
    profiles_dir: Path = Field(
        default=BUNDLED_PROFILES,
        description="Folder of profile files, one <id>.json each.",
    )
    sources_file: Path = Field(
        default=BUNDLED_SOURCES,
        description="The source registry: a JSON list of sources the nightly refresh checks.",
    )
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy URL; default is a SQLite file inside INGEST_HOME.",
    )
    http_timeout: float = Field(default=30.0, description="Seconds before a request times out.")
    max_bytes: int = Field(default=50 * 1024 * 1024, description="Largest body accepted.")
    user_agent: str = Field(
        default="ingest/0.1 (AI People Wiki source checker; +mailto:wiki-editors@example.org)",
        description="User-Agent naming the wiki and a contact address.",
    )
    allow_private: bool = Field(
        default=False,
        description="Allow URLs resolving to loopback, private, link-local or metadata addresses.",
    )
    replay: Path | None = Field(
        default=None,
        description="Serve every fetch from this replay archive (see fixtures/web/README.md) "
        "instead of the network: offline demos and tests of one-off runs.",
    )
    layout_min_ratio: float = Field(
        default=0.5,
        description="A snapshot with fewer than this share of the people seen last time "
        "raises a layout alert and flags no removals.",
    )

    @property
    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.home / 'ingest.db'}"

    @property
    def snapshots_dir(self) -> Path:
        return self.home / "snapshots"

    @property
    def reports_dir(self) -> Path:
        return self.home / "reports"


def get_settings() -> Settings:
    """Settings as the environment gives them now (read anew on each call)."""
    return Settings()
