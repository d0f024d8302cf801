"""The workspace's local runner: started once per INGEST_HOME, reused by every `ingest run` and
`ingest nightly` that has no PREFECT_API_URL of its own.

It is two processes (`flows/local_runner.py` is the runner; this module is the CLI's side and
imports neither Prefect nor the flows, so a command that talks to it starts in a fraction of a
second):

- a Prefect server (the same uvicorn app as Prefect's temporary server) on a free loopback port,
  its database and PREFECT_HOME in INGEST_HOME/server/prefect, its log in
  INGEST_HOME/logs/prefect-server.log;
- a warm Python process with Prefect and the flows imported, which runs each request as a real
  Prefect flow run against that server (task runs recorded) and streams progress and the result
  back over a loopback socket, one request at a time.

INGEST_HOME/server/state.json   {"pid", "port", "token", "api_url", "fingerprint", ...} (0600)
INGEST_HOME/logs/runner.log     the runner's own log: Prefect's logs of every run, tracebacks

INGEST_HOME/server/starting.pid  a runner started in the background and not up yet

A command that finds no runner up need not wait for one: `up` says whether one answers, and
`start_in_background` starts it for the next command (the CLI then runs its one-off in its own
process); `ensure` starts one and waits, or waits for the one starting.

A request carries a secret token from the state file (readable by the owner only). The runner
stops after INGEST_RUNNER_IDLE seconds without a request, on `ingest server stop`, or when the
code it runs has changed on disk (the next command starts a fresh one). A state file whose
process is gone or does not answer is stale and is removed.

Prefect's database starts from a copy of an empty, migrated one cached per Prefect version in
INGEST_CACHE_DIR: creating it (~100 migrations) takes 10-15 s once per machine, copying it 10 ms.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ingest.errors import RunFailedError, ServerError, SourcesFailedError
from ingest.files import write_atomic
from ingest.profiles.locks import exclusive
from ingest.runner import priority
from ingest.runner.prefect_database import DISK_FULL_STATUS, no_space, seed_database
from ingest.settings import PROJECT_ROOT, Settings

# the code the runner executes: a change here means a fresh runner (a stale one would run old code)
CODE_DIRS = ("src/ingest", "extractors", "flows")
ENV_PREFIXES = ("INGEST_",)  # what a request carries of the caller's environment
CONNECT_TIMEOUT = 2.0
# the priority a runner started at a lower one (start_in_background) takes back once it is up,
# and its session's autogroup's (`ingest.runner.priority`)
PRIORITY_ENV = "INGEST_RUNNER_PRIORITY"
GROUP_PRIORITY_ENV = "INGEST_RUNNER_GROUP_PRIORITY"
DISK_NEARLY_FULL = 1 << 20  # bytes free below which a runner gone mid-run is put down to the disk
Progress = Callable[[str, int, int | None], None]


@dataclass(frozen=True)
class RunnerState:
    pid: int
    port: int
    token: str
    api_url: str
    fingerprint: str
    started: str
    prefect_pid: int | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def server_dir(settings: Settings) -> Path:
    return settings.home / "server"


def state_file(settings: Settings) -> Path:
    return server_dir(settings) / "state.json"


def logs_dir(settings: Settings) -> Path:
    return settings.home / "logs"


def runner_log(settings: Settings) -> Path:
    return logs_dir(settings) / "runner.log"


def prefect_log(settings: Settings) -> Path:
    return logs_dir(settings) / "prefect-server.log"


def code_fingerprint() -> str:
    """What the runner's code is: every module's size and mtime, the interpreter, Prefect's
    version. About a hundred stat calls: a millisecond or two."""
    digest = hashlib.sha256(sys.executable.encode())
    for folder in CODE_DIRS:
        for path in sorted((PROJECT_ROOT / folder).rglob("*.py")):
            info = path.stat()
            digest.update(f"{path}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    prefect_dist = _prefect_version()
    digest.update(prefect_dist.encode())
    return digest.hexdigest()[:16]


def _prefect_version() -> str:
    from importlib.metadata import version

    return version("prefect")


def read_state(settings: Settings) -> RunnerState | None:
    try:
        data = json.loads(state_file(settings).read_text())
        return RunnerState(**data)
    except (OSError, ValueError, TypeError):
        return None


def write_state(settings: Settings, state: RunnerState) -> None:
    path = state_file(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(state.to_json(), indent=2).encode(), mode=0o600)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def ping(state: RunnerState, timeout: float = CONNECT_TIMEOUT) -> dict[str, Any] | None:
    """The runner's answer to a ping, or None when nothing (or something else) answers."""
    try:
        with _connect(state, timeout) as conn:
            _send(conn, {"op": "ping", "token": state.token})
            reply = _read_line(conn.makefile("rb"))
    except (OSError, ValueError):
        return None
    return reply if reply and reply.get("ok") else None


