"""``dpverify reproduce``: [dni, Appendix D] figure reproduction (quick mode), setup, CLI errors."""
import csv
import io
from pathlib import Path

import numpy as np
import pytest

from theorems.dni import experiments as rep
from dpverify.cli import main
from dpverify.privacy import dp_to_zcdp
from dpverify.sim import LeastSquares, pgd

ROW_FILES = ("loss_vs_sigma", "influence", "relative_loss", "grid", "schedules")
COLUMNS = {
    "loss_vs_sigma": ["scale", "T", "t", "sigma_others", "sigma_t", "mean_loss", "se_loss", "c2", "c0"],
    "influence": ["scale", "T", "t", "q_retrain", "q_hessian", "q_used"],
    "relative_loss": ["scale", "schedule", "best_T", "mean_loss", "se_loss", "excess", "rel_loss",
                      "rel_loss_se", "rel_excess", "var_influence", "var_influence_T",
                      "predicted_rel_gain"],
    "grid": ["scale", "schedule", "T", "mean_loss", "se_loss"],
    "schedules": ["scale", "schedule", "T", "t", "sigma"],
}


def read_csv(path: Path) -> tuple[list[str], list[str], list[dict]]:
    text = path.read_text()
    comments = [ln for ln in text.splitlines() if ln.startswith("#")]
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("#"))
    reader = csv.DictReader(io.StringIO(body))
    return comments, reader.fieldnames, list(reader)


# The tests of the two module fixtures below run on one xdist worker (one group), so that each fixture
# runs once in the whole session instead of once per worker that meets one of its tests.
FIGURES = pytest.mark.xdist_group("dni-reproduce-figures")
# The tests below check files, columns, budgets, the summary's quotes and that results do not depend on
# the number of worker processes, none of which depends on the repetitions: 4 (the quick mode's 20 are
# what `dpverify reproduce --quick` runs).
REPS = 4


@pytest.fixture(scope="module")
def fig2_runs(tmp_path_factory):
    """fig-2 in quick mode with one and with two worker processes, same seed (fig3_run's)."""
    out = {}
    for jobs in (1, 2):
        d = tmp_path_factory.mktemp(f"fig2_j{jobs}")
        out[jobs] = (d, rep.reproduce("dni/fig-2", d, quick=True, reps=REPS, jobs=jobs, seed=0,
                                      progress=False))
    return out


@pytest.fixture(scope="module")
def fig3_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("fig3")
    return d, rep.reproduce("dni/fig-3", d, quick=True, reps=REPS, jobs=2, seed=0, progress=False)


def check_outputs(d: Path, rows) -> None:
    for row in rows:
        png = d / f"{row}.png"
        assert png.stat().st_size > 1000 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        for kind in ROW_FILES:
            comments, header, data = read_csv(d / f"{row}_{kind}.csv")
            assert header == COLUMNS[kind]
            assert data, f"{row}_{kind}.csv has no rows"
            float(data[0]["scale"])
            if rep.ROWS[row].dataset == "digits35":
                assert any("STAND-IN" in c for c in comments)
    summary = (d / "summary.txt").read_text()
    assert "(a)" in summary and "(b)" in summary and "(c)" in summary
    assert "0.3927" in summary and "DNN" in summary


@FIGURES
def test_fig3_quick_writes_expected_files(fig3_run):
    d, result = fig3_run
    check_outputs(d, rep.FIGURE_ROWS["dni/fig-3"])
    assert set(result["claims"]) == set(rep.FIGURE_ROWS["dni/fig-3"])
    assert "STAND-IN" in result["summary"]
    rel = read_csv(d / "digits35_squared_relative_loss.csv")[2]
    assert {r["schedule"] for r in rel} == {"uni", "dyn", "exp", "dyn-rt"}
    assert all(float(r["rel_loss"]) == 0.0 for r in rel if r["schedule"] == "uni")
    # every schedule spends exactly the budget R
    sched = read_csv(d / "synthetic_logistic_schedules.csv")[2]
    groups = {}
    for r in sched:
        groups.setdefault((r["scale"], r["schedule"], r["T"]), []).append(float(r["sigma"]))
    for sig in groups.values():
        assert np.isclose(np.sum(1 / np.square(sig)), result["R"], rtol=1e-9)


@FIGURES
def test_fig2_quick_files_and_jobs_invariance(fig2_runs):
    (d1, r1), (d2, r2) = fig2_runs[1], fig2_runs[2]
    check_outputs(d2, rep.FIGURE_ROWS["dni/fig-2"])
    csvs = sorted(p.name for p in d1.glob("*.csv"))
    assert csvs == sorted(p.name for p in d2.glob("*.csv")) and len(csvs) == 5
    for name in csvs:
        assert (d1 / name).read_bytes() == (d2 / name).read_bytes(), name
    assert r1["claims"] == r2["claims"]


@FIGURES
def test_fig2_row_equals_fig3_row_with_same_seed(fig2_runs, fig3_run):
    # Task seeds depend on the row, not on the figure: fig-2 is fig-3's squared-loss row.
    a = (fig2_runs[2][0] / "digits35_squared_relative_loss.csv").read_text().split("\n", 3)[-1]
    b = (fig3_run[0] / "digits35_squared_relative_loss.csv").read_text().split("\n", 3)[-1]
    assert a == b


