"""Reproduction of Figure 1 of [stage] ("Private Stochastic Non-convex Optimization with Improved Utility
Rates", seed 003_5052799caee6efc5.txt): training and testing accuracy against iterations at eps = 8.

The paper trains a 2-layer CNN on MNIST (Figure 1, eps = 8) and ResNet-20 on CIFAR-10 (Figure 2, eps = 10).
Neither data set can be downloaded here and there is no network trainer in the simulator, so this module
trains a **two-layer NumPy network** (64 inputs, ``hidden`` ELU units -- the paper uses ELU -- and a
softmax over 10 classes) on **scikit-learn's shipped digits** (1797 8x8 images, standardised, a 75/25
train/test split) as a stand-in for the CNN on MNIST; every output says so. Figure 2 is not reproduced.

Methods (Section 4.1; the learning-rate decays c/t and c/sqrt(t) are left out):

* ``nonpri-SGD-stage``: stagewise SGD, no clipping, no noise;
* ``DP-SGD-const``: DP-SGD with a constant step;
* ``DP-SGDM-const``: DP-SGD with heavy-ball momentum rho throughout, constant step;
* ``DP-SGDEM-const``: DP-SGD with early momentum (on for the first half of each block of the stage
  lengths), constant step;
* ``DPageS``: Algorithm 1 with momentum always off (stagewise step eta0/2^k, T^k = 2^k T0);
* ``DpageEM``: Algorithm 1 with early momentum (the first t^k_Mon = 2^k t0 steps of each stage).

Every private method runs the same number of iterations with the same mini-batches size B (drawn without
replacement), per-sample gradients clipped to norm C (a clipped loss is C-Lipschitz, as Theorem 3.1 needs),
and Gaussian noise of standard deviation ``z 2C/B`` on the mean clipped gradient (replace-one sensitivity
2C/B), with ``z`` the smallest multiplier that the RDP accountant for batches without replacement
(:func:`dpverify.privacy.wor_gaussian_epsilon`) certifies (eps, delta)-DP for all the iterations
(eps = 8 as in Figure 1; delta = 1e-5, which the text does not give). Stagewise methods start each stage
at an iterate drawn uniformly from the previous stage (Algorithm 1). Accuracies are of the current
iterate, every ``eval_every`` iterations, averaged over ``reps`` independent runs (their own initial
weights, batches, noise and output draws, seeded by the task's coordinates).

The step sizes, momentum and clipping norm are this module's choices (the paper's are in its supplement,
which is not available) and are the same for every method where they apply.
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from dpverify.experiments import Figure, finding, parallel_map, save_png, task_seed, write_csv, write_summary
from dpverify.privacy import wor_gaussian_epsilon

__all__ = ["FIGURES", "METHODS", "Setup", "digits_data", "make_setup", "noise_multiplier", "reproduce",
           "schedule", "train"]

STAND_IN = ("STAND-IN DATA AND MODEL: scikit-learn load_digits (1797 8x8 images, 10 classes, standardised, "
            "75/25 train/test split) stands in for MNIST, and a two-layer NumPy network (64-{h}-10, ELU) stands in "
            "for the paper's 2-layer CNN")
METHODS = ("nonpri-SGD-stage", "DP-SGD-const", "DP-SGDM-const", "DP-SGDEM-const", "DPageS", "DpageEM")
PRIVATE = METHODS[1:]


@dataclass(frozen=True)
class Setup:
    """The experiment's sizes and hyper-parameters (``quick``: the reduced size the notebook and tests run)."""

    hidden: int = 32
    batch: int = 64
    K: int = 4
    T0: int = 25
    t0: int = 12
    eta0: float = 1.0        # stagewise: eta^k = eta0/2^k
    rho: float = 0.5
    clip: float = 1.0
    eps: float = 8.0
    delta: float = 1e-5
    eval_every: int = 25

    @property
    def iterations(self) -> int:
        return self.T0 * (2 ** (self.K + 1) - 2)

    @property
    def lr_const(self) -> float:
        """The constant-step methods' step: the stagewise steps' average over the iterations (the same sum of
        steps, K eta0 T0)."""
        return self.K * self.eta0 / (2 ** (self.K + 1) - 2)


