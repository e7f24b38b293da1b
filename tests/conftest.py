"""Settings and fixtures every test file shares."""

from pathlib import Path

import pytest
from browse_project import copy_example
from hypothesis import settings

# Hypothesis's default deadline fails an example that takes over 200 ms of wall time: a timing
# assertion, and the test run shares its cores (parallel workers, the subprocesses tests start).
settings.register_profile("catdoc", deadline=None)
settings.load_profile("catdoc")


@pytest.fixture
def example_copy(tmp_path: Path) -> Path:
    """A fresh copy of examples/traceability at `tmp_path/traceability`, without its cache (so
    tests never share an index), for a test that edits the project or writes into it."""
    return copy_example("traceability", tmp_path / "traceability")
