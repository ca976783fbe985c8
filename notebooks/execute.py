"""Execute the notebooks in place, so that the committed files carry their outputs (figures, verdicts).

    python notebooks/execute.py                 # every notebook of this folder
    python notebooks/execute.py erm.ipynb       # some of them

Each notebook runs top to bottom in a fresh ``python3`` kernel, with this folder as its working
directory (as ``tests/papers/test_notebooks.py`` runs them, at their full sizes); a cell that raises
stops it and leaves the file unchanged. The outputs are written back with ``nbformat``.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import nbclient
import nbformat

HERE = Path(__file__).resolve().parent


def execute(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    nbclient.NotebookClient(nb, timeout=1800, kernel_name="python3",
                            resources={"metadata": {"path": str(HERE)}}).execute()
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(names) -> int:
    paths = [HERE / n for n in names] or sorted(HERE.glob("*.ipynb"))
    for p in paths:
        print(f"{p.name}: {execute(p):.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
