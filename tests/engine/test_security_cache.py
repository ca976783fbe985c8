"""Issue 36, the verdict cache and the listing index: nothing read from ``.dpverify_cache/`` is trusted.

Each test plants what an attacker (a repository with a ``.dpverify_cache/`` in it, a shared folder) or a
careless tool could leave there, in the format of the dpverify under test (``cache._FORMAT``; sealed with
*another* user's key where that dpverify seals entries), and runs the command line as the victim, with
their own key (``DPVERIFY_CACHE_KEY``). A planted entry is never replayed: the claim is checked, with a
one-line warning. An entry of the victim's own key but of the wrong shape, of another claim, or whose
``expected`` differs from the claim's is not trusted either. A full disk during a cache write leaves no
temporary file and never an empty ``.gitignore``."""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_cli_faults import FAST, ROOT, claims_file, strict_json

CLAIMS = '''
FALSE = Claim(id="mine/false", source=_src("Lemma 1"), domain=Domain(x=Real(gt=0, le=4)),
              statements=(Inequality("x^2 <= 15", lhs=x**2, rhs=15),))
OTHER = Claim(id="mine/other", source=_src("Lemma 2"), domain=Domain(x=Real(gt=0, le=4)),
              statements=(Inequality("x <= x + 1", lhs=x, rhs=x + 1),))
CLAIMS = [FALSE, OTHER]
'''
#: the options of `dpverify check ... FAST` (the verdict key's options part): every option of a run
try:
    from dpverify.config import OPTIONS as _RUN_OPTIONS
    OPTIONS = {**{o.name: o.default for o in _RUN_OPTIONS}, "samples": 20, "runs": 2000}
except ImportError:   # a dpverify before dpverify.config (23eea00): the options its command line passed
    OPTIONS = dict(seed=0, runs=2000, samples=20, confidence=0.99, at=None, chunk_runs=65536, prove_box=False,
                   box_budget=20000, adversary=1.0, deep_proofs=False)


def _key_file(path) -> str:
    """A user's key file (what dpverify makes on first use), at ``path``."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(os.urandom(32).hex() + "\n")
    return str(path)


@pytest.fixture
def victim(tmp_path):
    """A claims file in an empty folder, the victim's key and the attacker's."""
    return {"dir": tmp_path, "claims": claims_file(tmp_path, CLAIMS), "key": _key_file(tmp_path / "victim-key"),
            "attacker": _key_file(tmp_path / "attacker-key")}


def run(v, *argv, limit_bytes=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DPVERIFY_CACHE": "1", "DPVERIFY_CACHE_KEY": v["key"]}
    env.pop("DPVERIFY_CACHE_DIR", None)
    env.pop("DPVERIFY_TRACEBACK", None)
    if limit_bytes is not None:    # CPython writes a short .pyc under the limit (it ignores a short write)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    limit = None if limit_bytes is None else \
        (lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes)))
    return subprocess.run([sys.executable, "-m", "dpverify", *argv], capture_output=True, text=True, cwd=v["dir"],
                          env=env, timeout=600, preexec_fn=limit)


def check(v, claim_id, *extra, limit_bytes=None):
    return run(v, "check", claim_id, "--module", v["claims"], "--json", "--no-timing", *FAST, *extra,
               limit_bytes=limit_bytes)


def _claim(v, claim_id):
    from dpverify import registry

    return registry.get(claim_id, [v["claims"]])


def verdict_json(claim_id, verdict="verified", expected="holds", statement="x^2 <= 15", **extra) -> dict:
    """A verdict's JSON as the cache stores it, made up (what a forger writes)."""
    from dpverify.verdict import Basis, Evidence, Verdict

    v = Verdict(id=claim_id, label="Lemma 1", verdict=verdict, expected=expected, seed=0,
                evidence=[Evidence(check="symbolic", statement=statement, verdict=verdict, detail="made up",
                                   basis=Basis("proof"))])
    return {**v.to_json(exact=True), **extra}


