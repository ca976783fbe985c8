"""dpverify.check, the package's front door: bad input raises an error naming what is wrong. (Moved from
tests/test_registry.py.)"""
import pytest

import dpverify
from dpverify.claims import DomainError


def test_check_rejects_bad_input():
    with pytest.raises(TypeError, match="claim must be"):
        dpverify.check(42)
    with pytest.raises(KeyError, match="unknown claim id"):
        dpverify.check("dni/thm-9.9")
    with pytest.raises(ValueError, match="runs must be"):
        dpverify.check("dni/eq-25", runs=0)
    with pytest.raises(ValueError, match="confidence must be"):
        dpverify.check("dni/eq-25", confidence=1.5)
    with pytest.raises(DomainError, match="kappa = 0.5 violates kappa >= 1"):
        dpverify.check("dni/thm-4.3", at={"kappa": 0.5, "alpha": 0.1, "alpha0": 1, "R": 1, "T": 3, "t": 1})


def test_a_user_claim_with_a_papers_id_is_refused_not_silently_preferred(tmp_path):
    from dpverify import registry

    mod = tmp_path / "clash.py"
    mod.write_text("import sympy as sp\nfrom dpverify import Claim, Domain, Identity, Real, Source\n"
                   "x = sp.Symbol('x')\n"
                   "CLAIMS = (Claim(id='dni/thm-3.1', source=Source('mine', 'L1'), domain=Domain(x=Real(gt=0)),\n"
                   "                statements=(Identity('x = x', lhs=x, rhs=x),)),)\n")
    with pytest.raises(registry.RegistryError, match="is a claim of the registered paper .dni.; give your claim another id"):
        registry.get("dni/thm-3.1", [str(mod)])
    with pytest.raises(registry.RegistryError, match="is a claim of the registered paper .dni.; give your claim another id"):
        registry.all_claims(modules=[str(mod)], include_papers=True)
