"""Weka's ARFF files uploaded on the Data page, under AppTest: the relation is
the title, nominal values keep their declared order, refusals name the line
in both languages and leave the session working, hostile names stay
escaped, and the app's J48 tree on Weka's own example files is the tree
Weka's J48 grows (the oracle: Weka itself, ``make weka``)."""

import re
import threading

import pytest

from tests.helpers.apptest import DATA, GROW, assert_clean, dot, n_nodes, start, upload
from tests.helpers.upload_corpus import CORPUS
from tests.helpers.weka import (EXAMPLES, compare, count_leaves, dtree_tree, j48_text,
                                parse_tree, read_arff_meta, require_weka)


DEEPEST = 64  # the sidebar's largest max_depth


def upload_arff(at, name, data):
    upload(at, name, data)
    errors = [e.value for e in at.error]
    assert not errors, errors
    return at


@pytest.fixture
def fitted(monkeypatch):
    """The estimators the app builds for its fits, in order (from an empty
    fit cache, which another test may have filled with the same tree)."""
    from pages.runtime import caches

    caches.MODELS.clear()
    made, estimator_for = [], caches.estimator_for

    def recorded(*args, **kwargs):
        est = estimator_for(*args, **kwargs)
        if threading.current_thread().name != "dtree-prefetch":  # (the Prune page's trees)
            made.append(est)
        return est
    monkeypatch.setattr(caches, "estimator_for", recorded)
    return made


def j48_on_every_row(at, fitted):
    """Every row in training, J48, depth 64 at most, the whole tree grown: the
    tree the Grow page grew."""
    at.slider(key="test_size").set_value(0.0).run()
    at.switch_page(GROW).run()
    at.selectbox(key="preset").set_value("J48").run()
    # the deepest the sidebar allows: J48 has no depth limit, and these trees
    # are far shallower (AppTest cannot empty a number input)
    at.number_input(key="max_depth").set_value(DEEPEST).run()
    at.button(key="grow_all").click().run()
    assert_clean(at)
    grown = [est for est in fitted if est.algorithm == "j48" and est.max_depth == DEEPEST]
    assert len(grown) == 1, [(e.algorithm, e.max_depth) for e in fitted]
    assert grown[0].get_depth() < DEEPEST
    return grown[0]


# Weka's examples on which J48 never decides a leaf's class by a tie between
# classes (the app lists classes in sorted order, Weka in declared order:
# docs/app.md); together: nominal and numeric attributes, missing values,
# declared values that never occur.
MATCHING = ["weather.nominal", "contact-lenses", "labor", "vote", "breast-cancer", "iris",
            "diabetes"]


@pytest.mark.weka
@pytest.mark.parametrize("name", MATCHING)
def test_the_apps_j48_tree_on_a_weka_example_is_wekas(name, fitted):
    require_weka()
    path = EXAMPLES / f"{name}.arff"
    at = start(DATA)
    upload_arff(at, path.name, path.read_bytes())
    model = j48_on_every_row(at, fitted)
    relation, attrs, _ = read_arff_meta(path)
    theirs = parse_tree(j48_text(path, "-U", "-M", "2"), [a for a, _ in attrs[:-1]])
    compare(dtree_tree(model), theirs)
    assert model.get_n_leaves() == count_leaves(theirs) > 1
    assert n_nodes(dot(at)) == model.tree_.node_count


@pytest.mark.weka
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_weather_opens_with_its_relation_and_declared_branches(lang, fitted):
    require_weka(data_only=True)
    path = EXAMPLES / "weather.nominal.arff"
    at = start(DATA)
    if lang == "zh":
        at.session_state["lang"] = "zh"
        at.run()
    upload_arff(at, path.name, path.read_bytes())
    text = " ".join(m.value for m in at.markdown)
    assert "weather.symbolic" in text.replace("\\", "")
    captions = " ".join(c.value for c in at.caption)
    assert ("Weka ARFF 文件" if lang == "zh" else "Read as Weka ARFF") in captions
    assert at.selectbox(key="target").value == "play"
    assert at.multiselect(key="categorical").value == ["outlook", "temperature", "humidity",
                                                       "windy"]
    j48_on_every_row(at, fitted)
    spec = dot(at)
    # the root's branches in outlook's declared order: sunny, overcast, rainy
    edges = re.findall(r'^0 -> \d+ \[label="([^"]+)"', spec, flags=re.M)
    assert edges == ["sunny", "overcast", "rainy"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refused_arff_names_its_line_and_the_session_goes_on(lang):
    at = start(DATA)
    if lang == "zh":
        at.session_state["lang"] = "zh"
        at.run()
    upload(at, "undeclared.arff", CORPUS["undeclared.arff"]())
    errors = " ".join(e.value for e in at.error)
    if lang == "zh":
        assert "无法使用" in errors and "第 7 行" in errors and "仍在使用" in errors
    else:
        assert "could not be used" in errors and "Line 7" in errors and "Still using" in errors
    assert at.session_state["table"].key == "builtin:Iris"
    upload_arff(at, "weather.arff", CORPUS["weather.arff"]())
    assert at.session_state["table"].title.startswith("weather, hostile")
    at.switch_page(GROW).run()
    at.button(key="grow_all").click().run()
    assert_clean(at)
    assert n_nodes(dot(at)) > 1


def test_hostile_arff_names_are_escaped_everywhere():
    at = start(DATA)
    upload_arff(at, "hostile.arff", CORPUS["hostile.arff"]())
    at.switch_page(GROW).run()
    at.selectbox(key="preset").set_value("C4.5").run()
    at.button(key="grow_all").click().run()
    assert_clean(at)
    spec = dot(at)
    assert 'label="pwn' not in spec
    for line in spec.splitlines():
        assert not re.search(r"label=<", line)
    for el in list(at.markdown) + list(at.caption):
        assert "<script>" not in el.value
    at.switch_page(DATA).run()
    assert_clean(at)
    assert all("<script>" not in m.value for m in at.markdown)
