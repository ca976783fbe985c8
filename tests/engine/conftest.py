"""benchmarks/audit_calibration.py importable as ``audit_calibration`` (test_privacy_audit.py runs its
``rates`` at a smaller size). Loaded by path, so the benchmarks folder is not put on sys.path (its
statistics.py would shadow the standard library's)."""
import importlib.util
import sys
from pathlib import Path

if "audit_calibration" not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        "audit_calibration", Path(__file__).resolve().parents[2] / "benchmarks" / "audit_calibration.py")
    _module = importlib.util.module_from_spec(_spec)
    sys.modules["audit_calibration"] = _module
    _spec.loader.exec_module(_module)
