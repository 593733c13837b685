"""The repository's own rules: the import layers, no import circles, short app files, and the benchmark page writer."""
