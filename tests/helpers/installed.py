"""What to do when a tool an oracle needs (Graphviz's dot, numba, Weka,
Chromium) is not installed: skip on a developer's machine, fail in CI,
which installs every one of them (``make test``)."""

import os

import pytest


def running_in_ci() -> bool:
    """True when the CI environment variable is set to something truthy."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def needs(available: bool, what: str):
    """A mark for a test that needs ``what``: skipped where it is missing,
    except in CI, where the test runs (and fails for the missing tool)."""
    return pytest.mark.skipif(not available and not running_in_ci(),
                              reason=f"{what} is not installed")


def require(available: bool, what: str) -> None:
    """Inside a test: skip when ``what`` is missing, or fail in CI."""
    if available:
        return
    if running_in_ci():
        pytest.fail(f"{what} is not installed, and CI installs it (make test)")
    pytest.skip(f"{what} is not installed")
