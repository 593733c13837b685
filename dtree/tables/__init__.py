"""Reading and preparing the user's tables, in plain Python (no Streamlit).

* ``io``: uploads (CSV, TSV, Excel .xlsx, Parquet) and the built-in datasets;
* ``prepare``: column types, the task, the train/test split and the estimator
  for a table.

They use the engine through its public names (those of ``dtree``) only.
"""
