"""Reading and preparing the user's tables, in plain Python (no Streamlit).

* ``io``: uploads (CSV, TSV, Excel .xlsx, Parquet) and the built-in datasets;
* ``prepare``: column types, the task, the train/test split and the estimator
  for a table;
* ``dataset``: the dataset in use (``Loaded``): its key for caches, titles in
  English or Chinese, default target, class counts;
* ``choices``: the tree parameters' defaults and rules (the splitter a table
  starts on, where ``hist`` applies), the Data page's feature choice, and the
  names of tasks, criteria and growth orders in English or Chinese.

They use the engine through its public names (those of ``dtree``) only.
"""
