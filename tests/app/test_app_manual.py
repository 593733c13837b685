"""The Grow page's manual mode under AppTest, in English and Chinese: a split
picked by hand at the node about to split, the tree regrown from it, the
choices in the link, Reset, and links whose choices cannot be used.

Oracles: the gains against a brute-force computation on the training rows
(Gini and entropy written out here) and Li Hang's published gains for the
loan table; the tree after the choice against the choice itself plus dtree
grown greedily on each region's rows alone (its boxes' impurities and
counts, every g(t) recomputed from the boxes, the confusion matrices)."""

import base64
import json
import re

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.metrics import confusion_matrix
from streamlit.testing.v1 import AppTest

from tests.helpers.app_models import app_estimator
from tests.helpers.apptest import APP

HAND = {"en": "Chosen by hand", "zh": "手动选择"}


def start(lang="en", runs=2, **query):
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.query_params["lang"] = lang
    for _ in range(runs):
        at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def open_chooser(at):
    at.session_state["manual"] = True
    at.run()
    assert not at.exception, [e.message for e in at.exception]


def pick(at, feature_name, option_text=None, index=None):
    """Choose a feature by name and one of its splits (by the start of its
    label, or its index); returns the split's label."""
    box = at.selectbox(key="manual_feature")
    feature = next(f for f in box.options if f.startswith(feature_name + " ·"))
    box.select(feature).run()
    if option_text is None and index is None:
        return None
    splits = at.selectbox(key="manual_split")
    label = splits.options[index] if index is not None else next(
        o for o in splits.options if o.startswith(option_text))
    splits.select(label).run()
    assert not at.exception, [e.message for e in at.exception]
    return label


def comparison(at):
    return next(m.value for m in at.markdown if m.value.startswith(("Your split", "你的划分")))


def numbers(text):
    return [float(x) for x in re.findall(r"\*\*[^*\d]*(-?\d+\.\d+)\*\*", text)]


def narration(at):
    return next(m.value for m in at.markdown if re.search(r"\*\*(Step \d+ of|第 \d+ 步（共)",
                                                          m.value))


def dot(at):
    return at.get("graphviz_chart")[0].proto.spec


def impurity(counts, kind="gini"):
    p = np.asarray(counts, float)
    p = p[p > 0] / p.sum()
    return 1 - (p * p).sum() if kind == "gini" else -(p * np.log2(p)).sum()


def brute_gain(y, left, kind="gini"):
    y = np.asarray(y)
    counts = lambda rows: [np.sum(rows == c) for c in np.unique(y)]  # noqa: E731
    return impurity(counts(y), kind) - sum(
        m.sum() / len(y) * impurity(counts(y[m]), kind) for m in (left, ~left) if m.sum())


def best_brute_gain(X, y):
    best = 0.0
    for f in range(X.shape[1]):
        x = X.iloc[:, f].to_numpy(np.float32)
        for a, b in zip(np.unique(x)[:-1], np.unique(x)[1:]):
            best = max(best, brute_gain(y, x <= (float(a) + float(b)) / 2))
    return best


# -- the tree's boxes, read back from the DOT ---------------------------------------

BOX = re.compile(r'^(\d+) \[label="([^"]*)"', re.M)
EDGE = re.compile(r"^(\d+) -> (\d+)", re.M)


def boxes(text):
    """{id: {"split": str|None, "gini", "samples", "value", "g"}}, and the edges."""
    out = {}
    for node, label in BOX.findall(text):
        lines = label.split("\\n")
        info = {"split": None, "g": None}
        for line in lines[1:]:
            key, _, value = line.partition(" = ")
            if key in ("gini", "基尼系数"):
                info["gini"] = float(value)
            elif key in ("samples", "样本数"):
                info["samples"] = int(value)
            elif key in ("value", "类别分布"):
                info["value"] = json.loads(value)
            elif "g(t) = " in line:
                info["g"] = float(line.split("g(t) = ")[1])
            elif "<=" in line:
                info["split"] = line
        out[int(node)] = info
    children = {}
    for parent, child in EDGE.findall(text):
        children.setdefault(int(parent), []).append(int(child))
    return out, children


def check_boxes(text):
    """Every box's impurity from its own counts, and every g(t) recomputed
    from the leaves below it: g(t) = (R(t) - R(T_t)) / (|T_t| - 1), with
    R(t) = the node's Gini impurity times its share of the training rows
    (scikit-learn's cost-complexity measure)."""
    nodes, children = boxes(text)
    total = nodes[0]["samples"]

    def leaves(i):
        return [i] if i not in children else [j for c in children[i] for j in leaves(c)]

    err = lambda i: impurity(nodes[i]["value"]) * nodes[i]["samples"] / total  # noqa: E731
    for i, info in nodes.items():
        assert info["gini"] == pytest.approx(impurity(info["value"]), abs=6e-4)
        assert sum(info["value"]) == info["samples"]
        if info["g"] is not None:
            under = leaves(i)
            g = (err(i) - sum(err(j) for j in under)) / (len(under) - 1)
            assert info["g"] == pytest.approx(g, abs=6e-5)
    return nodes, children


