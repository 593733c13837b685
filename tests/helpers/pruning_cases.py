"""Tables and estimators for checking cost-complexity pruning against
scikit-learn: classification and regression data, seeded row weights, and
the pair of estimator classes for a case."""

import numpy as np
from sklearn.datasets import load_iris, load_wine, make_classification
from sklearn.tree import DecisionTreeClassifier as SkClassifier
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from dtree import DecisionTreeClassifier, DecisionTreeRegressor


def _classification(seed, n=400):
    X, y = make_classification(n_samples=n, n_features=6, n_informative=5, n_redundant=0,
                               n_classes=3, n_clusters_per_class=2, random_state=seed)
    return X.astype(np.float32), y


def _regression(seed, n=400):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5)).astype(np.float32)
    y = 2 * X[:, 0] + np.sin(3 * X[:, 1]) + X[:, 2] * X[:, 3] + rng.normal(scale=0.3, size=n)
    return X, y


def _weights(n, seed):
    return np.random.default_rng(100 + seed).uniform(0.5, 2.0, n)


def make_case(task, seed, criterion, params, weighted, n=None):
    """(X, y, sample_weight, dtree estimator class, sklearn class, kwargs)."""
    if task == "iris":
        X, y = load_iris(return_X_y=True)
        X = X.astype(np.float32)
    elif task == "wine":
        X, y = load_wine(return_X_y=True)
        X = X.astype(np.float32)
    elif task == "cls":
        X, y = _classification(seed)
    else:
        X, y = _regression(seed)
        if criterion == "poisson":
            y = np.exp(y / 3)
    if n is not None:
        X, y = X[:n], y[:n]
    w = _weights(len(y), seed) if weighted else None
    classifier = task != "reg"
    ours = DecisionTreeClassifier if classifier else DecisionTreeRegressor
    theirs = SkClassifier if classifier else SkRegressor
    return X, y, w, ours, theirs, dict(criterion=criterion, **params)
