"""The Grow page's inspector with J48 chosen: the MDL penalty, the known
fraction and the unknown branch, and the minimum-objects stop reason, with
the node's numbers, in English and Chinese."""

import math
import re

import pytest

from tests.helpers.apptest import DATA, GROW, assert_clean, start
from tests.helpers.latex_text import plain


def j48_penguins(lang="en"):
    at = start(DATA)
    if lang == "zh":
        at.session_state["lang"] = "zh"
    at.selectbox(key="builtin").set_value("Penguins").run()
    at.switch_page(GROW).run()
    at.selectbox(key="preset").set_value("J48").run()
    at.button(key="next").click().run()
    assert_clean(at)
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_root_shows_the_mdl_penalty_and_the_unknown_branch(lang):
    at = j48_penguins(lang)
    latex = [plain(el.value) for el in at.latex]
    mdl = next(v for v in latex if v.startswith("g'(D, A)"))
    m = re.search(r"= (?P<before>[\d.]+) - \\frac\{\\log_2 (?P<c>\d+)\}\{(?P<w>[\d.]+)\} = "
                  r"[\d.]+ - (?P<pen>[\d.]+) = (?P<after>[\d.]+)$", mdl)
    assert m, mdl
    c, w = int(m["c"]), float(m["w"])
    assert float(m["pen"]) == pytest.approx(math.log2(c) / w, abs=5e-4)
    assert float(m["after"]) == pytest.approx(float(m["before"]) - math.log2(c) / w, abs=1e-3)
    # the split information has the unknown rows as one more branch
    info = next(v for v in latex if v.startswith("H_A(D)"))
    u = re.search(r"- \\frac\{(?P<u>[\d.]+)\}\{(?P<w>[\d.]+)\}\\log_2", info)
    assert u, info
    term = -float(u["u"]) / float(u["w"]) * math.log2(float(u["u"]) / float(u["w"]))
    assert f"+ {term:.3f} = " in info
    assert any(v.startswith(r"\rho = \frac{|\tilde D|}{|D|}") for v in latex)
    # the candidate table has J48's columns, the chosen row's penalty as in the formula
    table = next(t.value for t in at.table if t.value.shape[1] > 8)
    penalty = "MDL 惩罚" if lang == "zh" else "MDL penalty"
    unknown = "分裂信息中的未知分支项" if lang == "zh" else "unknown term of split info"
    assert penalty in table.columns and unknown in table.columns
    assert float(table[penalty].iloc[0]) == pytest.approx(math.log2(c) / w, abs=5e-5)
    assert float(table[unknown].iloc[0]) == pytest.approx(term, abs=5e-5)
    captions = " ".join(el.value for el in at.caption)
    assert ("J48 的 MDL 惩罚" if lang == "zh" else "J48's MDL penalty") in captions


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_light_leaf_says_it_stops_for_min_objects(lang):
    at = j48_penguins(lang)
    at.button(key="grow_all").click().run()
    found = False
    for node in range(11):
        at.selectbox(key="inspect_select").set_value(node).run()
        assert_clean(at)
        latex = [el.value.strip("$\n") for el in at.latex]
        rule = [v for v in latex if v.startswith("|D| = ")]
        if not rule:
            continue
        found = True
        w = float(re.match(r"\|D\| = ([\d.]+) < 2M = 2 \\times 2 = 4$", rule[0])[1])
        assert w < 4
        text = " ".join(el.value for el in at.markdown)
        assert ("少于 2 个分支的样本数不小于 min\\_objects" if lang == "zh"
                else "fewer than 2 branches with \\>= min\\_objects rows") in text
    assert found
