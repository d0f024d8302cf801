# Entry points: `make test`, `make check`, `make bench`. uv builds the project venv from uv.lock
# on first use, as the README's commands do (installed with pip when missing).
.PHONY: test check bench uv

test: uv
	uv run pytest

check: uv
	scripts/check

# Issue 7 and 30 benchmarks side by side in one run: output/bench.jsonl and a table (about 15
# minutes; the nightly rows over 10,000 sources: bench/run_all.py --sources N; the Dask +
# PostgreSQL nightly: --dask-sources N, 0 skips it).
bench: uv
	uv run python bench/run_all.py

uv:
	@command -v uv >/dev/null || python3 -m pip install -q uv
