"""Random small fitting problems for property tests (Hypothesis): a
float32-representable X with many ties, 2-4 classes or a numeric target,
optional sample and class weights, any criterion and growth order, random
pre-pruning parameters; each drawn as a ``Case`` with the effective weights
of every row."""

import functools
from dataclasses import dataclass, field

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from tests.helpers.oracle import CLF_CRITERIA, REG_CRITERIA, balanced_class_weights

GROWTHS = (None, "depth_first", "best_first", "breadth_first")


# --------------------------------------------------------------------------
# strategies
# --------------------------------------------------------------------------

# Arrays are decoded from one byte string per array: much faster to generate
# than element-by-element draws, and shrinking the bytes towards zero still
# simplifies the data (towards constant columns and class 0).  Hypothesis
# favours bytes with long runs of zeros, so three times in four they are mixed
# with a seeded random stream (the mixing shrinks away first).

@functools.lru_cache(maxsize=None)
def _bytes(nbytes):
    return st.binary(min_size=nbytes, max_size=nbytes)


_MIX = st.integers(0, 3)
_SEED = st.integers(0, 2**32 - 1)


def uints(draw, count, dtype):
    """``count`` unsigned integers of ``dtype`` from one hypothesis byte string."""
    dtype = np.dtype(dtype).newbyteorder("<")
    nbytes = count * dtype.itemsize
    raw = np.frombuffer(draw(_bytes(nbytes)), dtype=np.uint8)
    if draw(_MIX) > 0:
        seed = draw(_SEED)
        raw = raw ^ np.random.default_rng(seed).integers(0, 256, nbytes, dtype=np.uint8)
    return raw.view(dtype).astype(np.int64)


def float32_values(u):
    """float32 values with exponents in [2^-20, 2^20) from 32 random bits,
    so that neighbours closer than the 1e-7 separation rule also occur."""
    sign = (u >> 31) & 1
    exponent = (u >> 23) % 40 + 107
    bits = (sign << 31) | (exponent << 23) | (u & 0x7FFFFF)
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


X_KINDS = st.sampled_from(["ties", "grid", "fine", "float32", "close"])
CLOSE_BASES = st.sampled_from([0.0, 1.0, 0.01, -3.0])
CLOSE_STEPS = st.sampled_from([2.0**-24, 2.0**-23, 2.0**-22])


@st.composite
def x_matrix(draw, n, n_features):
    """float32-representable X of one of five kinds."""
    kind = draw(X_KINDS)
    size = n * n_features
    if kind == "ties":  # seven distinct values: many duplicates and exact gain ties
        X = uints(draw, size, np.uint8) % 7 - 3.0
    elif kind == "grid":  # quarters in [-10, 10]: exact sums, still some ties
        X = (uints(draw, size, np.uint8) % 81 - 40) / 4.0
    elif kind == "fine":  # multiples of 1/64 in [-512, 512): few ties
        X = (uints(draw, size, np.uint16) - 32768) / 64.0
    elif kind == "float32":
        X = float32_values(uints(draw, size, np.uint32))
    else:  # seven values around a base, about 1e-7 apart: the separation rule decides
        base = draw(CLOSE_BASES)
        step = draw(CLOSE_STEPS)
        offsets = (uints(draw, size, np.uint8) % 7 - 3) * step
        X = (np.float32(base) + offsets.astype(np.float32)).astype(np.float64)
    return X.reshape(n, n_features) + 0.0  # + 0.0: no negative zeros


@dataclass
class Case:
    task: str
    est: object
    X: np.ndarray
    y: np.ndarray
    sample_weight: object  # what fit received
    weights: np.ndarray  # effective per-row weights (sample x class weights)
    codes: np.ndarray = None  # class index per row (classification)
    exact: bool = False  # all sums exact: permuting rows must give identical arrays
    extra: dict = field(default_factory=dict)

    def fit(self):
        return self.est.fit(self.X, self.y, sample_weight=self.sample_weight)


def mostly(default, other):
    """``default`` about three times in four, else a draw from ``other``."""
    return st.one_of(st.just(default), st.just(default), st.just(default), other)


