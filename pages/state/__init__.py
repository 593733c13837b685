"""What the app keeps for one session: the interface language, presenter
mode and the step shown (``session``), the view in the URL (``url_state``),
the dataset in use and the Data page's choices (``tables_state``), a tree
opened from a ``.skops`` file (``imported``; its data file's columns and
the check run in a budgeted child, without Streamlit, in ``tree_upload``),
the tree's parameters as the
Grow page's sidebar left them (``parameters``) and the tree they grow, or
the opened one (``current_tree``).  Import each name from the module that
defines it: this package re-exports nothing.
"""
