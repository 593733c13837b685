"""A tiny app for tests: the current tree of this session, kept in its state
(so that a test can compare the Fit objects of two sessions)."""

import streamlit as st

from pages.state.current_tree import current_fit

fit, error = current_fit()
st.session_state["fit"] = fit
st.write("fitted" if fit is not None else error)
