"""The workspace's local runner (see `ingest.runner.local_server` for the whole picture): a Prefect
server on loopback and this warm process, which runs `ingest run` and `ingest nightly` as Prefect
flow runs against it, one request at a time.

    python -m flows.local_runner      started by `ingest.runner.local_server.ensure`, never by hand
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ingest.errors import IngestError, SourcesFailedError
from ingest.runner import local_server, prefect_database, prefect_setup, progress
from ingest.runner import priority as runner_priority
from ingest.runner.prefect_database import (
    prefect_version,
    save_template,
    seed_database,
)
from ingest.settings import Settings, get_settings

log = logging.getLogger("ingest.runner")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def migrated_by(prefect_home: Path) -> Path:
    """Which Prefect version last brought the database to its head revision."""
    return prefect_home / prefect_database.MIGRATED_BY


def start_prefect_server(
    settings: Settings, port: int, prefect_home: Path
) -> subprocess.Popen[bytes]:
    """The same app as Prefect's temporary server (no UI, the ephemeral set of services), on
    `port`, with its output in INGEST_HOME/logs/prefect-server.log. A database this Prefect
    version already migrated (or seeded from its template) skips the migration check and the
    block type registration (~1-2 s). Prefect is located, not imported: importing it first would
    hold the server's start back by the 1.5-2 s the import takes."""
    spec = importlib.util.find_spec("prefect")
    if spec is None or spec.origin is None:
        raise RuntimeError("Prefect is not installed in this environment")
    env = {
        **os.environ,
        "PREFECT_UI_ENABLED": "0",
        "PREFECT__SERVER_EPHEMERAL": "1",
        "PREFECT__SERVER_FINAL": "1",
    }
    marker = migrated_by(prefect_home)
    if marker.exists() and marker.read_text() == prefect_version():
        # at this version's head, block types included (the template was saved after a start)
        env["PREFECT_API_DATABASE_MIGRATE_ON_START"] = "false"
        env["PREFECT_API_BLOCKS_REGISTER_ON_START"] = "false"
    with local_server.prefect_log(settings).open("ab") as out:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--app-dir",
                str(Path(spec.origin).parent.parent),
            ]
            + ["--factory", "prefect.server.api.server:create_app"]
            + ["--host", "127.0.0.1", "--port", str(port), "--log-level", "error"]
            + ["--lifespan", "on"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,
        )


def _die_with_parent() -> None:
    """In the child: SIGTERM when the runner dies, however it dies (Linux prctl)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def wait_healthy(server: subprocess.Popen[bytes], api_url: str, timeout: float) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the Prefect server exited with status {server.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{api_url}/health", timeout=2).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the Prefect server did not answer {api_url}/health in {timeout:.0f} s")


@contextlib.contextmanager
def callers_environment(env: dict[str, str], cwd: str) -> Iterator[None]:
    """The caller's INGEST_* settings and folder for the length of one request."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    for key in [k for k in os.environ if k.startswith(local_server.ENV_PREFIXES)]:
        del os.environ[key]
    os.environ.update(env)
    os.chdir(cwd)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)