def grow(at, to="last"):
    at.button(key="grow_all" if to == "last" else "next").click().run()
    assert not at.exception, [e.message for e in at.exception]


def confusion_shown(at):
    at.session_state["panel"] = "Confusion matrix" if "zh" not in at.query_params.get(
        "lang", "") else "混淆矩阵"
    at.run()
    out = {}
    for chart in at.get("plotly_chart"):
        if chart.key in ("confusion_train", "confusion_test"):
            z = json.loads(chart.proto.spec)["data"][0]["z"]
            if isinstance(z, dict):  # (Plotly packs numbers as base64)
                z = np.frombuffer(base64.b64decode(z["bdata"]), dtype=np.dtype(z["dtype"])
                                  ).reshape([int(v) for v in z["shape"].split(",")])
            out[chart.key] = np.asarray(z)
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_threshold_picked_by_hand_at_the_root(lang):
    at = start(lang, data="iris")
    open_chooser(at)
    est, prep = app_estimator("Iris")
    X, y = prep.X_train, np.asarray(prep.y_train)
    # the algorithm's best is the brute-force best split of the root
    pick(at, "petal width (cm)", "≤ 0.35 |")
    mine, best = numbers(comparison(at))
    width = X["petal width (cm)"].to_numpy(np.float32)
    assert mine == pytest.approx(brute_gain(y, width <= np.float32(0.35)), abs=6e-5)
    assert best == pytest.approx(best_brute_gain(X, y), abs=6e-5)
    at.button(key="manual_apply").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.warning, [w.value for w in at.warning]
    spec = {"feature": "petal width (cm)", "threshold": 0.35}
    assert json.loads(at.query_params["forced"]) == spec
    assert at.session_state["step"] == 1
    sentence = narration(at)
    assert HAND[lang] in sentence
    assert f"{brute_gain(y, width <= np.float32(0.35)):.3f}" in sentence
    assert f"{best_brute_gain(X, y):.3f}" in sentence
    # the grown tree: the choice, then dtree's greedy growth on each region alone
    grow(at)
    nodes, children = check_boxes(dot(at))
    assert nodes[0]["split"] == "petal width (cm) <= 0.35"
    left = width <= np.float32(0.35)
    regions = []
    for rows in (left, ~left):
        region = clone(est).set_params(max_depth=4).fit(X[rows], y[rows])
        regions.append(region)
        child = children[0][0 if rows is left else 1]
        assert nodes[child]["samples"] == rows.sum()
        assert nodes[child]["value"] == [int((y[rows] == c).sum()) for c in np.unique(y)]
    leaves_shown = sorted(tuple(n["value"]) for i, n in nodes.items() if i not in children)
    labels = np.unique(y)

    def counts(region, i):  # (a region's classes may be fewer than the table's)
        out = np.zeros(len(labels), int)
        out[np.searchsorted(labels, region.classes_)] = np.rint(
            region.tree_.value[i, 0] * region.tree_.weighted_n_node_samples[i])
        return tuple(out.tolist())

    leaves_regions = sorted(counts(r, i) for r in regions for i in range(r.tree_.node_count)
                            if r.tree_.n_children[i] == 0)
    assert leaves_shown == leaves_regions
    # the confusion matrices: predictions of the choice plus the region trees
    shown = confusion_shown(at)

    def predict(frame):
        go_left = frame["petal width (cm)"].to_numpy(np.float32) <= np.float32(0.35)
        return np.where(go_left, regions[0].predict(frame), regions[1].predict(frame))

    for key, frame, truth in (("confusion_train", X, y),
                              ("confusion_test", prep.X_test, np.asarray(prep.y_test))):
        assert np.array_equal(shown[key], confusion_matrix(truth, predict(frame), labels=labels))


