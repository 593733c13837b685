"""Readable trees on a projector: boxes wide enough for Chinese, edge labels
of their own, splits of known against missing values in words (never
"<= inf"), and a distinct, readable colour for each of 20 classes."""

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from dtree import (CLASS_COLOURS, OKABE_ITO, DecisionTreeClassifier, export_graphviz,
                   export_text, from_sklearn, node_fills, text_em)
from dtree.views import compare, downloads, inspector, narration, prediction, viz
from dtree.views.links import md
from dtree.views.vocabulary import missing_side, missing_split

FEATURE = "bill_length_mm"


# -- a tree whose best split is known against missing --------------------------------

@pytest.fixture(scope="module")
def data():
    """bill_length_mm is missing for every Gentoo and known for the others;
    the other column is noise, so the best split is known against missing."""
    rng = np.random.default_rng(0)
    n = 60
    bill = rng.normal(40, 3, n)
    species = np.array(["Adelie"] * 30 + ["Gentoo"] * 30)
    bill[30:] = np.nan
    X = pd.DataFrame({FEATURE: bill, "noise": rng.normal(size=n)})
    return X, species


@pytest.fixture(scope="module")
def model(data):
    X, y = data
    return DecisionTreeClassifier(missing="cart", max_depth=2).fit(X, y)


def test_the_best_split_is_known_against_missing(model):
    tree = model.tree_
    assert tree.feature[0] == 0 and tree.threshold[0] == math.inf
    assert tree.missing_go_to_left[0] == 0  # the missing values go right


def test_sklearn_makes_the_same_split(data):
    from sklearn.tree import DecisionTreeClassifier as Sk

    X, y = data
    sk = Sk(max_depth=1, random_state=0).fit(X, y)
    assert sk.tree_.threshold[0] == math.inf
    dot = export_graphviz(sk)
    assert f"{FEATURE} is known" in dot and "inf" not in dot
    opened = from_sklearn(sk, X, y)
    assert "known" in export_graphviz(opened, lang="en")


def _labels(dot):
    return dict(re.findall(r'^(\d+ -> \d+) \[label="([^"]*)"', dot, re.M))


def test_the_drawing_says_known_and_missing(model):
    dot = export_graphviz(model)
    assert f'label="{FEATURE} is known\\n' in dot
    assert "inf" not in dot and "<=" not in dot.split("\n")[3]
    assert _labels(dot) == {"0 -> 1": "known", "0 -> 2": "missing"}
    zh = export_graphviz(model, lang="zh")
    assert f'label="{FEATURE} 已知\\n' in zh and "∞" not in zh
    assert _labels(zh) == {"0 -> 1": "已知", "0 -> 2": "缺失"}


def test_the_text_export_says_known_and_missing(model):
    text = export_text(model, feature_names=[FEATURE, "noise"])
    assert f"|--- {FEATURE} is known" in text and f"|--- {FEATURE} is missing" in text
    assert "inf" not in text


@pytest.mark.parametrize("lang, known, missing", [("en", "is known", "missing"),
                                                  ("zh", "已知", "缺失")])
def test_the_app_drawings_say_known_and_missing(model, lang, known, missing):
    dot, _ = viz.step_dot(model, 1, lang=lang, compact=True)
    assert f"{FEATURE} {known}" in dot and "inf" not in dot and "∞" not in dot
    assert missing in _labels(dot).values()
    fig = downloads.growth_figure_dict(model, lang=lang)
    text = json.dumps(fig, ensure_ascii=False)
    assert f"{FEATURE} {known}" in text and "≤ inf" not in text
    hover = " ".join(viz.tree_figure(model.tree_, model, lang=lang).data[1].hovertext)
    assert missing_split(FEATURE, lang) in hover and "inf" not in hover


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_narration_inspector_and_compare_word_it(model, lang):
    words = narration.split_phrase(model.steps_[0], lang)
    assert "inf" not in words and missing_split(f"**{md(FEATURE)}**", lang) == words
    titles = inspector.node_titles(model, model.tree_, {s.node: s for s in model.steps_}, lang)
    assert titles[0].endswith(missing_split(FEATURE, lang)) and "inf" not in titles[0]
    cand = model.candidates(0)
    table = inspector.candidate_table(cand, model.criterion_, lang)
    split = table.iloc[:, 2].tolist()
    chosen = int(np.flatnonzero(cand["chosen"].to_numpy())[0])
    assert split[chosen] == missing_split("", lang).strip()
    assert missing_split(FEATURE, lang) in compare.split_text(model, 0, lang=lang)
    assert compare.path_conditions(model, [compare.branch_keys(model.growth_tree_, 0)[1]],
                                   lang) == [(FEATURE, missing_side(1, lang))]


@pytest.mark.parametrize("lang, known, missing", [("en", "is known", "is missing"),
                                                  ("zh", "已知", "缺失")])
