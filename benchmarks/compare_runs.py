"""Compare two runs of ``dpverify check --all --json --no-timing``: every verdict that changed, and with
``-v`` every claim whose evidence (numbers included) changed.

Usage::

    python benchmarks/compare_runs.py OLD.json NEW.json [-v]

Exit 1 when a verdict changed (or a claim is in one run only). Fields present in one run only (a newer
engine's, e.g. ``basis``, ``coverage``, ``flags``) are left out of the ``-v`` comparison.
"""
import json, sys


def common(x, y):
    """``x`` with the dict keys ``y`` lacks removed, recursively (lists of dicts compared item by item)."""
    if isinstance(x, dict) and isinstance(y, dict):
        return {k: common(v, y[k]) for k, v in x.items() if k in y}
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        return [common(u, w) for u, w in zip(x, y)]
    return x


# an interrupted run ends with {"incomplete": true, "missing": [...]}: its missing claims are "only in one"
a = {c["id"]: c for c in json.load(open(sys.argv[1])) if "id" in c}
b = {c["id"]: c for c in json.load(open(sys.argv[2])) if "id" in c}
bad = 0
for k in sorted(set(a) | set(b)):
    if k not in a or k not in b:
        print("only in one:", k); bad += 1; continue
    if a[k]["verdict"] != b[k]["verdict"]:
        print(f"VERDICT {k}: {a[k]['verdict']} -> {b[k]['verdict']}"); bad += 1
    elif "-v" in sys.argv and (json.dumps(common(a[k], b[k]), sort_keys=True)
                               != json.dumps(common(b[k], a[k]), sort_keys=True)):
        print(f"numbers differ: {k}")
print(f"{len(b)} claims compared, {bad} verdict differences")
sys.exit(1 if bad else 0)
