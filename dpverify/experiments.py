"""A generic runner for reproducing a paper's experiments: a grid of tasks, a seeded parallel map
with progress, and CSV / PNG / summary writers.

A paper's experiment module declares its figures to the runner::

    FIGURES = {"mypaper/fig-1": Figure("mypaper/fig-1", "influence against t", run=reproduce_fig1)}

where ``run(out: Path, *, reps, quick, jobs, seed, progress) -> dict`` writes its files into ``out``
and returns at least ``{"summary": str, "files": [paths]}``. ``dpverify reproduce ID`` finds the
figure through the paper's registered module (its ``FIGURES``).

Seeds: every task draws from ``SeedSequence(seed, spawn_key=key)`` for a key made of the task's own
coordinates (:func:`task_seed`), never from the worker, so results do not depend on ``jobs``.
Summaries: a conclusion quotes the sentence of the paper it tests and says which of the paper's
methods produced the paper's panel (:func:`finding`), so that a finding is stated against what the
paper did.
"""
from __future__ import annotations

import csv
import hashlib
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np


@dataclass(frozen=True)
class Figure:
    """A reproducible figure or table of a paper: its id, a title, and the function that runs it."""

    id: str
    title: str
    run: Callable[..., dict]
    quick_seconds: str = ""
    full_seconds: str = ""


def task_seed(seed: int, *key: Any) -> int:
    """A 32-bit seed for one task, from the master seed and the task's coordinates (stable across
    processes and platforms: strings and floats are hashed, integers used as they are)."""
    words = []
    for k in key:
        if isinstance(k, (int, np.integer)) and not isinstance(k, bool) and k >= 0:
            words.append(int(k))
        else:
            words.append(int.from_bytes(hashlib.sha256(repr(k).encode()).digest()[:4], "little"))
    return int(np.random.SeedSequence(seed, spawn_key=tuple(words)).generate_state(1)[0])


_CTX: dict = {}
_SCHEDULER: dict = {"address": None, "client": None}


class use_scheduler:
    """Within this context, :func:`parallel_map` sends its tasks to a Dask cluster (``address``:
    ``tcp://host:port`` or ``"local"``) through one client kept open for the whole run."""

    def __init__(self, address: str | None, workers: int | None = None):
        self.address, self.workers, self._cm = address, workers, None

    def __enter__(self):
        if self.address:
            from .distributed import client

            self._cm = client(self.address, self.workers)
            _SCHEDULER.update(address=self.address, client=self._cm.__enter__())
        return self

    def __exit__(self, *exc):
        if self._cm is not None:
            _SCHEDULER.update(address=None, client=None)
            self._cm.__exit__(*exc)
        return False


def _limit_blas() -> None:
    try:
        from threadpoolctl import threadpool_limits

        _CTX["limits"] = threadpool_limits(1)
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        pass


def _init(initializer, initargs):
    _limit_blas()
    if initializer is not None:
        initializer(*initargs)


def _init_worker(initializer, initargs):
    """In a worker process (or Dask task) the simulators use one thread: the workers fill the cores."""
    from .sim import set_workers

    set_workers(1)
    _init(initializer, initargs)