@pytest.mark.parametrize("scale", [1.0, 5.0, 20.0])
@pytest.mark.parametrize("dataset", ["synthetic", "digits35"])
def test_dataset_builders_respect_setup(dataset, scale):
    X, y = rep.make_dataset(dataset, scale, seed=0)
    assert np.isclose(np.linalg.norm(X, axis=1).max(), scale, rtol=1e-12)
    assert np.allclose(X.mean(axis=0), 0.0, atol=1e-12 * scale)
    sd = X.std(axis=0)
    assert np.allclose(sd, sd[0])  # standardised, then one common factor
    assert set(np.unique(y)) == {-1.0, 1.0}
    if dataset == "synthetic":
        assert X.shape == (1000, 100)
        raw, _ = rep.synthetic_raw(0)
        centres = [raw[y == s].mean(axis=0) for s in (1.0, -1.0)]
        assert abs(np.linalg.norm(centres[0] - centres[1]) - 10.0) < 0.5
    else:
        assert X.shape == (365, 54)


def test_budget_from_conversion():
    assert rep.privacy_budget() == pytest.approx(2 * dp_to_zcdp(4, 1e-8))
    assert round(rep.privacy_budget(), 4) == 0.3927


def test_hessian_influence_increasing_and_matches_monte_carlo():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 4)) * np.array([1.0, 0.7, 0.4, 0.2])
    y = rng.normal(size=50)
    prob = LeastSquares(X, y)
    eigs = np.linalg.eigvalsh(X.T @ X / 50)
    T, eta, C = 12, 0.5, 1.0
    q = rep.hessian_influence(eigs, eta, C, 50, T)
    assert q.shape == (T,) and np.all(np.diff(q) > 0)
    # E f(theta_{T+1}) grows by q_t sigma_t^2 when only step t is noisy (G = C, no clipping)
    for t in (1, 6, 12):
        sig = np.zeros(T)
        sig[t - 1] = 30.0
        res = pgd(prob, prob.theta_star, eta, sig * (C / 50), 40000, 5)  # statistic: excess risk
        assert res.mean == pytest.approx(q[t - 1] * 900.0, rel=0.05)


def test_small_helpers():
    assert rep.fit_quadratic([1, 2, 3], [3, 9, 19]) == pytest.approx((2.0, 1.0))
    q, n = rep.interpolate_influence(np.array([1, 3, 5]), np.array([-1.0, 2.0, 4.0]), 5)
    assert n == 1 and np.allclose(q, [2, 2, 2, 3, 4])
    sig, k = rep.exponential_fit(np.exp(-0.1 * np.arange(1, 11)) * 7, 0.4)
    assert k == pytest.approx(0.1) and np.sum(sig ** -2) == pytest.approx(0.4)
    assert rep.variance_of_influence(np.ones(7)) == 0.0
    ts = rep.influence_t_grid(100, 11)
    assert {1, 10, 60, 90, 100} <= set(ts.tolist())
    assert rep.influence_t_grid(5, 11).tolist() == [1, 2, 3, 4, 5]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv, message", [
    (["reproduce", "dni/fig-9"], "unknown figure id 'dni/fig-9'"),
    (["reproduce", "dni/fig-2", "--reps", "1"], "--reps must be at least 2"),
])
def test_cli_usage_errors(capsys, argv, message):
    code, out, err = run(capsys, *argv, "--no-progress")
    assert code == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize("option, value, message", [
    ("--reps", "0", "reps must be a positive integer, got '0'"),
    ("--jobs", "0", "jobs must be a positive integer, got '0'"),
    ("--seed", "-2", "seed must be a non-negative integer, got '-2'"),
])
def test_cli_bad_option_values(capsys, option, value, message):
    with pytest.raises(SystemExit) as exc:
        main(["reproduce", "dni/fig-2", option, value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and option in err and "Traceback" not in err


def test_cli_quick_run(capsys, tmp_path):
    code, out, err = run(capsys, "reproduce", "dni/fig-2", "--quick", "--reps", "4",
                         "--out", str(tmp_path / "o"), "--no-progress")
    assert code == 0 and "(a) paper [Appendix D, Results]" in out and "Traceback" not in err
    assert (tmp_path / "o" / "summary.txt").exists()


@FIGURES
def test_summary_quotes_the_sentences_it_tests_and_the_papers_method(fig3_run):
    """Each conclusion quotes the paper's sentence and says how the paper got its panel; for the
    squared-loss row the paper's dynamic schedule came from the Hessian influence, not retraining."""
    d, result = fig3_run
    summary = (d / "summary.txt").read_text()
    flat = " ".join(summary.split())
    for quote, where in rep.QUOTES.values():
        assert " ".join(quote.split()) in flat and where in flat
    assert "analytical solution using the Hessian eigen values" in flat
    assert "[dyn: Hessian q; the paper's method]" in flat
    assert "[dyn-rt: retrained q; NOT the paper's method for this row" in flat
    assert result["claims"]["digits35_squared"]["c"]["dyn"]["paper_method"] is True
    assert result["claims"]["digits35_squared"]["c"]["dyn-rt"]["paper_method"] is False