def test_a_later_node_keeps_the_splits_before_it():
    at = start(data="iris", step="2")
    before = dot(at)
    open_chooser(at)
    pick(at, "sepal length (cm)", index=3)
    at.button(key="manual_apply").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.session_state["step"] == 3
    spec = json.loads(at.query_params["forced"])
    assert spec["feature"] == "petal length (cm)" and spec["right"]["feature"] == "petal width (cm)"
    assert spec["right"]["left"]["feature"] == "sepal length (cm)"
    assert "Chosen by hand" in narration(at)
    open_chooser(at)  # (it says how many splits are fixed)
    assert any("the first 3 splits are fixed" in c.value for c in at.caption)
    at.session_state["manual"] = False
    at.button(key="prev").click().run()
    # the tree at step 2 is the same tree, drawn the same (the fixed splits as they were)
    assert dot(at) == before
    assert "Fixed by hand" in narration(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_grouping_of_categories_picked_by_hand(lang):
    at = start(lang, data="penguins")
    open_chooser(at)
    pick(at, "island", "{Biscoe, Torgersen} | Dream")
    at.button(key="manual_apply").click().run()
    assert not at.exception, [e.message for e in at.exception]
    spec = json.loads(at.query_params["forced"])
    assert spec == {"feature": "island", "categories": ["Biscoe", "Torgersen"]}
    est, prep = app_estimator("Penguins")
    y = np.asarray(prep.y_train)
    gain = brute_gain(y, prep.X_train["island"].to_numpy(object) == "Dream")
    assert f"{gain:.3f}" in narration(at)
    grow(at)
    assert check_boxes(dot(at))[0][0]["split"] is None  # (a subset split has no <=)


def test_multiway_choices_give_li_hangs_gains():
    at = start("zh", data="loan", preset="ID3")
    open_chooser(at)
    box = at.selectbox(key="manual_feature")
    shown = [o.split(" · ")[1] for o in box.options]
    assert all(label.startswith("最佳信息增益 ") for label in shown)
    # Li Hang, example 5.2: g(D, A3) = 0.420 first, then 0.363, 0.324, 0.083
    assert [round(float(label.split()[1]), 3) for label in shown] == [0.420, 0.363, 0.324,
                                                                     0.083]
    pick(at, "年龄")
    assert [round(x, 3) for x in numbers(comparison(at))] == [0.083, 0.42]
    at.button(key="manual_apply").click().run()
    assert json.loads(at.query_params["forced"]) == {"feature": "年龄", "branches": {}}
    assert "0.083" in narration(at) and "0.420" in narration(at)


def test_the_link_brings_the_choices_back_and_reset_drops_them():
    at = start(data="iris")
    open_chooser(at)
    pick(at, "sepal width (cm)", index=4)
    at.button(key="manual_apply").click().run()
    grow(at, "next")
    link = {k: at.query_params[k] for k in at.query_params}
    assert "forced" in link and link["step"] == "2"
    again = start(**link)
    assert dot(again) == dot(at) and narration(again) == narration(at)
    assert again.session_state["forced"] == at.session_state["forced"]
    # Reset: the algorithm's tree, in the page and the link
    greedy = start(data="iris", step="2")
    again.button(key="manual_reset").click().run()
    assert not again.exception
    assert "forced" not in again.query_params and "forced" not in again.session_state
    assert dot(again) == dot(greedy)
    assert "manual_reset" not in [b.key for b in again.button]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("forced,kind", [
    ("{oops", "unread"), ("[1, 2]", "unread"),
    ('{"feature": "no such feature", "threshold": 1}', "refused"),
    ('{"feature": "petal width (cm)", "threshold": 99}', "refused"),
    ('{"feature": "petal width (cm)", "threshold": "wide"}', "refused"),
    ('{"feature": "petal width (cm)", "categories": ["a"]}', "refused")])
def test_a_link_whose_choices_cannot_be_used(forced, kind, lang):
    at = start(lang, runs=1, data="iris", forced=forced, step="1")
    greedy = start(lang, runs=1, data="iris", step="1")
    said = " ".join(w.value for w in at.warning)
    if kind == "unread":
        assert "`forced`" in said
    else:
        assert ("do not fit" if lang == "en" else "不适用") in said
        assert ("forced_splits" in said) or ("root" in said) or ("根" in said), said
    assert dot(at) == dot(greedy)
    assert HAND[lang] not in narration(at)
    assert "forced" not in at.session_state


def test_the_chooser_in_presenter_mode_and_where_it_cannot_work():
    at = start("zh", data="wine", present="true")
    open_chooser(at)
    pick(at, "alcohol", index=0)
    at.button(key="manual_apply").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert "手动选择" in narration(at)
    assert not at.get("download_button")  # (the chooser closed, to show the new tree)
    assert "manual_reset" not in [b.key for b in at.button]  # (the bar stays one row)
    open_chooser(at)
    assert at.get("download_button")  # the JSON, offered in the chooser
    at.button(key="manual_reset").click().run()  # ... with Reset
    assert "forced" not in at.session_state and "手动选择" not in narration(at)
    hist = start(data="wine", splitter="hist")
    open_chooser(hist)
    assert any("histogram" in i.value for i in hist.info)
    done = start(data="iris", step="99")
    open_chooser(done)
    assert any("fully grown" in i.value for i in done.info)


def test_choices_made_on_another_dataset_are_dropped_with_a_warning():
    at = start(data="iris")
    open_chooser(at)
    pick(at, "petal width (cm)", "≤ 0.35 |")
    at.button(key="manual_apply").click().run()
    assert "forced" in at.session_state
    at.switch_page("pages/data.py").run()
    at.selectbox(key="builtin").select("Wine").run()
    at.switch_page("pages/grow.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert any("another dataset" in w.value for w in at.warning)
    assert "forced" not in at.session_state and "forced" not in at.query_params
    assert "Chosen by hand" not in narration(at)
