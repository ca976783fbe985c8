"""The sampled search's points: Hypothesis's first ones, then NumPy's draws from the same hypotheses."""
import math

import numpy as np
import sympy as sp

from dpverify.search import HYPOTHESIS_POINTS, Margin, sample_points, search
from dpverify.claims import Domain, Int, Real, Relation

a, b = sp.symbols("a b")


def _domain():
    return Domain(Relation(sp.Lt(a, b)), a=Real(gt=0, search=(0.0, 2.0)), b=Real(gt=0, le=4.0),
                  n=Int(ge=1, le=10**6))


def test_points_satisfy_every_hypothesis_and_replay():
    dom = _domain()
    pts = sample_points(dom.strategy(), 400, 5)
    assert len(pts) == 400
    assert all(dom.contains(p) for p in pts)
    assert sample_points(dom.strategy(), 400, 5) == pts          # a seed replays exactly
    assert sample_points(dom.strategy(), 400, 6)[HYPOTHESIS_POINTS:] != pts[HYPOTHESIS_POINTS:]


def test_numpy_draws_reach_the_edges():
    dom = _domain()
    pts = sample_points(dom.strategy(), 2000, 1)[HYPOTHESIS_POINTS:]
    a_vals = [p["a"] for p in pts]
    # the open end a > 0 of the box (0, 2) is replaced by the nearest float inside: the smallest subnormal
    assert min(a_vals) == math.nextafter(0.0, 1.0)
    # the closed end b <= 4 is drawn itself: 1/16 of b's draws (an end with probability 1/8, the upper one
    # with 1/2); P(none among 1976 draws) = (15/16)^1976 < 1e-50
    assert max(p["b"] for p in pts) == 4.0
    # Int(1..1e6) log-uniformly: about half of the values below 1000 (log10 1000 / log10 1e6 = 1/2);
    # a binomial(1976, ~0.5) count lies in [0.4, 0.6] of the draws with probability > 1 - 1e-15
    small = np.mean([p["n"] < 1000 for p in pts])
    assert 0.4 < small < 0.6


def test_a_failure_among_numpy_draws_is_found_and_named():
    dom = Domain(x=Real(ge=0, le=1))
    # fails only on (0.999, 1]: box ends (1/16 of draws) and uniform draws land there
    margin = lambda p: Margin(0.999 - p["x"], p["x"], 0.999)  # noqa: E731
    res = search(dom.strategy(), margin, 200, 3, shrink=False)
    assert res.counterexample is not None and res.counterexample["x"] > 0.999
    assert res.found_by in ("hypothesis", "numpy draw")


def test_small_samples_and_other_strategies_are_hypothesis_only():
    from hypothesis import strategies as st

    dom = _domain()
    few = sample_points(dom.strategy(), HYPOTHESIS_POINTS, 2)
    assert len(few) == HYPOTHESIS_POINTS and all(dom.contains(p) for p in few)
    other = sample_points(st.integers(0, 5).map(lambda k: {"k": k}), 50, 2)
    assert all(0 <= p["k"] <= 5 for p in other)


def test_instances_are_built_from_numpy_draws():
    """A scenario's instance strategy (Scenario.instances_from): the builder's draws of integers, floats,
    lists, sampled_from, one_of, builds, map and filter come from NumPy after Hypothesis's first points."""
    from hypothesis import strategies as st

    from dpverify.sampling import sample_with_origin

    dom = Domain(x=Real(ge=0, le=1))

    def build(pt, draw):
        k = draw(st.integers(1, 3))
        return {"point": pt, "k": k,
                "v": draw(st.lists(st.floats(-1, 1), min_size=k, max_size=k).filter(lambda v: sum(v) > -5)),
                "c": draw(st.one_of(st.sampled_from(["a", "b"]), st.just("c"))),
                "e": draw(st.lists(st.floats(0, 1), max_size=0)), "s": draw(st.integers(0, 9).map(str))}

    @st.composite
    def inst(draw):
        return build(draw(dom.strategy()), draw)

    strategy = inst()
    strategy._dpverify_build = (dom, build)
    pts, numpy_drawn = sample_with_origin(strategy, 300, 4)
    assert len(pts) == 300 and numpy_drawn == range(HYPOTHESIS_POINTS, 300)
    for p in pts:
        assert dom.contains(p["point"]) and 1 <= p["k"] <= 3 and len(p["v"]) == p["k"]
        assert all(-1 <= v <= 1 for v in p["v"]) and p["c"] in "abc" and p["e"] == [] and p["s"] in "0123456789"
    drawn = pts[HYPOTHESIS_POINTS:]
    assert {p["k"] for p in drawn} == {1, 2, 3} and {p["c"] for p in drawn} == {"a", "b", "c"}

    def unsupported(pt, draw):
        return {"point": pt, "t": draw(st.text())}

    @st.composite
    def inst_text(draw):
        return unsupported(draw(dom.strategy()), draw)

    strategy = inst_text()   # the builder meets st.text(), which NumPy does not draw
    strategy._dpverify_build = (dom, unsupported)
    pts, numpy_drawn = sample_with_origin(strategy, 40, 4)
    assert len(pts) == 40 and len(numpy_drawn) == 0     # Hypothesis drew them all


def test_a_build_without_an_instance_is_skipped_by_both_draws():
    """A builder returning None (no instance at that point) is filtered out of Hypothesis's points and
    skipped by NumPy's: no None in the sample, every point one the builder accepts, the sample full."""
    from hypothesis import strategies as st

    from dpverify.sampling import sample_with_origin

    dom = Domain(x=Real(ge=0, le=1))

    def build(pt, draw):
        return None if pt["x"] > 0.5 else {"point": pt}

    @st.composite
    def inst(draw):
        return build(draw(dom.strategy()), draw)

    built = inst()
    strategy = built.filter(lambda i: i is not None)
    strategy._dpverify_build = (dom, build)
    pts, numpy_drawn = sample_with_origin(strategy, 200, 3)
    assert len(pts) == 200 and numpy_drawn == range(HYPOTHESIS_POINTS, 200)
    assert all(p is not None and 0 <= p["point"]["x"] <= 0.5 for p in pts)
    # half the box is refused: NumPy's draws still reach both ends of the other half
    xs = [p["point"]["x"] for p in pts[HYPOTHESIS_POINTS:]]
    assert min(xs) == 0.0 and max(xs) > 0.45
