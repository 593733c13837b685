"""Sparse ``X`` (SciPy's CSR, CSC and COO matrices and arrays) read without
densifying it.

dtree does not depend on SciPy: a sparse matrix is recognised through
``scipy.sparse.issparse`` only when SciPy is already loaded (a SciPy sparse
matrix cannot exist otherwise), and read through its own methods
(``tocsr``, ``tocoo``).  What the engine keeps is :class:`SparseRows`, the
non-zero entries as NumPy arrays, whose memory grows with the number of
non-zeros, never with rows x features.
"""

import sys

import numpy as np


#: A sparse X of at most this many cells (rows x features, a few MB dense) is
#: grown by the dense search, whose sums it then shares bit for bit: where
#: two splits tie up to rounding, the sparse and the dense input choose the
#: same.  Larger ones are searched in their non-zeros (dtree/_sparse_search.py).
DENSE_CELLS = 1 << 18


def is_sparse(X):
    """Whether ``X`` is a SciPy sparse matrix or array (without importing SciPy)."""
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and bool(sparse.issparse(X))


class SparseRows:
    """A sparse matrix's non-zero entries, row-major, as plain arrays.

    ``keys`` holds ``row * n_features + column`` of each stored non-zero
    entry, strictly increasing; ``values`` its value (float32, never 0, NaN
    or infinite).  ``X[rows, columns]`` reads any entries (0 where none is
    stored), which is all that :meth:`dtree._tree.Tree.branch` needs, so a
    tree routes these rows as it routes a dense array.  ``X.T`` is the
    feature-major view the fit's routing reads (``take`` on flat indices).
    """

    def __init__(self, keys, values, shape):
        self.keys = keys
        self.values = values
        self.shape = tuple(int(s) for s in shape)
        self.dtype = values.dtype
        self.ndim = 2

    @property
    def nnz(self):
        return len(self.keys)

    def __getitem__(self, index):
        if isinstance(index, tuple):
            rows, cols = index
            return self.lookup(np.asarray(rows), np.asarray(cols))
        return self.take_rows(np.asarray(index))

    def lookup(self, rows, cols):
        """The values at (rows[i], cols[i]), 0 where nothing is stored."""
        rows, cols = np.broadcast_arrays(rows, cols)
        want = rows.astype(np.int64) * self.shape[1] + cols
        at = np.searchsorted(self.keys, want)
        out = np.zeros(want.shape, dtype=self.dtype)
        if len(self.keys):
            inside = at < len(self.keys)
            hit = inside.copy()
            hit[inside] = self.keys[at[inside]] == want[inside]
            out[hit] = self.values[at[hit]]
        return out

    def take_rows(self, mask):
        """The rows where the boolean ``mask`` is True, renumbered in order."""
        mask = np.asarray(mask, dtype=bool)
        n_features = self.shape[1]
        rows = self.keys // n_features
        kept = mask[rows]
        new_row = np.cumsum(mask) - 1
        keys = new_row[rows[kept]] * n_features + self.keys[kept] % n_features
        return SparseRows(keys, self.values[kept], (int(mask.sum()), n_features))

    def toarray(self):
        """The dense array (only for small matrices: see ``DENSE_CELLS``)."""
        out = np.zeros(self.shape, dtype=self.dtype)
        out.reshape(-1)[self.keys] = self.values
        return out

    def row_pointers(self):
        """Where each row's entries begin in ``keys`` (length n_rows + 1)."""
        bounds = np.arange(self.shape[0] + 1, dtype=np.int64) * self.shape[1]
        return np.searchsorted(self.keys, bounds)

    @property
    def T(self):
        return _FeatureMajor(self)


class _FeatureMajor:
    """``SparseRows`` seen as (n_features, n_samples): what the fit's
    routing (:func:`dtree._partition.branch_slots`) reads with
    ``X.take(feature * n_samples + row)``."""

    def __init__(self, rows):
        self.rows = rows
        self.shape = rows.shape[::-1]
        self.dtype = rows.dtype

    @property
    def T(self):
        return self.rows

    def take(self, flat):
        n = self.shape[1]
        flat = np.asarray(flat, dtype=np.int64)
        return self.rows.lookup(flat % n, flat // n)


def read_sparse(X, *, what="X", dtype=np.float32):
    """A SciPy sparse ``X`` as :class:`SparseRows` of ``dtype``.

    Duplicate entries are summed (SciPy's meaning); stored zeros, explicit
    or made by the cast, are dropped.  NaN and infinity are refused, as
    scikit-learn refuses them in sparse input.  The work and the memory grow
    with the non-zeros only.
    """
    if X.ndim != 2:
        raise ValueError(f"Expected a 2D sparse matrix for {what}, got {X.ndim}D.")
    if np.dtype(X.dtype).kind not in "biuf":
        raise ValueError(f"Sparse {what} must hold real numbers, not {X.dtype}.")
    csr = X.tocsr()
    if not csr.has_canonical_format:
        if csr is X:  # sum_duplicates works in place: never on the caller's matrix
            csr = csr.copy()
        csr.sum_duplicates()
    n_rows, n_features = csr.shape
    with np.errstate(over="ignore"):
        values = np.asarray(csr.data).astype(dtype)
    if not np.isfinite(values).all():
        bad = np.asarray(csr.indices)[~np.isfinite(values)]
        if np.isnan(values).any():
            raise ValueError(f"Input {what} contains NaN (first in column {int(bad.min())}); "
                             "sparse input takes no missing values.")
        raise ValueError(
            f"Input {what} contains infinity (first in column {int(bad.min())}); values "
            "beyond the float32 range also count as infinity.")
    counts = np.diff(np.asarray(csr.indptr, dtype=np.int64))
    rows = np.repeat(np.arange(n_rows, dtype=np.int64), counts)
    keys = rows * n_features + np.asarray(csr.indices, dtype=np.int64)
    stored = values != 0
    return SparseRows(keys[stored], values[stored], (n_rows, n_features))


def as_routable(X):
    """``X`` as :class:`dtree._tree.Tree` routes it: a SciPy sparse matrix
    becomes :class:`SparseRows` (float32, as the estimators read it);
    anything else is returned as it is."""
    return read_sparse(X) if is_sparse(X) else X
