"""Bad input gets a clear error that names the problem; DataFrame input keeps
its column names (in ``feature_names_in_`` and in every step) and checks them
at predict time."""

import warnings

import numpy as np
import pandas as pd
import pytest

from dtree import CodedError, DecisionTreeClassifier, DecisionTreeRegressor

ESTIMATORS = [DecisionTreeClassifier, DecisionTreeRegressor]


def small_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    return X, y


# --------------------------------------------------------------------------
# X
# --------------------------------------------------------------------------

@pytest.mark.parametrize("Est", ESTIMATORS)
def test_nan_in_x_is_refused_when_missing_values_are_an_error(Est):
    X, y = small_data()
    X[4, 2] = np.nan
    with pytest.raises(ValueError, match=r"(?i)missing values") as info:
        Est(missing="error").fit(X, y)
    assert "x2" in str(info.value), "the message names the column with missing values"


def test_regressor_missing_value_error_gives_advice_that_applies_to_regressors():
    X, y = small_data()
    X[4, 2] = np.nan
    with pytest.raises(ValueError, match=r"(?i)missing values") as info:
        DecisionTreeRegressor(missing="error").fit(X, y.astype(float))
    # the regressor has no ID3 / C4.5 presets: DecisionTreeRegressor(algorithm="c4.5") is refused
    with pytest.raises(ValueError, match=r"'algorithm' parameter"):
        DecisionTreeRegressor(algorithm="c4.5").fit(X, y.astype(float))
    assert "algorithm='c4.5'" not in str(info.value), str(info.value)


def test_nan_in_x_is_refused_by_absolute_error_only_with_c45_missing():
    """absolute_error sends missing values to the better side, as scikit-learn
    does; it has no rule for C4.5's rows spread over the branches."""
    X, y = small_data()
    X[0, 0] = np.nan
    DecisionTreeRegressor(criterion="absolute_error").fit(X, y.astype(float))
    with pytest.raises(ValueError, match=r"absolute_error.*missing='c4.5'") as info:
        DecisionTreeRegressor(criterion="absolute_error", missing="c4.5").fit(X, y.astype(float))
    assert info.value.code == "absolute_error_missing"


def test_nan_in_x_is_refused_by_id3_naming_the_dataframe_column():
    X, y = small_data()
    frame = pd.DataFrame(X, columns=["height", "weight", "age"])
    frame.loc[3, "weight"] = np.nan
    with pytest.raises(ValueError, match=r"'weight' has missing values"):
        DecisionTreeClassifier(algorithm="id3").fit(frame, y)


@pytest.mark.parametrize("Est", ESTIMATORS)
@pytest.mark.parametrize("bad", [np.inf, -np.inf, 1e39], ids=["inf", "-inf", "beyond-float32"])
def test_infinity_in_x_is_refused(Est, bad):
    X, y = small_data()
    X[7, 1] = bad
    with pytest.raises(CodedError, match=r"(?i)infinity") as refused:
        Est().fit(X, y)
    assert refused.value.code == "x_infinite"  # (the app words it by its code)
    assert refused.value.values == {"what": "X", "column": 1}


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_infinity_in_x_at_predict_time_is_refused(Est):
    X, y = small_data()
    est = Est().fit(X, y)
    X[0, 0] = np.inf
    for method in ("predict", "apply", "decision_path"):
        with pytest.raises(ValueError, match=r"(?i)infinity"):
            getattr(est, method)(X)


def test_non_numeric_dataframe_column_is_refused_when_not_categorical():
    X, y = small_data()
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    frame["colour"] = np.where(y == 1, "red", "blue")
    with pytest.raises(ValueError, match=r"non-numeric"):
        DecisionTreeClassifier(categorical_features=None).fit(frame, y)


def test_string_array_x_is_refused():
    X = np.array([["1", "red"], ["2", "blue"], ["3", "red"], ["4", "blue"]])
    with pytest.raises(ValueError, match=r"numbers only|non-numeric"):
        DecisionTreeClassifier(categorical_features=None).fit(X, [0, 1, 0, 1])