def status(settings: Settings) -> RunnerState | None:
    """The workspace's runner if it is up and answering; a stale state file is removed."""
    state = read_state(settings)
    if state is None:
        return None
    if _alive(state.pid) and ping(state) is not None:
        return state
    _forget(settings, state)
    return None


def _forget(settings: Settings, state: RunnerState) -> None:
    """Remove a stale state file, and end its processes if they linger without answering."""
    for pid in (state.pid, state.prefect_pid):
        if pid and _alive(pid) and _is_ours(pid):
            _terminate(pid)
    state_file(settings).unlink(missing_ok=True)


def _is_ours(pid: int) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"flows.local_runner" in cmdline or b"prefect.server.api.server" in cmdline


def _terminate(pid: int, wait: float = 10.0) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if not _alive(pid) or _zombie(pid):
            return
        time.sleep(0.05)
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _zombie(pid: int) -> bool:
    try:
        return ") Z " in Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False


def starting_file(settings: Settings) -> Path:
    """The pid of a runner started and not up yet (so that no second one is started meanwhile)."""
    return server_dir(settings) / "starting.pid"


def up(settings: Settings) -> RunnerState | None:
    """The workspace's runner if it answers and runs today's code; else None (nothing waited
    for, nothing started)."""
    state = status(settings)
    return state if state is not None and state.fingerprint == code_fingerprint() else None


def ensure(
    settings: Settings,
    on_wait: Callable[[str], None] | None = None,
    on_notice: Callable[[str], None] | None = None,
) -> RunnerState:
    """The workspace's runner, started if none answers or if the code changed since it started
    (one already starting, see start_in_background, is waited for). Before a start, its Prefect
    database is checked (`ingest.runner.prefect_database`): a malformed one is rebuilt, said in
    one line to `on_notice`."""
    with exclusive(server_dir(settings) / "start.lock"):  # two commands share one runner
        state = status(settings)
        if state is not None and state.fingerprint == code_fingerprint():
            return state
        if state is not None:  # it runs older code: replace it
            stop(settings)
        elif (pid := _starting(settings)) is not None:
            if on_wait:
                on_wait("waiting for the local runner to start")
            priority.hasten(pid)  # started low for the next command: this one waits for it
            return _wait_up(settings, pid, lambda: None if _alive(pid) else -1)
        process = _spawn(settings, on_wait, on_notice)
        return _wait_up(settings, process.pid, process.poll)


def start_in_background(
    settings: Settings, on_notice: Callable[[str], None] | None = None
) -> int | None:
    """Start the workspace's runner for the next command, not waiting for it: its pid, or None
    when one is up with today's code or already starting. It starts INGEST_RUNNER_NICE steps
    below this process's priority (its Prefect server too), and its session's scheduling group
    as many below this one's (without which the nice value counts for nothing against this
    process: `ingest.runner.priority`), so that the command running here meanwhile is not
    slowed by the 2-4 s of CPU a start takes; the group is given back when that command ends
    (`kept_low`), the nice value once it is up where the system allows it."""
    with exclusive(server_dir(settings) / "start.lock"):
        state = status(settings)
        if state is not None and state.fingerprint == code_fingerprint():
            return None
        if state is not None:  # it runs older code: replace it
            stop(settings)
        elif _starting(settings) is not None:
            return None
        return _spawn(settings, None, on_notice, nice=settings.runner_nice).pid


