"""Shared test fixtures: a fresh workspace and profile folder per test; never the network.

Database tests marked `postgres` run twice: on a SQLite file (`[sqlite]`) and on PostgreSQL
(`[postgresql]`), each PostgreSQL run in a fresh database created for it on the server that
INGEST_TEST_DATABASE_URL (or `--postgres-url`) names, e.g.
`postgresql+psycopg://ingest:ingest@127.0.0.1:5432/ingest` (a role allowed to CREATE DATABASE;
`scripts/postgres start DIR` starts such a server). Without a URL the `[postgresql]` runs are
skipped, saying so.
"""

from __future__ import annotations

import os
import shutil
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from ingest.settings import BUNDLED_PROFILES, Settings
from ingest.storage import Store, database_url

ROOT = Path(__file__).resolve().parent.parent
GOVERNANCE = ROOT / "fixtures" / "governance"
STABLE_URL = "https://docs.pytorch.org/docs/stable/community/persons_of_interest.html"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--postgres-url",
        default=None,
        help="PostgreSQL server for the tests marked `postgres` (a fresh database per test); "
        "default: $INGEST_TEST_DATABASE_URL",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked `postgres` that uses the workspace runs on each database."""
    if metafunc.definition.get_closest_marker("postgres") and "workspace" in metafunc.fixturenames:
        metafunc.parametrize("database", ["sqlite", "postgresql"], indirect=True)


def _postgres_server_url(config: pytest.Config) -> str | None:
    url = config.getoption("--postgres-url") or os.environ.get("INGEST_TEST_DATABASE_URL")
    return database_url(url) if url else None


@pytest.fixture
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """The database URL a test's workspace uses: None for the SQLite file in INGEST_HOME."""
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        yield None
        return
    server = _postgres_server_url(request.config)
    if not server:
        pytest.skip(
            "PostgreSQL run: no server given (set INGEST_TEST_DATABASE_URL or --postgres-url "
            "to a postgresql+psycopg:// URL whose role may CREATE DATABASE; "
            "`scripts/postgres start DIR` starts one)"
        )
    name = f"ingest_test_{uuid.uuid4().hex[:16]}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as conn:  # C collation: text sorts by code point, as in SQLite
        conn.exec_driver_sql(
            f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'"
        )
    try:
        yield sa.engine.make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@pytest.fixture
def workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database: str | None
) -> Iterator[Settings]:
    """INGEST_HOME and INGEST_PROFILES_DIR in a temporary folder (bundled profiles copied); the
    database is a SQLite file in INGEST_HOME, or a fresh PostgreSQL database (`[postgresql]`)."""
    home = tmp_path / "home"
    profiles = tmp_path / "profiles"
    shutil.copytree(BUNDLED_PROFILES, profiles)
    monkeypatch.setenv("INGEST_HOME", str(home))
    monkeypatch.setenv("INGEST_PROFILES_DIR", str(profiles))
    if database is None:
        monkeypatch.delenv("INGEST_DATABASE_URL", raising=False)
    else:
        monkeypatch.setenv("INGEST_DATABASE_URL", database)
    yield Settings()
    from ingest.runner import local_server

    server = home / "server"
    if (server / "state.json").exists() or (server / "starting.pid").exists():
        # never leave a runner behind, one still starting (started in the background) included
        local_server.stop(Settings(home=home))


@pytest.fixture(scope="session")
def prefect_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One `prefect server start` for the whole session, started when a test first needs it."""
    from .prefect_server import prefect_server

    with prefect_server(tmp_path_factory.mktemp("prefect-session")) as (api, _env):
        yield api


@pytest.fixture(autouse=True)
def flows_report_to_one_server(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test marked `prefect` runs its flows against the session's server (a configured
    PREFECT_API_URL, used as is, in the command's own process); no other test starts a server or
    a workspace runner (tests/test_local_runner.py unsets it to test the runner itself)."""
    if request.node.get_closest_marker("prefect"):
        monkeypatch.setenv("PREFECT_API_URL", request.getfixturevalue("prefect_api"))


@pytest.fixture
def store(workspace: Settings) -> Iterator[Store]:
    opened = Store.open(workspace)
    yield opened
    opened.close()


_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address: object) -> object:
    host = address[0] if isinstance(address, tuple) else address
    if (
        self.family in (socket.AF_INET, socket.AF_INET6)
        and isinstance(host, str)
        and not (host.startswith("127.") or host in ("::1", "localhost"))
    ):
        raise OSError(f"tests never touch the internet: refused a connection to {host}")
    return _real_connect(self, address)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def no_internet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test: a connection to anything but loopback fails at once (subprocesses are given
    replay archives or loopback endpoints by the tests that start them)."""
    monkeypatch.setattr(socket.socket, "connect", _loopback_only)