class Connection:
    """One caller: JSON lines in both directions. A caller gone (killed, Ctrl-C: its end of the
    socket closed) cancels its run: `watch` sets `cancelled`, and the run stops at its next
    step (ingest.runner.progress.cancellable)."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.lock = threading.Lock()
        self.gone = False
        self.cancelled = threading.Event()
        self.done = threading.Event()

    def watch(self) -> None:
        """In a thread, for the length of a run: the caller sends nothing after its request, so
        the socket turning readable means its end closed (or it broke the protocol)."""
        import select

        while not self.done.is_set():
            try:
                readable, _w, _x = select.select([self.conn], [], [], 0.25)
                if readable and not self.conn.recv(1, socket.MSG_PEEK):
                    break
            except (OSError, ValueError):
                break
        else:
            return
        if not self.done.is_set():
            log.info("the caller is gone: cancelling its run")
            self.cancelled.set()

    def send(self, message: dict[str, Any]) -> None:
        with self.lock:
            if self.gone:
                return
            try:
                self.conn.sendall(json.dumps(message, default=str).encode() + b"\n")
            except OSError:
                self.gone = True
                self.cancelled.set()

    def progress(self, stage: str, done: int, total: int | None) -> None:
        self.send({"progress": [stage, done, total]})


class ForwardLogs(logging.Handler):
    """`--verbose`: the run's log records (Prefect's flow and task logs included) to the caller."""

    def __init__(self, caller: Connection) -> None:
        super().__init__(level=logging.INFO)
        self.caller = caller
        self.setFormatter(
            logging.Formatter("%(asctime)s | %(levelname)-7s | %(name)s - %(message)s")
        )

    def emit(self, record: logging.LogRecord) -> None:
        self.caller.send({"log": self.format(record)})


@contextlib.contextmanager
def forwarding(caller: Connection, verbose: bool) -> Iterator[None]:
    if not verbose:
        yield
        return
    handler = ForwardLogs(caller)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


# What a flow run imports the first time it runs, beyond the flows themselves: the engines,
# Prefect's concurrency and telemetry helpers, its visualisation (graphviz) and API schemas
# (fastapi), the report templates (jinja2), SQLAlchemy's SQLite dialect. Imported while the
# Prefect server starts (on the other core), they no longer weigh on the first run: it took 3.2 s
# where a later run takes 1.3 s.
WARM_MODULES = (
    "flows.nightly",
    "flows.one_off",
    "prefect.engine",
    "prefect.flow_engine",
    "prefect.task_engine",
    "prefect.concurrency.sync",
    "prefect.telemetry.run_telemetry",
    "prefect.utilities.visualization",
    "fastapi",
    "ingest.report.html",
    "sqlalchemy.dialects.sqlite",
)


def warm_up() -> None:
    """Import what every run needs (see WARM_MODULES); a module a Prefect release moved or
    dropped is skipped, since warming is only a saving."""
    for name in WARM_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            if name.startswith("flows."):
                raise
            log.info("warm-up: %s is not importable; skipped", name)


def run_request(op: str, args: dict[str, Any], cancelled: threading.Event) -> dict[str, Any]:
    """Run the flow; a run stopped because its caller went away ends Cancelled in Prefect (the
    flow itself can only fail: RunCancelled)."""
    from prefect.states import Cancelled

    from flows.crashes import set_final_state
    from flows.nightly import nightly_refresh
    from flows.one_off import ingest_url

    flow: Any = nightly_refresh if op == "nightly" else ingest_url
    state = flow(**args, return_state=True)
    if state.is_completed():
        result: dict[str, Any] = state.result()
        return result
    exc = state.result(raise_on_failure=False)
    if cancelled.is_set() and state.state_details.flow_run_id is not None:
        set_final_state(
            state.state_details.flow_run_id,
            Cancelled(message="the command that started the run was stopped"),
        )
    if isinstance(exc, BaseException):
        raise exc
    raise RuntimeError(f"the flow run ended {state.type.value}: {state.message}")


def restore_priority(priority: str | None, server_pid: int, group: str | None = None) -> None:
    """A runner started below the command's priority (`local_server.start_in_background`) takes
    `priority` back once it is up, for itself and its Prefect server, where the system allows it
    (root, or RLIMIT_NICE), and its session's autogroup the command's group nice value `group`
    (`ingest.runner.priority`: allowed down to 0); else they keep the lower one, said in the
    log."""
    if group is not None:
        with contextlib.suppress(ValueError):
            if not runner_priority.set_group_nice(int(group), retry=True):
                log.info("autogroup nice %s not taken back: the runner keeps a lower one", group)
    if priority is None:
        return
    for pid in (os.getpid(), server_pid):
        try:
            os.setpriority(os.PRIO_PROCESS, pid, int(priority))
        except (OSError, ValueError) as exc:
            log.info("priority %s not taken back (%s): the runner keeps a lower one", priority, exc)
            return


def forget_starting(settings: Settings) -> None:
    """Up (or stopping): the workspace's `starting` file no longer means this process."""
    path = local_server.starting_file(settings)
    with contextlib.suppress(OSError, ValueError):
        if int(path.read_text()) == os.getpid():
            path.unlink()


def still_ours(settings: Settings) -> bool:
    """Whether the workspace's state file still names this process: a workspace deleted (a
    temporary one), or a state file removed or taken over, leaves nothing to serve."""
    state = local_server.read_state(settings)
    return state is not None and state.pid == os.getpid()