@contextmanager
def kept_low(settings: Settings) -> Iterator[None]:
    """For the length of a command that runs in its own process while the runner starts (after
    start_in_background): the starting runner's session group INGEST_RUNNER_NICE steps below
    this process's, given back when the command ends (`priority.hasten`). Low only while a
    command runs: with autogroups a group at nice 10 weighs a tenth of one at 0, so a runner
    left low on a busy machine took minutes to start (not up in 240 s at a load of 13)."""
    pid = _starting(settings)
    group = priority.group_nice()
    if pid is None or group is None or settings.runner_nice <= 0:
        yield
        return
    priority.set_group_nice(group + settings.runner_nice, pid)
    try:
        yield
    finally:
        priority.hasten(pid)


def _starting(settings: Settings) -> int | None:
    """The runner started and not up yet, if its process is still there."""
    try:
        pid = int(starting_file(settings).read_text())
    except (OSError, ValueError):
        return None
    if _alive(pid) and not _zombie(pid) and _is_ours(pid):
        return pid
    starting_file(settings).unlink(missing_ok=True)
    return None


def _spawn(
    settings: Settings,
    on_wait: Callable[[str], None] | None,
    on_notice: Callable[[str], None] | None,
    *,
    nice: int = 0,
) -> subprocess.Popen[bytes]:
    """The runner's process, `nice` steps below this one's priority, its session's autogroup
    as many below this one's (see start_in_background, `ingest.runner.priority`)."""
    logs_dir(settings).mkdir(parents=True, exist_ok=True)
    state_file(settings).unlink(missing_ok=True)
    prefect_home = server_dir(settings) / "prefect"
    first = not (prefect_home / "prefect.db").exists()
    prefect_home.mkdir(parents=True, exist_ok=True)
    seed_database(settings, prefect_home, on_notice)
    if on_wait:
        on_wait(
            "starting the local Prefect server"
            + (" (first start in this workspace)" if first else "")
        )
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    env["INGEST_HOME"] = str(settings.home.resolve())
    env["INGEST_RUNNER_FINGERPRINT"] = code_fingerprint()
    lower: Callable[[], object] | None = None
    if nice > 0:
        env[PRIORITY_ENV] = str(os.getpriority(os.PRIO_PROCESS, 0))
        group = priority.group_nice()
        if group is not None:
            env[GROUP_PRIORITY_ENV] = str(group)
        lower = functools.partial(priority.lower, nice, group)
    with runner_log(settings).open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "flows.local_runner"],
            cwd=PROJECT_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # not in the terminal's process group: Ctrl-C spares it
            preexec_fn=lower,
        )
    write_atomic(starting_file(settings), str(process.pid).encode())
    return process


def _wait_up(settings: Settings, pid: int, exited: Callable[[], int | None]) -> RunnerState:
    """Wait for runner `pid` to answer; `exited` is its exit status once it is gone (-1 when
    it is not this process's child and its status is unknown)."""
    deadline = time.monotonic() + settings.runner_start_timeout
    while time.monotonic() < deadline:
        code = exited()
        if code == DISK_FULL_STATUS:
            raise ServerError(
                f"the local runner could not start: {no_space(server_dir(settings))}; "
                f"see {runner_log(settings)}"
            )
        if code is not None:
            raise ServerError(
                f"the local runner exited with status {code} while starting; "
                f"see {runner_log(settings)} and {prefect_log(settings)}"
            )
        state = read_state(settings)
        if state is not None and state.pid == pid and ping(state) is not None:
            return state
        time.sleep(0.1)
    _terminate(pid)
    raise ServerError(
        f"the local runner did not answer within {settings.runner_start_timeout:.0f} s "
        f"(INGEST_RUNNER_START_TIMEOUT); see {runner_log(settings)}"
    )


