"""Execute every notebook in ``notebooks/`` and fail on any cell error.

Each notebook is read into memory and executed there, with the notebooks directory as its
working directory. Outputs are never written back, so the committed notebooks stay without
outputs. The executed copy is saved under pytest's ``tmp_path`` for inspection.
"""
from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = REPO / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    nb = nbformat.read(path, as_version=4)  # in-memory copy; the file on disk is not modified
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}},
    )
    try:
        client.execute()  # raises CellExecutionError on the first failing cell
    finally:
        nbformat.write(nb, tmp_path / path.name)
