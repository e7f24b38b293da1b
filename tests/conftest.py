"""Settings every test file shares."""

from hypothesis import settings

# Hypothesis's default deadline fails an example that takes over 200 ms of wall time: a timing
# assertion, and the test run shares its cores (parallel workers, the subprocesses tests start).
settings.register_profile("catdoc", deadline=None)
settings.load_profile("catdoc")
