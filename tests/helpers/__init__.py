"""What the tests share: the oracles (scikit-learn's rules, Weka, naive references), tree comparison, the hostile .skops corpus and the small apps AppTest drives."""