def serve(settings: Settings, listener: socket.socket, token: str, api_url: str) -> None:
    """Answer requests until `stop`, SIGTERM, INGEST_RUNNER_IDLE seconds without one, or the
    workspace no longer naming this runner (checked every INGEST_RUNNER_CHECK seconds)."""
    from prefect.settings import (
        PREFECT_API_URL,
        PREFECT_FLOWS_HEARTBEAT_FREQUENCY,
        temporary_settings,
    )

    # No heartbeat thread: a flow run ended by joining it (up to 1 s, about half of a one-off
    # run's Prefect overhead), and what it is for, telling a crashed worker's runs apart, does
    # not arise here: a runner that dies takes its request with it and the caller is told.
    run_settings = {PREFECT_API_URL: api_url, PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}

    listener.settimeout(min(settings.runner_idle, settings.runner_check))
    last_request = time.monotonic()
    while True:
        try:
            conn, _addr = listener.accept()
        except TimeoutError:
            if time.monotonic() - last_request >= settings.runner_idle:
                log.info("idle for %.0f s: stopping", settings.runner_idle)
                return
            if not still_ours(settings):
                log.info("the workspace or its state file is gone: stopping")
                return
            continue
        last_request = time.monotonic()
        with conn:
            conn.settimeout(30)
            try:
                request = json.loads(conn.makefile("rb").readline() or b"{}")
            except (OSError, ValueError):
                continue
            if not secrets.compare_digest(str(request.get("token", "")), token):
                continue  # not our caller: no answer at all
            caller = Connection(conn)
            op = request.get("op")
            if op == "ping":
                caller.send({"ok": True, "pid": os.getpid()})
                continue
            if op == "stop":
                caller.send({"ok": True})
                return
            if op not in ("run", "nightly"):
                caller.send({"error": f"unknown request {op!r}"})
                continue
            conn.settimeout(None)
            log.info("%s %s", op, request.get("args"))
            watcher = threading.Thread(target=caller.watch, daemon=True)
            watcher.start()
            try:
                with (
                    callers_environment(request.get("env", {}), request.get("cwd", "/")),
                    progress.listening(caller.progress),
                    progress.cancellable(caller.cancelled),
                    forwarding(caller, bool(request.get("verbose"))),
                    temporary_settings(run_settings),
                ):
                    result = run_request(op, request.get("args", {}), caller.cancelled)
                caller.send({"result": result})
            except SourcesFailedError as exc:  # the run's report is written: the caller shows it
                caller.send({"failed": str(exc), "result": exc.result})
            except Exception as exc:  # noqa: BLE001 - told to the caller, traceback in the log
                disk_full = prefect_database.disk_full_cause(exc)
                if disk_full is not None:
                    caller.send({"error": disk_full})
                elif isinstance(exc, IngestError):
                    caller.send({"error": str(exc)})
                else:
                    traceback.print_exc()
                    caller.send({"error": f"{type(exc).__name__}: {exc}", "unexpected": True})
            finally:
                caller.done.set()
                watcher.join()


def main() -> None:
    """`start`, with a full disk told to `ingest.runner.local_server` by the exit status."""
    try:
        start()
    except Exception as exc:
        cause = prefect_database.disk_full_cause(exc)
        if cause is None and prefect_database.log_says_disk_full(
            local_server.prefect_log(get_settings())
        ):
            cause = "the Prefect server stopped: its database's disk is full"
        if cause is None:
            raise
        with contextlib.suppress(OSError):
            log.error("%s", cause)
        sys.exit(prefect_database.DISK_FULL_STATUS)


def start() -> None:
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    log.setLevel(logging.INFO)
    settings = get_settings()
    prefect_home = local_server.server_dir(settings) / "prefect"
    prefect_home.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    api_url = f"http://127.0.0.1:{port}/api"
    os.environ["PREFECT_HOME"] = str(prefect_home)  # before Prefect is imported
    os.environ["PREFECT_API_URL"] = api_url
    priority = os.environ.pop(local_server.PRIORITY_ENV, None)
    group = os.environ.pop(local_server.GROUP_PRIORITY_ENV, None)
    prefect_setup.configure()
    template = seed_database(settings, prefect_home, log.warning, check=False)  # checked by ensure
    server = start_prefect_server(settings, port, prefect_home)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    listener = socket.create_server(("127.0.0.1", 0))
    try:
        warm_up()  # while the server starts

        wait_healthy(server, api_url, settings.runner_start_timeout)
        migrated_by(prefect_home).write_text(prefect_version())
        from flows.crashes import crash_orphans

        crashed = crash_orphans()  # a previous runner's runs, left running when it died
        if crashed:
            log.info("%d flow run(s) of a previous runner marked crashed", crashed)
        if template is not None:
            save_template(prefect_home / "prefect.db", template, log.warning)
        token = local_server.new_token()
        state = local_server.RunnerState(
            pid=os.getpid(),
            port=int(listener.getsockname()[1]),
            token=token,
            api_url=api_url,
            fingerprint=os.environ.pop("INGEST_RUNNER_FINGERPRINT", ""),
            started=datetime.now(UTC).isoformat(timespec="seconds"),
            prefect_pid=server.pid,
        )
        local_server.write_state(settings, state)
        forget_starting(settings)
        restore_priority(priority, server.pid, group)
        log.info("runner %s on port %s, Prefect API %s", os.getpid(), state.port, api_url)
        serve(settings, listener, token, api_url)
    finally:
        listener.close()
        forget_starting(settings)
        mine = local_server.read_state(settings)
        if mine is not None and mine.pid == os.getpid():
            local_server.state_file(settings).unlink(missing_ok=True)
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