@pytest.mark.parametrize("X, message", [
    (np.arange(6.0), r"Expected 2D array, got 1D array"),
    (np.zeros((0, 2)), r"0 sample\(s\)"),
    (np.zeros((4, 0)), r"0 feature\(s\)"),
], ids=["1d", "no-rows", "no-columns"])
def test_badly_shaped_x_is_refused(X, message):
    with pytest.raises(ValueError, match=message):
        DecisionTreeClassifier().fit(X, np.zeros(len(X)))


# --------------------------------------------------------------------------
# y and sample weights
# --------------------------------------------------------------------------

@pytest.mark.parametrize("Est", ESTIMATORS)
def test_a_single_sample_is_refused(Est):
    with pytest.raises(ValueError, match=r"1 sample"):
        Est().fit([[1.0, 2.0]], [1])


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_x_and_y_of_different_lengths_are_refused(Est):
    X, y = small_data()
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[20, 19\]"):
        Est().fit(X, y[:-1])


def test_classifier_with_continuous_y_is_refused():
    X, _ = small_data()
    y = np.linspace(0.0, 1.0, len(X))
    with pytest.raises(CodedError, match=r"Unknown label type") as refused:
        DecisionTreeClassifier().fit(X, y)
    assert refused.value.code == "continuous_labels"


def test_classifier_accepts_float_labels_that_are_whole_numbers():
    X, y = small_data()
    est = DecisionTreeClassifier().fit(X, y.astype(float) * 2.0)
    np.testing.assert_array_equal(est.classes_, [0.0, 2.0])


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_nan_in_y_is_refused(Est):
    X, y = small_data()
    y = y.astype(float)
    y[3] = np.nan
    with pytest.raises(ValueError, match=r"y contains NaN"):
        Est().fit(X, y)


def test_y_of_three_dimensions_is_refused():
    # (a 2-d y is a multi-output target: tests/engine/test_multioutput.py)
    X, y = small_data()
    with pytest.raises(ValueError, match=r"1d array.*one column per output.*shape"):
        DecisionTreeClassifier().fit(X, np.c_[y, y][:, :, None])


def test_poisson_refuses_negative_y():
    X, y = small_data()
    y = y.astype(float)
    y[5] = -1.0
    with pytest.raises(ValueError, match=r"negative"):
        DecisionTreeRegressor(criterion="poisson").fit(X, y)


def test_poisson_refuses_y_summing_to_zero():
    X, _ = small_data()
    with pytest.raises(ValueError, match=r"Sum of y is not positive"):
        DecisionTreeRegressor(criterion="poisson").fit(X, np.zeros(len(X)))


@pytest.mark.parametrize("weights, message", [
    (-np.ones(20), r"Negative values in data passed to sample_weight"),
    (np.zeros(20), r"sum to zero"),
    (np.ones(19), r"sample_weight.shape == \(19,\), expected \(20,\)"),
    (np.r_[np.ones(19), np.nan], r"sample_weight contains NaN"),
], ids=["negative", "all-zero", "wrong-length", "nan"])
def test_bad_sample_weights_are_refused(weights, message):
    X, y = small_data()
    with pytest.raises(ValueError, match=message):
        DecisionTreeClassifier().fit(X, y, sample_weight=weights)


TOO_LARGE_TARGETS = [
    pytest.param("squared_error", np.r_[np.full(5, 1e308), np.full(5, -1e308)], id="squared-error-pm1e308"),
    pytest.param("squared_error", np.r_[np.full(7, 1e308), np.zeros(3)], id="squared-error-1e308-and-0"),
    pytest.param("absolute_error", np.r_[np.full(5, 1e308), np.full(5, -1e308)], id="absolute-error-pm1e308"),
    pytest.param("poisson", np.r_[np.full(7, 1e308), np.zeros(3)], id="poisson-1e308-and-0"),
]


