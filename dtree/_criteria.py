"""Impurity criteria, vectorised over nodes and candidate splits.

Every criterion works on *sufficient statistics*: for each sample a row of
``stats_per_sample`` whose sums over a node determine the node's impurity.
The last column is always the sample weight, so ``stats[..., -1]`` is the
weighted node size W.

* classification: one column per class holding ``w`` where the sample has
  that class (so the sums are weighted class counts), then ``w``;
* regression: ``w*y``, ``w*y**2``, ``w*y*ln(y)`` (Poisson only), then ``w``.

``impurity(stats)`` returns the impurity of each row.  ``proxy(left, right)``
is scikit-learn's ``proxy_impurity_improvement``: a quantity that orders the
candidate splits of one node exactly like the impurity decrease, with the
parent's constant terms dropped.  Larger is better; ``-inf`` marks a split the
criterion refuses.

Entropies are in bits, computed as ``ln(x) / ln(2)`` like scikit-learn.
"""

import numpy as np

LN2 = np.log(2.0)
EPSILON = np.finfo(np.float64).eps


def _plogp_bits(p):
    """p * log2(p) with 0 log 0 = 0, elementwise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = p * (np.log(p) / LN2)
    return np.where(p > 0, out, 0.0)


class Criterion:
    """Base class. ``name`` is the user-facing criterion name."""

    name = None
    is_classification = True
    #: Features are compared by gain ratio instead of impurity decrease.
    ranks_by_ratio = False
    #: True when the impurity cannot be computed from sums (absolute error).
    needs_samples = False

    def __init__(self, n_classes=0):
        self.n_classes = n_classes

    def impurity(self, stats):
        raise NotImplementedError

    def proxy(self, left, right):
        wl, wr = left[..., -1], right[..., -1]
        return -wr * self.impurity(right) - wl * self.impurity(left)

    def value(self, stats):
        """Node prediction from its statistics (classes: fractions)."""
        w = stats[..., -1:]
        return stats[..., : self.n_classes] / w

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"


class Gini(Criterion):
    r"""Gini index  1 - \sum_k p_k^2."""

    name = "gini"

    def impurity(self, stats):
        counts = stats[..., :-1]
        w = stats[..., -1]
        return 1.0 - np.sum(counts * counts, axis=-1) / (w * w)


class Entropy(Criterion):
    r"""Shannon entropy in bits  -\sum_k p_k \log_2 p_k."""

    name = "entropy"

    def impurity(self, stats):
        p = stats[..., :-1] / stats[..., -1:]
        return -np.sum(_plogp_bits(p), axis=-1)


class Misclassification(Criterion):
    r"""Misclassification rate  1 - \max_k p_k."""

    name = "misclassification"

    def impurity(self, stats):
        return 1.0 - np.max(stats[..., :-1], axis=-1) / stats[..., -1]

    def proxy(self, left, right):
        # W_L (1 - max_L / W_L) + W_R (1 - max_R / W_R) = W - max_L - max_R
        return np.max(left[..., :-1], axis=-1) + np.max(right[..., :-1], axis=-1)


class GainRatio(Entropy):
    r"""C4.5's gain ratio: entropy gain divided by the split information.

    The impurity is the entropy.  Within one feature the threshold is chosen
    by gain (as C4.5 does for numeric attributes); features are then compared
    by gain / H_A(D), where H_A(D) is the entropy of the branch sizes.
    """

    name = "gain_ratio"
    ranks_by_ratio = True


class SquaredError(Criterion):
    r"""Mean squared error  \sum w y^2 / W - (\sum w y / W)^2."""

    name = "squared_error"
    is_classification = False

    def impurity(self, stats):
        w = stats[..., -1]
        mean = stats[..., 0] / w
        return stats[..., 1] / w - mean * mean

    def proxy(self, left, right):
        return left[..., 0] ** 2 / left[..., -1] + right[..., 0] ** 2 / right[..., -1]

    def value(self, stats):
        return stats[..., :1] / stats[..., -1:]


class FriedmanMSE(SquaredError):
    """Friedman's MSE.  scikit-learn 1.9 treats it exactly as squared error
    (Friedman's improvement orders the splits of a node identically)."""

    name = "friedman_mse"


class Poisson(Criterion):
    r"""Half Poisson deviance  \sum w y \ln(y / \bar y) / W  (natural log)."""

    name = "poisson"
    is_classification = False
    # Children whose sum of y is this small are refused, as in scikit-learn.
    min_child_sum = 10 * EPSILON

    def impurity(self, stats):
        w = stats[..., -1]
        s = stats[..., 0]
        mean = s / w
        with np.errstate(divide="ignore", invalid="ignore"):
            out = (stats[..., 2] - s * np.log(mean)) / w
        return np.where(mean <= EPSILON, np.inf, out)

    def proxy(self, left, right):
        sl, sr = left[..., 0], right[..., 0]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = sl * np.log(sl / left[..., -1]) + sr * np.log(sr / right[..., -1])
        return np.where((sl <= self.min_child_sum) | (sr <= self.min_child_sum), -np.inf, out)

    def value(self, stats):
        return stats[..., :1] / stats[..., -1:]


class AbsoluteError(Criterion):
    r"""Mean absolute deviation from the weighted median  \sum w |y - m| / W.

    Its impurity is not a function of sums, so the splitter computes it from
    the samples (see ``_grow.sad_prefix``); ``impurity``/``proxy`` are unused.
    """

    name = "absolute_error"
    is_classification = False
    needs_samples = True

    def value(self, stats):  # pragma: no cover - medians come from samples
        raise NotImplementedError


CLASSIFICATION = {
    "gini": Gini,
    "entropy": Entropy,
    "log_loss": Entropy,
    "misclassification": Misclassification,
    "gain_ratio": GainRatio,
}

REGRESSION = {
    "squared_error": SquaredError,
    "friedman_mse": FriedmanMSE,
    "absolute_error": AbsoluteError,
    "poisson": Poisson,
}


def make_criterion(name, n_classes=0, *, classification):
    table = CLASSIFICATION if classification else REGRESSION
    if not isinstance(name, str) or name not in table:
        raise ValueError(
            f"Unknown criterion {name!r}. Choose one of: {', '.join(sorted(table))}."
        )
    return table[name](n_classes)


def split_information(wl, wr):
    """Entropy (bits) of the branch proportions, H_A(D) for a binary split."""
    w = wl + wr
    return -(_plogp_bits(wl / w) + _plogp_bits(wr / w))
