"""Impurity criteria, vectorised over nodes and candidate splits.

Every criterion works on *sufficient statistics*: per sample, a few numbers
whose sums over a node determine the node's impurity.  Statistics are stored
row-major, ``stats[j]`` being the j-th statistic (of one node, or of many
nodes or candidate splits at once), and the last row is always the sample
weight, so ``stats[-1]`` is the weighted node size W.

* classification: one row per class holding ``w`` where the sample has
  that class (so the sums are weighted class counts), then ``w``;
* regression: ``w*y``, ``w*y**2``, ``w*y*ln(y)`` (Poisson only), then for
  Poisson the count of samples with y > 0, then ``w``.

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


def _xlnx(x, tiny):
    """x ln x with 0 ln 0 = 0 (x >= 0)."""
    return x * np.log(np.maximum(x, tiny))


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
        return -right[-1] * self.impurity(right) - left[-1] * self.impurity(left)

    def search_proxy(self, left, right):
        """A cheaper expression that orders one node's candidates like ``proxy``
        (it may differ from it by a constant); used to rank thresholds."""
        return self.proxy(left, right)

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"


class Gini(Criterion):
    r"""Gini index  1 - \sum_k p_k^2."""

    name = "gini"

    def impurity(self, stats):
        w = stats[-1]
        sq = stats[0] * stats[0]
        for count in stats[1:-1]:
            sq = sq + count * count
        return 1.0 - sq / (w * w)

    def search_proxy(self, left, right):
        # -(W_L Gini_L + W_R Gini_R) = sum_k c_Lk^2 / W_L + sum_k c_Rk^2 / W_R - W
        sq_l = left[0] * left[0]
        sq_r = right[0] * right[0]
        for k in range(1, len(left) - 1):
            sq_l += left[k] * left[k]
            sq_r += right[k] * right[k]
        sq_l /= left[-1]
        sq_r /= right[-1]
        sq_l += sq_r
        return sq_l


class Entropy(Criterion):
    r"""Shannon entropy in bits  -\sum_k p_k \log_2 p_k."""

    name = "entropy"

    def impurity(self, stats):
        w = stats[-1]
        h = -_plogp_bits(stats[0] / w)
        for count in stats[1:-1]:
            h = h - _plogp_bits(count / w)
        return h

    def search_proxy(self, left, right):
        # -(W_L H_L + W_R H_R) * ln 2 = sum_k c ln c (both sides) - W_L ln W_L - W_R ln W_R
        tiny = np.finfo(np.float64).tiny
        total = -_xlnx(left[-1], tiny) - _xlnx(right[-1], tiny)
        for k in range(len(left) - 1):
            total += _xlnx(left[k], tiny)
            total += _xlnx(right[k], tiny)
        return total


def entropy_proxy_into(left, right, out, work):
    """``Entropy.search_proxy(left, right)`` into ``out``, bit for bit (the
    same operations in the same order), with ``work`` as its one scratch
    array: no temporaries (the C4.5 search calls it on large arrays)."""
    tiny = np.finfo(np.float64).tiny

    def xlnx(x):  # _xlnx(x, tiny), into work
        np.maximum(x, tiny, out=work)
        np.log(work, out=work)
        np.multiply(x, work, out=work)
        return work

    np.negative(xlnx(left[-1]), out=out)
    out -= xlnx(right[-1])
    for k in range(len(left) - 1):
        out += xlnx(left[k])
        out += xlnx(right[k])
    return out


class Misclassification(Criterion):
    r"""Misclassification rate  1 - \max_k p_k."""

    name = "misclassification"

    def impurity(self, stats):
        return 1.0 - np.max(stats[:-1], axis=0) / stats[-1]

    def proxy(self, left, right):
        # W_L (1 - max_L / W_L) + W_R (1 - max_R / W_R) = W - max_L - max_R
        return np.max(left[:-1], axis=0) + np.max(right[:-1], axis=0)


class Taylor2(Criterion):
    r"""Second-order Taylor expansion of -log p around p = 1 (an exercise on impurity functions):
    \sum_k p_k [(1 - p_k) + (1 - p_k)^2 / 2].  Its first-order term alone is
    the Gini index."""

    name = "taylor2"

    def impurity(self, stats):
        w = stats[-1]
        total = 0.0
        for count in stats[:-1]:
            q = 1.0 - count / w
            total = total + (count / w) * (q + 0.5 * q * q)
        return total


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
        w = stats[-1]
        mean = stats[0] / w
        return stats[1] / w - mean * mean

    def proxy(self, left, right):
        return left[0] * left[0] / left[-1] + right[0] * right[0] / right[-1]


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
        w = stats[-1]
        s = stats[0]
        mean = s / w
        with np.errstate(divide="ignore", invalid="ignore"):
            out = (stats[2] - s * np.log(mean)) / w
        return np.where(mean <= EPSILON, np.inf, out)

    def proxy(self, left, right):
        sl, sr = left[0], right[0]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = sl * np.log(sl / left[-1]) + sr * np.log(sr / right[-1])
        # Row 3 counts the samples with y > 0 (exact integers): a child without
        # any has a sum of y of exactly zero, whatever rounding did to sl or sr.
        empty = (left[3] < 0.5) | (right[3] < 0.5)
        return np.where(empty | (sl <= self.min_child_sum) | (sr <= self.min_child_sum),
                        -np.inf, out)


class AbsoluteError(Criterion):
    r"""Mean absolute deviation from the weighted median  \sum w |y - m| / W.

    Its impurity is not a function of sums, so the splitter computes it from
    the samples (see ``_median.sad_prefix``); ``impurity``/``proxy`` are unused.
    """

    name = "absolute_error"
    is_classification = False
    needs_samples = True


CLASSIFICATION = {
    "gini": Gini,
    "entropy": Entropy,
    "log_loss": Entropy,
    "misclassification": Misclassification,
    "gain_ratio": GainRatio,
    "taylor2": Taylor2,
}

REGRESSION = {
    "squared_error": SquaredError,
    "friedman_mse": FriedmanMSE,
    "absolute_error": AbsoluteError,
    "poisson": Poisson,
}


def make_criterion(name, n_classes=0, *, classification):
    """The criterion called ``name`` (as in ``criterion=``).

    Parameters
    ----------
    name : str
        A criterion of the estimators (``"gini"``, ``"squared_error"``...).
    n_classes : int, default=0
        The number of classes (0 for regression).
    classification : bool
        Whether ``name`` is looked up among the classification criteria.

    Returns
    -------
    Criterion
        Its ``impurity(stats)`` gives the impurity of each row of
        sufficient statistics laid out as in this module's docstring.

    Raises
    ------
    ValueError
        For an unknown name.
    """
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
