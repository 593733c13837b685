"""The Compare page's resamples view (pages/compare.py calls :func:`view`):
the Grow page's tree grown again on resamples of its training rows, with
its controls, the trees in lockstep beside the tree on all rows, and the
charts of how often each split wins and how the held-out score spreads.

Only widgets and drawing: the numbers are in dtree.views.instability, the
words in dtree.views.comparetext; the trees are grown once per setting in
pages.runtime.caches (:func:`resampled`), so stepping grows nothing.  The
settings are kept in the link by pages/state/url_state.py (``cmp_resamples``,
``cmp_method``, ``cmp_drop``, ``cmp_rseed``, ``cmp_rchart``)."""

from functools import partial

import streamlit as st

from dtree.views import instability
from dtree.views import comparetext as words
from dtree.views.links import md
from dtree.views.vocabulary import text
from pages.panels import compare_panels as panels
from pages.runtime.caches import resampled
from pages.state.session import lang, said, tr

#: The settings' keys and their values before the user changes them.
DEFAULTS = {"cmp_resamples": 20, "cmp_method": "bootstrap", "cmp_drop": 20, "cmp_rseed": 0,
            "cmp_rchart": "root"}


def _controls(where):
    """The draw's widgets; returns (n_resamples, method, drop share, seed)."""
    state = st.session_state
    for key, value in DEFAULTS.items():
        state.setdefault(key, value)
    row = where.container(horizontal=True, gap="medium", vertical_alignment="bottom")
    n = row.number_input(tr("Resamples", "重抽样次数"), 1, 50, key="cmp_resamples", persist_state="session",
                         help=text(words.RESAMPLE_TEXTS, "n_help", lang()), width=150)
    method = row.segmented_control(
        tr("Resampling", "重抽样方式"), list(words.METHODS), key="cmp_method", persist_state="session", required=True,
        format_func=partial(words.method_name, lang=lang()),
        help=text(words.RESAMPLE_TEXTS, "method_help", lang())) or "bootstrap"
    share = row.slider(tr("Share dropped", "删去的比例"), 5, 50, key="cmp_drop", persist_state="session", step=5,
                       format="%d%%", disabled=method != "drop", width=200,
                       help=text(words.RESAMPLE_TEXTS, "share_help", lang()))
    seed = row.number_input(tr("Seed", "随机种子"), 0, 2**31 - 1, key="cmp_rseed", persist_state="session", width=150,
                            help=text(words.RESAMPLE_TEXTS, "seed_help", lang()))
    return int(n or 1), method, int(share) / 100, int(seed or 0)


def view(table, setup, prep, base, places, n_trees, per_row):
    """The view: ``base`` is the Grow page's (preset, criterion, params);
    ``places`` the page's (step bar, settings' place, presenter narration or
    None, presenter cells or None); ``n_trees`` trees are drawn, the tree
    on all rows and ``n_trees - 1`` resampled ones."""
    nav, knobs, narration, cells = places
    present = narration is not None
    if present:
        with knobs.popover(tr("Resamples", "重抽样"), icon=":material/shuffle:",
                           key="cmp_draw"):
            draw = _controls(st)
    else:
        draw = _controls(knobs)
    preset, criterion, params = base
    found, error = resampled(table, setup, prep, preset, criterion, params, draw)
    if error:
        st.error(words.cannot_grow(md(said(error)), lang()), icon=":material/error:")
        return
    n, method, share, seed = draw
    models = found.models
    shown = instability.shown_resamples(found.full.model, models, n_trees - 1)
    profiles = [found.full.profile] + [found.profile(i) for i in shown]
    labels = [words.all_rows_label(lang())] + [words.resample_label(i, lang()) for i in shown]
    key = (table.key, setup, preset, criterion, tuple(sorted(params.items())), draw)
    step, divergence = panels.lockstep(nav, present, profiles,
                                       [(key, "all")] + [(key, i) for i in shown])
    n_same = sum(d is None for d in found.agreement)
    sentence = words.instability_sentence(instability.root_features(models), n_same, n,
                                          escape=md, lang=lang())
    if present:
        narration.markdown(sentence)
    else:
        st.caption(words.draw_caption(n, method, share, seed, len(found.X_train), lang()))
        st.info(sentence, icon=":material/shuffle:")
    configs = [(i, label, profile, None) for i, (label, profile) in
               enumerate(zip(labels, profiles))]
    panels.trees(configs, step, divergence, len(configs), min(per_row, len(configs)), present,
                 cells, labelled=True)
    if not present:
        st.caption(text(words.RESAMPLE_TEXTS, "trees", lang()))
    _charts(found, profiles[0])


def _charts(found, full_profile):
    """The chosen chart or table of the resamples (``cmp_rchart``)."""
    names = {c: words.resample_chart_name(c, lang()) for c in words.RESAMPLE_CHARTS}
    chart = st.segmented_control(tr("Chart", "图表"), list(names), key="cmp_rchart", persist_state="session",
                                 format_func=names.get, required=True) or "root"
    models = found.models
    scores, where = found.held_out
    metric = words.metric_name(hasattr(found.full.model, "classes_"), lang())
    if chart == "root":
        table = instability.root_splits(models, found.X_train, lang())
        st.plotly_chart(instability.root_split_figure(table, len(models), lang()),
                        key="cmp_root_fig")
        st.caption(text(words.RESAMPLE_TEXTS, "root", lang()))
        st.dataframe(words.root_table(table, lang()), hide_index=True)
    elif chart == "first":
        st.caption(text(words.RESAMPLE_TEXTS, "first", lang()))
        st.dataframe(words.first_level_table(instability.first_level(models, lang()), lang()),
                     hide_index=True)
    elif chart == "scores":
        _, _, test = full_profile.step_scores
        full_score = float(test[-1]) if where == "test" else None
        st.markdown(words.spread_sentence(instability.spread(scores), full_score, metric,
                                          where, lang()))
        st.plotly_chart(instability.score_figure(scores, full_score, metric, where, lang()),
                        key="cmp_spread_fig")
    else:
        st.dataframe(words.resample_rows(found.result, models, found.agreement, scores, metric,
                                         partial(instability.split_parts, lang=lang()),
                                         lang()), hide_index=True)