def stop(settings: Settings) -> RunnerState | None:
    """Stop the workspace's runner (and its Prefect server); None if none was running (one
    still starting is ended too)."""
    state = read_state(settings)
    if state is None:
        starting = _starting(settings)
        if starting is not None:
            _terminate(starting)
            starting_file(settings).unlink(missing_ok=True)
        return None
    if _alive(state.pid):
        try:
            with _connect(state, CONNECT_TIMEOUT) as conn:
                _send(conn, {"op": "stop", "token": state.token})
                _read_line(conn.makefile("rb"))
        except (OSError, ValueError):
            pass
        deadline = time.monotonic() + 15
        while _alive(state.pid) and not _zombie(state.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
    _forget(settings, state)
    return state


def call(
    state: RunnerState,
    op: str,
    args: dict[str, Any],
    on_progress: Progress | None = None,
    verbose: bool = False,
    on_log: Callable[[str], None] | None = None,
    workspace: Path | None = None,
) -> dict[str, Any]:
    """Run `op` ("run" or "nightly") with `args` in the runner, in the caller's environment and
    folder; progress reports go to `on_progress`, and with `verbose` the run's log lines to
    `on_log`. The flow's result, or its error raised here (SourcesFailedError with the
    result of a nightly whose failed sources reached its --fail-on). A runner gone mid-run
    while `workspace` (INGEST_HOME) has no space left is said to be that."""
    request = {
        "op": op,
        "token": state.token,
        "args": args,
        "env": {k: v for k, v in os.environ.items() if k.startswith(ENV_PREFIXES)},
        "cwd": os.getcwd(),
        "verbose": verbose,
    }
    try:
        conn = _connect(state, CONNECT_TIMEOUT)
    except OSError as exc:
        raise ServerError(f"the local runner on port {state.port} did not answer: {exc}") from exc
    with conn:
        conn.settimeout(None)  # a nightly takes as long as it takes; the runner streams progress
        _send(conn, request)
        lines = conn.makefile("rb")
        while True:
            message = _read_line(lines)
            if message is None:
                if workspace is not None and _disk_full(workspace):
                    raise ServerError(
                        f"the local runner stopped before the run ended: {no_space(workspace)}; "
                        "the next nightly marks the run crashed"
                    )
                raise ServerError(
                    "the local runner closed the connection before the run ended (did it die?); "
                    "the next nightly marks the run crashed"
                )
            if "progress" in message:
                if on_progress:
                    stage, done, total = message["progress"]
                    on_progress(stage, done, total)
            elif "log" in message:
                if on_log:
                    on_log(str(message["log"]))
            elif "failed" in message:
                raise SourcesFailedError(str(message["failed"]), dict(message["result"]))
            elif "result" in message:
                return dict(message["result"])
            elif "error" in message:
                raise RunFailedError(message["error"], message.get("unexpected", False))


def _disk_full(folder: Path) -> bool:
    try:
        return shutil.disk_usage(folder).free < DISK_NEARLY_FULL
    except OSError:
        return False


def _connect(state: RunnerState, timeout: float) -> socket.socket:
    return socket.create_connection(("127.0.0.1", state.port), timeout=timeout)


def _send(conn: socket.socket, message: dict[str, Any]) -> None:
    conn.sendall(json.dumps(message).encode() + b"\n")


def _read_line(stream: Any) -> dict[str, Any] | None:
    line = stream.readline()
    if not line:
        return None
    return dict(json.loads(line))


def new_token() -> str:
    return secrets.token_hex(16)