def test_the_prediction_path_words_it(model, lang, known, missing):
    seen = prediction.explain_prediction(model, {FEATURE: 41.0, "noise": 0.0})
    rule = prediction.rule_text(seen.decisions[0], lang)
    assert rule.startswith(f"{FEATURE} {known}") and "inf" not in rule
    assert "inf" not in prediction.explanation(seen, lang)
    unseen = prediction.explain_prediction(model, {FEATURE: None, "noise": 0.0})
    rule = prediction.rule_text(unseen.decisions[0], lang)
    assert rule.startswith(f"{FEATURE} {missing}") and "inf" not in rule


# -- boxes wide enough for Chinese ---------------------------------------------------------

def test_text_em_counts_wide_characters_as_a_whole_em():
    assert text_em("有自己的房子") == 6.0
    assert text_em("ＡＢ") == 2.0  # full width
    assert text_em("ab") == pytest.approx(2 * 0.62)
    assert text_em("#0  有自己的房子 ∈ {是}") == pytest.approx(7 + 0.62 * 9)
    assert text_em("") == 0


def test_a_box_with_chinese_is_as_wide_as_its_text():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"有自己的房子的申请人": rng.integers(0, 2, 40).astype(float)})
    y = np.where(X.iloc[:, 0] > 0.5, "是", "否")
    model = DecisionTreeClassifier().fit(X, y)
    dot = export_graphviz(model, lang="zh", fontsize=20, node_ids=True)
    widths = dict(re.findall(r"^(\d+) \[.*width=([\d.]+)", dot, re.M))
    root = re.search(r'^0 \[label="([^"]*)"', dot, re.M).group(1).split("\\n")
    wanted = max(text_em(line) for line in root) * 20 / 72
    assert float(widths["0"]) >= wanted
    # Latin-only boxes are left to Graphviz
    assert "width=" not in export_graphviz(model, feature_names=["owns"], class_names=["n", "y"])


def test_edge_labels_are_labels_of_their_own():
    """A head label is placed near the box it points to, and lands on it."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(50, 2))
    model = DecisionTreeClassifier(max_depth=2).fit(X, X[:, 0] > 0)
    for rankdir in ("TB", "LR"):
        for lang in ("en", "zh"):
            dot = export_graphviz(model, rankdir=rankdir, lang=lang)
            assert "headlabel" not in dot and "taillabel" not in dot
            assert len(_labels(dot)) == 2


# -- colours -----------------------------------------------------------------------------

def _lab(hex_colour):
    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    c = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ c / np.array([0.95047, 1, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _luminance(hex_colour):
    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    c = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(c @ [0.2126, 0.7152, 0.0722])


@pytest.fixture(scope="module")
def twenty():
    """A tree with one pure leaf for each of 20 classes."""
    X = np.arange(200, dtype=float)[:, None]
    y = np.repeat([f"c{i:02d}" for i in range(20)], 10)
    return DecisionTreeClassifier().fit(X, y)


def test_twenty_classes_get_twenty_distinct_fills(twenty):
    tree = twenty.tree_
    fills = node_fills(twenty)
    leaves = [i for i in range(tree.node_count) if not tree.children_of(i)]
    leaf_fills = [fills[i] for i in leaves]
    assert len(leaves) == 20 and len(set(leaf_fills)) == 20
    dot = export_graphviz(twenty)
    assert {f.lower() for f in leaf_fills} <= set(re.findall(r'fillcolor="(#\w+)"', dot))


def test_the_palette_starts_with_okabe_ito_and_stays_distinguishable(twenty):
    assert CLASS_COLOURS[:len(OKABE_ITO)] == OKABE_ITO
    assert len(set(c.lower() for c in CLASS_COLOURS)) == len(CLASS_COLOURS) >= 20
    fills = sorted(set(node_fills(twenty)) - {"#ffffff"})
    labs = [_lab(f) for f in fills]
    closest = min(np.linalg.norm(a - b) for i, a in enumerate(labs) for b in labs[i + 1:])
    # no closer than Okabe & Ito's own closest pair as drawn (9.4)
    assert closest >= 9.0
    # and no grey: white is a tie, grey a cut subtree
    assert all(len({f[1:3], f[3:5], f[5:7]}) > 1 for f in fills)


def test_black_text_stays_readable_on_every_fill(twenty):
    """The text is black (the export's one fontcolor); every fill keeps a
    contrast ratio of at least 7:1 with it (WCAG AAA)."""
    dot = export_graphviz(twenty)
    assert set(re.findall(r'fontcolor="(#\w+)"', dot)) == {"#000000"}
    for fill in node_fills(twenty):
        assert (_luminance(fill) + 0.05) / 0.05 >= 7.0, fill
    for fill in node_fills(twenty, palette=list(CLASS_COLOURS)):
        assert (_luminance(fill) + 0.05) / 0.05 >= 7.0, fill


def test_plotly_class_colours_do_not_repeat_below_twenty():
    assert len({viz.class_colour(i) for i in range(20)}) == 20
