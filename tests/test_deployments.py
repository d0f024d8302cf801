"""The deployments: `ingest serve` against a real `prefect server start`, and prefect.yaml."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from flows.deployments import NIGHTLY, ONE_OFF
from ingest.settings import BUNDLED_PROFILES, BUNDLED_WEB

from .conftest import ROOT, STABLE_URL
from .prefect_server import prefect_server as running_prefect_server
from .prefect_server import stop, tail


def test_prefect_yaml_describes_the_served_deployments() -> None:
    from prefect.cli.deploy._models import PrefectYamlModel

    from ingest.settings import Settings

    raw = yaml.safe_load((ROOT / "prefect.yaml").read_text())
    model = PrefectYamlModel.model_validate(raw)
    found = {d.name: d for d in model.deployments}
    assert set(found) == {NIGHTLY, ONE_OFF}
    nightly, one_off = found[NIGHTLY], found[ONE_OFF]
    assert nightly.entrypoint == "flows/nightly.py:nightly_refresh"
    assert one_off.entrypoint == "flows/one_off.py:ingest_url"
    for d in (nightly, one_off):
        assert d.work_pool is not None and d.work_pool.name == "ingest-pool"
        path, name = (d.entrypoint or "").split(":")
        assert f"def {name}(" in (ROOT / path).read_text()
    defaults = Settings()
    schedule = raw["deployments"][0]["schedules"][0]
    assert schedule == {"cron": defaults.schedule_cron, "timezone": defaults.schedule_timezone}
    assert raw["deployments"][0]["concurrency_limit"] == {
        "limit": 1,
        "collision_strategy": "CANCEL_NEW",
    }


@pytest.fixture
def prefect_server(tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """`prefect server start` on a free loopback port; yields its API URL and the env to use."""
    with running_prefect_server(tmp_path) as found:
        yield found


@pytest.mark.prefect
def test_ingest_serve_registers_both_and_runs_ingest_url(
    prefect_server: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    from prefect.client.orchestration import get_client
    from prefect.deployments import run_deployment
    from prefect.exceptions import ObjectNotFound
    from prefect.settings import PREFECT_API_URL, PREFECT_HOME, temporary_settings
    from prefect.states import Scheduled

    api, env = prefect_server
    profiles = tmp_path / "profiles"
    shutil.copytree(BUNDLED_PROFILES, profiles)
    home = tmp_path / "home"
    serve_env = env | {
        "INGEST_HOME": str(home),
        "INGEST_PROFILES_DIR": str(profiles),
        "INGEST_REPLAY": str(BUNDLED_WEB),  # nothing touches the internet
        "INGEST_SCHEDULE_CRON": "30 4 * * *",
        "INGEST_SCHEDULE_TIMEZONE": "Europe/Berlin",
    }
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        served = subprocess.Popen(
            [sys.executable, "-m", "ingest_cli.cli", "serve"],
            env=serve_env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        with temporary_settings({PREFECT_API_URL: api, PREFECT_HOME: env["PREFECT_HOME"]}):
            with get_client(sync_client=True) as client:
                found: dict[str, Any] = {}
                deadline = time.monotonic() + 90
                while len(found) < 2:
                    assert served.poll() is None, tail(log)
                    assert time.monotonic() < deadline, "not registered\n" + tail(log)
                    for name in (f"{NIGHTLY}/{NIGHTLY}", f"{ONE_OFF}/{ONE_OFF}"):
                        with contextlib.suppress(ObjectNotFound):  # not there yet
                            found[name] = client.read_deployment_by_name(name)
                    time.sleep(0.5)
                nightly = found[f"{NIGHTLY}/{NIGHTLY}"]
                cron = nightly.schedules[0].schedule
                assert (cron.cron, cron.timezone) == ("30 4 * * *", "Europe/Berlin")
                assert nightly.global_concurrency_limit is not None
                assert nightly.global_concurrency_limit.limit == 1
                assert nightly.concurrency_options is not None
                assert nightly.concurrency_options.collision_strategy == "CANCEL_NEW"
                one_off = found[f"{ONE_OFF}/{ONE_OFF}"]
                assert one_off.parameter_openapi_schema["required"] == ["url"]

            run = run_deployment(
                f"{ONE_OFF}/{ONE_OFF}", parameters={"url": STABLE_URL}, timeout=120
            )
            assert run.state is not None and run.state.is_completed(), f"{run.state}\n" + tail(log)

            # two nightly runs due at the same moment: one runs, the newcomer is cancelled
            with get_client(sync_client=True) as client:
                due = datetime.now(UTC) + timedelta(seconds=4)
                twins = [
                    client.create_flow_run_from_deployment(
                        nightly.id, state=Scheduled(scheduled_time=due)
                    )
                    for _ in range(2)
                ]
                deadline = time.monotonic() + 180
                while True:
                    states = [client.read_flow_run(r.id).state for r in twins]
                    if all(s is not None and s.is_final() for s in states):
                        break
                    assert time.monotonic() < deadline, f"{states}\n" + tail(log)
                    time.sleep(1)
            assert sorted(str(s.type.value) for s in states if s) == ["CANCELLED", "COMPLETED"], (
                f"{states}\n" + tail(log)
            )
        reports = list((home / "reports" / "one-off").glob("*.md"))
        assert len(reports) == 1 and STABLE_URL in reports[0].read_text()
    finally:
        stop(served)
