"""The tables: reading uploads and built-in datasets, column types, the split and the parameters' rules."""