@pytest.mark.parametrize("criterion, y", TOO_LARGE_TARGETS)
def test_regression_target_whose_sums_overflow_fails_cleanly(criterion, y):
    """Finite targets whose sums overflow float64: either the engine's own
    refusal (code y_too_large, naming the largest |y| and how to rescale),
    or a tree (scikit-learn grows one); never an internal error."""
    X = np.arange(len(y), dtype=float).reshape(-1, 1)
    est = DecisionTreeRegressor(criterion=criterion)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            est.fit(X, y)
        except ValueError as exc:
            assert getattr(exc, "code", None) == "y_too_large", exc
            assert "target values are too large" in str(exc) and "Rescale y" in str(exc)
            return
    assert est.tree_.node_count >= 1
    assert len(est.predict(X)) == len(y)


# --------------------------------------------------------------------------
# parameters
# --------------------------------------------------------------------------

@pytest.mark.parametrize("Est, criterion", [
    (DecisionTreeClassifier, "mse"),
    (DecisionTreeClassifier, "squared_error"),
    (DecisionTreeRegressor, "gini"),
    (DecisionTreeRegressor, None),
])
def test_unknown_criterion_is_refused(Est, criterion):
    X, y = small_data()
    with pytest.raises(ValueError, match=rf"Unknown criterion {criterion!r}"):
        Est(criterion=criterion).fit(X, y)


@pytest.mark.parametrize("param, value", [
    ("max_depth", -1),
    ("max_depth", 0),
    ("max_depth", 2.5),
    ("min_samples_leaf", 0),
    ("min_samples_leaf", -3),
    ("min_samples_leaf", 1.0),
    ("min_samples_leaf", 1.5),
    ("min_samples_leaf", "2"),
    ("min_samples_split", 1),
    ("min_samples_split", 0.0),
    ("min_weight_fraction_leaf", 0.6),
    ("max_leaf_nodes", 1),
    ("min_impurity_decrease", -0.1),
    ("max_features", 0),
    ("max_features", "all"),
    ("growth", "random"),
    ("growth", "depth-first"),
    ("splitter", "fast"),
])
def test_bad_parameter_is_refused_by_name(param, value):
    X, y = small_data()
    with pytest.raises(ValueError, match=rf"'{param}' parameter.*Got {value!r}"):
        DecisionTreeClassifier(**{param: value}).fit(X, y)


def test_too_many_max_features_is_refused():
    X, y = small_data()
    with pytest.raises(ValueError, match=r"max_features"):
        DecisionTreeClassifier(max_features=4).fit(X, y)


def test_class_weight_for_an_absent_label_is_refused():
    X, y = small_data()
    with pytest.raises(ValueError, match=r"class_weight.*7"):
        DecisionTreeClassifier(class_weight={7: 2.0}).fit(X, y)


# --------------------------------------------------------------------------
# predicting
# --------------------------------------------------------------------------

@pytest.mark.parametrize("Est", ESTIMATORS)
@pytest.mark.parametrize("method", ["predict", "apply", "decision_path"])
def test_wrong_number_of_features_at_predict_time(Est, method):
    X, y = small_data()
    est = Est().fit(X, y)
    with pytest.raises(ValueError, match=r"X has 2 features, but \w+ is expecting 3 features"):
        getattr(est, method)(X[:, :2])
    with pytest.raises(ValueError, match=r"X has 4 features, but \w+ is expecting 3 features"):
        getattr(est, method)(np.c_[X, X[:, :1]])


@pytest.mark.parametrize("Est", ESTIMATORS)
@pytest.mark.parametrize("call", [
    lambda est, X: est.predict(X),
    lambda est, X: est.apply(X),
    lambda est, X: est.decision_path(X),
    lambda est, X: est.tree_at(0),
    lambda est, X: est.get_depth(),
    lambda est, X: est.feature_importances_,
], ids=["predict", "apply", "decision_path", "tree_at", "get_depth", "feature_importances_"])
def test_using_an_unfitted_estimator_raises_not_fitted(Est, call):
    X, _ = small_data()
    with pytest.raises(Exception, match=r"not fitted yet") as info:
        call(Est(), X)
    # scikit-learn's convention: NotFittedError is both a ValueError and an AttributeError
    assert info.type.__name__ == "NotFittedError"
    assert issubclass(info.type, ValueError) and issubclass(info.type, AttributeError)


