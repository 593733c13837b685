"""The figures and explanations the app shows, in plain Python (no Streamlit).

Each module reads a fitted tree through the engine's public names (those of
``dtree``) only, never its private modules, so that any tree the engine can
hold (grown here or opened from scikit-learn) can be shown:

* ``explain``: formulas, per-threshold gains, scores and regions;
* ``viz``: DOT and Plotly figures of a tree, its splits and its regions;
* ``compare``: matching nodes across trees and comparing them;
* ``orders``: depth-first, breadth-first and best-first growth side by side;
* ``prediction``: one prediction's path and the feature importances;
* ``predictiontext``: the Prediction and Importances tabs' sample values,
  tables and words;
* ``narration``: the Grow page's sentences (each step, stop reasons, captions);
* ``inspector``: the Grow page's node inspector (titles, formulas, candidate
  tables, gain charts);
* ``nodepics``: a node's training rows against its split feature, and the
  confusion matrix of the tree at a step;
* ``pruneview``: the pruning sequences, curves and trees;
* ``learn``: the worked examples of the Learn page;
* ``datatext``: the Data page's sentences and shown tables;
* ``downloads``: the files the app offers for download (DOT, SVG, PNG, text,
  the growth as JSON).
"""
