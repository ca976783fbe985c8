"""Compare two runs of ``dpverify check --all --json --no-timing``: every verdict that changed, and with
``-v`` every claim whose evidence (numbers included) changed.

Usage::

    python benchmarks/compare_runs.py OLD.json NEW.json [-v]

Exit 1 when a verdict changed (or a claim is in one run only).
"""
import json, sys
a = {c["id"]: c for c in json.load(open(sys.argv[1]))}
b = {c["id"]: c for c in json.load(open(sys.argv[2]))}
bad = 0
for k in sorted(set(a) | set(b)):
    if k not in a or k not in b:
        print("only in one:", k); bad += 1; continue
    if a[k]["verdict"] != b[k]["verdict"]:
        print(f"VERDICT {k}: {a[k]['verdict']} -> {b[k]['verdict']}"); bad += 1
    elif "-v" in sys.argv and json.dumps(a[k], sort_keys=True) != json.dumps(b[k], sort_keys=True):
        print(f"numbers differ: {k}")
print(f"{len(b)} claims compared, {bad} verdict differences")
sys.exit(1 if bad else 0)
