"""Fixtures shared by the app's tests: the export panel's download buttons
(``files``, defined in tests/helpers/export_files.py) for the Export and
.skops tests."""

from tests.helpers.export_files import files  # noqa: F401  (a fixture, found by pytest here)
