"""Wall time of the commands a user types, side by side in one run (issue "fast, quiet runs").

    uv run python bench/cli_wall.py [--repeat 3] [--json]

Each command is the installed console script (`.venv/bin/ingest`) in a subprocess with no
PREFECT_API_URL, exactly as a user runs it; a fresh INGEST_HOME per scenario:

- `extract`: `ingest extract F --url U` of the PyTorch page (the baseline of the next two);
- `extract_pdf`: `ingest extract P --url https://arxiv.org/pdf/ID` of an arXiv PDF (median of
  --repeat), beside `import_floor`: the interpreter starting and importing pypdf alone, the
  least any PDF command can cost;
- `run_first`: `ingest run U --file F` in a fresh workspace (no runner up: run in the command's
  own process, the local runner started in the background);
- `run_again`: the same command again (median of --repeat; in the command's process while the
  runner starts, through it once it is up);
- `review_list`: `ingest review list` (median of --repeat);
- `nightly_first` / `nightly_second`: `ingest nightly --replay fixtures/web` in a fresh workspace,
  twice (the first starts the runner);
- `run_after_nightly`: the first `ingest run U --file F` in that workspace, as a user follows the
  README (its runner is up).

The project's own modules (src/, extractors/, flows/) are compiled to bytecode first, as a
user's first command writes it: `uv sync --compile-bytecode` compiles the installed packages but
not an editable project's code, and these machines set PYTHONDONTWRITEBYTECODE, so without this
every command would compile from source whichever of them had no up-to-date .pyc (0.3-0.5 s of
CPU, more for the modules a one-off run imports than for `extract`'s: the figures depended on
which commands the tests had happened to run).

Beside each wall time, the CPU time (user + system) of the command's own process (medians the
same way): on a machine shared with other work the wall times swing with its load, the CPU
times much less, and a wall time well above its CPU time is waiting (for the CPU, or a runner).

The per-machine Prefect database template in INGEST_CACHE_DIR is used as a user's second
workspace would use it; `--cold-cache` points INGEST_CACHE_DIR at an empty folder to measure a
machine's very first run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INGEST = ROOT / ".venv" / "bin" / "ingest"
PAGE = ROOT / "fixtures" / "governance" / "docs-main.persons_of_interest.4bc782c2.md"
URL = "https://docs.pytorch.org/docs/stable/community/persons_of_interest.html"
WEB = ROOT / "fixtures" / "web"
PDF = ROOT / "fixtures" / "arxiv" / "pdf" / "2203.00130v1.pdf"
PDF_URL = "https://arxiv.org/pdf/2203.00130v1"
PYTHON = ROOT / ".venv" / "bin" / "python"


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_cpu(env: dict[str, str], *args: str) -> tuple[float, float]:
    """The wall time of `ingest ARGS` and the CPU time of its process (not of the runner it
    may start in the background: that one is not its waited-for child)."""
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run([str(INGEST), *args], env=env, capture_output=True, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"ingest {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return took, _children_cpu() - cpu


def median_of(repeat: int, env: dict[str, str], *args: str) -> tuple[float, float]:
    runs = [timed_cpu(env, *args) for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def import_floor(env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([str(PYTHON), "-c", "import pypdf"], env=env, check=True)
    return time.perf_counter() - started


def compile_project() -> None:
    """Bytecode for the project's modules (see the module docstring); quiet, idempotent."""
    folders = [str(ROOT / name) for name in ("src", "extractors", "flows")]
    subprocess.run([str(PYTHON), "-m", "compileall", "-q", *folders], check=True)


def workspace_env(folder: Path, cache: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "INGEST_"))}
    env["INGEST_HOME"] = str(folder)
    if cache is not None:
        env["INGEST_CACHE_DIR"] = str(cache)
    return env


def measure(repeat: int, cold_cache: bool) -> tuple[dict[str, float], dict[str, float]]:
    """Wall times, and the CPU times of the same commands (no import_floor)."""
    with tempfile.TemporaryDirectory(prefix="ingest-cli-bench-") as tmp:
        base = Path(tmp)
        cache = base / "cache" if cold_cache else None
        pairs: dict[str, tuple[float, float]] = {}
        run_env = workspace_env(base / "run", cache)
        night_env = workspace_env(base / "nightly", cache)
        run = ("run", URL, "--file", str(PAGE))
        try:
            pairs["extract"] = median_of(repeat, run_env, "extract", str(PAGE), "--url", URL)
            pairs["extract_pdf"] = median_of(repeat, run_env, "extract", str(PDF), "--url", PDF_URL)
            floor = statistics.median(import_floor(run_env) for _ in range(repeat))
            pairs["run_first"] = timed_cpu(run_env, *run)
            pairs["run_again"] = median_of(repeat, run_env, *run)
            pairs["review_list"] = median_of(repeat, run_env, "review", "list")
            pairs["nightly_first"] = timed_cpu(night_env, "nightly", "--replay", str(WEB))
            pairs["nightly_second"] = timed_cpu(night_env, "nightly", "--replay", str(WEB))
            # the README's order: the main job, then a first one-off run in its workspace
            pairs["run_after_nightly"] = timed_cpu(night_env, *run)
        finally:
            for env in (run_env, night_env):
                subprocess.run([str(INGEST), "server", "stop"], env=env, capture_output=True)
        walls = {name: wall for name, (wall, _cpu) in pairs.items()}
        first = {"extract": walls.pop("extract"), "extract_pdf": walls.pop("extract_pdf")}
        return {**first, "import_floor": floor, **walls}, {n: c for n, (_w, c) in pairs.items()}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold-cache", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    compile_project()
    result, cpu = measure(args.repeat, args.cold_cache)
    if args.json:
        print(json.dumps({**result, "cpu": cpu}))
        return 0
    base, base_cpu = result["extract"], cpu["extract"]
    for name, seconds in result.items():
        line = f"{name:17} {seconds:6.2f} s   {seconds / base:5.1f}x extract"
        if name in cpu:
            line += f"   cpu {cpu[name]:5.2f} s {cpu[name] / base_cpu:5.1f}x extract's"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
