"""Shared pytest configuration for the whole suite.

Hypothesis profiles: "dev" (default, 100 examples) and "ci" (50 examples),
chosen automatically when the CI environment variable is set, and "quick"
(20 examples), which ``make test-fast`` asks for. None has a
deadline: timings on shared CI machines are too noisy for one. Override with
`pytest --hypothesis-profile=dev` (or `ci`).
"""


from hypothesis import HealthCheck, settings

from tests.helpers.installed import running_in_ci

settings.register_profile(
    "dev",
    max_examples=100,
    deadline=None,
)
settings.register_profile(
    "quick",  # make test-fast: the properties' shape in a few examples each
    max_examples=20,
    deadline=None,
)
settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)


settings.load_profile("ci" if running_in_ci() else "dev")