def plant(v, claim_id, payload, sealed_by: str | None, monkeypatch) -> None:
    """Write ``payload`` (bytes or JSON) as the cache entry of ``claim_id`` under the CLI's key, sealed
    with the key file ``sealed_by`` where this dpverify seals entries."""
    from dpverify import cache as C

    key = C.verdict_key(_claim(v, claim_id), OPTIONS)
    if not isinstance(payload, bytes):
        payload = json.dumps({"format": C._FORMAT, "key": key, "verdict": payload} if isinstance(payload, dict)
                             and "id" in payload else payload).encode()
    try:
        from dpverify import sealed
    except ImportError:       # a dpverify that stores entries as plain JSON (23eea00): planted as such
        data = payload
    else:
        monkeypatch.setenv(sealed.KEY_ENV, sealed_by)
        data = sealed.seal("verdict", payload)
    path = v["dir"] / ".dpverify_cache" / "verdicts" / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def warnings(r) -> list[str]:
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    return [ln for ln in r.stderr.splitlines() if ln.startswith("dpverify: warning:")]


# --------------------------------------------------------------------------- the examples of issue 36
def test_a_planted_entry_cannot_make_a_false_claim_pass(victim, monkeypatch):
    """A `.dpverify_cache/` planted in a repository (same dpverify, same dependencies) made a false
    claim print `verified (cached)` and exit 0."""
    plant(victim, "mine/false", verdict_json("mine/false"), victim["attacker"], monkeypatch)
    r = check(victim, "mine/false")
    assert r.returncode == 1, r.stderr
    (out,) = strict_json(r.stdout)
    assert out["verdict"] == "violated" and not out.get("cached")
    (warning,) = warnings(r)
    assert "mine/false" in warning and "checking it again" in warning
    again = check(victim, "mine/false")          # the entry was rewritten, under the victim's own key
    assert again.returncode == 1 and strict_json(again.stdout)[0]["cached"] and not warnings(again)


def test_the_claims_expected_comes_from_the_claim_never_from_the_entry(victim, monkeypatch):
    """Even an entry sealed with the user's own key cannot say what the claim expects: its stored
    `expected` once overrode the claim's (a violated claim expected to hold then 'passed')."""
    plant(victim, "mine/false", verdict_json("mine/false", verdict="violated", expected="violated"),
          victim["key"], monkeypatch)
    r = check(victim, "mine/false")
    (out,) = strict_json(r.stdout)
    assert out["verdict"] == "violated" and out["expected"] == "holds" and out["ok"] is False
    assert r.returncode == 1


def test_an_entry_holding_another_claims_verdict_is_not_replayed(victim, monkeypatch):
    """`check a` printed `b` and exited 0 when a's entry held b's verdict."""
    plant(victim, "mine/false", verdict_json("mine/other", statement="x <= x + 1"), victim["key"], monkeypatch)
    r = check(victim, "mine/false")
    (out,) = strict_json(r.stdout)
    assert out["id"] == "mine/false" and out["verdict"] == "violated" and r.returncode == 1
    assert any("mine/false" in w for w in warnings(r))


@pytest.mark.parametrize("payload", [[1, 2], None, "readings"], ids=["list", "null", "field-of-wrong-type"])
def test_an_entry_of_the_wrong_shape_is_ignored_not_an_internal_error(victim, monkeypatch, payload):
    """Valid JSON of the wrong shape ended every later run in "internal error" until the folder was
    deleted."""
    if payload == "readings":
        payload = verdict_json("mine/false", verdict="violated", readings=[1])
    plant(victim, "mine/false", payload if isinstance(payload, dict) else json.dumps(payload).encode(),
          victim["key"], monkeypatch)
    for _ in range(2):
        r = check(victim, "mine/false")
        assert r.returncode == 1, r.stderr
        assert strict_json(r.stdout)[0]["verdict"] == "violated"
        warnings(r)


def test_a_planted_listing_index_is_not_listed(victim, monkeypatch):
    """`dpverify list` reads the listing index from the cache folder: a tampered one is rebuilt."""
    first = run(victim, "list", "--paper", "hdp", "--json")
    assert first.returncode == 0, first.stderr
    (path,) = (victim["dir"] / ".dpverify_cache" / "listing").glob("hdp-*.json")
    data = path.read_bytes()
    try:
        from dpverify import sealed
    except ImportError:
        sealed = None
    rows = json.loads(data.partition(b"\n")[2] if sealed else data)
    assert rows[0]["expected"] != "inconclusive"
    rows[0]["expected"], rows[0]["summary"] = "inconclusive", "<script>planted</script>"
    payload = json.dumps(rows).encode()
    if sealed:
        monkeypatch.setenv(sealed.KEY_ENV, victim["attacker"])
        payload = sealed.seal("listing", payload)
    path.write_bytes(payload)
    listed = run(victim, "list", "--paper", "hdp", "--json")
    assert listed.returncode == 0 and "planted" not in listed.stdout
    assert strict_json(listed.stdout) == strict_json(first.stdout)
    assert any("listing index" in w for w in warnings(listed))


