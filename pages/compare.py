"""Compare page: two to four trees on the same data and split, grown in lockstep.

The words are in dtree.views.comparetext, the choice of trees that part and
the numbers in dtree.views.compare; this page reads the widgets and draws."""

import streamlit as st

from dtree.views.vocabulary import text
from dtree.views import compare
from dtree.views import comparetext as words
from dtree.tables.io import BUILTIN
from dtree.tables.prepare import setup_from_choices
from dtree.tables.dataset import default_target
from dtree.views.links import md
from pages.panels import compare_panels as panels
from pages.panels import resamples_panel, tree_view
from pages.runtime.caches import fitted, prepared
from pages.state.parameters import chosen_parameters
from pages.state.session import lang, presenting, require_frame, said, tr
from pages.state.tables_state import (builtin_table, current_setup, current_table, identifiers,
                                      inferred_types, table_title, use_table)

state = st.session_state
require_frame()

table = current_table()
setup = current_setup(table)
task = setup.task
classification = task == "classification"
present = presenting()
if not present:  # (presenter mode: titles and explanations fold away)
    st.title(tr("Compare trees", "比较决策树"))
prep, error = prepared(table, setup)
if error:
    st.error(md(said(error)), icon=":material/error:")
    st.page_link("pages/data.py", label=tr("Choose the data", "选择数据"),
                 icon=":material/table:")
    st.stop()
base_preset, base_criterion, base_params = chosen_parameters(task)
poisson_ok = compare.poisson_allowed(task, prep.y_train)
intro = None if present else st.container()  # (said once the view is known)


# -- the configurations -------------------------------------------------------------
# The default columns are the first pair of compare.CLASSIFICATION_PAIRS /
# REGRESSION_PAIRS whose trees part on this data (found by fitting them), so
# that the page opens on trees that differ, with where they part marked.
def parting(table_, setup_, prep_, params, adjustments=compare.ADJUSTMENTS):
    """compare.find_parting on a dataset, remembered for the session."""
    pairs, adjustments = compare.search_scope(
        compare.pairs_for(setup_.task, poisson_ok), adjustments, prep_.X_train.size)
    memo = state.setdefault("_cmp_parting", {})
    key = (table_.key, setup_, tuple(sorted(params.items())), pairs,
           tuple(tuple(sorted(a.items())) for a in adjustments))
    if key not in memo:
        def fit(preset, criterion, grown):
            result, error = fitted(table_, setup_, prep_, preset, criterion, grown)
            return None if error else result.model
        if len(memo) > 32:
            memo.clear()
        memo[key] = compare.find_parting(pairs, fit, params, adjustments)
    return memo[key]


choice = parting(table, setup, prep, base_params)
default_pair = choice.configs if choice is not None else compare.pairs_for(task, poisson_ok)[0]
default_changes = choice.changes if choice is not None else {}
MORE = compare.more_configs(task, poisson_ok)


# Each tree's compare.Profile is kept with its fit (Fit.profile): trained on
# the rows its fit used (ID3 leaves out rows with a missing value), tested on
# the same test rows as every other tree, and dropped with the fit when the
# size-bounded fit cache (pages.runtime.caches.MODELS) drops it.


# One bar above the trees: the step buttons, then (presenter mode) how many
# trees and each tree's parameters; filled in below, once the trees are grown.
bar = st.container(horizontal=True, vertical_alignment="center", key="stepbar_cmp",
                   gap="small")
nav = bar.container(horizontal=True, vertical_alignment="center", gap="small", width="content")
knobs = bar.container(horizontal=True, vertical_alignment="center", gap="small",
                      width="content")
top = knobs if present else st.container(horizontal=True, gap="large")
mode = panels.mode_switch(top, present)  # trees of different settings, or resamples
n_configs = top.segmented_control(
    tr("Trees to compare", "比较的树的数量"), [2, 3, 4], default=2, key="cmp_n",
    bind="query-params", required=True,
    label_visibility="collapsed" if present else "visible")
n_configs = int(n_configs or 2)
per_row = n_configs  # (presenter mode: compare.presenter_layout lays the trees out)
if n_configs > 2 and not present:
    if int(state.get("cmp_row") or n_configs) > n_configs:
        state.pop("cmp_row", None)
    # two trees a row by default, so that they can be read (on a projector too)
    per_row = int(top.segmented_control(
        tr("Trees per row", "每行的树"), list(range(2, n_configs + 1)), default=2,
        key="cmp_row", bind="query-params", required=True,
        help=text(words.TEXTS, "per_row_help", lang())) or n_configs)
places = narration = None  # presenter mode: each tree's place, its settings in its heading
if present:
    tree_view.view_buttons(knobs, present)  # W: the whole trees or folded; D: details
    narration = st.container(key="narration")  # (filled below)
    places = panels.presenter_cells(n_configs)