def parallel_map(fn: Callable[[Any], Any], tasks: Sequence, *, jobs: int = 1, desc: str = "tasks",
                 progress: bool = True, initializer: Callable | None = None, initargs: tuple = ()) -> list:
    """``[fn(t) for t in tasks]`` on ``jobs`` processes (fork), in order, with a progress bar.

    ``fn`` must be a module-level function; ``initializer(*initargs)`` runs once per worker (and
    once in-process when ``jobs == 1``). BLAS is limited to one thread per process. Inside
    :class:`use_scheduler`, the tasks go to the Dask cluster instead (the initializer then runs
    before every task, so it must be idempotent); the results are the same. A worker that dies (killed,
    out of memory) is replaced and its task run again; a task whose worker dies three times raises
    ``RuntimeError`` naming how (:func:`dpverify.distributed.process_map`).
    """
    from tqdm import tqdm

    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    if _SCHEDULER["client"] is not None:
        from .distributed import dask_map

        return dask_map(fn, tasks, scheduler=_SCHEDULER["address"], desc=desc, progress=progress,
                        initializer=_init_worker, initargs=(initializer, initargs), dask_client=_SCHEDULER["client"])
    bar = tqdm(total=len(tasks), desc=desc, unit="task", file=sys.stderr, disable=not progress or None,
               leave=False)
    out = []
    try:
        if jobs > 1 and len(tasks) > 1:
            # the pool of ``dpverify check``: a worker that dies is replaced and its task rerun, or the task
            # fails naming how its worker died (``multiprocessing.Pool`` waits for ever on a dead worker's task)
            from .distributed import process_map

            out = process_map(fn, tasks, workers=min(jobs, len(tasks)), initializer=_init_worker,
                              initargs=(initializer, initargs), on_result=lambda i, r: bar.update())
        else:
            saved = dict(_CTX)
            _init(initializer, initargs)
            try:
                for t in tasks:
                    out.append(fn(t))
                    bar.update()
            finally:
                lim = _CTX.get("limits")
                if lim is not None:
                    lim.restore_original_limits()
                _CTX.clear()
                _CTX.update(saved)
    finally:
        bar.close()
    return out


def _fmt(v) -> str:
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    return str(v)


def write_csv(path: Path, comments: Iterable[str], header: Sequence[str], rows: Iterable[Sequence]) -> Path:
    """A CSV with ``#`` comment lines first (data set, setup, seed), then a header and the rows
    (written atomically: a failure leaves the previous file)."""
    import io

    from .files import write_atomic

    path = Path(path)
    fh = io.StringIO(newline="")
    for c in comments:
        fh.write(f"# {c}\n")
    w = csv.writer(fh)
    w.writerow(list(header))
    for r in rows:
        w.writerow([_fmt(v) for v in r])
    write_atomic(path, fh.getvalue())
    return path


def save_png(fig, path: Path, dpi: int = 120) -> Path:
    """Save a matplotlib figure as PNG (Agg backend, ``dpi``) atomically and close it."""
    import io

    from .files import write_atomic

    path = Path(path)
    buf = io.BytesIO()
    fig.savefig(buf, dpi=dpi, format="png")
    write_atomic(path, buf.getvalue())
    import matplotlib.pyplot as plt

    plt.close(fig)
    return path


def finding(label: str, quote: str, where: str, paper_method: str, status: str, numbers: str) -> str:
    """One conclusion of a summary: the paper's sentence it tests, what the paper did to get its
    panel, and what was found here (``status``: HOLDS / DOES NOT HOLD / NOT ASSESSABLE)."""
    wrap = lambda s: textwrap.fill(s, width=110, subsequent_indent="    ")  # noqa: E731
    return "\n".join([
        wrap(f"{label} paper [{where}]: \"{quote}\""),
        wrap(f"    the paper's panel: {paper_method}"),
        wrap(f"    here: {status}; {numbers}"),
    ])


def write_summary(path: Path, header: Iterable[str], body: str) -> str:
    """``summary.txt``: header lines (what was run, data stand-ins, seed, time), a blank line, body."""
    from .files import write_atomic

    text = "\n".join(header) + "\n\n" + body.rstrip("\n") + "\n"
    write_atomic(path, text)
    return text


def figures_of(module) -> dict[str, Figure]:
    """The figures a paper module declares (``FIGURES``: a mapping id -> Figure), or {}."""
    figs = getattr(module, "FIGURES", None)
    if figs is None or not isinstance(figs, dict):
        return {}
    return {k: v for k, v in figs.items() if isinstance(v, Figure)}


__all__ = ["Figure", "figures_of", "finding", "parallel_map", "save_png", "task_seed", "use_scheduler",
           "write_csv", "write_summary"]