def test_predict_proba_before_fit_raises_not_fitted():
    with pytest.raises(ValueError, match=r"not fitted yet") as info:
        DecisionTreeClassifier().predict_proba(np.zeros((2, 3)))
    assert info.type.__name__ == "NotFittedError"


@pytest.mark.parametrize("k", [-1, 99, 1.0, "1"])
def test_tree_at_out_of_range(k):
    X, y = small_data()
    est = DecisionTreeClassifier(max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match=r"k must be an int in \[0, \d+\]"):
        est.tree_at(k)


# --------------------------------------------------------------------------
# DataFrames and feature names
# --------------------------------------------------------------------------

def frame_data():
    X, y = small_data()
    return pd.DataFrame(X, columns=["height", "weight", "age"]), y


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_dataframe_keeps_feature_names(Est):
    frame, y = frame_data()
    est = Est(max_depth=3).fit(frame, y)
    np.testing.assert_array_equal(est.feature_names_in_, ["height", "weight", "age"])
    assert est.n_features_in_ == 3
    assert len(est.steps_) >= 1
    for step in est.steps_:
        assert step.feature_name == frame.columns[step.feature]
        if step.candidates is not None:
            assert set(step.candidates["feature"]) <= set(frame.columns)
            assert step.candidates["feature"].iloc[0] == step.feature_name
    # same tree as from the bare array, where features are called x0, x1, ...
    plain = Est(max_depth=3).fit(frame.to_numpy(), y)
    assert not hasattr(plain, "feature_names_in_")
    assert [s.feature_name for s in plain.steps_] == [f"x{s.feature}" for s in est.steps_]
    np.testing.assert_array_equal(plain.tree_.threshold, est.tree_.threshold)
    # refitting on an array forgets the names
    est.fit(frame.to_numpy(), y)
    assert not hasattr(est, "feature_names_in_")


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_predict_with_other_column_names_is_refused(Est):
    frame, y = frame_data()
    est = Est().fit(frame, y)
    renamed = frame.rename(columns={"age": "years"})
    with pytest.raises(ValueError, match=r"feature names should match") as info:
        est.predict(renamed)
    assert "years" in str(info.value) and "age" in str(info.value)
    with pytest.raises(ValueError, match=r"same order"):
        est.predict(frame[["age", "height", "weight"]])


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_predict_with_same_columns_matches_array_prediction(Est):
    frame, y = frame_data()
    est = Est().fit(frame, y)
    np.testing.assert_array_equal(est.predict(frame), est.predict(frame.copy()))
    with pytest.warns(UserWarning, match=r"does not have valid feature names"):
        pred = est.predict(frame.to_numpy())
    np.testing.assert_array_equal(pred, est.predict(frame))


def test_sparse_y_and_a_zero_dimensional_weight_are_type_errors_as_in_scikit_learn():
    """scikit-learn's own tests expect these types (and messages)."""
    sparse = pytest.importorskip("scipy.sparse")
    X, y = small_data()
    for est in (DecisionTreeClassifier(), DecisionTreeRegressor()):
        with pytest.raises(TypeError, match="Sparse data was passed for y"):
            est.fit(X, sparse.csr_matrix(np.asarray(y, dtype=float).reshape(-1, 1)))
        for weight in (np.array(0), np.array(2.0)):
            with pytest.raises(TypeError, match=r"at least 1 dimension .*got scalar "
                                                r"`array\(\d\.\)` instead"):
                est.fit(X, np.asarray(y, dtype=float), sample_weight=weight)
        est.fit(X, np.asarray(y, dtype=float), sample_weight=2.0)  # a plain number is fine