def make_setup(quick: bool) -> Setup:
    return Setup(hidden=16, K=3, T0=10, t0=5, eval_every=10) if quick else Setup()


@lru_cache(maxsize=1)
def digits_data():
    """(X_train, y_train, X_test, y_test): scikit-learn's digits, standardised on the training part."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    X, y = load_digits(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)
    mu, sd = Xtr.mean(axis=0), Xtr.std(axis=0)
    sd[sd == 0] = 1.0
    return (Xtr - mu) / sd, ytr, (Xte - mu) / sd, yte


@lru_cache(maxsize=16)
def noise_multiplier(n: int, batch: int, steps: int, eps: float, delta: float) -> float:
    """The smallest multiplier z (on a grid of 1/1000) that the RDP accountant certifies (eps, delta)-DP for
    ``steps`` Gaussian steps on batches of ``batch`` of ``n`` without replacement (replace-one neighbours)."""
    lo, hi = 0.1, 50.0
    for _ in range(40):
        mid = math.sqrt(lo * hi)
        if wor_gaussian_epsilon(n, batch, mid, steps, delta) <= eps:
            hi = mid
        else:
            lo = mid
    return math.ceil(hi * 1000) / 1000


def schedule(method: str, s: Setup):
    """Per iteration: (step size, momentum on, stage index) -- stage boundaries at T^k = 2^k T0."""
    out = []
    for k in range(1, s.K + 1):
        Tk, mk = s.T0 * 2**k, s.t0 * 2**k
        for t in range(1, Tk + 1):
            stagewise = method in ("nonpri-SGD-stage", "DPageS", "DpageEM")
            lr = s.eta0 / 2**k if stagewise else s.lr_const
            mom = {"DP-SGDM-const": True, "DP-SGDEM-const": t <= mk, "DpageEM": t <= mk}.get(method, False)
            out.append((lr, mom, k))
    return out


def _elu(h):
    return np.where(h > 0, h, np.expm1(np.minimum(h, 0)))


def _forward(params, X):
    W1, b1, W2, b2 = params
    h = X @ W1 + b1
    a = _elu(h)
    logits = a @ W2 + b2
    return h, a, logits


def _accuracy(params, X, y):
    return float(np.mean(np.argmax(_forward(params, X)[2], axis=1) == y))


def _clipped_mean_grad(params, X, y, clip):
    """Mean over the batch of the per-sample gradients clipped to norm ``clip`` (None: no clipping), without
    materialising per-sample tensors: the norm of an outer product is the product of the norms."""
    W1, b1, W2, b2 = params
    h, a, logits = _forward(params, X)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    dl = p
    dl[np.arange(len(y)), y] -= 1.0                       # d loss / d logits, per sample
    dh = (dl @ W2.T) * np.where(h > 0, 1.0, np.exp(np.minimum(h, 0)))
    if clip is None:
        c = np.ones(len(y))
    else:
        sq = ((X * X).sum(1) + 1) * (dh * dh).sum(1) + ((a * a).sum(1) + 1) * (dl * dl).sum(1)
        c = np.minimum(1.0, clip / np.maximum(np.sqrt(sq), 1e-300))
    B = len(y)
    cdh, cdl = dh * c[:, None], dl * c[:, None]
    return [X.T @ cdh / B, cdh.sum(0) / B, a.T @ cdl / B, cdl.sum(0) / B]


def train(method: str, s: Setup, seed: int, z: float):
    """One run of ``method``; returns the list of (iteration, train accuracy, test accuracy)."""
    Xtr, ytr, Xte, yte = digits_data()
    n, D = Xtr.shape
    rng = np.random.default_rng(seed)
    params = [rng.normal(0, 1 / math.sqrt(D), (D, s.hidden)), np.zeros(s.hidden),
              rng.normal(0, 1 / math.sqrt(s.hidden), (s.hidden, 10)), np.zeros(10)]
    prev = [p.copy() for p in params]
    private = method in PRIVATE
    std = z * 2 * s.clip / s.batch if private else 0.0
    sched = schedule(method, s)
    stagewise = method in ("nonpri-SGD-stage", "DPageS", "DpageEM")
    curve = [(0, _accuracy(params, Xtr, ytr), _accuracy(params, Xte, yte))]
    pick, saved, stage = None, None, None
    for it, (lr, mom, k) in enumerate(sched, start=1):
        if stage != k:   # a new stage: (Algorithm 1) start at the previous stage's uniformly drawn iterate
            if stagewise and saved is not None:
                params = [p.copy() for p in saved]
            if method != "DP-SGDM-const":  # velocity zero at a stage start (momentum throughout keeps it)
                prev = [p.copy() for p in params]
            Tk = s.T0 * 2**k
            pick, saved, stage, t_in = int(rng.integers(1, Tk + 1)), None, k, 0
        t_in += 1
        idx = rng.choice(n, size=s.batch, replace=False)
        g = _clipped_mean_grad(params, Xtr[idx], ytr[idx], s.clip if private else None)
        new = []
        for p, q, gp in zip(params, prev, g):
            step = p - lr * (gp + (std * rng.standard_normal(gp.shape) if std else 0.0))
            if mom:
                step = step + s.rho * (p - q)
            new.append(step)
        prev, params = params, new
        if t_in == pick:
            saved = [p.copy() for p in params]
        if it % s.eval_every == 0 or it == len(sched):
            curve.append((it, _accuracy(params, Xtr, ytr), _accuracy(params, Xte, yte)))
    return curve


_CTX: dict = {}


def _task(task):
    method, rep, seed = task
    s, z = _CTX["setup"], _CTX["z"]
    return method, rep, train(method, s, task_seed(seed, METHODS.index(method), rep), z)


def _init(setup, z):
    _CTX["setup"], _CTX["z"] = setup, z


def _compare(finals, a, b, what):
    """Mean difference a - b of the final accuracy, its standard error, and a status (2 standard errors)."""
    x, y = np.asarray(finals[a][what]), np.asarray(finals[b][what])
    diff = float(x.mean() - y.mean())
    se = float(math.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))) if len(x) > 1 else float("nan")
    return diff, se


def _status(diffs):
    """HOLDS when every difference is above 2 standard errors, DOES NOT HOLD when one is below -2 standard
    errors, NOT ASSESSABLE otherwise."""
    if any(d < -2 * se for d, se in diffs):
        return "DOES NOT HOLD"
    if all(d > 2 * se for d, se in diffs):
        return "HOLDS"
    return "NOT ASSESSABLE (a difference is within 2 standard errors)"


QUOTES = {
    "dpages-best": ("1)", "DPageS achieves the best training and testing accuracy among the private algorithms in all "
                          "experiment settings, which indicates that stagewise learning rate indeed improves the "
                          "training performance."),
    "dpageem-vs-const": ("2)", "DpageEM has better accuracy than DP-SGDM-const and DP-SGDEM-const in all experiment "
                               "settings."),
    "sgdm-worst": ("2)", "Also, DP-SGDM-const performs the worst compared to the early momentum methods."),
    "em-vs-none": ("2)", "The early momentum methods perform worse than DP-SGD without any momentum."),
}
PAPER_PANEL = ("Figure 1: a 2-layer CNN with ELU on MNIST, eps = 8, training and testing accuracy of the current model "
               "against iterations for the eight methods of Section 4.1 (hyper-parameters in the supplement)")


def reproduce(out, reps: int = 20, quick: bool = False, jobs: int = 2, seed: int = 0, progress: bool = True) -> dict:
    """Reproduce ``stage/fig-1`` (module docstring) into ``out``: ``fig-1.png`` (training and testing accuracy),
    ``curves.csv`` (mean and standard error per method and iteration), ``final.csv`` (every run's final
    accuracies), ``summary.txt``. Results depend on ``seed``, ``reps`` and ``quick``, not on ``jobs``."""
    from threadpoolctl import threadpool_limits

    if isinstance(reps, bool) or not isinstance(reps, int) or reps < 2:
        raise ValueError(f"reps must be an integer >= 2, got {reps!r}")
    t0 = time.perf_counter()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    s = make_setup(quick)
    Xtr, _, _, _ = digits_data()
    with threadpool_limits(1):
        z = noise_multiplier(len(Xtr), s.batch, s.iterations, s.eps, s.delta)
    tasks = [(m, r, seed) for m in METHODS for r in range(reps)]
    res = parallel_map(_task, tasks, jobs=jobs, desc="stage/fig-1", progress=progress, initializer=_init,
                       initargs=(s, z))
    curves = {m: [] for m in METHODS}
    for m, r, c in res:
        curves[m].append(np.asarray(c, float))
    iters = curves[METHODS[0]][0][:, 0]
    stand_in = STAND_IN.format(h=s.hidden)
    comments = [stand_in, f"setup: {asdict(s)}, constant step {s.lr_const:.4g}, iterations {s.iterations}, noise multiplier z = {z} "
                f"(noise std z 2C/B on the mean clipped gradient), reps {reps}, seed {seed}"]
    rows = []
    for m in METHODS:
        arr = np.stack(curves[m])
        for j, it in enumerate(iters):
            tr, te = arr[:, j, 1], arr[:, j, 2]
            rows.append((m, int(it), tr.mean(), tr.std(ddof=1) / math.sqrt(reps), te.mean(), te.std(ddof=1) / math.sqrt(reps)))
    files = [write_csv(out / "curves.csv", comments, ("method", "iteration", "train_acc", "train_se", "test_acc",
                                                     "test_se"), rows)]
    finals = {m: {"train": [c[-1, 1] for c in curves[m]], "test": [c[-1, 2] for c in curves[m]]} for m in METHODS}
    files.append(write_csv(out / "final.csv", comments, ("method", "rep", "train_acc", "test_acc"),
                           [(m, r, finals[m]["train"][r], finals[m]["test"][r]) for m in METHODS for r in range(reps)]))
    files.append(_plot(out / "fig-1.png", curves, iters, stand_in, s, z))
    body = _findings(finals, s, reps, z, stand_in)
    secs = time.perf_counter() - t0
    header = [f"stage/fig-1: training/testing accuracy against iterations, eps = {s.eps:g}, delta = {s.delta:g} "
              f"({'quick' if quick else 'full'} mode, {reps} runs per method, seed {seed}, {secs:.1f} s)", stand_in]
    summary = write_summary(out / "summary.txt", header, body)
    files.append(out / "summary.txt")
    return {"summary": summary, "files": [str(f) for f in files], "finals": finals, "z": z, "seconds": secs,
            "setup": asdict(s)}


def _findings(finals, s, reps, z, stand_in):
    def fmt(pairs):
        return "; ".join(f"{lab}: {d:+.3f} +- {se:.3f}" for lab, (d, se) in pairs)

    out = []
    for what in ("train", "test"):
        mean = {m: float(np.mean(finals[m][what])) for m in METHODS}
        out.append(f"final {what} accuracy (mean of {reps} runs): "
                   + ", ".join(f"{m} {mean[m]:.3f}" for m in METHODS))
    out.append("")
    checks = {
        "dpages-best": [(f"DPageS - {m} ({w})", _compare(finals, "DPageS", m, w)) for w in ("train", "test")
                        for m in PRIVATE if m != "DPageS"],
        "dpageem-vs-const": [(f"DpageEM - {m} ({w})", _compare(finals, "DpageEM", m, w)) for w in ("train", "test")
                             for m in ("DP-SGDM-const", "DP-SGDEM-const")],
        "sgdm-worst": [(f"{m} - DP-SGDM-const ({w})", _compare(finals, m, "DP-SGDM-const", w)) for w in ("train", "test")
                       for m in ("DpageEM", "DP-SGDEM-const")],
        "em-vs-none": [(f"{b} - {a} ({w})", _compare(finals, b, a, w)) for w in ("train", "test")
                       for a, b in (("DpageEM", "DPageS"), ("DP-SGDEM-const", "DP-SGD-const"))],
    }
    for key, pairs in checks.items():
        label, quote = QUOTES[key]
        out.append(finding(f"Observation {label}", quote, "Section 4.2", PAPER_PANEL,
                           _status([p for _, p in pairs]),
                           "final-accuracy differences (mean +- standard error): " + fmt(pairs)
                           + f" [{stand_in.split(':')[0].lower()}: digits + two-layer NumPy network]"))
        out.append("")
    out.append(finding("Observation 3)", "The performance gap between private and nonprivate models corresponding to "
                       "the training and testing accuracy is smaller for shallow neural networks (2-layer CNN) applied "
                       "to simpler dataset (MNIST), while becoming larger for deeper neural networks (ResNet-20) applied "
                       "to more complex dataset (CIFAR-10).", "Section 4.2",
                       "Figures 1 and 2 (ResNet-20 on CIFAR-10, eps = 10)", "NOT ASSESSABLE",
                       "ResNet-20 and CIFAR-10 are not available here; only the shallow stand-in is run "
                       f"(its private-nonprivate test gap: nonpri-SGD-stage - DPageS = "
                       f"{_compare(finals, 'nonpri-SGD-stage', 'DPageS', 'test')[0]:+.3f})"))
    out.append("")
    out.append(f"noise: multiplier z = {z} on the replace-one sensitivity 2C/B of the mean clipped gradient, from the "
               f"RDP accountant for {s.iterations} steps on batches of {s.batch} drawn without replacement; "
               f"C = {s.clip}, rho = {s.rho}, eta0 = {s.eta0} (stage k: eta0/2^k), constant step {s.lr_const:.4g} (the "
               f"stagewise steps' average, so every method takes the same sum of steps).")
    return "\n".join(out)


def _plot(path, curves, iters, stand_in, s, z):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    styles = {"nonpri-SGD-stage": ("k", "-"), "DP-SGD-const": ("tab:blue", "-"), "DP-SGDM-const": ("tab:orange", "-"),
              "DP-SGDEM-const": ("tab:green", "-"), "DPageS": ("tab:red", "-"), "DpageEM": ("tab:purple", "--")}
    for j, (ax, what) in enumerate(zip(axes, ("training accuracy", "testing accuracy"))):
        for m in METHODS:
            arr = np.stack(curves[m])[:, :, j + 1]
            mean, se = arr.mean(0), arr.std(0, ddof=1) / math.sqrt(arr.shape[0])
            col, ls = styles[m]
            ax.plot(iters, mean, color=col, ls=ls, label=m)
            ax.fill_between(iters, mean - 2 * se, mean + 2 * se, color=col, alpha=0.15)
        ax.set_xlabel("iteration")
        ax.set_ylabel(what)
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[1].legend(fontsize=8, loc="lower right")
    fig.suptitle(f"stage/fig-1 stand-in: digits + two-layer NumPy network (not MNIST/CNN), eps = {s.eps:g}, "
                 f"delta = {s.delta:g}, z = {z}", fontsize=10)
    fig.tight_layout()
    return save_png(fig, path)


FIGURES = {
    "stage/fig-1": Figure("stage/fig-1", "Figure 1: training/testing accuracy against iterations, eps = 8 (stand-in: "
                                         "two-layer NumPy network on scikit-learn's digits)",
                          run=lambda out, **kw: reproduce(out, **kw),
                          quick_seconds="about 50", full_seconds="about 350"),  # 100 reps, 2 jobs, shared 2-core machine
}
