"""A fitted tree with its data, and what the pages derive from it.

No Streamlit here: :class:`Fit` holds a model, its prepared data and the
values derived from them (encoded rows, scores, cost-complexity tables,
trees at steps, DOT texts), each computed once and shared, read-only, by
every session that looks at the tree.  :mod:`pages.runtime.caches` keeps
the fits in its process-wide cache.
"""

from __future__ import annotations

import threading
from functools import cached_property

import numpy as np

from dtree.views import explain
from pages.runtime.memory import MB, SizedLRU, estimate_bytes


def _size(value) -> int:
    """Bytes of a cached value: a Fit (or anything with ``nbytes``) says
    itself, as it grows; anything else is estimated."""
    n = getattr(value, "nbytes", None)
    return int(n) if isinstance(n, (int, np.integer)) else estimate_bytes(value)


class Fit:
    """A fitted model with its data, and what the pages derive from them
    (computed once, on first use)."""

    #: What cost_complexity keeps per Fit (a table per step the class looked at).
    CC_BYTES = 16 * MB
    #: What :meth:`view` keeps per Fit: the trees at steps, DOT texts and
    #: candidate tables the class looked at (each computed once, not per click).
    VIEW_BYTES = 8 * MB
    #: The lazily computed attributes counted in :attr:`nbytes`.
    LAZY = ("X_train_encoded", "X_test_encoded", "routes_train", "y_codes", "scores", "step_of_node")

    def __init__(self, model, prep, base=None):
        self.model = model
        self.prep = prep
        #: the prepared data before ID3 left rows out (``prep`` otherwise):
        #: the compare page tests every tree on its test rows
        self.base = prep if base is None else base
        # shared by every session that looks at this tree: bounded and locked
        self._cc = SizedLRU(self.CC_BYTES, max_entries=512, name="cost_complexity")
        self._views = SizedLRU(self.VIEW_BYTES, max_entries=2048, name="views")
        self._lock = threading.Lock()
        self._sizes = {}
        self._base_bytes = estimate_bytes((model, prep, self.base))

    @property
    def nbytes(self) -> int:
        """Estimated bytes held by this fit: model, data, what was derived."""
        with self._lock:
            for name in self.LAZY:
                if name in self.__dict__ and name not in self._sizes:
                    self._sizes[name] = estimate_bytes(self.__dict__[name])
            total = self._base_bytes + sum(self._sizes.values())
            profile = self.__dict__.get("profile")
        if profile is not None:
            total += profile.derived_nbytes()
        return total + self._cc.nbytes + self._views.nbytes

    @cached_property
    def profile(self):
        """The compare page's :class:`dtree.views.compare.Profile` of this tree
        (trained on the rows its fit used, tested on the same test rows as
        every other tree).  Kept with the fit, so that it never keeps a model
        and its data alive after the fit cache dropped them."""
        from dtree.views import compare
        return compare.Profile(self.model, self.prep.X_train, self.prep.y_train,
                               self.base.X_test, self.base.y_test)

    @property
    def n_steps(self):
        return len(self.model.steps_)

    @cached_property
    def criterion(self):
        """The criterion the model used (ID3 and C4.5 fix theirs)."""
        return self.model.criterion_

    @cached_property
    def X_train_encoded(self):
        """The training rows as the tree reads them (float32, category codes)."""
        return explain.encode(self.model, self.prep.X_train)

    @cached_property
    def X_test_encoded(self):
        """The test rows as the tree reads them."""
        return explain.encode(self.model, self.prep.X_test)

    @cached_property
    def routes_train(self):
        """(row, leaf, weight) of every training row in the full tree."""
        return self.model.tree_.leaf_weights(self.X_train_encoded)

    @cached_property
    def y_codes(self):
        if hasattr(self.model, "classes_"):
            return explain.class_codes(self.model.classes_, self.prep.y_train)
        return np.asarray(self.prep.y_train, dtype=float)

    @cached_property
    def scores(self):
        """(train, test) score for every step."""
        p = self.prep
        train = explain.score_path(self.model, p.X_train, p.y_train)
        test = explain.score_path(self.model, p.X_test, p.y_test)
        return train, test

    @cached_property
    def step_of_node(self):
        return {s.node: s for s in self.model.steps_}

    def cost_complexity(self, k):
        """cost_complexity_table(tree_at(k)), or None while the pruning module
        is not available."""
        try:
            from dtree import cost_complexity_table
        except ImportError:
            return None
        return self._cc.get_or_create(
            int(k), lambda: cost_complexity_table(self.tree_at(k)))

    def view(self, key, make):
        """``make()`` for ``key`` (a hashable tuple naming what is drawn: the
        step, the language...), computed once for every session that looks
        at this tree and kept in a per-fit cache bounded by
        :attr:`VIEW_BYTES`.  The value is shared: read it, never change it."""
        return self._views.get_or_create(key, make)

    def tree_at(self, k):
        """``model.tree_at(k)``, shared (read-only) by every session."""
        k = int(k)
        return self.view(("tree", k), lambda: self.model.tree_at(k))


def step_dot(fit: Fit, step: int, *, path=None, **options):
    """``viz.step_dot`` of ``fit``'s tree at ``step`` (with its
    cost-complexity table): a class stepping through one tree builds each
    step's DOT once per set of ``options`` (language, layout, font size,
    presenter mode).  With a prediction ``path`` it is built afresh (that
    depends on one session's sample).  Returns (dot, info), ``info`` a copy."""
    from dtree.views import viz

    step = int(step)

    def make():
        return viz.step_dot(fit.model, step, cost_complexity=fit.cost_complexity(step),
                            path=path, **options)
    if path is not None:
        return make()
    dot, info = fit.view(("dot", step, tuple(sorted(options.items()))), make)
    return dot, dict(info)


class Resampled:
    """The trees :func:`dtree.resampled_trees` grew on resamples of a fit's
    training rows, with the tree on all rows (``full``, a :class:`Fit`), and
    what the Compare page derives from them (computed once, on first use,
    shared read-only by every session that looks)."""

    def __init__(self, result, full: Fit, X_train):
        self.result = result
        self.full = full
        #: the training rows the trees were fitted on (categorical columns
        #: with the categories of the tree on all rows)
        self.X_train = X_train
        self._profiles = {}
        self._lock = threading.Lock()
        self._base_bytes = estimate_bytes((result, X_train))

    @property
    def models(self):
        return self.result.estimators

    @property
    def nbytes(self) -> int:
        with self._lock:
            profiles = list(self._profiles.values())
        return self._base_bytes + sum(p.derived_nbytes() for p in profiles)

    def profile(self, i):
        """The :class:`dtree.views.compare.Profile` of resampled tree ``i``:
        trained on its rows, tested on the full fit's test rows."""
        from dtree.views import compare

        with self._lock:
            if i not in self._profiles:
                rows = self.result.rows[i]
                y = np.asarray(self.full.prep.y_train)[rows]
                self._profiles[i] = compare.Profile(
                    self.models[i], self.X_train.iloc[rows], y, self.full.base.X_test,
                    self.full.base.y_test)
            return self._profiles[i]

    @cached_property
    def held_out(self):
        """(scores, where): :func:`dtree.views.instability.held_out_scores`."""
        from dtree.views import instability

        base = self.full.base
        return instability.held_out_scores(self.result, self.X_train, self.full.prep.y_train,
                                           base.X_test, base.y_test)

    @cached_property
    def agreement(self):
        """:func:`dtree.views.instability.agreement` with the tree on all rows."""
        from dtree.views import instability

        return instability.agreement(self.full.model, self.models)
