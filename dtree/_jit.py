"""Loading the optional compiled kernels (numba); None when it is absent.

:mod:`dtree._jit_search` holds the plain exact search and the binary
partition (:mod:`dtree._plain_search` says which batches they take), loaded
with the kernel below.  One kernel lives in :mod:`dtree._jit_kernels`: the absolute-error
criterion's running sum of absolute deviations from the weighted median of
every prefix of every node.  It is the one search in dtree that NumPy has
no fast form for: a running median over every prefix.  The NumPy path
(:func:`dtree._median._sad_numpy`) does it with whole-array operations in
O(n log s), but each step is several array passes; the compiled kernel keeps
two heaps per node, as :func:`dtree._median.sad_prefix` does in Python, and
gives bit-identical results to it (the same additions in the same order).
:func:`dtree._median.sad_prefix_segments` chooses between the two.

numba is an optional extra (``pip install .[fast]``) and costs about 1-2 s
to load in a process (its compiled code is cached on disk), so it is loaded
only by a search of at least ``JIT_MIN_ROWS`` rows (summed over the
features), where the NumPy path would cost more than that; once loaded, it
does every search.  The small tables of a lecture never load it.
``DTREE_NO_JIT=1`` turns it off.
"""

import os
import threading

_KERNEL = None  # the compiled function once loaded; False when unavailable
_LOADING = threading.Lock()  # (the app's sessions fit in threads)
JIT_MIN_ROWS = 50_000


def available():
    """True when numba is installed and not turned off (loads the kernel)."""
    return _load() is not None


def _load():
    global _KERNEL
    with _LOADING:
        if _KERNEL is None:
            kernel = False
            if os.environ.get("DTREE_NO_JIT", "") in ("", "0"):
                try:
                    from . import _jit_kernels
                    kernel = _jit_kernels.sad_segments
                except ImportError:  # numba is not installed
                    pass
            _KERNEL = kernel
    return _KERNEL or None


def kernel_for(n_rows):
    """The compiled kernel for a search of ``n_rows`` rows (summed over the
    features), loading numba if it is there and the search is worth it;
    None for the NumPy path."""
    kernel = _KERNEL or None
    if _KERNEL is None and n_rows >= JIT_MIN_ROWS:
        kernel = _load()
    return kernel


def search_kernels(n_rows):
    """The compiled kernels of the plain exact search and partition (the
    module :mod:`dtree._jit_search`) for a search of ``n_rows`` rows, loaded
    as :func:`kernel_for` loads numba; None for the NumPy path."""
    if kernel_for(n_rows) is None:
        return None
    from . import _jit_search

    return _jit_search
