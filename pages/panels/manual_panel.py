"""The Grow page's manual mode: at the node about to split, the user picks
the feature and the threshold (or the grouping of categories) instead of
the algorithm's choice, and the tree is regrown with those splits forced.

The stepping bar's *Choose the split* popover (M) lists the features the
algorithm evaluated at the node, each with its best number, and the splits
of the feature picked, each with its own; it shows the pick's number next
to the algorithm's best and makes the split (:func:`apply`).  What the
choices become (the engine's ``forced_splits``, LightGBM's format), the
lists and the words are built by :mod:`dtree.views.manual`.

Session keys: ``forced`` (the forced splits in use, compact JSON; in the
URL), ``forced_table`` (the dataset they were chosen on), ``manual`` (the
popover), ``manual_feature`` and ``manual_split`` (its lists, with
``manual_split_of``, the node and feature the split list was made for),
``manual_apply``, ``manual_reset`` (in the bar, or in presenter mode in the
popover, so that the bar stays one row) and ``manual_json`` (its buttons).
"""

import json

import streamlit as st

from dtree.views import manual
from dtree.views.links import md
from dtree.views.manual import words
from pages.runtime.caches import fitted
from pages.state import imported
from pages.state.session import lang, presenting, said, step_button
from pages.state.tables_state import current_table

state = st.session_state


def forget() -> None:
    """Drop the splits chosen by hand."""
    state.pop("forced", None)
    state.pop("forced_table", None)


def reset() -> None:
    """(on_click) Back to the algorithm's tree, the chooser closed."""
    forget()
    state["manual"] = False


def fitted_by_hand(table, setup, prep, preset, criterion, params):
    """:func:`pages.runtime.caches.fitted`, with the splits chosen by hand
    when there are some for ``table``: they are then added to ``params``
    (``forced_splits``, so that what is keyed on the parameters follows
    them).  Splits the engine refuses for this data and these settings are
    dropped, with a warning saying why, and the algorithm's tree is grown."""
    spec = state.get("forced")
    if spec and state.setdefault("forced_table", table.key) != table.key:
        st.warning(words("other_data", lang()), icon=":material/warning:")
        forget()
        spec = None
    if spec:
        fit, error = fitted(table, setup, prep, preset, criterion,
                            {**params, "forced_splits": spec})
        if error is None:
            params["forced_splits"] = spec
            return fit, None
        st.warning(words("dropped", lang(), why=md(said(error))), icon=":material/warning:")
        forget()
    return fitted(table, setup, prep, preset, criterion, params)


def manual_button(bar, compact, fit, step) -> None:
    """The stepping bar's *Choose the split* popover and, while splits
    chosen by hand are in use, its *Back to the algorithm's tree* button."""
    if imported.current() is not None:
        return  # (a tree opened from scikit-learn is shown as it was fitted)
    in_use = getattr(fit.model, "forced_splits", None)
    if state.get("forced") != in_use:
        st.rerun()  # (a choice made in this fragment: the whole page regrows)
    label = words("button", lang())
    where = bar.container(key="icon_only_manual", width="content") if compact else bar
    popover = where.popover(label, icon=":material/pan_tool:", key="manual",
                            on_change="rerun", help=label if compact else None)
    if popover.open:
        with popover, st.container(width=620, key="manual_box"):
            chooser(fit, step)
    if in_use and not compact:  # (presenter mode: in the chooser, so the bar stays one row)
        step_button(bar, words("reset", lang()), "manual_reset", ":material/undo:", compact,
                    on_click=reset)


def chooser(fit, step) -> None:
    """The popover's content: the node, the two lists, the numbers, the
    buttons."""
    model, crit, lg = fit.model, fit.criterion, lang()
    in_use = getattr(model, "forced_splits", None)
    if in_use:
        st.caption(words("in_use", lg, n=manual.count_splits(json.loads(in_use))))
        if presenting():
            st.button(words("reset", lg), key="manual_reset", icon=":material/undo:",
                      on_click=reset)
    if getattr(model, "splitter", "best") == "hist" or getattr(model, "algorithm", "") == "j48":
        st.info(words("not_here", lg))
        return
    if step >= fit.n_steps:
        st.info(words("done", lg))
        download(fit)
        return
    s = model.steps_[step]
    order = manual.feature_order(s)
    st.markdown(manual.node_heading(s, lg))
    if not order:
        st.info(words("none", lg))
        return
    rows = dict(order)
    names = list(model.feature_names_)
    if state.get("manual_feature") not in rows:
        state["manual_feature"] = order[0][0]
    feature = st.selectbox(words("feature", lg), list(rows), key="manual_feature",
                           format_func=lambda f: manual.feature_label(names[f], rows[f], crit, lg))
    offer = fit.view(("manual_options", step, feature), lambda: manual.node_options(
        model, fit.prep.X_train, fit.y_codes, fit.routes_train, s, feature,
        fit.X_train_encoded))
    options = offer.options
    if not options:
        st.info(words("none", lg))
        return
    scores = [o.score(crit) for o in options]
    best_here = max(range(len(options)), key=lambda i: (scores[i] == scores[i], scores[i]))
    if state.get("manual_split_of") != (step, feature, len(options)):
        state["manual_split_of"] = (step, feature, len(options))
        state["manual_split"] = best_here
    if "branches" in options[0].split:
        pick = 0
        st.caption(manual.option_label(options[0], crit, lg))
    else:
        numeric = "threshold" in options[0].split
        pick = st.selectbox(words("threshold" if numeric else "groups", lg),
                            range(len(options)), key="manual_split",
                            format_func=lambda i: manual.option_label(options[i], crit, lg))
    st.markdown(manual.comparison(options[pick], s, crit, lg))
    buttons = st.container(horizontal=True, gap="small")
    buttons.button(words("apply", lg), key="manual_apply", type="primary",
                   icon=":material/call_split:", on_click=apply,
                   args=(fit, step, options[pick].split))
    download(fit, buttons)
    if not presenting():  # (the window's height is the tree's and the lists')
        st.caption(words("how", lg))
    if len(options) < offer.n_all:
        st.caption(words("more", lg, shown=len(options), total=offer.n_all))
    if offer.left_out:
        st.caption(manual.left_out_caption(offer.left_out, getattr(model, "missing_", "") == "c4.5",
                                           lg))


def download(fit, where=st) -> None:
    """The forced splits in use, as a JSON file (LightGBM's format)."""
    spec = getattr(fit.model, "forced_splits", None)
    if spec:
        where.download_button(words("download", lang()), manual.pretty_text(spec),
                           file_name="forced_splits.json", mime="application/json",
                           key="manual_json", icon=":material/download:", on_click="ignore")


def apply(fit, step, split) -> None:
    """(on_click) Keep the tree's first ``step`` splits and split the next
    node by ``split``; show the tree with that split made."""
    try:
        spec = manual.choice_spec(fit.model, step, split, fit.X_train_encoded)
    except manual.Unwritable:
        st.toast(words("unwritable", lang()), icon=":material/warning:")
        return
    state["forced"] = manual.spec_text(spec)
    state["forced_table"] = current_table().key
    # the forced splits come first: after them, the tree as it was plus the choice
    state["step"] = manual.count_splits(spec)
    state["manual"] = False
