"""The engine: estimators, criteria, growth, pruning, export and opening scikit-learn trees, checked against scikit-learn, Weka, textbooks and naive references."""
