"""Execute every notebook in ``notebooks/`` and fail on any cell error.

Each notebook is read into memory and executed there, with the notebooks directory as its
working directory. Outputs are never written back here: the committed notebooks carry the outputs
of ``python notebooks/execute.py`` (checked below: every code cell ran, in order, without an error,
and the verdicts show as HTML). The executed copy is saved under pytest's ``tmp_path`` for inspection.

A notebook whose full size repeats what another test already runs takes smaller sizes here: a cell
after its cell tagged ``parameters`` (papermill's convention) sets them (``PARAMETERS`` below).
"""
from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = REPO / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
# dni_appendix_d reproduces dni/fig-3 and dni/fig-2 in quick mode (20 repetitions), as the fixtures of
# tests/papers/dni/test_dni_reproduce.py do, which check the files, the summary and that fig-2's row is
# fig-3's; here every cell runs and its assertion (that same row equality) is kept, at 4 repetitions.
PARAMETERS = {"dni_appendix_d.ipynb": {"REPS": 4}}
# notebooks that display verdicts of statements with a plot (rates, inequalities, limits); stage.ipynb's
# verdict (a privacy bound measured by a scenario) has none
PLOTTED = {"dni_section4.ipynb"}


def with_parameters(nb, values: dict):
    """``nb`` with a code cell setting ``values`` inserted after its cell tagged ``parameters``."""
    if not values:
        return nb
    (where,) = [i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", ())]
    names = set(values)
    assert all(any(ln.startswith(f"{n} =") for ln in nb.cells[where].source.splitlines()) for n in names), \
        f"the parameters cell does not set {sorted(names)}"
    cell = nbformat.v4.new_code_cell("\n".join(f"{k} = {v!r}" for k, v in values.items()))
    nb.cells.insert(where + 1, cell)
    return nb


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    nb = nbformat.read(path, as_version=4)  # in-memory copy; the file on disk is not modified
    nb = with_parameters(nb, PARAMETERS.get(path.name, {}))
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}},
    )
    try:
        client.execute()  # raises CellExecutionError on the first failing cell
    finally:
        nbformat.write(nb, tmp_path / path.name)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_committed_notebook_carries_its_outputs(path: Path) -> None:
    """A reader of the repository sees what each notebook shows: every code cell was run, top to bottom
    (execution counts 1, 2, ...), none ended in an error, and a verdict shown with ``display`` is its HTML
    (a table with measured vs bound, and a plot where its statements have one), not the text of ``print(v)``."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), \
        f"{path.name}: not executed top to bottom (run python notebooks/execute.py {path.name})"
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{path.name}: a cell ended in {errors[0].ename}"
    assert any(c.outputs for c in code), f"{path.name}: no output at all"
    for c in code:
        if "display(v)" in c.source:
            html = [o for o in c.outputs if o.output_type == "display_data" and "text/html" in o.data]
            assert html and all("<th" in o.data["text/html"] and "measured" in o.data["text/html"] for o in html)
            if path.name in PLOTTED:
                assert any("<svg" in o.data["text/html"] for o in html), f"{path.name}: no verdict shown with its plot"
