"""The operator tests (one module per family, as src/webnn_bridge/ops/defs/<family>.py): each test draws its random data
from a generator seeded afresh, so it sees the same data whatever ran before it."""

from __future__ import annotations

import numpy as np
import pytest

from . import _util


@pytest.fixture(autouse=True)
def _fresh_random_data():
    _util.RNG = np.random.default_rng(1234)