@pytest.mark.parametrize("limit", [100, 1000], ids=["while-preparing-the-folder", "while-writing-the-entry"])
def test_a_full_disk_during_a_cache_write_leaves_no_temp_file_and_no_empty_gitignore(victim, limit):
    """With no file larger than ``limit`` bytes writable (RLIMIT_FSIZE: a write beyond it fails, as on a
    full disk; 100 bytes stops the folder's README, 1000 the entry itself), the run goes on with one
    warning; nothing half-written is left; the next run writes the cache whole."""
    r = check(victim, "mine/other", limit_bytes=limit)
    assert r.returncode == 0 and strict_json(r.stdout)[0]["verdict"] == "verified", r.stderr
    (warning,) = warnings(r)
    assert "cannot write the verdict cache" in warning
    folder = victim["dir"] / ".dpverify_cache"
    files = [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []
    assert not [p for p in files if p.name.endswith(".tmp")], files
    assert all(p.stat().st_size > 0 for p in files), files       # no empty .gitignore, README, entry
    check(victim, "mine/other")
    assert (folder / ".gitignore").read_text().strip().endswith("*")
    assert strict_json(check(victim, "mine/other").stdout)[0]["cached"]


# --------------------------------------------------------------------------- fuzz: random entries
def _json_values():
    leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                     st.text(max_size=12), st.sampled_from(["verified", "holds", "violated", "error", "mine/false",
                                                            "mine/other", "inf", "nan"]))
    return st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                        max_leaves=12)


@st.composite
def _entries(draw, key):
    """A cache entry's bytes: random bytes, random JSON, or the valid entry of mine/false with one field
    (anywhere in it) replaced by a random JSON value; sealed by the victim, by another key, or not at all."""
    from dpverify import cache as C

    kind = draw(st.sampled_from(["bytes", "json", "mutated", "valid"]))
    if kind == "bytes":
        return draw(st.binary(max_size=300)), draw(st.sampled_from(["victim", "attacker", None]))
    if kind == "json":
        payload = draw(_json_values())
    else:
        payload = {"format": C._FORMAT, "key": key,
                   "verdict": verdict_json(draw(st.sampled_from(["mine/false", "mine/other"])),
                                           verdict=draw(st.sampled_from(["verified", "violated", "holds"])),
                                           expected=draw(st.sampled_from(["holds", "violated"])))}
        if kind == "mutated":
            node, path = payload, []
            while isinstance(node, (dict, list)) and node and draw(st.booleans()):
                k = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
                path.append((node, k))
                node = node[k]
            if path:
                parent, k = path[-1]
                parent[k] = draw(_json_values())
    return json.dumps(payload).encode(), draw(st.sampled_from(["victim", "attacker", None]))


def test_fuzz_no_cache_entry_is_trusted_unless_sealed_valid_and_the_claims_own(victim, monkeypatch):
    """Whatever an entry holds, reading it never raises; a verdict is replayed only from an entry
    sealed with the user's key, of the exact shape, of this claim, and carries the claim's expected."""
    from dpverify import cache as C
    from dpverify import sealed

    claim = _claim(victim, "mine/false")
    key = C.verdict_key(claim, OPTIONS)
    cache = C.VerdictCache(victim["dir"] / "fuzz")
    path = cache._path(key)
    path.parent.mkdir(parents=True)
    capsys_lines = []
    monkeypatch.setattr(C, "warn", capsys_lines.append)

    @settings(max_examples=80, derandomize=True, deadline=None, database=None)
    @given(_entries(key))
    def read(entry):
        payload, by = entry
        if by is not None:
            monkeypatch.setenv(sealed.KEY_ENV, victim[{"victim": "key", "attacker": "attacker"}[by]])
            payload = sealed.seal("verdict", payload)
        path.write_bytes(payload)
        monkeypatch.setenv(sealed.KEY_ENV, victim["key"])
        capsys_lines.clear()
        got = cache.get(key, claim)
        if got is None:
            assert len(capsys_lines) == 1     # an entry that is there but not used: one warning
            return
        assert by == "victim" and got.id == claim.id and got.cached
        assert got.expected == claim.expected and got.label == claim.label and not capsys_lines

    read()
