"""Runs that did not finish, told in Prefect as in ingest's database.

recover_crashed(store)      at the start of a nightly: every run recorded as running whose
                            process is gone (ingest.runner.processes) is marked crashed, in
                            the `runs` table and, by its recorded flow run id, in Prefect
crash_orphans()             when the local runner starts: every flow run its Prefect server
                            still has as running or pending is crashed (nothing else runs
                            against that server, so those are a dead runner's)
set_final_state(id, state)  Cancelled or Crashed from outside the flow run (force: the flow
                            itself ended as Failed, or never ended)
"""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import (
    FlowRunFilter,
    FlowRunFilterState,
    FlowRunFilterStateType,
)
from prefect.client.schemas.objects import StateType
from prefect.states import Crashed, State

from flows import steps
from ingest.storage import Store

log = logging.getLogger("ingest.runner")

GONE = steps.GONE


def recover_crashed(store: Store) -> list[dict[str, Any]]:
    """The runs found crashed now (run_id, kind, started, flow_run_id, reason), oldest first;
    their flow runs set Crashed in Prefect too (`flows.steps.recover_crashed`)."""
    return steps.recover_crashed(
        store, lambda flow_run_id, message: set_final_state(flow_run_id, Crashed(message=message))
    )


def set_final_state(flow_run_id: str | UUID, state: State[Any]) -> bool:
    """Set a flow run's state unless it is final already (a completed run stays completed);
    whether it was set. A server that does not know the run, or does not answer: logged."""
    try:
        with get_client(sync_client=True) as client:
            current = client.read_flow_run(UUID(str(flow_run_id))).state
            if current is not None and current.is_final() and not current.is_failed():
                return False
            client.set_flow_run_state(flow_run_id, state, force=True)
            return True
    except Exception as exc:  # noqa: BLE001 - the run's record in ingest is what counts
        log.warning("could not set flow run %s to %s: %s", flow_run_id, state.type.value, exc)
        return False


def crash_orphans() -> int:
    """Crash every flow run the (just started) local Prefect server has as running or pending;
    how many."""
    unfinished = FlowRunFilter(
        state=FlowRunFilterState(
            type=FlowRunFilterStateType(any_=[StateType.RUNNING, StateType.PENDING])
        )
    )
    try:
        with get_client(sync_client=True) as client:
            orphans = client.read_flow_runs(flow_run_filter=unfinished)
            for run in orphans:
                message = "the local runner running it died before it ended"
                client.set_flow_run_state(run.id, Crashed(message=message), force=True)
    except Exception as exc:  # noqa: BLE001 - a start is not held up by old runs
        log.warning("could not crash the previous runner's flow runs: %s", exc)
        return 0
    return len(orphans)


def current_flow_run_id() -> str | None:
    """The id of the flow run this code runs in, if any."""
    from prefect.runtime import flow_run

    found = flow_run.id
    return str(found) if found else None
