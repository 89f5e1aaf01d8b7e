"""Shared test set-up: the ``cli`` fixture and the hypothesis profiles.

``cli(*argv)`` runs ``cudalint ARGV`` in this process and returns (exit status, stdout,
stderr), failing on a traceback; modules that keep a ``run(capsys, *argv)`` helper bind
it to the same function, ``factories.run_cli``.

Hypothesis profiles for the property tests:

- ``ci`` (loaded when the ``CI`` environment variable is set, as ``.ci/run`` runs on a
  clean clone): ``derandomize=True``, so every run of one commit tries the same
  examples and a red CI is reproducible, never a coin toss; no example database (a
  clean clone has none) and no deadline (2 shared cores). Hypothesis >= 6.1xx has a
  built-in ``ci`` profile like this one; it is registered here so that the behaviour
  does not depend on which hypothesis version pip picks.
- ``dev`` (the default elsewhere): random seeds, as hypothesis intends, so that local
  runs keep searching new examples; a failure found there is replayed from
  ``.hypothesis/`` and must be turned into an ``@example`` or explicit test.
- ``deep``: a longer random search, for hunting (``HYPOTHESIS_PROFILE=deep``). A test
  that pins ``max_examples`` in its ``@settings`` keeps it: those take their own
  variable (``CUDALINT_PROOF_EXAMPLES``, ``CUDALINT_FUZZ_EXAMPLES``).

``HYPOTHESIS_PROFILE`` picks a profile explicitly; ``--hypothesis-seed=N`` still pins a
seed for one run.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable

import pytest
from factories import run_cli
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.register_profile(
    "deep",
    deadline=None,
    print_blob=True,
    max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``cli(*argv)``: (exit status, stdout, stderr) of ``cudalint ARGV`` in this process,
    failing on a traceback (``factories.run_cli``; ``isolated=True`` adds ``--isolated``)."""
    return functools.partial(run_cli, capsys)