# Strategies are built once, at import: building them inside each draw costs
# more than the draws themselves.
PRUNING = st.fixed_dictionaries(dict(
    max_depth=mostly(None, st.integers(1, 6)),
    min_samples_split=mostly(2, st.one_of(st.integers(2, 12), st.floats(0.02, 0.3))),
    min_samples_leaf=mostly(1, st.one_of(st.integers(1, 6), st.floats(0.01, 0.15))),
    min_weight_fraction_leaf=mostly(0.0, st.floats(0.0, 0.15)),
    max_leaf_nodes=mostly(None, st.integers(2, 12)),
    min_impurity_decrease=mostly(0.0, st.floats(0.0, 0.03)),
    growth=st.sampled_from(GROWTHS),
))
GROWTH_ONLY = st.fixed_dictionaries(dict(growth=st.sampled_from(GROWTHS)))
TASKS = st.sampled_from(["classification", "classification", "regression"])
WEIGHT_KINDS = st.sampled_from(["none", "none", "ints", "floats"])
MAX_FEATURES = [st.one_of(st.none(), st.integers(1, f), st.sampled_from(["sqrt", "log2"]))
                for f in range(5)]
LABEL_KINDS = st.sampled_from(["ints", "strings"])
CLASS_WEIGHTS = st.sampled_from([None, None, "balanced"])
CLF = st.sampled_from(CLF_CRITERIA)
REG = st.sampled_from(REG_CRITERIA)
Y_KINDS = st.sampled_from(["grid", "float", "counts"])
N_ROWS = st.integers(5, 80)
N_FEATURES = st.integers(1, 4)
N_CLASSES = st.integers(2, 4)
RANDOM_STATES = st.integers(0, 3)


@st.composite
def cases(draw, task=None, splitter="best", max_features=False, prune=True,
          weighting=True):
    task = task or draw(TASKS)
    if isinstance(splitter, st.SearchStrategy):
        splitter = draw(splitter)
    n = draw(N_ROWS)
    n_features = draw(N_FEATURES)
    X = draw(x_matrix(n, n_features))
    params = dict(draw(PRUNING if prune else GROWTH_ONLY))
    params["splitter"] = splitter
    params["random_state"] = draw(RANDOM_STATES)
    if max_features:
        params["max_features"] = draw(MAX_FEATURES[n_features])
    wkind = draw(WEIGHT_KINDS) if weighting else "none"
    if wkind == "ints":  # zero weights included: those rows are no node's samples
        sw = (uints(draw, n, np.uint8) % 4).astype(np.float64)
        assume(sw.sum() > 0)
    elif wkind == "floats":
        sw = 0.1 + uints(draw, n, np.uint16) / 65535.0 * 4.9
    else:
        sw = None
    w = np.ones(n) if sw is None else sw.copy()

    if task == "classification":
        k = draw(N_CLASSES)
        codes = uints(draw, n, np.uint8) % k
        labels = draw(LABEL_KINDS)
        y = np.array(["ant", "bee", "cat", "dog"])[codes] if labels == "strings" else codes * 10 - 5
        # dtree's class indices: sorted unique labels
        _, codes = np.unique(y, return_inverse=True)
        crit = draw(CLF)
        cw = draw(CLASS_WEIGHTS) if weighting else None
        est = DecisionTreeClassifier(criterion=crit, class_weight=cw, **params)
        if cw == "balanced":
            w = w * balanced_class_weights(codes, codes.max() + 1)[codes]
        exact = wkind != "floats" and cw is None
        return Case(task, est, X, y, sw, w, codes=codes, exact=exact)

    crit = draw(REG)
    ykind = draw(Y_KINDS)
    lo = 0.0 if crit == "poisson" else -20.0
    if ykind == "grid":  # quarters: every sum of y and y**2 is exact
        y = (uints(draw, n, np.uint16) % int(4 * (100 - lo) + 1)) / 4.0 + lo
    elif ykind == "counts":  # small counts, mostly zeros (Poisson refuses zero-sum children)
        y = np.maximum(uints(draw, n, np.uint8) % 7 - 3, 0).astype(np.float64)
    else:
        y = lo + uints(draw, n, np.uint32) / 2.0**32 * (100.0 - lo)
    y = y + 0.0
    if crit == "poisson":
        assume(np.sum(w * y) > 0 and np.sum(y) > 0)
    est = DecisionTreeRegressor(criterion=crit, **params)
    exact = wkind != "floats" and ykind != "float" and crit != "poisson"
    return Case(task, est, X, y, sw, w, exact=exact)
