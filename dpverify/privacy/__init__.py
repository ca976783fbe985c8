"""Privacy for noisy gradient methods: mechanisms, accounting, conversions, cross-checks.

Privacy is measured with zero-concentrated differential privacy (zCDP) [Bun & Steinke 2016,
Def. 1.1], Renyi DP and (eps, delta)-DP:

* :mod:`~dpverify.privacy.zcdp`: the Gaussian mechanism with sensitivity ``Delta`` and noise
  ``N(0, Delta^2 sigma^2 I)`` is ``1/(2 sigma^2)``-zCDP [Bun & Steinke 2016, Prop. 1.6];
  composition adds the rho's [ibid., Lemma 2.3]; ``rho``-zCDP implies
  ``(rho + 2 sqrt(rho ln(1/delta)), delta)``-DP [ibid., Prop. 1.3], its inverse, and the tighter
  RDP-based conversion [Canonne, Kamath & Steinke 2020, Prop. 12];
* :mod:`~dpverify.privacy.gaussian`: Renyi divergences between Gaussians (quadrature and closed
  form) and the exact privacy profile of the Gaussian mechanism [Balle & Wang 2018, Thm. 8];
* :mod:`~dpverify.privacy.budget`: noisy gradient descent stopped by a zCDP *budget filter*
  (step ``t`` requests ``1/sigma_t^2`` against the residual budget and runs only if the request
  is strictly below it); :mod:`~dpverify.privacy.steps` counts the steps a budget lets run;
* :mod:`~dpverify.privacy.mechanisms`: the sensitivity of a mean gradient and the mechanisms as
  ``dp_accounting`` events (``DpEvent``);
* :mod:`~dpverify.privacy.accountants`: Google's ``dp_accounting`` RDP and PLD accountants
  applied to an event (cross-checks);
* :mod:`~dpverify.privacy.audit`: an empirical audit (Clopper-Pearson lower bound on delta at a
  claimed eps from runs on neighbouring data sets) that can refute an (eps, delta)-DP claim.

Numeric conventions
-------------------
Closed forms compute with ``mpmath`` at the caller's precision when any argument is an
``mpmath.mpf`` (and return an ``mpf``), else in double precision. Optimisation and root finding
(``zcdp_to_dp_optimal``, ``gaussian_eps_exact``) and the ``dp_accounting`` accountants work in
double precision. ``renyi_divergence_gaussians`` always integrates in ``mpmath``.

Every invalid argument raises ``ValueError`` naming the parameter and the value, in
``dp_accounting``'s style: ``"delta must be in (0, 1). Found 2.0."``.

Adjacency
---------
``"remove"``: neighbouring datasets differ by removing one sample; the mean gradient
``(1/N) sum_i g_i`` with ``||g_i|| <= G`` and a fixed normaliser ``N`` has sensitivity ``G/N``.
``"replace"``: same-size datasets that differ in one sample; the sensitivity is ``2G/N`` and
every zCDP value is 4x the "remove" value.

Notes on ``dp_accounting`` 0.6.0 (verified from its source): for an unsampled
``GaussianDpEvent(z)`` the ``RdpAccountant`` ignores the neighbouring relation (it always uses
``alpha / (2 z^2)``), whereas the ``PLDAccountant`` with ``REPLACE_ONE`` doubles the
sensitivity internally. :func:`noisy_gd_event` therefore describes the steps for
``ADD_OR_REMOVE_ONE`` and encodes replace-adjacency as the halved noise multiplier ``z/2``.
"""

from typing import TYPE_CHECKING

from ..lazy import attach

if TYPE_CHECKING:  # the public names; each is imported on first use (dpverify.lazy)
    from . import composition, mechanisms, steps, validation
    from .accountants import event_delta, event_epsilon, event_rdp
    from .audit import AuditResult, audit, clopper_pearson, gaussian_noise_for
    from .budget import BudgetFilterPrivacy, budget_filter_privacy
    from .gaussian import (gaussian_delta_exact, gaussian_delta_mp, gaussian_eps_exact, gaussian_eps_mp, gaussian_eps_signed_mp,
                           renyi_divergence_gaussians,
                           renyi_divergence_gaussians_closed)
    from .mechanisms import (mean_gradient_sensitivity, noisy_gd_event, poisson_sampled_gaussian_event,
                             sampled_without_replacement_gaussian_event)
    from .sampled_gaussian import mixture_delta_lower, wor_gaussian_epsilon
    from .schedules import exact_delta, schedule_epsilon, schedule_zcdp
    from .steps import steps_within_budget
    from .validation import ADJACENCIES
    from .zcdp import (compose_zcdp, dp_to_zcdp, gaussian_zcdp,
                       gaussian_zcdp_multiplier, rdp_of_zcdp, zcdp_to_dp, zcdp_to_dp_optimal)

__getattr__, __dir__, __all__ = attach(__name__, __file__)