if intro is not None:
    intro.markdown(words.intro(table.title, len(prep.y_train), len(prep.y_test), md, lang())
                   if mode == "settings" else text(words.RESAMPLE_TEXTS, "intro", lang()))
if mode == "resamples":  # (no st.stop: the page's settings are written to the link after it)
    resamples_panel.view(table, setup, prep, (base_preset, base_criterion, base_params),
                         (nav, knobs if present else st.container(), narration, places),
                         n_configs, per_row)
else:  # trees of different settings
    if present:
        heads = [head.container(key=f"icon_only_cmp_pop{i + 1}", width="content")
                 for i, head in enumerate(places[1])]
    else:
        heads = st.columns(n_configs, gap="medium")
    configs = []  # (column, label, profile or None, key)
    for i, col in enumerate(heads):
        with col:
            title = None if present else st.container()  # (presenter: above the tree)
            with st.popover(tr(f"Tree {i + 1}", f"树 {i + 1}") if present else
                            tr("Parameters", "参数"), icon=":material/tune:",
                            key=f"cmp_pop{i + 1}", width="content" if present else "stretch"):
                preset, criterion, params = panels.column_settings(i, compare.default_config(
                    i, default_pair, default_changes, base_params["growth"], MORE),
                    base_params, task, poisson_ok)
            label = words.config_label(i, preset, criterion, lang())
            if title is not None:
                # constant markup: a colour bar linking the column to its lines in the charts
                title.html('<div style="height:8px;border-radius:4px;'
                           f'background:{compare.CONFIG_COLOURS[i]}"></div>')
                title.markdown(f"##### {md(label)}")
                title.caption(words.params_caption(params, lang()))
            fit, error = fitted(table, setup, prep, preset, criterion, params)
            if error:
                (places[0][i] if present else st).error(words.cannot_grow(md(said(error)), lang()),
                                                         icon=":material/error:")
                configs.append((i, label, None, None))
                continue
            key = (table.key, setup, preset, criterion, tuple(sorted(params.items())))
            configs.append((i, label, fit.profile, key))
            if fit.prep is not prep and not present:  # ID3 without rows with a missing value
                st.caption(words.id3_rows(len(fit.prep.y_train), len(prep.y_test), lang()))

    ok = [c for c in configs if c[2] is not None]
    if not ok:
        st.stop()
    profiles = [c[2] for c in ok]
    labels = [c[1] for c in ok]


    # -- lockstep ------------------------------------------------------------------------
    step, divergence = panels.lockstep(nav, present, profiles, [c[3] for c in ok])


    def set_columns(configs, params):
        """(on_click) Show ``configs``, every one with ``params``."""
        state.update(compare.column_state(configs, params))


    def use_dataset(title, configs, params):
        """(on_click) Make a built-in dataset the one in use, and show ``configs``."""
        use_table(builtin_table(title))
        set_columns(configs, params)


    def fresh_setup(other):
        """The data choices a dataset starts with (tables_state.current_setup
        once use_table has forgotten the old ones)."""
        types, _ = inferred_types(other.key, other.frame)
        return setup_from_choices(other.frame, {}, default_target=default_target(other),
                                  default_test_size=other.default_test_size,
                                  identifiers=identifiers(other.key, other.frame), types=types)


    def offer_parting_trees():
        """Buttons that make the trees part, each checked by fitting: another pair
        on this data (perhaps grown deeper, or with larger leaves), and another
        built-in dataset on which the first pairs part as they are."""
        found = parting(table, setup, prep, dict(ok[0][3][4]))  # the first tree's parameters
        offers = st.container(horizontal=True)
        if found is not None:
            offers.button(words.pair_offer(found, lang()), key="cmp_try_pair",
                          icon=":material/call_split:", on_click=set_columns,
                          args=(found.configs, found.params))
        for title in BUILTIN:
            if table.key == f"builtin:{title}":
                continue
            other = builtin_table(title)
            other_setup = fresh_setup(other)
            other_prep, error = prepared(other, other_setup)
            there = None if error else parting(other, other_setup, other_prep, base_params,
                                               adjustments=({},))
            if there is not None:
                offers.button(words.data_offer(table_title(other), there, lang()),
                              key="cmp_try_data", icon=":material/dataset:", on_click=use_dataset,
                              args=(title, there.configs, there.params))
                break


    if len(ok) > 1:
        sentence = words.divergence_sentence(divergence, [p.model for p in profiles], labels,
                                             escape=md, lang=lang())
        if present:
            narration.markdown(sentence)
        else:
            st.info(sentence, icon=":material/call_split:")
        if divergence is None:
            offer_parting_trees()
        elif compare.shows_parting(choice, [(c[3][2], c[3][3], c[3][4]) for c in ok]):
            (narration or st).caption(words.shared_changes(default_changes, lang()))


    # -- the trees and the charts -----------------------------------------------------------
    panels.trees(configs, step, divergence, n_configs, per_row, present, places)
    panels.charts(profiles, labels, step, classification, len(prep.y_test))
