"""The Compare page's resamples view under AppTest: a link opens it with its
settings (and a value that does not read is named in a warning), its
controls regrow the trees, stepping moves every drawn tree without growing
any again, the charts agree with the trees grown by dtree.resampled_trees
on the same rows, and it speaks both languages in and out of presenter mode."""

from collections import Counter

import numpy as np
import plotly.io
import pytest
from streamlit.testing.v1 import AppTest

from dtree.views import links
from pages.runtime.caches import MODELS
from pages.state.url_state import URL_STATE
from tests.helpers.apptest import APP

COMPARE = "pages/compare.py"


def opened(query):
    """A session opened on /compare with ``query`` (the link's parameters)."""
    at = AppTest.from_file(APP, default_timeout=180)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(COMPARE).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def dots(at):
    return [c.proto.spec for c in at.get("graphviz_chart")]


def resampled_entries():
    return {k: MODELS.get(k) for k in MODELS.keys() if k[0] == "resampled"}


def test_a_link_opens_the_view_with_its_settings_and_they_go_back_into_the_link():
    query = {"data": "penguins", "cmp_mode": "resamples", "cmp_resamples": "8",
             "cmp_method": "drop", "cmp_drop": "30", "cmp_rseed": "4", "cmp_n": "3",
             "cmp_rchart": "scores"}
    at = opened(query)
    assert not at.warning
    assert at.number_input(key="cmp_resamples").value == 8
    assert at.button_group(key="cmp_method").value == "drop"
    assert at.slider(key="cmp_drop").value == 30 and not at.slider(key="cmp_drop").disabled
    assert at.number_input(key="cmp_rseed").value == 4
    assert len(dots(at)) == 3
    assert any("8 resamples of the" in c.value and "30%" in c.value for c in at.caption)
    assert "over 8 trees" in at.info[0].value
    # the settings are written back into the link as they were read
    written = links.link_params({}, at.session_state, URL_STATE, set(), data="penguins",
                                lang="en")
    for key in ("cmp_mode", "cmp_resamples", "cmp_method", "cmp_drop", "cmp_rseed",
                "cmp_rchart"):
        assert written[key] == [query[key]], key


def test_values_that_do_not_read_are_named_and_the_defaults_used():
    at = opened({"cmp_mode": "resamples", "cmp_resamples": "99", "cmp_method": "jackknife",
                 "cmp_drop": "x", "cmp_rchart": "pie"})
    (warning,) = at.warning
    for key in ("cmp_resamples", "cmp_method", "cmp_drop", "cmp_rchart"):
        assert f"`{key}`" in warning.value
    assert at.number_input(key="cmp_resamples").value == 20
    assert at.button_group(key="cmp_method").value == "bootstrap"
    assert at.slider(key="cmp_drop").disabled  # (bootstrap: no share to drop)
    assert at.button_group(key="cmp_rchart").value == "root"
    bad_mode = opened({"cmp_mode": "wobble"})
    assert "`cmp_mode`" in bad_mode.warning[0].value
    assert bad_mode.button_group(key="cmp_mode").value == "settings"


def test_stepping_moves_every_tree_and_grows_nothing_again():
    at = opened({"data": "wine", "cmp_mode": "resamples", "cmp_resamples": "5"})
    before = dots(at)
    assert len(before) == 2
    grown = resampled_entries()
    at.button(key="cmp_next").click().run()
    at.button(key="cmp_next").click().run()
    after = dots(at)
    assert all(a != b for a, b in zip(before, after))
    now = resampled_entries()
    assert now.keys() == grown.keys() and all(now[k] is grown[k] for k in grown)
    # the slider is the Compare page's shared step
    assert at.slider(key="cmp_step").value == 2


def test_the_charts_agree_with_the_trees_grown():
    at = opened({"data": "wine", "cmp_mode": "resamples", "cmp_resamples": "12",
                 "cmp_rseed": "1"})
    (found,) = [v for k, v in resampled_entries().items() if k[-1] == (12, "bootstrap", 0.2, 1)]
    models = found.models
    fig = plotly.io.from_json(at.get("plotly_chart")[0].proto.spec)
    assert sum(fig.data[0].x) == 12
    names = [str(found.full.model.feature_names_[m.tree_.feature[0]]) for m in models]
    top, count = Counter(names).most_common(1)[0]
    assert f"**{links.md(top)}** in {count}" in at.info[0].value or \
        "All 12 trees" in at.info[0].value
    (table,) = at.dataframe
    assert table.value.iloc[:, 2].sum() == 12
    at.button_group(key="cmp_rchart").set_value("first").run()
    assert not at.exception and len(at.dataframe) == 1
    at.button_group(key="cmp_rchart").set_value("scores").run()
    assert not at.exception
    prep = found.full.base
    accuracy = [float(np.mean(m.predict(prep.X_test) == prep.y_test)) for m in models]
    text = " ".join(m.value for m in at.markdown)
    assert f"**{min(accuracy):.3f}**" in text and f"**{max(accuracy):.3f}**" in text
    at.button_group(key="cmp_rchart").set_value("table").run()
    (rows,) = at.dataframe
    assert list(rows.value["#"]) == list(range(1, 13))
    np.testing.assert_allclose(rows.value["accuracy"], np.round(accuracy, 3))
    distinct = [len(np.unique(r)) for r in found.result.rows]
    assert list(rows.value["distinct rows"]) == distinct


def test_the_controls_regrow_the_trees():
    at = opened({"cmp_mode": "resamples", "cmp_resamples": "4"})
    at.button_group(key="cmp_method").set_value("drop").run()
    at.slider(key="cmp_drop").set_value(40).run()
    at.number_input(key="cmp_rseed").set_value(9).run()
    assert not at.exception
    keys = [k[-1] for k in resampled_entries()]
    assert (4, "drop", 0.4, 9) in keys
    (found,) = [v for k, v in resampled_entries().items() if k[-1] == (4, "drop", 0.4, 9)]
    n = len(found.X_train)
    assert all(len(r) == n - int(np.floor(0.4 * n + 0.5)) for r in found.result.rows)
    at.button_group(key="cmp_mode").set_value("settings").run()
    assert not at.exception
    assert any(m.value.startswith("##### 1 · ") for m in at.markdown)  # the settings' columns


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_presenter_mode_in_both_languages(lang):
    at = opened({"data": "penguins", "cmp_mode": "resamples", "cmp_n": "3",
                 "present": "true", "lang": lang})
    specs = dots(at)
    assert len(specs) == 3 and all("fontsize=20" in d for d in specs)
    heading = [m.value for m in at.markdown if m.value.startswith("**")]
    said = " ".join(m.value for m in at.markdown)
    if lang == "en":
        assert "Root feature over 20 trees" in said or "All 20 trees" in said
        assert any(h.startswith("**All rows** · test accuracy") for h in heading)
        assert any(h.startswith("**Resample ") for h in heading)
    else:
        assert "20 棵树" in said
        assert any(h.startswith("**全部样本** · 测试集准确率") for h in heading)
        assert any(h.startswith("**重抽样 ") for h in heading)
    assert at.number_input(key="cmp_resamples").value == 20  # (in the Resamples popover)
