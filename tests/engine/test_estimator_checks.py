"""scikit-learn's own estimator checks pass on both estimators."""

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from dtree import DecisionTreeClassifier, DecisionTreeRegressor


@parametrize_with_checks([DecisionTreeClassifier(), DecisionTreeRegressor()])
@pytest.mark.filterwarnings("ignore:Estimator .* does not inherit from")
def test_sklearn_compatible(estimator, check):
    check(estimator)
